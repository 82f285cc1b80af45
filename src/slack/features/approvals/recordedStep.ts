import type { StepResult } from "../../../orders/index.js";
import { type ApproverClick, approverAction, auditApproval } from "./approverClick.js";
import type { ApprovalDeps } from "./index.js";

/**
 * The buttons that move a request (Approve, Retry, Place again, Mark failed): the click is one
 * call of the lifecycle API (`move`), which answers once the step is stored, its follow-up
 * (thread, message, jobs) started. The click is acked on that answer, then the follow-up is
 * awaited for what is said next. A refusal is told privately by approverAction.
 */
type Move = (click: ApproverClick) => Promise<StepResult>;

/** The listener of a button that moves the request. */
export function recordedButton(services: ApprovalDeps, name: string, outcome: string, move: Move) {
  return approverAction(services, name, async (click) => {
    const moved = await move(click);
    if (!moved.ok) return moved;
    await click.ack();
    const followedUp = await moved.followUp;
    auditApproval(services, moved.record, click.decision.by, name, outcome);
    if (!followedUp) {
      // Recorded all the same: the placement reconciler queues an approved request whose job
      // is missing, and the placement's own messages say the step first.
      await click.tell(
        ":white_check_mark: Recorded. I couldn't post about it just now; the thread will catch up.",
      );
    }
    return moved;
  });
}
