import type { ApprovalRequest, ApprovalStatus } from "../approvals/index.js";
import { WITHDRAWN_NOTE } from "../domain/withdrawal.js";

// A person's step kept although its replica WAIT did not confirm (the click was not acked) and
// clicked again: the store refuses the repeat, and stepRecorder.ts runs the follow-up it never got.
// How the repeat is recognised: the request's last history entry is this person's same step.

/**
 * The history entry a person's step writes: from, to (one of), and its note where the note is
 * what tells it apart (a withdrawal from a cancel because the approval message failed).
 */
export interface StepEntry {
  from: ApprovalStatus;
  to: readonly ApprovalStatus[];
  note?: string;
}

/** An approval: counted (pending → pending) or the last one (pending → approved). */
export const APPROVED: StepEntry = { from: "pending", to: ["pending", "approved"] };
export const REJECTED: StepEntry = { from: "pending", to: ["rejected"] };
export const WITHDRAWN: StepEntry = { from: "pending", to: ["cancelled"], note: WITHDRAWN_NOTE };
export const RETRIED: StepEntry = { from: "failed", to: ["approved"] };
export const PLACED_AGAIN: StepEntry = { from: "unknown", to: ["approved"] };
export const MARKED_FAILED: StepEntry = { from: "unknown", to: ["failed"] };

/**
 * The record when its last step is `by`'s `step` and the request is still where that step led
 * (nothing happened after it): the refused step was kept before. Undefined otherwise.
 */
export function keptBefore(
  record: ApprovalRequest | undefined,
  by: string,
  step: StepEntry,
): ApprovalRequest | undefined {
  const last = record?.history.at(-1);
  if (!record || !last || last.actor !== by || last.from !== step.from) return undefined;
  if (!step.to.includes(last.to) || record.status !== last.to) return undefined;
  if (step.note !== undefined && last.note !== step.note) return undefined;
  return record;
}
