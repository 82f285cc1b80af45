import { approverAction, auditApproval } from "./approverClick.js";
import type { ApprovalDeps } from "./index.js";

/**
 * Look up again (a placement whose outcome is unknown): asks the provider whether the order
 * exists. Nothing to store, so the click is acked once the checks pass (the API's first answer),
 * before the look-up (`lookUp()`), which can take longer than Slack's 3 s.
 */
export function lookUpAgainButton(services: ApprovalDeps) {
  return approverAction(services, "look-up-again", async (click) => {
    const checked = await services.requests.lookUpAgain(click.decision);
    if (!checked.ok) return checked;
    await click.ack();
    const looked = await checked.lookUp();
    if (!looked.ok) return looked;
    auditApproval(services, looked.record, click.decision.by, "look-up-again", looked.outcome);
    await click.tell(
      looked.outcome === "reconciled"
        ? ":white_check_mark: Settled: the order was found at the provider (see the thread)."
        : ":mag: Still not found: the thread says what the look-up saw.",
    );
    return looked;
  });
}
