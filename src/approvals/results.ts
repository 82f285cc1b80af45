import type {
  ApprovalRecordError,
  ApprovalRequest,
  ApprovalRequirement,
  PlacementError,
  PlacementResult,
} from "./types.js";

/**
 * What the store's steps take and give back. A refused step is a value, not an exception (see
 * the README's "States"): callers branch on `reason`, and views/approvals/refusals.ts words each one.
 */

/** A refusal because the request is not in the state the step needs, e.g. already approved. */
export type StateRefusalReason =
  | "not-pending"
  | "not-approved"
  | "not-executing"
  | "not-unknown"
  | "not-failed";

export type Refusal =
  | { ok: false; reason: "not-found"; id: string }
  | { ok: false; reason: "invalid-record"; id: string; error: ApprovalRecordError }
  | {
      ok: false;
      reason:
        | StateRefusalReason
        /** cancel by someone other than the requester */
        | "not-requester"
        /** reject without a reason */
        | "reason-required"
        /** the worker's claim is not the latest one (the request was retried meanwhile) */
        | "stale-attempt"
        /** approve by someone whose approval of this request is already counted */
        | "already-approved-by-you"
        /** the last approval needed, from someone outside the requirement's atLeastOneFrom group */
        | "group-required"
        /** retry of a request a person marked as failed after an unknown outcome (never resent) */
        | "marked-failed";
      id: string;
      /** The request as it is now, so the caller can say who decided it and when. */
      record: ApprovalRequest;
    }
  | {
      ok: false;
      /** retry / placeAgain: another request took this one's name while it was failed */
      reason: "name-taken";
      id: string;
      record: ApprovalRequest;
      /** The name as this request asked for it. */
      name: string;
      /** The id of the request holding it now. */
      heldBy: string;
    };

export type TransitionResult = { ok: true; record: ApprovalRequest } | Refusal;

export interface ApproveInput {
  by: string;
  reason?: string;
  /** The approver is in the requirement's `atLeastOneFrom` group (the caller resolves groups). */
  inGroup?: boolean;
  /** What a request created without a requirement needs (default: one approval). */
  fallback?: ApprovalRequirement;
}

export type DecideInput =
  | { by: string; action: "approve"; reason?: string }
  | { by: string; action: "reject"; reason: string };

export type ReconcileInput =
  | { by: string; outcome: "placed"; result: PlacementResult; note: string }
  | { by: string; outcome: "failed"; note: string; error?: PlacementError };

/**
 * Pass the `attempts` value `claim` returned so a worker that stalled cannot complete a newer
 * attempt (after a failure and a deliberate retry, another worker may hold the claim).
 */
export interface ClaimGuard {
  attempt?: number;
}

/** The states a step can start from, and the refusal when the request is in another one. */
export const NOT_IN: Record<
  "pending" | "approved" | "executing" | "unknown" | "failed",
  StateRefusalReason
> = {
  pending: "not-pending",
  approved: "not-approved",
  executing: "not-executing",
  unknown: "not-unknown",
  failed: "not-failed",
};
