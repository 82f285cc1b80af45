import { describeRefusal } from "../../../../views/refusals.js";
import { rejectReasonModal } from "../../../../views/rejectModal.js";
import type { Services } from "../../../services.js";
import { tellPrivately } from "../../kit/index.js";
import { approverAction } from "./approverClick.js";

/**
 * Reject: opens the reason modal, which carries where it was opened (the request's message, or
 * the clicker's Home) so the submission is checked against the same place
 * (rejectReasonSubmitted.ts). Nothing is stored until then.
 */
export function rejectButton(services: Services) {
  return approverAction(
    services,
    "reject",
    async ({ record, userId, channel, messageTs, fromHome, triggerId, client }, recorded) => {
      await recorded();
      if (record.status !== "pending") {
        return tellPrivately(
          client,
          services,
          { userId: userId, channelId: channel },
          describeRefusal({ ok: false, reason: "not-pending", id: record.id, record }),
        );
      }
      await client.views.open({
        trigger_id: triggerId,
        view: rejectReasonModal(record, {
          id: record.id,
          channel: channel ?? "",
          ts: messageTs ?? "",
          ...(fromHome ? { home: userId } : {}),
        }),
      });
    },
  );
}
