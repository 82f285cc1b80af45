import { rejectReasonModal } from "../../../../views/approvals/rejectModal.js";
import { approverAction } from "./approverClick.js";
import type { ApprovalDeps } from "./index.js";

/**
 * Reject: the approver checks alone (nothing is stored), then the reason modal, which carries
 * where it was opened (the request's message, or the clicker's Home) so the submission is
 * checked against the same place (rejectReasonSubmitted.ts).
 */
export function rejectButton(services: ApprovalDeps) {
  return approverAction(services, "reject", async (click) => {
    const { decision, channel, messageTs, triggerId, client } = click;
    const checked = await services.requests.checkDecider(decision);
    if (!checked.ok) return checked;
    await click.ack();
    await client.views.open({
      trigger_id: triggerId,
      view: rejectReasonModal(checked.record, {
        id: checked.record.id,
        channel: channel ?? "",
        ts: messageTs ?? "",
        ...("home" in decision.at ? { home: decision.by } : {}),
      }),
    });
    return checked;
  });
}
