import type {
  ApprovalKind,
  ApprovalRequest,
  ApprovalRequirement,
  ApprovalStatus,
  PartialApproval,
  PlacementResult,
  SummaryLine,
} from "../approvals/index.js";
import { MAX_TERM_MONTHS } from "../domain/catalog/terms.js";
import {
  isMarkedFailed,
  MARKED_FAILED_REASON,
  markedFailedReason,
} from "../domain/markedFailed.js";
import { ORDER_KIND_LABEL } from "../domain/orderKinds.js";
import { isSlackUserId } from "../domain/slackIds.js";
import { isWithdrawn } from "../domain/withdrawal.js";
import type { OrderProgress } from "./progress.js";

/**
 * The read model: what a person should see about one request, built by one function
 * (`readRequest`) from the approval record, what tracking said of it (progress.ts) and the last
 * look-up of an unknown outcome. Every surface renders this — the approval message, the request
 * card and its thread, the requester's DMs, App Home, `/connect approvals [all]`, `/connect
 * spend` and its CSV, and the outputs of any later front door (Workflow Builder steps) — so they
 * cannot disagree on the state, the order id, the tracked status or the money.
 *
 * Pure: the reads are requestReads.ts'. Plain words (`state.words`, `state.detail`), never
 * mrkdwn: a view escapes them and adds its emoji and emphasis (views/requestState.ts).
 */

/**
 * Where a request stands, as a person thinks of it. A placed order moves on through tracking:
 * `ordered` (nothing read yet), `tracked` (a status), then how it ended.
 */
export type RequestPhase =
  | "waiting"
  | "placing"
  | "rejected"
  | "withdrawn"
  | "cancelled"
  | "not-ordered"
  | "marked-failed"
  | "unknown"
  | "ordered"
  | "tracked"
  | "done"
  | "failed-at-provider"
  | "cancelled-at-provider"
  | "stopped";

/** A step a person can take next, and who may take it. */
export interface NextStep {
  action:
    | "approve"
    | "reject"
    | "withdraw"
    | "retry"
    | "look-up-again"
    | "place-again"
    | "mark-failed";
  by: "approvers" | "requester";
}

/** What the last look-up of an unknown outcome found (only `not-found` offers *Place again*). */
export type LookUpOutcome = "not-found" | "lookup-failed" | "not-lookable";

/** How the request is paid for: a priced order, pay as you go (IO-D), or no price recorded. */
export type Billing = "priced" | "pay-as-you-go" | "unpriced";

export interface RequestMoney {
  billing: Billing;
  /** The price as the approver saw it (plain text). */
  text?: string;
  monthly?: number;
  /** The total commitment: the recorded total, else monthly × term months plus the one-off. */
  total?: number;
  /** A charge made once, part of the total (an Edge offer's non-recurring price, a port fee). */
  oneOff?: number;
  termMonths?: number;
  /** A term in days (IO-D asks for one). */
  termDays?: number;
  /**
   * The approved call names a term in months longer than any form takes (MAX_TERM_MONTHS), so
   * none was recorded for the ledger: placed before the bound (src/domain/catalog/terms.ts).
   * Set only when neither `termMonths` nor `termDays` is.
   */
  termTooLong?: true;
  /** ISO 4217 code recorded with the price; absent on older records (the caller's setting). */
  currency?: string;
}

export interface RequestReadModel {
  id: string;
  kind: ApprovalKind;
  /** "Port order", "IO-D service"… */
  kindLabel: string;
  title: string;
  /** The order's unique name (port or connection name), else the title. */
  name: string;
  requester: string;
  /** Where the requester asked (a channel id), when known. */
  askedIn?: string;
  createdAt: string;
  updatedAt: string;
  sandbox: boolean;
  /** Exactly what will be ordered, as the approver saw it (label and value, plain text). */
  summary: readonly SummaryLine[];
  /** The policy rule it was created under, and the approvals counted so far. */
  requirement?: ApprovalRequirement;
  approvalsSoFar: readonly PartialApproval[];
  /** The record's own status (the lifecycle's state machine). */
  status: ApprovalStatus;
  state: {
    phase: RequestPhase;
    /**
     * A short key, e.g. `pending`, `placed:provisioning`, `placed:done`: the block_id of the
     * state line on every message that shows it (`state_<key>`), so tests compare surfaces.
     */
    key: string;
    /** The state in plain words: "Withdrawn by the requester", "Done", "Ordered". */
    words: string;
    /** What goes with it, in plain words (a reason, an error, how tracking ended), if anything. */
    detail?: string;
  };
  /** Who decided (the last needed approval or the rejection), and everyone who approved. */
  decision?: { action: "approve" | "reject"; by: string; at: string; reason?: string };
  approvers: string[];
  /** Who withdrew or marked it failed, when a person did. */
  actor?: string;
  /** The provider's id for what was ordered (an order, a port found by name, a connection). */
  order?: { id: string; resource: NonNullable<PlacementResult["resource"]>; status?: string };
  /** What tracking said: the latest status and when it changed, and how it ended. */
  tracking?: {
    status?: string;
    changedAt?: string;
    outcome?: OrderProgress["outcome"];
    stoppedBy?: string;
  };
  /** When it was placed (its last move to `placed`). */
  placedAt?: string;
  money: RequestMoney;
  /** What can be done next, and by whom; empty when nothing is left to decide. */
  next: NextStep[];
  lastLookUp?: LookUpOutcome;
}

/** What `readRequest` reads besides the record. */
export interface RequestExtras {
  progress?: OrderProgress | undefined;
  lastLookUp?: LookUpOutcome | undefined;
  /** A failed request's name, taken since by this other request: it can't be retried. */
  nameHeldBy?: string | undefined;
}

const PHASE_WORDS: Record<RequestPhase, string> = {
  waiting: "Waiting for approval",
  placing: "Approved — placing the order",
  rejected: "Rejected",
  withdrawn: "Withdrawn by the requester",
  cancelled: "Cancelled",
  "not-ordered": "Failed, nothing ordered",
  // Not "nothing ordered": nobody knows; the order may exist at the provider.
  "marked-failed": "Marked as failed — the outcome stayed unknown",
  unknown: "Outcome unknown — sent to the provider without an answer",
  ordered: "Ordered",
  tracked: "Ordered",
  done: "Done",
  "failed-at-provider": "Failed at the provider",
  "cancelled-at-provider": "Cancelled at the provider",
  stopped: "No longer followed",
};

/** The one function: what a person should see about `record`. */
export function readRequest(record: ApprovalRequest, extras: RequestExtras = {}): RequestReadModel {
  const progress = record.status === "placed" ? extras.progress : undefined;
  const phase = phaseOf(record, progress);
  const placed = placedAt(record);
  const model: RequestReadModel = {
    id: record.id,
    kind: record.kind,
    kindLabel: ORDER_KIND_LABEL[record.kind],
    title: record.title,
    name: record.reconcileKey ?? record.title,
    requester: record.requester.userId,
    ...(record.requester.channelId ? { askedIn: record.requester.channelId } : {}),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    sandbox: record.sandbox,
    summary: record.summary,
    ...(record.requirement ? { requirement: record.requirement } : {}),
    approvalsSoFar: record.approvals ?? [],
    status: record.status,
    state: {
      phase,
      key: stateKeyOf(record.status, progress),
      words: wordsOf(phase, progress),
      ...detailOf(record, phase, progress),
    },
    approvers:
      record.approvals && record.approvals.length > 0
        ? record.approvals.map((approval) => approval.by)
        : record.decision?.action === "approve"
          ? [record.decision.by]
          : [],
    money: moneyOf(record),
    next: nextSteps(record, extras),
  };
  if (record.decision) {
    const { action, by, at, reason } = record.decision;
    model.decision = { action, by, at, ...(reason ? { reason } : {}) };
  }
  const personStep = record.history.findLast(
    (entry) => entry.to === record.status && isSlackUserId(entry.actor),
  );
  if (personStep && (phase === "withdrawn" || phase === "marked-failed")) {
    model.actor = personStep.actor;
  }
  if (record.result?.providerId) {
    model.order = {
      id: record.result.providerId,
      resource: record.result.resource ?? "order",
      ...(record.result.status ? { status: record.result.status } : {}),
    };
  }
  if (progress && (progress.status || progress.outcome)) {
    model.tracking = {
      ...(progress.status ? { status: progress.status } : {}),
      ...(progress.changedAt ? { changedAt: progress.changedAt } : {}),
      ...(progress.outcome ? { outcome: progress.outcome } : {}),
      ...(progress.stoppedBy ? { stoppedBy: progress.stoppedBy } : {}),
    };
  }
  if (placed) model.placedAt = placed.toISOString();
  if (record.status === "unknown" && extras.lastLookUp) model.lastLookUp = extras.lastLookUp;
  return model;
}

function phaseOf(record: ApprovalRequest, progress: OrderProgress | undefined): RequestPhase {
  switch (record.status) {
    case "pending":
      return "waiting";
    case "approved":
    case "executing":
      return "placing";
    case "rejected":
      return "rejected";
    case "cancelled":
      return isWithdrawn(record) ? "withdrawn" : "cancelled";
    case "failed":
      return isMarkedFailed(record) ? "marked-failed" : "not-ordered";
    case "unknown":
      return "unknown";
    case "placed":
      switch (progress?.outcome) {
        case "done":
          return "done";
        case "failed":
          return "failed-at-provider";
        case "cancelled":
          return "cancelled-at-provider";
        case "stopped":
          return "stopped";
        default:
          return progress?.status ? "tracked" : "ordered";
      }
  }
}

function wordsOf(phase: RequestPhase, progress: OrderProgress | undefined): string {
  const words = PHASE_WORDS[phase];
  // "Done (ACTIVE)" says something; "Done (done)" says the same word twice.
  const ended = phase === "done" || phase.endsWith("-at-provider") || phase === "stopped";
  if (ended && progress?.status && progress.status.toLowerCase() !== progress.outcome) {
    return `${words} (${progress.status})`;
  }
  if (phase === "tracked" && progress?.status) return `${words} · now ${progress.status}`;
  return words;
}

function detailOf(
  record: ApprovalRequest,
  phase: RequestPhase,
  progress: OrderProgress | undefined,
): { detail?: string } {
  switch (phase) {
    case "rejected":
      return { detail: record.decision?.reason || "no reason given" };
    case "not-ordered":
    case "unknown":
      return record.error?.message ? { detail: plainError(record, record.error.message) } : {};
    case "marked-failed": {
      // The reason a person gave, when it says more than the phase's words already do.
      const reason = markedFailedReason(record.error?.message);
      return reason === MARKED_FAILED_REASON ? {} : { detail: reason };
    }
    case "failed-at-provider":
      // A connection the other company refused: say so, and what the requester can do.
      if (/^(denied|rejected|declined)$/i.test(progress?.status ?? "")) {
        return {
          detail:
            "the other company refused the connection; ask them to accept a new request, or request a connection to another port",
        };
      }
      return progress?.detail ? { detail: progress.detail } : {};
    case "cancelled-at-provider":
    case "stopped":
      return progress?.detail ? { detail: progress.detail } : {};
    default:
      return {};
  }
}

/** The provider's API paths a placement error names, e.g. `PUT /api/company/{x}/ports/orders`. */
const API_CALL = /\b(?:GET|PUT|POST|PATCH|DELETE)\s+\/\S+/g;

/**
 * An error as a person reads it: the provider call named by what it was ("the port order
 * request"), not its raw API path; no doubled full stop.
 */
function plainError(record: ApprovalRequest, message: string): string {
  const what = `the ${ORDER_KIND_LABEL[record.kind].toLowerCase()} request`;
  return message
    .replace(API_CALL, what)
    .replace(/\.{2,}$/, ".")
    .trim();
}

/**
 * The state as a short key (`state_<key>` is the state line's block_id): the record's status,
 * and for a placed order how it ended or its latest tracked status.
 */
export function stateKeyOf(status: ApprovalStatus, progress: OrderProgress | undefined): string {
  if (status !== "placed") return status;
  const tracked = progress?.outcome ?? progress?.status ?? "";
  const key = tracked
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "_")
    .slice(0, 60);
  return key ? `placed:${key}` : "placed";
}

/** The time a request was placed: its last move to `placed` in the history. */
export function placedAt(record: Pick<ApprovalRequest, "history">): Date | undefined {
  for (let i = record.history.length - 1; i >= 0; i--) {
    const entry = record.history[i];
    if (entry?.to === "placed") return new Date(entry.at);
  }
  return undefined;
}

/**
 * The money as the approver saw it. IO-D has no price (pay as you go), only a term in days,
 * recorded with the price (`termDays`) or read from the approved call's `duration`.
 */
function moneyOf(record: ApprovalRequest): RequestMoney {
  const price = record.price;
  const monthly = price?.monthly;
  const termMonths = price?.termMonths;
  const termDays = price?.termDays ?? durationDays(record.call.body);
  const oneOff = price?.oneOff;
  const total =
    price?.total ??
    (monthly !== undefined && termMonths !== undefined
      ? Math.round((monthly * termMonths + (oneOff ?? 0)) * 100) / 100
      : undefined);
  const billing: Billing =
    monthly !== undefined || total !== undefined
      ? "priced"
      : termDays !== undefined || record.kind === "iod"
        ? "pay-as-you-go"
        : "unpriced";
  return {
    billing,
    ...(price?.text ? { text: price.text } : {}),
    ...(monthly !== undefined ? { monthly } : {}),
    ...(total !== undefined ? { total } : {}),
    ...(oneOff !== undefined ? { oneOff } : {}),
    ...(termMonths !== undefined ? { termMonths } : {}),
    ...(termDays !== undefined ? { termDays } : {}),
    ...(termMonths === undefined && termDays === undefined && callTermTooLong(record.call.body)
      ? { termTooLong: true as const }
      : {}),
    ...(price?.currency ? { currency: price.currency } : {}),
  };
}

/**
 * Whether a provider call's `duration` and `durationUnit` (the layer 2 request's term, whole
 * months) are longer than MAX_TERM_MONTHS: a term no form takes since the bound, so a record
 * holding one was placed before it, and `monthsOfTerm` kept no term of it for the ledger.
 */
function callTermTooLong(body: unknown): boolean {
  if (typeof body !== "object" || body === null) return false;
  const { duration, durationUnit } = body as { duration?: unknown; durationUnit?: unknown };
  return (
    typeof duration === "number" &&
    Number.isSafeInteger(duration) &&
    durationUnit === "m" &&
    duration > MAX_TERM_MONTHS
  );
}

/** A provider call's `duration: { quantity, unit: "d" }` as days (the IO-D request's term). */
function durationDays(body: unknown): number | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const duration = (body as { duration?: unknown }).duration;
  if (typeof duration !== "object" || duration === null) return undefined;
  const { quantity, unit } = duration as { quantity?: unknown; unit?: unknown };
  if (typeof quantity !== "number" || !Number.isSafeInteger(quantity) || quantity <= 0) {
    return undefined;
  }
  return unit === undefined || unit === "d" ? quantity : undefined;
}

/**
 * What can be done next from each state, and by whom (the buttons follow this). A status with
 * no entry has no next step.
 */
const NEXT_STEPS: {
  [S in ApprovalStatus]?: (record: ApprovalRequest, extras: RequestExtras) => NextStep[];
} = {
  pending: () => [
    { action: "approve", by: "approvers" },
    { action: "reject", by: "approvers" },
    { action: "withdraw", by: "requester" },
  ],
  // Listed before `failed`: the approvers' lists (approverWork.ts) read them in this order.
  unknown: (_, { lastLookUp }) => [
    { action: "look-up-again", by: "approvers" },
    ...(lastLookUp === "not-found" ? [{ action: "place-again", by: "approvers" } as const] : []),
    { action: "mark-failed", by: "approvers" },
  ],
  // Marked as failed after an unknown outcome: it may exist at the provider, so it is never
  // sent again (the store refuses the retry by the same rule, src/domain/markedFailed.ts). Nor
  // is one whose name another request has taken since: the store would refuse it.
  failed: (record, { nameHeldBy }) =>
    isMarkedFailed(record) || nameHeldBy ? [] : [{ action: "retry", by: "approvers" }],
};

/**
 * The statuses in which someone may have a next step, in the table's order: the only ones the
 * approvers' lists read (approverWork.ts), and those whose leaving refreshes the approvers' App
 * Home (homeAudience.ts). Which records in them offer a step is `readRequest(...).next`'s say.
 */
export const STATUSES_WITH_NEXT_STEPS = Object.keys(NEXT_STEPS) as ApprovalStatus[];

function nextSteps(record: ApprovalRequest, extras: RequestExtras): NextStep[] {
  return NEXT_STEPS[record.status]?.(record, extras) ?? [];
}

/** Whether the read model offers approvers a step on this request (their lists: approverWork.ts). */
export function offersApprovers(model: Pick<RequestReadModel, "next">): boolean {
  return model.next.some((step) => step.by === "approvers");
}
