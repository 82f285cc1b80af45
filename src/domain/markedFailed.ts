/**
 * A request marked as failed: its order was sent, the outcome stayed unknown, and a person
 * ended it with *Mark as failed*. The order may exist at the provider all the same, so such a
 * request is never sent again (no *Retry*): whoever still needs it submits a new request. Pure,
 * structural (it reads only status and history), so the approvals store's retry step, the read
 * model and the views share one rule.
 *
 * Why the history and not a field: the step that marks it is the only one a person takes from
 * `unknown` to `failed` (a worker settles `unknown → failed` only on the provider's own refusal,
 * which is retryable), and records marked before this rule existed are recognised the same way.
 */

import { isSlackUserId } from "./slackIds.js";

/** The reason the lifecycle gives when a person marks an unknown outcome as failed. */
export const MARKED_FAILED_REASON = "the order was sent but its outcome stayed unknown";

interface Step {
  from: string;
  to: string;
  actor: string;
}

/** True for the history entry *Mark as failed* writes: a person's `unknown → failed`. */
export function isMarkedFailedStep(entry: Step): boolean {
  return entry.from === "unknown" && entry.to === "failed" && isSlackUserId(entry.actor);
}

/** True when a person marked the request as failed after its outcome stayed unknown. */
export function isMarkedFailed(record: { status: string; history: readonly Step[] }): boolean {
  if (record.status !== "failed") return false;
  const step = record.history.findLast((entry) => entry.to === "failed");
  return step !== undefined && isMarkedFailedStep(step);
}

/**
 * The reason stored with a marked-failed request, as plain text: records marked before the actor
 * was kept apart start "Marked as failed by <@U…>: " (a mention inside stored text, which a view
 * would show escaped), so that prefix is dropped; the person comes from the history.
 */
export function markedFailedReason(message: string | undefined): string {
  const reason = (message ?? "")
    .replace(/^Marked as failed by <@[UW][A-Z0-9]{2,}>:?\s*/, "")
    .trim();
  return reason || MARKED_FAILED_REASON;
}
