import { withdrawnView, withdrawRefusedText } from "../../../../views/approvals.js";
import type { Reply } from "../../../../views/reply.js";
import { APPROVAL_ID_PATTERN } from "../../../approvals/index.js";
import type { Services } from "../../../services.js";

/**
 * The requester's Withdraw (the button on their confirmation, and anywhere else it is shown:
 * App Home, the request card — one action id, ACTION_WITHDRAW, one listener) and
 * `/connect withdraw <requestId>` (command.ts, withdrawButton.ts): both end here.
 *
 * A withdrawal is the store's `cancel` by the requester (pending → cancelled, the name
 * released, "withdrawn by the requester" in the history), then the lifecycle's follow-up: the
 * thread says so and the approval message loses its buttons, through the ordered notifier like
 * every other update of that message.
 */

export type WithdrawOutcome = { ok: true; reply: Reply } | { ok: false; text: string };

/** Withdraws a request for `userId`, who must be its requester and it must still be waiting. */
export async function withdrawRequest(
  services: Services,
  requestId: string,
  userId: string,
): Promise<WithdrawOutcome> {
  if (!APPROVAL_ID_PATTERN.test(requestId)) {
    return {
      ok: false,
      text: `:no_entry: \`${requestId.replace(/[^a-z0-9_]/gi, "").slice(0, 40)}\` is not a request id: it looks like \`apr_…\` (the id is on your confirmation and on the request).`,
    };
  }
  const withdrawn = await services.orders.withdraw(requestId, userId);
  if (!withdrawn.ok) {
    services.logger.info(
      { audit: "approval", approvalId: requestId, by: userId, action: "withdraw" },
      `withdraw refused: ${withdrawn.reason}`,
    );
    return { ok: false, text: withdrawRefusedText(withdrawn) };
  }
  services.logger.info(
    { audit: "approval", approvalId: requestId, by: userId, action: "withdraw" },
    "withdrawn",
  );
  // Recorded: the thread and the approval message follow (the notifier retries on its own).
  await services.orders
    .followUp(withdrawn.record)
    .catch((error: unknown) =>
      services.logger.error({ err: error, approvalId: requestId }, "withdraw follow-up failed"),
    );
  return { ok: true, reply: withdrawnView(withdrawn.record) };
}
