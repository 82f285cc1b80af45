import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from "@slack/bolt";
import { escapeMrkdwn } from "../../../../views/blocks.js";
import { draftNoticeText } from "../../../../views/edge/edgeDrafts.js";
import {
  EDGE_RENAME_BLOCK,
  EDGE_RENAME_INPUT,
  parseEdgeMetadata,
} from "../../../../views/edge/edgeModals.js";
import { checkDraftName, renameBody } from "../../../usecases/edge/drafts.js";
import { typedValue, type Where, whereFormOpened } from "../../kit/index.js";
import type { EdgeDeps } from "./index.js";
import { draftOrGone } from "./sources.js";
import { AFTER_ACK_MS, audit, failureWords, tell } from "./support.js";

type SubmitArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/** A draft's new name submitted: checked, then the draft renamed with the provider. */
export function renameSubmitted(services: EdgeDeps) {
  const { logger } = services;
  return async ({ ack, body, view, client }: SubmitArgs): Promise<void> => {
    const metadata = parseEdgeMetadata(view.private_metadata);
    const name = checkDraftName(
      typedValue(view.state?.values, EDGE_RENAME_BLOCK, EDGE_RENAME_INPUT),
    );
    if (!name.ok || !metadata.draftId) {
      await ack({
        response_action: "errors",
        errors: {
          [EDGE_RENAME_BLOCK]: name.ok
            ? "This form lost its draft; use the button again."
            : name.message,
        },
      });
      return;
    }
    await ack();
    const where: Where = whereFormOpened(body.user.id, metadata);
    const draftId = metadata.draftId;
    try {
      const signal = AbortSignal.timeout(AFTER_ACK_MS);
      const draft = await draftOrGone(services, client, where, draftId, signal);
      if (!draft) return;
      const body = renameBody(draft, name.name);
      if (!body) {
        await tell(client, services, where, {
          text: ":warning: This draft has no speed I can keep, so renaming it here could change it; rename it in the provider's portal.",
        });
        return;
      }
      const renamed = await services.provider.updateDraft(draftId, body, { signal });
      audit(services, "draft renamed", { userId: where.userId, draftId });
      await tell(client, services, where, {
        text: draftNoticeText("renamed", { id: draftId, name: renamed.name ?? name.name }),
      });
    } catch (error) {
      logger.warn({ err: error }, "edge: rename failed");
      await tell(client, services, where, {
        text: `:warning: Couldn't rename the draft: ${escapeMrkdwn(failureWords(error))}`,
      });
    }
  };
}
