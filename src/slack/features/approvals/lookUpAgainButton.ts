import { approverAction, auditApproval } from "./approverClick.js";
import type { ApprovalDeps } from "./index.js";

/**
 * Look up again (a placement whose outcome is unknown): asks the provider whether the order
 * exists. Nothing to store, so the click is acked (`recorded`) once the checks pass, before the
 * look-up, which can take longer than Slack's 3 s.
 */
export function lookUpAgainButton(services: ApprovalDeps) {
  return approverAction(services, "look-up-again", async (click) => {
    const looked = await services.requests.lookUpAgain(click.decision);
    if (!looked.ok) return looked;
    auditApproval(services, looked.record, click.decision.by, "look-up-again", looked.outcome);
    await click.tell(
      looked.outcome === "reconciled"
        ? ":white_check_mark: Settled: the order was found at the provider (see the thread)."
        : ":mag: Still not found: I said what the look-up found in the thread.",
    );
    return looked;
  });
}
