import type { ModalView } from "@slack/types";
import type { WebClient } from "@slack/web-api";
import { labelledModal } from "../../../views/blocks.js";

/** A modal just opened: its id, and how to replace its view (a form filled after "loading"). */
export interface OpenedModal {
  id?: string;
  update(view: ModalView): Promise<void>;
}

/** Opens a modal on the request's trigger (valid for 3 seconds). */
export type OpenModal = (view: ModalView) => Promise<OpenedModal>;

/**
 * Opens modals on one trigger with the app's client; every view, opened or updated, says it is
 * the sandbox in sandbox mode (once: some build it in). Commands get this as `ctx.openModal`;
 * buttons build it from their click.
 */
export function modalOpener(
  client: Pick<WebClient, "views">,
  triggerId: string,
  sandbox: boolean,
): OpenModal {
  return async (view) => {
    const opened = await client.views.open({
      trigger_id: triggerId,
      view: labelledModal(view, sandbox),
    });
    const id = opened.view?.id;
    return {
      ...(id ? { id } : {}),
      update: async (next) => {
        if (!id) throw new Error("Slack opened the modal without a view id");
        await client.views.update({ view_id: id, view: labelledModal(next, sandbox) });
      },
    };
  };
}
