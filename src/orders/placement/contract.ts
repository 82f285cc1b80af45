import type { ApprovalStore } from "../../approvals/store.js";
import type { ApprovalRequest, PlacementError, PlacementResult } from "../../approvals/types.js";
import type { Notifier } from "../../jobs/notifier/notifier.js";
import type { PlacementJournal } from "./journal.js";

/**
 * What the placement job asks of the lifecycle and answers: the approval store's steps and the
 * journal's it uses, the lifecycle's steps (place, look up, tell the outcome:
 * `OrderLifecycle.placementCallbacks()`, the same layer) with the context they post with, and the
 * outcomes. The rules that use them are placement.ts'.
 */

export type StoreForPlacement = Pick<
  ApprovalStore,
  "get" | "claim" | "complete" | "fail" | "markUnknown" | "reconcile" | "findByStatus"
>;

export type JournalForPlacement = Pick<
  PlacementJournal,
  "read" | "intend" | "own" | "startSending" | "recordAnswer"
>;

/** What looking an order up at the provider found. Throw when it cannot tell. */
export type LookupResult =
  | { found: true; result: PlacementResult }
  /** `detail`: what "not found" means for this kind, when more than "nothing by that name". */
  | { found: false; detail?: string };

/**
 * Thrown by a `reconcile` callback when this kind of order cannot be looked up yet (a port
 * order before its port exists), as opposed to a look-up that failed.
 */
export class NotLookableError extends Error {
  override readonly name = "NotLookableError";
}

/** Why a person is asked: the order was sent, no answer came, and the look-up did not settle it. */
export type EscalationCause =
  /** Sent, no answer, the look-up found nothing (yet). */
  | { kind: "not-found"; detail: string }
  /** Sent, no answer, and the look-up itself failed. */
  | { kind: "lookup-failed"; detail: string }
  /** Sent, no answer, and this kind cannot be looked up yet. */
  | { kind: "not-lookable"; detail: string };

export interface PlacementContext {
  notifier: Pick<Notifier, "post" | "update">;
  /** The notification scope of this request (one per request, all outcomes). */
  notifyScope: string;
  /** A notification key for this outcome, within the scope (suffix it per message). */
  notifyKey: string;
}

export interface PlacementCallbacks {
  /** Sends the approved request's provider call (no retries for non-idempotent calls). */
  place: (request: ApprovalRequest) => Promise<PlacementResult>;
  /**
   * Looks the order up when the outcome of `place` is unknown (e.g. by `reconcileKey`). Throws
   * NotLookableError when this kind cannot be looked up yet, anything else when the look-up
   * failed.
   */
  reconcile: (request: ApprovalRequest) => Promise<LookupResult>;
  onPlaced: (
    request: ApprovalRequest,
    result: PlacementResult,
    ctx: PlacementContext,
  ) => Promise<void>;
  onFailed: (
    request: ApprovalRequest,
    error: PlacementError,
    ctx: PlacementContext,
  ) => Promise<void>;
  /** The outcome is unknown and the look-up did not settle it: a person must check. */
  onEscalate: (
    request: ApprovalRequest,
    cause: EscalationCause,
    ctx: PlacementContext,
  ) => Promise<void>;
}

export type PlacementOutcome =
  | "placed"
  | "failed"
  | "reconciled"
  | "escalated"
  | "not-claimed"
  /** Another worker took the claim over before this one sent anything. */
  | "handed-over"
  | "invalid-job";

/**
 * `lookUpAgain`: `reconciled` — settled (found at the provider, or by an answer recorded
 * meanwhile); `escalated` — still nothing, the person is told again; `not-unknown` — the
 * request is not (or no longer) waiting for a look-up.
 */
export type LookUpAgainOutcome = "reconciled" | "escalated" | "not-unknown";
