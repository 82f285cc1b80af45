import type { App } from "@slack/bolt";
import { refusedText } from "../../../../views/approvals/lifecycleRefusals.js";
import {
  BLOCK_REJECT_REASON,
  INPUT_REJECT_REASON,
  REJECT_CHECKS_TOO_SLOW,
  type RejectOrigin,
  readRejectOrigin,
} from "../../../../views/approvals/rejectModal.js";
import { groupMembersVia } from "../../kit/approvers.js";
import { auditApproval, CHECK_BUDGET_MS } from "./approverClick.js";
import type { ApprovalDeps } from "./index.js";

type ViewArgs = Parameters<Parameters<App["view"]>[1]>[0];

/**
 * The reject reason modal's submission: one call of the lifecycle API, which checks everything
 * the button checked again (anyone holding the view id could submit it, with any metadata) and
 * stores the rejection; only then does the modal close. Any refusal stays in the modal as a
 * field error. The checks run within CHECK_BUDGET_MS, as a button's do: Slack drops an answer
 * later than 3 s, and only the answer can keep the modal open with the error in it.
 */
export function rejectReasonSubmitted(services: ApprovalDeps) {
  return async ({ ack, body, view, client }: ViewArgs) => {
    const fieldError = (text: string) =>
      ack({ response_action: "errors", errors: { [BLOCK_REJECT_REASON]: text } });
    const reason =
      view.state.values[BLOCK_REJECT_REASON]?.[INPUT_REJECT_REASON]?.value?.trim() ?? "";
    if (reason === "") return fieldError("Please say why, so the requester can fix it.");
    // A modal opened before the origin was carried holds the bare id: its origin is unknown,
    // so it is refused like any other place.
    const origin: Partial<RejectOrigin> & { id: string } = readRejectOrigin(
      view.private_metadata,
    ) ?? { id: view.private_metadata };
    const userId = body.user.id;
    // Opened from the person's own Home (the modal says whose), or from the request's message.
    const fromHome = origin.home !== undefined && origin.home === userId;
    const decided = await services.requests.reject({
      id: origin.id,
      by: userId,
      reason,
      groups: groupMembersVia(client),
      at: fromHome ? { home: true } : { channel: origin.channel, messageTs: origin.ts },
      checksWithinMs: CHECK_BUDGET_MS,
    });
    if (!decided.ok) {
      if (decided.reason === "not_its_message") {
        auditApproval(
          services,
          decided.record,
          userId,
          "reject",
          "blocked: not its approval message",
        );
      }
      // Before the ack: nothing was recorded; the modal stays open and says why.
      return fieldError(
        decided.reason === "not_found"
          ? "This request no longer exists."
          : decided.reason === "too_slow"
            ? REJECT_CHECKS_TOO_SLOW
            : refusedText(decided),
      );
    }
    // Recorded: now the modal may close; what follows the rejection is told after.
    await ack();
    await decided.followUp;
    auditApproval(services, decided.record, userId, "reject", "rejected");
  };
}
