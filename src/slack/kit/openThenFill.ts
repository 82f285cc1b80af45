import type { ModalView } from "@slack/types";
import type { WebClient } from "@slack/web-api";
import { describeFailure } from "../../../views/failures.js";
import { orderLoadingModal, orderProblemModal } from "../../../views/orderForms.js";
import type { Reply } from "../../../views/reply.js";
import { problemReply } from "../../../views/reply.js";

/**
 * Opens a "loading" modal at once (the trigger id lasts 3 s; the provider may take longer),
 * then replaces it with the form. When the form can't be built, the modal says why.
 */
export async function openThenFill(
  ctx: {
    triggerId?: string;
    /** True when the provider is the sandbox: the modals say so. */
    sandbox: boolean;
    client: Pick<WebClient, "views">;
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
  const opened = await ctx.client.views.open({
    trigger_id: ctx.triggerId,
    view: orderLoadingModal(form.callbackId, form.title, form.loading, sandbox),
  });
  const viewId = opened.view?.id;
  if (!viewId) throw new Error("Slack opened the form without a view id");
  let view: ModalView;
  try {
    view = await build();
  } catch (error) {
    await ctx.client.views
      .update({
        view_id: viewId,
        view: orderProblemModal(form.callbackId, form.title, describeFailure(error), sandbox),
      })
      .catch(() => undefined);
    throw error;
  }
  await ctx.client.views.update({ view_id: viewId, view });
}
