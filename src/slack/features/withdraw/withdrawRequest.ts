import { withdrawnView, withdrawRefusedText } from "../../../../views/approvals/approvals.js";
import { refusedText } from "../../../../views/approvals/lifecycleRefusals.js";
import type { Reply } from "../../../../views/reply.js";
import { readRequest } from "../../../orders/readModel.js";
import type { WithdrawDeps } from "./index.js";

/**
 * The requester's Withdraw (the button on their confirmation, and anywhere else it is shown:
 * App Home, the request card — one action id, ACTION_WITHDRAW, one listener) and
 * `/connect withdraw <requestId>` (command.ts, withdrawButton.ts): both end in the lifecycle
 * API's `withdraw` (pending → cancelled by the requester, the name released, "withdrawn by the
 * requester" in the history; then the thread and the approval message follow, through the
 * ordered notifier like every other update of that message).
 */

export type WithdrawOutcome = { ok: true; reply: Reply } | { ok: false; text: string };

/** Withdraws a request for `userId`, who must be its requester and it must still be waiting. */
export async function withdrawRequest(
  services: WithdrawDeps,
  requestId: string,
  userId: string,
): Promise<WithdrawOutcome> {
  const withdrawn = await services.requests.withdraw({ id: requestId, by: userId });
  if (!withdrawn.ok) {
    if (withdrawn.reason === "not_a_request_id") {
      return {
        ok: false,
        text: `:no_entry: \`${requestId.replace(/[^a-z0-9_]/gi, "").slice(0, 40)}\` is not a request id: it looks like \`apr_…\` (the id is on your confirmation and on the request).`,
      };
    }
    // A storage outage is worded where every failure is (the command's or the button's caller).
    if (withdrawn.reason === "storage_unavailable") throw withdrawn.error;
    services.logger.info(
      { audit: "approval", approvalId: requestId, by: userId, action: "withdraw" },
      `withdraw refused: ${withdrawn.reason}`,
    );
    return {
      ok: false,
      text:
        "refusal" in withdrawn && withdrawn.refusal
          ? withdrawRefusedText(withdrawn.refusal)
          : `:no_entry: ${refusedText(withdrawn)}`,
    };
  }
  // The click was acked before (withdrawButton.ts), so the answer may wait for the thread and
  // the approval message to be told; a failure there is logged by the API and changes nothing.
  await withdrawn.followUp;
  services.logger.info(
    { audit: "approval", approvalId: requestId, by: userId, action: "withdraw" },
    "withdrawn",
  );
  return { ok: true, reply: withdrawnView(readRequest(withdrawn.record)) };
}
