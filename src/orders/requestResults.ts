import type { GroupMembers } from "../approvals/index.js";
import {
  APPROVAL_ID_PATTERN,
  type ApprovalRequest,
  type Refusal,
  type StateRefusalReason,
} from "../approvals/index.js";
import { isStorageUnavailable, StorageUnavailableError } from "../domain/errors.js";
import type { OrderSubmission } from "./index.js";
import type { LookUpAgainOutcome } from "./placement/contract.js";

/**
 * What the lifecycle API (requests.ts) takes and answers: `{ ok: true, … }` or `{ ok: false, reason }`,
 * one reason code per way a call can be refused, so every front door branches on the code and
 * words it its own way (Slack: views/approvals/refusals.ts for the store's refusals, which travel along
 * as `refusal`).
 */

/** A request id: `apr_` and 16 base32 characters. */
export const REQUEST_ID_PATTERN = APPROVAL_ID_PATTERN;

/** Where a decision was made: on an approval message (its channel and ts), or in App Home. */
export type DecidedAt =
  | { home: true }
  | { channel?: string | undefined; messageTs?: string | undefined };

/** The store's refusal codes, as the API spells them. */
export type StoreRefusalReason =
  | "not_pending"
  | "not_approved"
  | "not_executing"
  | "not_unknown"
  | "not_failed"
  | "not_requester"
  | "reason_required"
  | "stale_attempt"
  | "already_approved_by_you"
  | "group_required"
  /** `retry` of a request marked as failed after an unknown outcome: it is never sent again */
  | "marked_failed"
  | "invalid_record";

export type Refused =
  /** Redis did not answer: nothing changed (a click must not be acked). */
  | { ok: false; reason: "storage_unavailable"; error: StorageUnavailableError }
  /** The checks before the step took longer than allowed: nothing changed, ask again. */
  | { ok: false; reason: "too_slow" }
  /** No such request (gone, expired, or an id that names none). */
  | { ok: false; reason: "not_found"; id: string }
  /** Not shaped like a request id at all. */
  | { ok: false; reason: "not_a_request_id" }
  /** Who asked may not: the message says why (and, for groups that could not be read, so). */
  | {
      ok: false;
      reason: "not_an_approver" | "self_approval";
      message: string;
      /** For the log: why the check could not be made (a user group Slack would not read). */
      detail?: string;
      record: ApprovalRequest;
    }
  | {
      ok: false;
      reason: "not_a_requester" | "approvals_not_set_up";
      message: string;
      detail?: string;
    }
  /** Clicked somewhere else than the request's own approval message or the clicker's Home. */
  | { ok: false; reason: "not_its_message"; record: ApprovalRequest }
  /** *Place again* before a look-up found nothing. */
  | { ok: false; reason: "look_up_first"; record: ApprovalRequest }
  /** The name is held by another live request (submit, retry, place again). */
  | {
      ok: false;
      reason: "name_taken";
      name: string;
      heldBy: string;
      message: string;
      record?: ApprovalRequest;
      refusal?: Refusal;
    }
  /** A submission's origin that cannot be carried. */
  | { ok: false; reason: "invalid_origin"; message: string }
  /** The request is not in a state the step may start from (and the like): see `refusal`. */
  | {
      ok: false;
      reason: StoreRefusalReason;
      refusal: Refusal;
      record?: ApprovalRequest;
    };

/**
 * A decision or withdrawal: stored, or refused. Stored, it answers at once, so a Slack click is
 * acked on it (a 200 means kept); `followUp` (the thread, the messages, the placement) is then
 * already running: it never rejects, and resolves false when telling failed (logged; the step
 * stays recorded). Nothing waits for it but whoever wants to say how it went.
 */
export type StepResult =
  | { ok: true; record: ApprovalRequest; followUp: Promise<boolean> }
  | Refused;

/** The approver checks alone (nothing stored): passed, with the request as read, or refused. */
export type CheckResult = { ok: true; record: ApprovalRequest } | Refused;

/** What *Look up again* found: settled or escalated again, or refused (`not_unknown` …). */
export type LookedUp =
  | { ok: true; outcome: Exclude<LookUpAgainOutcome, "not-unknown">; record: ApprovalRequest }
  | Refused;

/**
 * *Look up again*, in two phases: the checks passed (a Slack click is acked on this; nothing is
 * stored by it), then `lookUp()` asks the provider, which can take longer than an ack may wait.
 */
export type LookUpResult =
  | { ok: true; record: ApprovalRequest; lookUp: () => Promise<LookedUp> }
  | Refused;

/** A submission: stored as a pending request with its name reserved, or refused. */
export type SubmitResult = { ok: true; record: ApprovalRequest } | Refused;

const STATE: Record<StateRefusalReason, StoreRefusalReason> = {
  "not-pending": "not_pending",
  "not-approved": "not_approved",
  "not-executing": "not_executing",
  "not-unknown": "not_unknown",
  "not-failed": "not_failed",
};

/** A store refusal as the API's reason (the refusal itself travels along for its wording). */
export function refusedByStore(refusal: Refusal): Refused {
  switch (refusal.reason) {
    case "not-found":
      return { ok: false, reason: "not_found", id: refusal.id };
    case "invalid-record":
      return { ok: false, reason: "invalid_record", refusal };
    case "name-taken":
      return {
        ok: false,
        reason: "name_taken",
        name: refusal.name,
        heldBy: refusal.heldBy,
        message: `Another request holds the name "${refusal.name}" now`,
        record: refusal.record,
        refusal,
      };
    case "not-requester":
      return { ok: false, reason: "not_requester", refusal, record: refusal.record };
    case "reason-required":
      return { ok: false, reason: "reason_required", refusal, record: refusal.record };
    case "stale-attempt":
      return { ok: false, reason: "stale_attempt", refusal, record: refusal.record };
    case "already-approved-by-you":
      return { ok: false, reason: "already_approved_by_you", refusal, record: refusal.record };
    case "group-required":
      return { ok: false, reason: "group_required", refusal, record: refusal.record };
    case "marked-failed":
      return { ok: false, reason: "marked_failed", refusal, record: refusal.record };
    default:
      return { ok: false, reason: STATE[refusal.reason], refusal, record: refusal.record };
  }
}

/**
 * Issue 20: a decision is honoured only on the request's own approval message. Another
 * channel, or another request's message carrying this request's id, changes nothing.
 */
export function isOwnApprovalMessage(
  where: { channel?: string | undefined; messageTs?: string | undefined },
  record: ApprovalRequest,
): boolean {
  const { approvalChannel, approvalTs } = record.slack;
  return (
    approvalChannel !== undefined &&
    approvalTs !== undefined &&
    where.channel === approvalChannel &&
    where.messageTs === approvalTs
  );
}

/** Who acts, and how their Slack user groups are resolved (by the front door they came by). */
export interface Actor {
  /** A Slack user id. */
  by: string;
  /** Members of a user group (S…) named in APPROVERS, REQUESTERS or a policy rule. */
  groups: GroupMembers;
}

/** A decision on a request: who, where they clicked, and how long the checks may take. */
export interface DecisionInput extends Actor {
  id: string;
  at: DecidedAt;
  /**
   * The checks before the step (reading the request, resolving user groups) may take this
   * long; past it nothing changes and the result is `too_slow` (a Slack click must be acked
   * within 3 s, and is acked only once its step is stored: on the result, `StepResult`).
   */
  checksWithinMs?: number;
}

export interface SubmitInput {
  /** The checked form: kind, title, summary, provider call, name, price, requester and where asked. */
  submission: OrderSubmission;
  /** Resolves REQUESTERS' user groups. */
  groups: GroupMembers;
  /**
   * Opaque: what started the request outside a person's form (e.g. a Workflow Builder step's
   * function execution id). Carried on the record (`record.slack.origin`, see `originOf`).
   */
  origin?: string;
}

/** A Redis outage as a value; any other error is a bug and is thrown on. */
export function storageRefusal(error: unknown): Refused {
  if (isStorageUnavailable(error)) {
    return {
      ok: false,
      reason: "storage_unavailable",
      error:
        error instanceof StorageUnavailableError
          ? error
          : new StorageUnavailableError(error as Error),
    };
  }
  throw error;
}

/** What a Workflow Builder step (or any front door) put on the request when it submitted it. */
export function originOf(record: Pick<ApprovalRequest, "slack">): string | undefined {
  return record.slack.origin;
}
