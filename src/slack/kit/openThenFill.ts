import type { ModalView } from "@slack/types";
import { describeFailure } from "../../../views/failures.js";
import { orderLoadingModal, orderProblemModal } from "../../../views/orderForms.js";
import type { Reply } from "../../../views/reply.js";
import { problemReply } from "../../../views/reply.js";
import type { OpenModal } from "./modals.js";

/**
 * Opens a "loading" modal at once (the trigger id lasts 3 s; the provider may take longer),
 * then replaces it with the form. When the form can't be built, the modal says why.
 */
export async function openThenFill(
  ctx: {
    triggerId?: string;
    /** True when the provider is the sandbox: the modals say so. */
    sandbox: boolean;
    openModal: OpenModal;
    reply(reply: Reply): Promise<void>;
  },
  form: { callbackId: string; title: string; loading: string; usage: string },
  build: () => Promise<ModalView>,
): Promise<void> {
  if (!ctx.triggerId) {
    await ctx.reply(problemReply(form.usage));
    return;
  }
  const sandbox = ctx.sandbox;
  const opened = await ctx.openModal(
    orderLoadingModal(form.callbackId, form.title, form.loading, sandbox),
  );
  if (!opened.id) throw new Error("Slack opened the form without a view id");
  let view: ModalView;
  try {
    view = await build();
  } catch (error) {
    await opened
      .update(orderProblemModal(form.callbackId, form.title, describeFailure(error), sandbox))
      .catch(() => undefined);
    throw error;
  }
  await opened.update(view);
}
