import { randomBytes } from "node:crypto";
import type { Redis } from "ioredis";
import {
  APPROVED_BY_FIELD_PREFIX,
  decodeRecord,
  encodeHistoryEntry,
  encodeNewRecord,
  encodeSlackRefs,
  FIELD,
  pairsToFields,
} from "./codec.js";
import { NameReservedError, nameScope, normalizedName } from "./names.js";
import { type ApprovalScripts, registerScripts } from "./scripts.js";
import {
  APPROVAL_ID_PATTERN,
  APPROVAL_STATUSES,
  ApprovalInputError,
  type ApprovalKind,
  ApprovalRecordError,
  type ApprovalRequest,
  type ApprovalRequirement,
  type ApprovalStatus,
  type CreateApprovalInput,
  createApprovalInputSchema,
  decisionSchema,
  historyEntrySchema,
  type PlacementError,
  type PlacementResult,
  placementErrorSchema,
  placementResultSchema,
  SLACK_REF_KEY_PATTERN,
  type SlackRefs,
  slackRefsSchema,
} from "./types.js";

/**
 * The durable record of approval requests and their atomic state machine in Redis: the
 * "never order twice" guard. BullMQ job ids de-duplicate only while a job exists; this record
 * is what makes a second click, a Slack retry, a second replica or a restarted worker unable to
 * place the same order again (only the caller that wins `claim` may call the provider).
 *
 * Keys under the prefix:
 *   approval:<id>             hash, one per request (layout in codec.ts), TTL = retention
 *   approvals:created         zset id → createdAt ms (the audit list)
 *   approvals:status:<status> zset id → createdAt ms, one per status (pending list, reconciler)
 *   approvals:expires         zset id → expiry ms, to trim the indexes of expired records
 *   approvals:name:<scope>:<name>  string → id of the live request holding that order name
 */

export interface ApprovalStoreOptions {
  redis: Redis;
  /** Prefix of every key, e.g. `connect:`; tests use a unique one per run. */
  prefix: string;
  /** How long a record is kept after its last change; at least 90 (docs/DESIGN.md: kept ≥ 90 days). */
  retentionDays?: number;
  now?: () => Date;
  /** Told about records a list skips because they cannot be read (e.g. to log them). */
  onInvalidRecord?: (error: ApprovalRecordError) => void;
}

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
        | "group-required";
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

export interface ListOptions {
  /** Only requests created at or after this time. */
  since?: Date;
  status?: ApprovalStatus;
  /** Default 50, at most 1000. */
  limit?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const MIN_RETENTION_DAYS = 90;
/** Expired ids trimmed from the indexes per create; bounds the script's run time. */
const TRIM_BATCH = 100;
/** Larger provider call bodies are refused: every request is kept for months. */
const MAX_CALL_BYTES = 32 * 1024;
/** Larger provider records in a result are replaced by a marker (ids and status are kept). */
const MAX_RESULT_RECORD_BYTES = 16 * 1024;
const MAX_LIST = 1000;

const NOT_IN: Record<
  "pending" | "approved" | "executing" | "unknown" | "failed",
  StateRefusalReason
> = {
  pending: "not-pending",
  approved: "not-approved",
  executing: "not-executing",
  unknown: "not-unknown",
  failed: "not-failed",
};

/**
 * What a step does with the request's name (see the README's "Names"): a live request keeps
 * it, one that can no longer become an order releases it, and one that comes back from
 * `failed` or `unknown` must get it back first.
 */
type NameRule = "keep" | "reserve" | "release";

interface TransitionSpec {
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
  /** The step's time, when the caller already stamped something with it (a decision). */
  at?: Date;
  /** Refuses before any write, e.g. a cancel by someone other than the requester. */
  precheck?: (record: ApprovalRequest) => Refusal | undefined;
}

export class ApprovalStore {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly retentionMs: number;
  private readonly now: () => Date;
  private readonly onInvalidRecord: (error: ApprovalRecordError) => void;
  private readonly scripts: ApprovalScripts;

  constructor(options: ApprovalStoreOptions) {
    const retentionDays = options.retentionDays ?? 100;
    if (!Number.isFinite(retentionDays) || retentionDays < MIN_RETENTION_DAYS) {
      throw new RangeError(`retentionDays must be at least ${MIN_RETENTION_DAYS}`);
    }
    this.redis = options.redis;
    this.prefix = options.prefix;
    this.retentionMs = Math.round(retentionDays * DAY_MS);
    this.now = options.now ?? (() => new Date());
    this.onInvalidRecord = options.onInvalidRecord ?? (() => {});
    this.scripts = registerScripts(this.redis);
  }

  /**
   * Records a new request as pending and reserves its name (`reconcileKey`, in its kind's
   * `nameScope`) in the same atomic step. Throws NameReservedError when another live request
   * holds the name, ApprovalInputError on input it must not store; nothing is written then.
   */
  async create(input: CreateApprovalInput): Promise<ApprovalRequest> {
    const parsed = createApprovalInputSchema.safeParse(input);
    if (!parsed.success) throw new ApprovalInputError(describeIssues(parsed.error.issues));
    const data = parsed.data;
    const callJson = safeStringify(data.call);
    if (callJson === undefined) throw new ApprovalInputError(["call: must be JSON-serialisable"]);
    if (Buffer.byteLength(callJson) > MAX_CALL_BYTES) {
      throw new ApprovalInputError([`call: larger than ${MAX_CALL_BYTES} bytes`]);
    }
    checkSlackRefKeys(data.slack ?? {});

    const now = this.now();
    const at = now.toISOString();
    // Stored as it will be read back (JSON), so the caller sees exactly what will be placed.
    const call = JSON.parse(callJson) as ApprovalRequest["call"];
    const nameKey = this.nameKey(data.kind, data.reconcileKey);
    for (let draw = 1; ; draw += 1) {
      const record: ApprovalRequest = {
        id: newApprovalId(),
        kind: data.kind,
        title: data.title,
        summary: data.summary,
        call,
        reconcileKey: data.reconcileKey,
        price: data.price,
        requester: data.requester,
        slack: dropUndefined(data.slack ?? {}),
        sandbox: data.sandbox,
        ...(data.requirement ? { requirement: data.requirement } : {}),
        status: "pending",
        attempts: 0,
        history: [],
        createdAt: at,
        updatedAt: at,
      };
      const created = await this.scripts.create(
        [
          this.recordKey(record.id),
          this.createdKey(),
          this.expiresKey(),
          ...APPROVAL_STATUSES.map((status) => this.statusKey(status)),
          ...(nameKey ? [nameKey] : []),
        ],
        [
          record.id,
          now.getTime(),
          now.getTime() + this.retentionMs,
          this.retentionMs,
          now.getTime(),
          TRIM_BATCH,
          APPROVAL_STATUSES.length,
          ...encodeNewRecord(record),
        ],
      );
      const [outcome, holder] = Array.isArray(created) ? created : [];
      if (outcome === "created") return record;
      if (outcome === "name-taken" && typeof holder === "string") {
        throw new NameReservedError((data.reconcileKey ?? "").trim(), holder);
      }
      // The id was taken (80 random bits: practically never); draw another, but never loop
      // forever on a reply this code does not expect.
      if (outcome !== "id-taken" || draw >= 3) {
        throw new Error(`could not create approval request (reply ${String(created)})`);
      }
    }
  }

  /** The request, or null when there is none. Throws ApprovalRecordError when unreadable. */
  async get(id: string): Promise<ApprovalRequest | null> {
    if (!APPROVAL_ID_PATTERN.test(id)) return null;
    const fields = await this.redis.hgetall(this.recordKey(id));
    if (Object.keys(fields).length === 0) return null;
    return decodeRecord(id, fields);
  }

  /**
   * Adds or replaces Slack references (message ts, channels) without touching the state.
   * Returns null when there is no such request; throws ApprovalRecordError when unreadable.
   */
  async mergeSlackRefs(id: string, refs: SlackRefs): Promise<ApprovalRequest | null> {
    const parsed = slackRefsSchema.safeParse(refs);
    if (!parsed.success) throw new ApprovalInputError(describeIssues(parsed.error.issues));
    checkSlackRefKeys(parsed.data);
    if (!APPROVAL_ID_PATTERN.test(id)) return null;
    const pairs = encodeSlackRefs(parsed.data);
    if (pairs.length === 0) return this.get(id);
    const now = this.now().getTime();
    const fields = await this.scripts.mergeFields(
      [this.recordKey(id), this.expiresKey()],
      [id, now + this.retentionMs, this.retentionMs, ...pairs],
    );
    if (fields === null) return null;
    return decodeRecord(id, pairsToFields(fields));
  }

  /**
   * pending → approved (through `approve`: one approval) | rejected. A reject needs a reason
   * (it is shown in the thread) and ends the request whatever approvals it has.
   */
  async decide(id: string, input: DecideInput): Promise<TransitionResult> {
    if (input.action === "approve") return this.approve(id, input);
    const reason = input.reason?.trim();
    const at = this.now();
    const parsed = decisionSchema.safeParse({
      by: input.by,
      at: at.toISOString(),
      action: input.action,
      reason: reason ? truncate(reason, 3000) : undefined,
    });
    if (!parsed.success) throw new ApprovalInputError(describeIssues(parsed.error.issues));
    const decision = parsed.data;
    return this.transition(id, {
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
    });
  }

  /**
   * One approval of a pending request. When it is the last one its requirement needs (one,
   * without a requirement) the request moves pending → approved in the same atomic step;
   * before that the approval is recorded and the request stays pending (a pending → pending
   * history entry). Refused: `already-approved-by-you` (counted once per person),
   * `group-required` (the last approval must come from the `atLeastOneFrom` group and none
   * has), `not-pending`.
   */
  async approve(id: string, input: ApproveInput): Promise<TransitionResult> {
    const reason = input.reason?.trim();
    const at = this.now();
    const parsed = decisionSchema.safeParse({
      by: input.by,
      at: at.toISOString(),
      action: "approve",
      reason: reason ? truncate(reason, 3000) : undefined,
    });
    if (!parsed.success) throw new ApprovalInputError(describeIssues(parsed.error.issues));
    const decision = parsed.data;
    const current = await this.readForStep(id);
    if (!("status" in current)) return current;
    if (current.status !== "pending") {
      return { ok: false, reason: "not-pending", id, record: current };
    }
    const requirement = current.requirement ?? input.fallback;
    const required = requirement?.approvals ?? 1;
    const historyLine = (to: ApprovalStatus) =>
      encodeHistoryEntry(
        historyEntrySchema.parse({
          at: decision.at,
          actor: decision.by,
          from: "pending",
          to,
          ...(decision.reason ? { note: decision.reason } : {}),
        }),
      );
    const nameKey = this.nameKey(current.kind, current.reconcileKey);
    const reply = await this.scripts.approve(
      [
        this.recordKey(id),
        this.createdKey(),
        this.expiresKey(),
        this.statusKey("pending"),
        this.statusKey("approved"),
        ...(nameKey ? [nameKey] : []),
      ],
      [
        id,
        decision.at,
        at.getTime(),
        at.getTime() + this.retentionMs,
        this.retentionMs,
        `${APPROVED_BY_FIELD_PREFIX}${decision.by}`,
        JSON.stringify({
          by: decision.by,
          at: decision.at,
          ...(input.inGroup ? { inGroup: true } : {}),
        }),
        input.inGroup ? "1" : "0",
        required,
        requirement?.atLeastOneFrom ? "1" : "0",
        historyLine("pending"),
        historyLine("approved"),
        JSON.stringify(decision),
      ],
    );
    const [outcome, pairs] = Array.isArray(reply) ? reply : [];
    if (outcome === "missing") return { ok: false, reason: "not-found", id };
    let record: ApprovalRequest;
    try {
      record = decodeRecord(id, pairsToFields(pairs));
    } catch (error) {
      if (error instanceof ApprovalRecordError)
        return { ok: false, reason: "invalid-record", id, error };
      throw error;
    }
    if (outcome === "ok") return { ok: true, record };
    if (outcome === "duplicate")
      return { ok: false, reason: "already-approved-by-you", id, record };
    if (outcome === "group-required") return { ok: false, reason: "group-required", id, record };
    return { ok: false, reason: "not-pending", id, record };
  }

  /**
   * pending → cancelled, only by the person who requested it: a withdrawal (`note` says so in
   * the history, see WITHDRAWN_NOTE) or a request whose approval message could not be posted.
   * Releases the name.
   */
  async cancel(id: string, by: string, note?: string): Promise<TransitionResult> {
    return this.transition(id, {
      from: "pending",
      to: "cancelled",
      actor: by,
      name: "release",
      ...(note ? { note } : {}),
      precheck: (record) =>
        record.requester.userId === by
          ? undefined
          : { ok: false, reason: "not-requester", id, record },
    });
  }

  /**
   * approved → executing. Exactly one concurrent caller wins; only the winner may call the
   * provider. `record.attempts` of the result is the claim's attempt number (see ClaimGuard).
   */
  async claim(id: string, workerId: string): Promise<TransitionResult> {
    return this.transition(id, {
      from: "approved",
      to: "executing",
      actor: workerId,
      name: "keep",
      set: { [FIELD.claimedBy]: workerId },
      incrementAttempts: true,
    });
  }

  /** executing → placed: the provider accepted the order. */
  async complete(
    id: string,
    result: PlacementResult,
    guard: ClaimGuard = {},
  ): Promise<TransitionResult> {
    const stored = storableResult(result);
    return this.transition(id, {
      from: "executing",
      to: "placed",
      actor: "",
      // The provider has the name now; the key lives on with the record's TTL, no longer.
      name: "keep",
      note: stored.providerId ? `provider id ${stored.providerId}` : undefined,
      set: { [FIELD.result]: JSON.stringify(stored) },
      unset: [FIELD.error],
      expectedAttempts: guard.attempt,
    });
  }

  /** executing → failed: the provider certainly refused (e.g. a 4xx); nothing was ordered. */
  async fail(id: string, error: PlacementError, guard: ClaimGuard = {}): Promise<TransitionResult> {
    const stored = storableError(error);
    return this.transition(id, {
      from: "executing",
      to: "failed",
      actor: "",
      name: "release",
      note: stored.message,
      set: { [FIELD.error]: JSON.stringify(stored) },
      expectedAttempts: guard.attempt,
    });
  }

  /**
   * executing → unknown: the call may have reached the provider (e.g. a timeout after sending).
   * It must be reconciled (looked up by reconcileKey) or decided by a person, never resent.
   */
  async markUnknown(id: string, note: string, guard: ClaimGuard = {}): Promise<TransitionResult> {
    const error = storableError({ message: note });
    return this.transition(id, {
      from: "executing",
      to: "unknown",
      actor: "",
      // It may exist at the provider under this name: nobody else may ask for it meanwhile.
      name: "keep",
      note: error.message,
      set: { [FIELD.error]: JSON.stringify(error) },
      expectedAttempts: guard.attempt,
    });
  }

  /**
   * unknown → placed (found at the provider) | failed (certainly not placed). Only a person or a
   * definite lookup may decide; `by` names which.
   */
  async reconcile(id: string, input: ReconcileInput): Promise<TransitionResult> {
    if (input.outcome === "placed") {
      const stored = storableResult(input.result);
      return this.transition(id, {
        from: "unknown",
        to: "placed",
        actor: input.by,
        name: "keep",
        note: input.note,
        set: { [FIELD.result]: JSON.stringify(stored) },
        unset: [FIELD.error],
      });
    }
    const error = storableError(input.error ?? { message: input.note });
    return this.transition(id, {
      from: "unknown",
      to: "failed",
      actor: input.by,
      name: "release",
      note: input.note,
      set: { [FIELD.error]: JSON.stringify(error) },
    });
  }

  /**
   * failed → approved: a person deliberately tries again (a worker may then claim it). The
   * previous error moves into the history note so the record shows what was retried. Takes the
   * name back; refused with `name-taken` when another request took it meanwhile.
   */
  async retry(id: string, by: string, note?: string): Promise<TransitionResult> {
    return this.transition(id, {
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
    });
  }

  /**
   * unknown → approved: a person places the order again after a look-up found nothing at the
   * provider. Deliberate, because the first call may still surface there (a second order); the
   * unknown outcome's note moves into the history so the record shows what was set aside.
   */
  async placeAgain(id: string, by: string): Promise<TransitionResult> {
    return this.transition(id, {
      from: "unknown",
      to: "approved",
      actor: by,
      // Held all along, unless the request predates names; refused if another took it then.
      name: "reserve",
      unset: [FIELD.error],
      note: (record) =>
        record.error ? `place again after: ${record.error.message}` : "place again",
    });
  }

  /**
   * unknown → failed: a person decides the order was not placed (e.g. checked in the provider's
   * portal). The error says who marked it and why, so the thread and the audit tell the same.
   */
  async markFailed(id: string, by: string, note: string): Promise<TransitionResult> {
    const why = note.trim();
    const error = storableError({
      message: `Marked as failed by ${mention(by)}${why ? `: ${why}` : ""}`,
    });
    return this.transition(id, {
      from: "unknown",
      to: "failed",
      actor: by,
      name: "release",
      note: error.message,
      set: { [FIELD.error]: JSON.stringify(error) },
    });
  }

  /** Requests waiting for a decision, oldest first (the one waiting longest leads). */
  async listPending(): Promise<ApprovalRequest[]> {
    const ids = await this.redis.zrange(this.statusKey("pending"), "0", String(MAX_LIST - 1));
    return this.readMany(ids);
  }

  /** The audit list: newest first, optionally since a time and in one status. */
  async list(options: ListOptions = {}): Promise<ApprovalRequest[]> {
    const limit = Math.min(Math.max(Math.trunc(options.limit ?? 50), 1), MAX_LIST);
    const key = options.status ? this.statusKey(options.status) : this.createdKey();
    const min = options.since ? String(options.since.getTime()) : "-inf";
    const ids = await this.redis.zrevrangebyscore(key, "+inf", min, "LIMIT", 0, limit);
    return this.readMany(ids);
  }

  /**
   * Every request in a status, oldest created first: e.g. `approved` ones whose placement job
   * was lost (to re-queue) and `executing` ones whose worker died (updatedAt says since when).
   */
  async findByStatus(status: ApprovalStatus, limit = MAX_LIST): Promise<ApprovalRequest[]> {
    const ids = await this.redis.zrange(
      this.statusKey(status),
      "0",
      String(Math.max(limit, 1) - 1),
    );
    return this.readMany(ids);
  }

  /** The record a step starts from, or the refusal when there is none or it cannot be read. */
  private async readForStep(id: string): Promise<ApprovalRequest | Refusal> {
    try {
      return (await this.get(id)) ?? { ok: false, reason: "not-found", id };
    } catch (error) {
      if (error instanceof ApprovalRecordError)
        return { ok: false, reason: "invalid-record", id, error };
      throw error;
    }
  }

  private async transition(id: string, spec: TransitionSpec): Promise<TransitionResult> {
    const current = await this.readForStep(id);
    if (!("status" in current)) return current;
    // Fast refusals without a write; the script below re-checks the state atomically.
    if (current.status !== spec.from) {
      return { ok: false, reason: NOT_IN[spec.from], id, record: current };
    }
    const refusal = spec.precheck?.(current);
    if (refusal) return refusal;
    const note = typeof spec.note === "function" ? spec.note(current) : spec.note;

    const now = spec.at ?? this.now();
    const at = now.toISOString();
    // A worker step names the worker that holds the claim (it cannot change while executing).
    const actor = spec.actor || current.claimedBy || "worker";
    // Whatever is written must read back: a record that fails its schema is lost to the user.
    const entry = historyEntrySchema.safeParse({
      at,
      actor,
      from: spec.from,
      to: spec.to,
      ...(note ? { note: truncate(note, 3000) } : {}),
    });
    if (!entry.success) throw new ApprovalInputError(describeIssues(entry.error.issues));
    const historyLine = encodeHistoryEntry(entry.data);
    const set = Object.entries(spec.set ?? {}).flat();
    const nameKey = this.nameKey(current.kind, current.reconcileKey);
    const reply = await this.scripts.transition(
      [
        this.recordKey(id),
        this.createdKey(),
        this.expiresKey(),
        this.statusKey(spec.from),
        this.statusKey(spec.to),
        ...(nameKey ? [nameKey] : []),
      ],
      [
        id,
        spec.from,
        spec.to,
        at,
        now.getTime(),
        now.getTime() + this.retentionMs,
        this.retentionMs,
        historyLine,
        spec.incrementAttempts ? "1" : "0",
        spec.expectedAttempts === undefined ? "" : String(spec.expectedAttempts),
        spec.name,
        set.length / 2,
        ...set,
        ...(spec.unset ?? []),
      ],
    );

    const [outcome, pairs, holder] = Array.isArray(reply) ? reply : [];
    if (outcome === "missing") return { ok: false, reason: "not-found", id };
    let record: ApprovalRequest;
    try {
      record = decodeRecord(id, pairsToFields(pairs));
    } catch (error) {
      if (error instanceof ApprovalRecordError)
        return { ok: false, reason: "invalid-record", id, error };
      throw error;
    }
    if (outcome === "ok") return { ok: true, record };
    if (outcome === "stale") return { ok: false, reason: "stale-attempt", id, record };
    if (outcome === "name-taken") {
      const name = (record.reconcileKey ?? "").trim();
      return { ok: false, reason: "name-taken", id, record, name, heldBy: String(holder) };
    }
    return { ok: false, reason: NOT_IN[spec.from], id, record };
  }

  private async readMany(ids: string[]): Promise<ApprovalRequest[]> {
    if (ids.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hgetall(this.recordKey(id));
    const replies = (await pipeline.exec()) ?? [];
    const records: ApprovalRequest[] = [];
    ids.forEach((id, index) => {
      const [error, fields] = replies[index] ?? [null, null];
      if (error) throw error;
      // Expired between the index read and now (the indexes are trimmed lazily).
      if (!isFields(fields) || Object.keys(fields).length === 0) return;
      try {
        records.push(decodeRecord(id, fields));
      } catch (decodeError) {
        if (!(decodeError instanceof ApprovalRecordError)) throw decodeError;
        this.onInvalidRecord(decodeError);
      }
    });
    return records;
  }

  private recordKey(id: string): string {
    return `${this.prefix}approval:${id}`;
  }
  private createdKey(): string {
    return `${this.prefix}approvals:created`;
  }
  private expiresKey(): string {
    return `${this.prefix}approvals:expires`;
  }
  private statusKey(status: ApprovalStatus): string {
    return `${this.prefix}approvals:status:${status}`;
  }
  /** The key holding a name, or undefined when the request has none (a blank one is none). */
  private nameKey(kind: ApprovalKind, name: string | undefined): string | undefined {
    const normalized = normalizedName(name ?? "");
    if (normalized === "") return undefined;
    return `${this.prefix}approvals:name:${nameScope(kind)}:${normalized}`;
  }
}

const BASE32 = "abcdefghijklmnopqrstuvwxyz234567";

/** `apr_` + 16 base32 characters from 80 random bits. */
export function newApprovalId(): string {
  const bytes = randomBytes(10);
  let bits = 0;
  let value = 0;
  let out = "";
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
    value &= (1 << bits) - 1;
  }
  return `apr_${out}`;
}

function storableResult(result: PlacementResult): PlacementResult {
  const parsed = placementResultSchema.safeParse(result);
  if (!parsed.success) throw new ApprovalInputError(describeIssues(parsed.error.issues));
  const recordJson = safeStringify(parsed.data.record ?? null) ?? "null";
  const bytes = Buffer.byteLength(recordJson);
  return {
    providerId: parsed.data.providerId,
    status: parsed.data.status,
    ...(parsed.data.resource ? { resource: parsed.data.resource } : {}),
    // Kept for months: a huge or unserialisable provider record is not worth the memory.
    record:
      bytes > MAX_RESULT_RECORD_BYTES
        ? { omitted: `provider record larger than ${MAX_RESULT_RECORD_BYTES} bytes`, bytes }
        : JSON.parse(recordJson),
  };
}

function storableError(error: PlacementError): PlacementError {
  const candidate = { ...error, message: truncate(String(error.message ?? ""), 3000) };
  const parsed = placementErrorSchema.safeParse(candidate);
  if (!parsed.success) throw new ApprovalInputError(describeIssues(parsed.error.issues));
  return parsed.data;
}

function checkSlackRefKeys(refs: Record<string, unknown>): void {
  const bad = Object.keys(refs).filter((key) => !SLACK_REF_KEY_PATTERN.test(key));
  if (bad.length > 0) throw new ApprovalInputError([`slack: invalid key(s) ${bad.join(", ")}`]);
}

function dropUndefined(refs: SlackRefs): SlackRefs {
  return Object.fromEntries(Object.entries(refs).filter(([, value]) => value !== undefined));
}

function safeStringify(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch {
    return undefined;
  }
}

/** A Slack user as a mention; anything else (a worker, "reconciler") as it is. */
function mention(actor: string): string {
  return /^[UW][A-Z0-9]{2,}$/.test(actor) ? `<@${actor}>` : actor;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function describeIssues(issues: readonly { path: PropertyKey[]; message: string }[]): string[] {
  return issues.map((issue) => `${issue.path.map(String).join(".") || "input"}: ${issue.message}`);
}

function isFields(value: unknown): value is Record<string, string> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
