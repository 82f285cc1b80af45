import type { Refusal } from "../../src/approvals/results.js";
import type { ApprovalRequest } from "../../src/approvals/types.js";
import { isMarkedFailed } from "../../src/domain/markedFailed.js";
import { isWithdrawn } from "../../src/domain/withdrawal.js";
import { escapeMrkdwn } from "../blocks.js";
import { listOfMentions } from "../requestState.js";

/**
 * One short sentence (Slack mrkdwn) telling a person why their step on a request was refused,
 * e.g. "Already approved by <@U…> at …". Plain text, no Block Kit: views decide the layout.
 * Names, group names, provider ids and error text are escaped here (they are not ours).
 */
export function describeRefusal(refusal: Refusal): string {
  switch (refusal.reason) {
    case "not-found":
      return "I can't find this request any more (requests are kept for at least 90 days).";
    case "invalid-record":
      return "This request is stored in a form I can't read, so I won't act on it. Please ask an admin.";
    case "not-requester":
      return `Only the requester (${listOfMentions([refusal.record.requester.userId])}) can withdraw this request.`;
    case "already-approved-by-you":
      return `Your approval is already counted${progressOf(refusal.record)}; it needs another approver.`;
    case "group-required": {
      // The group's name is an admin's text (the approval policy).
      const group = escapeMrkdwn(
        refusal.record.requirement?.atLeastOneFrom?.name ?? "the required group",
      );
      return `This request needs its last approval from someone in *${group}*, so yours can't be the one that completes it${progressOf(refusal.record)}.`;
    }
    case "reason-required":
      return "Please give a reason for rejecting the request.";
    case "stale-attempt":
      return "This placement attempt was superseded by a newer one.";
    case "marked-failed":
      return MARKED_FAILED_NOT_SENT_AGAIN;
    case "name-taken":
      return `Another request (\`${escapeMrkdwn(refusal.heldBy)}\`) has asked for the name "${escapeMrkdwn(refusal.name)}" since, so this one can't be placed under it.`;
    default:
      return describeState(refusal.record);
  }
}

/**
 * Which request a refusal is about, before it, where the refusal is read away from the request
 * (an App Home click is answered in the clicker's DM): "*Port order: …* (`apr_…`): ".
 */
export function refusalAbout(record: Pick<ApprovalRequest, "title" | "id">): string {
  return `*${escapeMrkdwn(record.title)}* (\`${escapeMrkdwn(record.id)}\`): `;
}

/** Why a request marked as failed after an unknown outcome is not retried, and what to do. */
export const MARKED_FAILED_NOT_SENT_AGAIN =
  "This order was marked as failed after its outcome stayed unknown; it may exist at the provider, so it is not sent again. Submit a new request if it is still needed.";

/** Where a request stands, said from the point of view of someone who tried to act on it. */
export function describeState(record: ApprovalRequest): string {
  const decided = record.decision
    ? `${record.decision.action === "approve" ? "approved" : "rejected"} by ${listOfMentions([record.decision.by])} ${slackDate(record.decision.at)}`
    : undefined;
  switch (record.status) {
    case "pending":
      return `This request is still waiting for approval${progressOf(record)}.`;
    case "approved":
      return `Already ${decided ?? "approved"}; the order is about to be placed.`;
    case "rejected":
      return `Already ${decided ?? "rejected"}.`;
    case "cancelled":
      return `The requester ${isWithdrawn(record) ? "withdrew" : "cancelled"} this request ${slackDate(record.updatedAt)}.`;
    case "executing":
      return `Already ${decided ?? "approved"}; the order is being placed now.`;
    case "placed":
      return `Already ${decided ?? "approved"}; the order was placed${record.result?.providerId ? ` (${escapeMrkdwn(record.result.providerId)})` : ""}.`;
    case "failed":
      if (isMarkedFailed(record)) {
        return `Already marked as failed by ${listOfMentions([record.history.at(-1)?.actor ?? ""])} after its outcome stayed unknown.`;
      }
      return `Already ${decided ?? "approved"}, but placing the order failed: ${escapeMrkdwn(record.error?.message ?? "no details")}.`;
    case "unknown":
      return `Already ${decided ?? "approved"}; whether the order was placed is being checked with the provider.`;
  }
}

/** " (1 of 2 approvals)" for a request needing several; empty otherwise. */
function progressOf(record: ApprovalRequest): string {
  const needed = record.requirement?.approvals ?? 1;
  if (needed <= 1) return "";
  return ` (${record.approvals?.length ?? 0} of ${needed} approvals)`;
}

/**
 * A Slack date token: shown in each reader's time zone ("today at 03:41", "Nov 14, 2026 at
 * 03:41"), with the ISO time as fallback.
 */
function slackDate(iso: string): string {
  const seconds = Math.floor(Date.parse(iso) / 1000);
  if (!Number.isFinite(seconds)) return escapeMrkdwn(iso);
  return `<!date^${seconds}^{date_short_pretty} at {time}|${escapeMrkdwn(iso)}>`;
}
