import { describeRefusal } from "../../../../views/refusals.js";
import type { ApprovalRequest, TransitionResult } from "../../../approvals/index.js";
import type { Services } from "../../../services.js";
import { tellPrivately } from "../../kit/index.js";
import {
  type ApproverClick,
  type ApproverStep,
  approverAction,
  auditApproval,
} from "./approverClick.js";

/**
 * The step of the buttons that move a request (Approve, Retry, Place again, Mark failed):
 * stored, acked, then followed up (thread, message, jobs). A refusal is told privately.
 */
type Move = (
  click: ApproverClick,
) => Promise<TransitionResult | { ok: false; reason: "look-up-first"; record: ApprovalRequest }>;

/** The listener of a button that moves the request: the approver checks, then `move`, stored. */
export function recordedButton(services: Services, name: string, outcome: string, move: Move) {
  return approverAction(services, name, recordedStep(services, name, outcome, move));
}

function recordedStep(services: Services, name: string, outcome: string, move: Move): ApproverStep {
  return async (click, recorded) => {
    const moved = await move(click);
    await recorded();
    if (!moved.ok) {
      const text =
        moved.reason === "look-up-first"
          ? "*Place again* is offered only after a look-up found nothing: press *Look up again* first."
          : describeRefusal(moved);
      return tellPrivately(
        click.client,
        services,
        { userId: click.userId, channelId: click.channel },
        text,
      );
    }
    auditApproval(services, moved.record, click.userId, name, outcome);
    await services.orders.followUp(moved.record).catch(async (error: unknown) => {
      // Recorded all the same: the placement reconciler queues an approved request whose job
      // is missing, and the placement's own messages say the step first.
      services.logger.error({ err: error, approvalId: moved.record.id }, "follow-up failed");
      await tellPrivately(
        click.client,
        services,
        { userId: click.userId, channelId: click.channel },
        ":white_check_mark: Recorded. I couldn't post about it just now; the thread will catch up.",
      );
    });
  };
}
