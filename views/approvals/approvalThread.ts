import type { ApprovalRequest, HistoryEntry, PlacementError } from "../../src/approvals/index.js";
import { isMarkedFailedStep } from "../../src/domain/markedFailed.js";
import { nextLoaStep } from "../../src/domain/tracking/loa.js";
import { WITHDRAWN_NOTE } from "../../src/domain/withdrawal.js";
import type { PlacedNextSteps } from "../../src/orders/kinds.js";
import type { RequestReadModel } from "../../src/orders/readModel.js";
import { escapeMrkdwn } from "../blocks.js";
import { loaStatusText } from "../format.js";
import { approvalStatusLine, type LookUpOutcome } from "./approvals.js";

/**
 * The approvals thread and the requester's direct messages: one line per step of the request,
 * in the order the steps happened (src/orders posts them through the notifier's per-channel
 * queue). Apart from views/approvals/approvals.ts (the message itself): these are said once per step,
 * the message is re-rendered on every change.
 */

/** The thread line for a person's step (a history entry), or undefined for a worker's step. */
export function personStepText(record: ApprovalRequest, entry: HistoryEntry): string | undefined {
  const who = `<@${entry.actor}>`;
  const name = `*${escapeMrkdwn(record.reconcileKey ?? record.title)}*`;
  const needed = record.requirement?.approvals ?? 1;
  if (entry.from === "pending" && entry.to === "pending") {
    // One approval of several: the count is this entry's place among the approvals.
    const at = record.history.indexOf(entry);
    const count = record.history
      .slice(0, at >= 0 ? at + 1 : undefined)
      .filter((step) => step.from === "pending" && step.to === "pending").length;
    const left = needed - count;
    const group = record.requirement?.atLeastOneFrom;
    const fromGroup =
      group && !record.approvals?.some((a) => a.inGroup)
        ? `, from *${escapeMrkdwn(group.name)}*`
        : "";
    return `:white_check_mark: Approved by ${who} (${count} of ${needed}). Waiting for ${left} more approval${left === 1 ? "" : "s"}${fromGroup}.`;
  }
  if (entry.to === "cancelled" && entry.note === WITHDRAWN_NOTE) {
    return `:leftwards_arrow_with_hook: ${who} withdrew the request. Nothing will be ordered, and the name ${name} can be asked for again.`;
  }
  if (entry.to === "approved") {
    if (entry.from === "pending")
      return needed > 1
        ? `:white_check_mark: Approved by ${who} (${needed} of ${needed}). Placing the order now.`
        : `:white_check_mark: Approved by ${who}. Placing the order now.`;
    if (entry.from === "failed") return `:repeat: ${who} asked to place the order again.`;
    if (entry.from === "unknown")
      return `:repeat: ${who} chose to place the order again after a look-up found nothing. Placing it now.`;
  }
  if (entry.to === "rejected" && entry.from === "pending") {
    return `:no_entry: Rejected by ${who}: ${escapeMrkdwn(record.decision?.reason ?? entry.note ?? "")}`;
  }
  if (isMarkedFailedStep(entry)) {
    return `:heavy_multiplication_x: ${who} marked the request as failed. Nothing more will be done here, and the name ${name} can be asked for again.`;
  }
  return undefined;
}

/** The requester's direct message when their request is rejected. */
export function rejectedRequesterText(record: ApprovalRequest): string {
  const by = record.decision?.by ? ` by <@${record.decision.by}>` : "";
  return `:no_entry: Your request *${escapeMrkdwn(record.title)}* was rejected${by}: ${escapeMrkdwn(record.decision?.reason ?? "no reason given")}`;
}

/** The thread line once the order is placed (or found at the provider). */
export function placedThreadText(
  model: RequestReadModel,
  next: PlacedNextSteps,
  result: ApprovalRequest["result"],
): string {
  return `${approvalStatusLine(model)}\n${placedNextStepsText(next, result)}`;
}

const WAITING_ON: Record<string, string> = {
  PENDING:
    "waiting for the other company to accept the connection — this is a normal wait, not a failure",
  PENDING_ACCEPTANCE:
    "waiting for the cloud or partner to accept — this is a normal wait, not a failure",
  CREATING: "being created by the provider",
};

/** What happens next once placed (src/orders/kinds.ts decides which; provider values escaped). */
export function placedNextStepsText(
  next: PlacedNextSteps,
  result: ApprovalRequest["result"],
): string {
  const id = `\`${escapeMrkdwn(result?.providerId ?? "?")}\``;
  const status = result?.status ? ` is *${escapeMrkdwn(result.status)}*` : " was accepted";
  switch (next.shape) {
    case "port-order": {
      const loaWords = loaStatusText(next.order.loaStatus);
      const loa = loaWords ? ` (LOA: ${loaWords})` : "";
      return `Order ${id}${status}${loa}.\n*Next:* ${nextLoaStep(next.order)}\nI'll post every status change in this thread.`;
    }
    case "port-found":
      return `The order went through: port ${id}${status}. I'll follow the port from here.`;
    case "connection": {
      const waiting = result?.status ? WAITING_ON[result.status.toUpperCase()] : undefined;
      return `${next.what} ${id}${status}${waiting ? `: ${waiting}` : ""}.`;
    }
  }
}

/** The requester's direct message once the order is placed. */
export function placedRequesterText(record: ApprovalRequest): string {
  const id = record.result?.providerId ? ` (\`${escapeMrkdwn(record.result.providerId)}\`)` : "";
  return `:rocket: Your request *${escapeMrkdwn(record.title)}* was approved and ordered${id}.`;
}

/** The provider client's sentences for people name the provider first ("The provider refused …"). */
const SAYS_WHO = /^(the provider\b|could not reach the provider\b)/i;

/**
 * Why a placement failed, said once, escaped, without a final full stop. The provider client's
 * sentence already says who refused what ("The provider refused the port order: …"), so it is
 * used as it is; a bare reason (a record from before, another error) gets "The provider refused
 * the order" — or "could not take the order" for a server error, which is the provider failing,
 * not a refusal — before it. The thread and the requester's DM both say it this way.
 */
export function placementFailureWords(error: PlacementError): string {
  const reason = error.message.trim().replace(/[.\s]+$/, "");
  if (SAYS_WHO.test(reason)) return escapeMrkdwn(reason);
  const what =
    (error.httpStatus ?? 0) >= 500
      ? "The provider could not take the order"
      : "The provider refused the order";
  return `${what}: ${escapeMrkdwn(reason || "no reason given")}`;
}

/** The provider refused: nothing was ordered. */
export function failedThreadText(error: PlacementError): string {
  return `:x: ${placementFailureWords(error)}.\nNothing was ordered. An approver can fix the cause and press *Retry placing the order*.`;
}

/**
 * The order was sent and no answer came back: say what the look-up found, and what approvers
 * can do with the buttons on the request. Never "the provider could not be asked" when it was.
 */
/** An escalation: what the look-up found, and its detail (already safe to show). */
export interface EscalationView {
  kind: LookUpOutcome;
  detail: string;
}

export function escalationText(
  record: ApprovalRequest,
  cause: EscalationView,
  options: { again?: boolean } = {},
): string {
  const name = `*${escapeMrkdwn(record.reconcileKey ?? record.title)}*`;
  const detail = cause.detail ? ` (${escapeMrkdwn(cause.detail)})` : "";
  const again = options.again ? "An approver had me look the order up again. " : "";
  const opening = `:rotating_light: ${again}I sent the order for ${name} but got no answer, so I could not tell whether the order reached the provider. I will not send it again on my own.`;
  switch (cause.kind) {
    case "not-found":
      return `${opening}\nA look-up at the provider found nothing by that name${detail}; it may still appear. Approvers: *Look up again* later, or, once you have checked the provider's portal, *Place again* (a second order if the first did arrive) or *Mark as failed*.`;
    case "lookup-failed":
      return `${opening}\nLooking it up at the provider failed${detail}. Approvers: *Look up again* in a few minutes, or check the provider's portal and *Mark as failed* if it is not there.`;
    case "not-lookable":
      return `${opening}\nThis order cannot be looked up until the provider has created it${detail}. Approvers: check the provider's portal for ${name}; *Look up again* later, or *Mark as failed* if it is not there.`;
  }
}
