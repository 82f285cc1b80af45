import { isMarkedFailed, MARKED_FAILED_REASON } from "../domain/markedFailed.js";
import { FIELD } from "./codec.js";
import { storableDecision, storableError, storableResult } from "./input.js";
import type { ClaimGuard, DecideInput, NOT_IN, ReconcileInput, Refusal } from "./results.js";
import type { ApprovalRequest, ApprovalStatus, PlacementError, PlacementResult } from "./types.js";

/**
 * What each step of the state machine does, as data: from which state to which, what it writes
 * and what it does with the request's name. The store runs every spec through one atomic
 * script (store.ts `transition`), so a new step is a spec here, not a new write path.
 */

/**
 * What a step does with the request's name (see the README's "Names"): a live request keeps
 * it, one that can no longer become an order releases it, and one that comes back from
 * `failed` or `unknown` must get it back first.
 */
export type NameRule = "keep" | "reserve" | "release";

export interface TransitionSpec {
  from: keyof typeof NOT_IN;
  to: ApprovalStatus;
  actor: string;
  name: NameRule;
  /** A history note; a function when it depends on the request as it is (retry). */
  note?: string | ((record: ApprovalRequest) => string | undefined);
  set?: Record<string, string>;
  unset?: string[];
  incrementAttempts?: boolean;
  expectedAttempts?: number;
  /** Write only while `attempts` is what it was when the record was read (see `precheck`). */
  sameAttempt?: boolean;
  /** The step's time, when the caller already stamped something with it (a decision). */
  at?: Date;
  /**
   * Refuses before any write, e.g. a cancel by someone other than the requester. It judges the
   * record as read; `sameAttempt` makes the write refuse a record that was placed again since.
   */
  precheck?: (record: ApprovalRequest) => Refusal | undefined;
  /**
   * A person's step, acked to them once stored: confirmed on a replica before the store
   * returns (store.ts `confirmed`), so a Redis failover cannot undo it after the ack. Worker
   * steps need not: the placement journal's confirmed steps cover them.
   */
  confirm?: boolean;
}

/** pending → rejected; needs a reason (it is shown in the thread). */
export function rejectStep(
  id: string,
  input: Extract<DecideInput, { action: "reject" }>,
  at: Date,
): TransitionSpec {
  const decision = storableDecision(input.by, input.action, input.reason, at);
  return {
    confirm: true,
    from: "pending",
    to: "rejected",
    actor: input.by,
    name: "release",
    note: decision.reason,
    set: { [FIELD.decision]: JSON.stringify(decision) },
    at,
    precheck: (record) =>
      decision.reason === undefined
        ? { ok: false, reason: "reason-required", id, record }
        : undefined,
  };
}

/** pending → cancelled, only by the requester. */
export function cancelStep(id: string, by: string, note?: string): TransitionSpec {
  return {
    confirm: true,
    from: "pending",
    to: "cancelled",
    actor: by,
    name: "release",
    ...(note ? { note } : {}),
    precheck: (record) =>
      record.requester.userId === by
        ? undefined
        : { ok: false, reason: "not-requester", id, record },
  };
}

/** approved → executing: the claim of one worker. */
export function claimStep(workerId: string): TransitionSpec {
  return {
    from: "approved",
    to: "executing",
    actor: workerId,
    name: "keep",
    set: { [FIELD.claimedBy]: workerId },
    incrementAttempts: true,
  };
}

/** executing → placed. */
export function completeStep(result: PlacementResult, guard: ClaimGuard): TransitionSpec {
  const stored = storableResult(result);
  const note = stored.providerId ? `provider id ${stored.providerId}` : undefined;
  return placedStep("executing", "", stored, note, guard.attempt);
}

/** executing → failed. */
export function failStep(error: PlacementError, guard: ClaimGuard): TransitionSpec {
  const stored = storableError(error);
  return erroredStep("executing", "failed", "", stored, stored.message, guard.attempt);
}

/** executing → unknown. */
export function markUnknownStep(note: string, guard: ClaimGuard): TransitionSpec {
  const error = storableError({ message: note });
  return erroredStep("executing", "unknown", "", error, error.message, guard.attempt);
}

/** unknown → placed | failed. */
export function reconcileStep(input: ReconcileInput): TransitionSpec {
  if (input.outcome === "placed") {
    return placedStep("unknown", input.by, storableResult(input.result), input.note);
  }
  const error = storableError(input.error ?? { message: input.note });
  return erroredStep("unknown", "failed", input.by, error, input.note);
}

/**
 * failed → approved; the previous error moves into the history note. Refused for a request a
 * person marked as failed after an unknown outcome (`marked-failed`): its order may exist at the
 * provider, so sending it again could be a second order (src/domain/markedFailed.ts).
 */
export function retryStep(by: string, note?: string): TransitionSpec {
  return {
    confirm: true,
    from: "failed",
    to: "approved",
    actor: by,
    // Released when it failed: another request may have taken the name since.
    name: "reserve",
    unset: [FIELD.error],
    note: (record) => {
      const previous = record.error ? `retry after: ${record.error.message}` : "retry";
      return note ? `${note} (${previous})` : previous;
    },
    precheck: (record) =>
      isMarkedFailed(record)
        ? { ok: false, reason: "marked-failed", id: record.id, record }
        : undefined,
    // What the precheck judged is what is written: a request retried, placed, unknown and
    // marked failed in between has more attempts, and the script refuses it as stale.
    sameAttempt: true,
  };
}

/** unknown → approved; the unknown outcome's note moves into the history. */
export function placeAgainStep(by: string): TransitionSpec {
  return {
    confirm: true,
    from: "unknown",
    to: "approved",
    actor: by,
    // Held all along, unless the request predates names; refused if another took it then.
    name: "reserve",
    unset: [FIELD.error],
    note: (record) => (record.error ? `place again after: ${record.error.message}` : "place again"),
  };
}

/**
 * unknown → failed by a person. The error keeps the reason alone, as plain text; who marked it
 * is the history entry's actor (views mention them from there, once).
 */
export function markFailedStep(by: string, note: string): TransitionSpec {
  const error = storableError({ message: note.trim() || MARKED_FAILED_REASON });
  return { ...erroredStep("unknown", "failed", by, error, error.message), confirm: true };
}

/** To placed: the provider's answer is kept and an earlier error cleared. */
function placedStep(
  from: "executing" | "unknown",
  actor: string,
  stored: PlacementResult,
  note: string | undefined,
  expectedAttempts?: number,
): TransitionSpec {
  return {
    from,
    to: "placed",
    actor,
    // The provider has the name now; the key lives on with the record's TTL, no longer.
    name: "keep",
    note,
    set: { [FIELD.result]: JSON.stringify(stored) },
    unset: [FIELD.error],
    expectedAttempts,
  };
}

/**
 * To failed (the name is released: nothing holds it at the provider) or unknown (kept: it may
 * exist at the provider under this name, so nobody else may ask for it meanwhile).
 */
function erroredStep(
  from: "executing" | "unknown",
  to: "failed" | "unknown",
  actor: string,
  stored: PlacementError,
  note: string,
  expectedAttempts?: number,
): TransitionSpec {
  return {
    from,
    to,
    actor,
    name: to === "failed" ? "release" : "keep",
    note,
    set: { [FIELD.error]: JSON.stringify(stored) },
    expectedAttempts,
  };
}
