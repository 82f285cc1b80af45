import type { App } from "@slack/bolt";
import { describeFailure } from "../../../../views/failures.js";
import { describeRefusal } from "../../../../views/refusals.js";
import {
  BLOCK_REJECT_REASON,
  INPUT_REJECT_REASON,
  type RejectOrigin,
  readRejectOrigin,
} from "../../../../views/rejectModal.js";
import { isStorageUnavailable } from "../../../domain/errors.js";
import type { Services } from "../../../services.js";
import { authorizeApprover } from "../../kit/approvers.js";
import { auditApproval, isOwnApprovalMessage, NOT_ITS_MESSAGE } from "./approverClick.js";

type ViewArgs = Parameters<Parameters<App["view"]>[1]>[0];

/**
 * The reject reason modal's submission: every check of the button again (anyone holding the
 * view id could submit it, with any metadata), then the rejection is stored; only then does the
 * modal close. Any refusal stays in the modal as a field error.
 */
export function rejectReasonSubmitted(services: Services) {
  const settings = services.approvals;
  return async ({ ack, body, view, client }: ViewArgs) => {
    const fieldError = (text: string) =>
      ack({ response_action: "errors", errors: { [BLOCK_REJECT_REASON]: text } });
    const reason =
      view.state.values[BLOCK_REJECT_REASON]?.[INPUT_REJECT_REASON]?.value?.trim() ?? "";
    if (reason === "") return fieldError("Please say why, so the requester can fix it.");
    // A modal opened before the origin was carried holds the bare id: its origin is unknown,
    // so it is refused below like any other place.
    const origin: Partial<RejectOrigin> & { id: string } = readRejectOrigin(
      view.private_metadata,
    ) ?? { id: view.private_metadata };
    try {
      const record = await settings.store.get(origin.id).catch((error: unknown) => {
        if (isStorageUnavailable(error)) throw error;
        return null;
      });
      if (!record) return fieldError("This request no longer exists.");
      // Checked again on submit: the modal could be submitted by anyone holding its view id,
      // with any metadata.
      const allowed = await authorizeApprover(client, settings, body.user.id, record);
      if (!allowed.allowed) return fieldError(allowed.message);
      // Opened from the person's own Home (the modal says whose), or from the request's message.
      const fromHome = origin.home !== undefined && origin.home === body.user.id;
      if (
        !fromHome &&
        !isOwnApprovalMessage({ channel: origin.channel, messageTs: origin.ts }, record)
      ) {
        auditApproval(
          services,
          record,
          body.user.id,
          "reject",
          "blocked: not its approval message",
        );
        return fieldError(NOT_ITS_MESSAGE);
      }
      const decided = await services.orders.reject(record.id, body.user.id, reason);
      if (!decided.ok) return fieldError(describeRefusal(decided));
      // Recorded: now the modal may close.
      await ack();
      auditApproval(services, record, body.user.id, "reject", "rejected");
      await services.orders
        .followUp(decided.record)
        .catch((error: unknown) =>
          services.logger.error({ err: error, approvalId: record.id }, "reject follow-up failed"),
        );
    } catch (error) {
      // Before the ack: nothing was recorded; the modal stays open and says why.
      if (isStorageUnavailable(error)) return fieldError(describeFailure(error));
      throw error;
    }
  };
}
