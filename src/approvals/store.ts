import type { Redis } from "ioredis";
import { StorageUnavailableError, storageCall } from "../domain/errors.js";
import { confirmedWrite, REPLICA_WAIT_MS } from "../replicaConfirmation.js";
import {
  AFTER_LAST_SEND,
  APPROVED_BY_FIELD_PREFIX,
  coreWithoutSecrets,
  decodeRecord,
  encodeHistoryEntry,
  encodeNewRecord,
  encodeSlackRefs,
  FIELD,
  pairsToFields,
  slackRefField,
} from "./codec.js";
import {
  checkSlackRefKeys,
  describeIssues,
  pendingRecord,
  storableDecision,
  storableRequest,
  truncateNote,
} from "./input.js";
import { ApprovalKeys, newApprovalId } from "./keys.js";
import { NAME_HOLDING_STATUSES, NameReservedError, type NameScope, namesHeldIn } from "./names.js";
import { decodeMany, decodeReply, readForStep } from "./reading.js";
import {
  type ApproveInput,
  type ClaimGuard,
  type DecideInput,
  NOT_IN,
  type ReconcileInput,
  type TransitionResult,
} from "./results.js";
import { type ApprovalScripts, registerScripts } from "./scripts.js";
import {
  cancelStep,
  claimStep,
  completeStep,
  failStep,
  markFailedStep,
  markUnknownStep,
  placeAgainStep,
  reconcileStep,
  rejectStep,
  retryStep,
  type TransitionSpec,
} from "./steps.js";
import type { ApprovalStoreOptions, ListOptions } from "./storeOptions.js";
import {
  APPROVAL_ID_PATTERN,
  APPROVAL_STATUSES,
  ApprovalInputError,
  type ApprovalRecordError,
  type ApprovalRequest,
  type ApprovalStatus,
  type CreateApprovalInput,
  historyEntrySchema,
  type PlacementError,
  type PlacementResult,
  type SlackRefs,
  slackRefsSchema,
} from "./types.js";

/**
 * The durable record of approval requests and their atomic state machine in Redis: the
 * "never order twice" guard. BullMQ job ids de-duplicate only while a job exists; this record
 * is what makes a second click, a Slack retry, a second replica or a restarted worker unable to
 * place the same order again (only the caller that wins `claim` may call the provider).
 *
 * The key layout is in keys.ts, the scripts in scripts.ts, what each step does in steps.ts.
 * Every Redis call goes through `run`, which raises StorageUnavailableError when Redis is out
 * of reach (src/domain/errors.ts), so callers branch on a code, not on ioredis's wording.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const MIN_RETENTION_DAYS = 90;
/** Expired ids trimmed from the indexes per create; bounds the script's run time. */
const TRIM_BATCH = 100;
const MAX_LIST = 1000;

export class ApprovalStore {
  private readonly keys: ApprovalKeys;
  private readonly retentionMs: number;
  private readonly now: () => Date;
  private readonly onInvalidRecord: (error: ApprovalRecordError) => void;
  /** The one way to Redis (see the header): no field holds the client itself. */
  private readonly run: <T>(
    call: (redis: Redis, scripts: ApprovalScripts) => Promise<T>,
  ) => Promise<T>;
  /**
   * `run` for the writes a person relies on once told (a decision, a withdrawal, a name taken):
   * confirmed on a replica when the master has one, so a failover right after cannot undo what
   * a click was acked for. Unconfirmed, it raises StorageUnavailableError: the click is not
   * acked and the person is told nothing was recorded (README "Operations", "Redis Sentinel").
   */
  private readonly confirmed: <T>(
    call: (redis: Redis, scripts: ApprovalScripts) => Promise<T>,
  ) => Promise<T>;

  constructor(options: ApprovalStoreOptions) {
    const retentionDays = options.retentionDays ?? 100;
    if (!Number.isFinite(retentionDays) || retentionDays < MIN_RETENTION_DAYS) {
      throw new RangeError(`retentionDays must be at least ${MIN_RETENTION_DAYS}`);
    }
    const { redis } = options;
    const scripts = registerScripts(redis);
    this.run = (call) => storageCall(() => call(redis, scripts));
    const waitMs = options.replicaWaitMs ?? REPLICA_WAIT_MS;
    this.confirmed = (call) =>
      storageCall(async () => {
        const write = await confirmedWrite(redis, () => call(redis, scripts), waitMs);
        if (!write.confirmed) {
          throw new StorageUnavailableError(
            new Error(`the write was not confirmed by a replica within ${waitMs} ms`),
          );
        }
        return write.value;
      });
    this.keys = new ApprovalKeys(options.prefix);
    this.retentionMs = Math.round(retentionDays * DAY_MS);
    this.now = options.now ?? (() => new Date());
    this.onInvalidRecord = options.onInvalidRecord ?? (() => {});
  }

  /**
   * Records a new request as pending and reserves its name (`reconcileKey`, in its kind's
   * `nameScope`) in the same atomic step. Throws NameReservedError when another live request
   * holds the name, ApprovalInputError on input it must not store; nothing is written then.
   */
  async create(input: CreateApprovalInput): Promise<ApprovalRequest> {
    const { data, call } = storableRequest(input);
    const now = this.now();
    const at = now.toISOString();
    const nameKey = this.keys.name(data.kind, data.reconcileKey);
    for (let draw = 1; ; draw += 1) {
      const record = pendingRecord(newApprovalId(), data, call, at);
      const created = await this.confirmed((_, scripts) =>
        scripts.create(
          [
            this.keys.record(record.id),
            this.keys.created(),
            this.keys.expires(),
            ...APPROVAL_STATUSES.map((status) => this.keys.status(status)),
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
        ),
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
    const fields = await this.run((redis) => redis.hgetall(this.keys.record(id)));
    if (Object.keys(fields).length === 0) return null;
    return decodeRecord(id, fields);
  }

  /** Another request holding `record`'s name now (a failed one's retry is then refused). */
  async nameHeldElsewhere(record: ApprovalRequest): Promise<string | undefined> {
    const key = this.keys.name(record.kind, record.reconcileKey);
    if (!key) return undefined;
    const holder = await this.run((redis) => redis.get(key));
    return holder && holder !== record.id ? holder : undefined;
  }

  /**
   * Adds or replaces Slack references (message ts, channels) without touching the state.
   * Returns null when there is no such request; throws ApprovalRecordError when unreadable.
   */
  mergeSlackRefs(id: string, refs: SlackRefs): Promise<ApprovalRequest | null> {
    return this.writeSlackRefs(id, refs);
  }

  /**
   * Keeps where a request's approval message is unless a place is kept already: of two posts of
   * one request (the form's, the reconciler's) the first kept wins; the record returned says
   * which (its `approvalTs`). Null when there is no such request.
   */
  keepApprovalMessage(
    id: string,
    refs: Required<Pick<SlackRefs, "approvalChannel" | "approvalTs">>,
  ): Promise<ApprovalRequest | null> {
    return this.writeSlackRefs(id, refs, slackRefField("approvalTs"));
  }

  /** As `keepApprovalMessage`, for the request card (the form's post and the reconciler's). */
  keepCard(
    id: string,
    refs: SlackRefs & Required<Pick<SlackRefs, "cardChannel" | "cardTs">>,
  ): Promise<ApprovalRequest | null> {
    return this.writeSlackRefs(id, refs, slackRefField("cardTs"));
  }

  private async writeSlackRefs(
    id: string,
    refs: SlackRefs,
    unlessSet?: string,
  ): Promise<ApprovalRequest | null> {
    const parsed = slackRefsSchema.safeParse(refs);
    if (!parsed.success) throw new ApprovalInputError(describeIssues(parsed.error.issues));
    checkSlackRefKeys(parsed.data);
    if (!APPROVAL_ID_PATTERN.test(id)) return null;
    const pairs = encodeSlackRefs(parsed.data);
    if (pairs.length === 0) return this.get(id);
    const keys = [this.keys.record(id), this.keys.expires()];
    const args = [id, this.now().getTime() + this.retentionMs, this.retentionMs];
    const fields = await this.run((_, scripts) =>
      unlessSet === undefined
        ? scripts.mergeFields(keys, [...args, ...pairs])
        : scripts.mergeFieldsUnlessSet(keys, [...args, unlessSet, ...pairs]),
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
    return this.transition(id, rejectStep(id, input, this.now()));
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
    const at = this.now();
    const decision = storableDecision(input.by, "approve", input.reason, at);
    const current = await readForStep(id, (step) => this.get(step));
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
    const nameKey = this.keys.name(current.kind, current.reconcileKey);
    const reply = await this.confirmed((_, scripts) =>
      scripts.approve(this.keys.step(id, "pending", "approved", nameKey), [
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
      ]),
    );
    const [outcome, pairs] = Array.isArray(reply) ? reply : [];
    if (outcome === "missing") return { ok: false, reason: "not-found", id };
    const record = decodeReply(id, pairs);
    if (!("status" in record)) return record;
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
    return this.transition(id, cancelStep(id, by, note));
  }

  /**
   * approved → executing. Exactly one concurrent caller wins; only the winner may call the
   * provider. `record.attempts` of the result is the claim's attempt number (see ClaimGuard).
   */
  async claim(id: string, workerId: string): Promise<TransitionResult> {
    return this.transition(id, claimStep(workerId));
  }

  /** executing → placed: the provider accepted the order. */
  async complete(
    id: string,
    result: PlacementResult,
    guard: ClaimGuard = {},
  ): Promise<TransitionResult> {
    return this.transition(id, completeStep(result, guard));
  }

  /** executing → failed: the provider certainly refused (e.g. a 4xx); nothing was ordered. */
  async fail(id: string, error: PlacementError, guard: ClaimGuard = {}): Promise<TransitionResult> {
    return this.transition(id, failStep(error, guard));
  }

  /**
   * executing → unknown: the call may have reached the provider (e.g. a timeout after sending).
   * It must be reconciled (looked up by reconcileKey) or decided by a person, never resent.
   */
  async markUnknown(id: string, note: string, guard: ClaimGuard = {}): Promise<TransitionResult> {
    return this.transition(id, markUnknownStep(note, guard));
  }

  /**
   * unknown → placed (found at the provider) | failed (certainly not placed). Only a person or a
   * definite lookup may decide; `by` names which.
   */
  async reconcile(id: string, input: ReconcileInput): Promise<TransitionResult> {
    return this.transition(id, reconcileStep(input));
  }

  /**
   * failed → approved: a person deliberately tries again (a worker may then claim it). The
   * previous error moves into the history note so the record shows what was retried. Takes the
   * name back; refused with `name-taken` when another request took it meanwhile.
   */
  async retry(id: string, by: string, note?: string): Promise<TransitionResult> {
    return this.transition(id, retryStep(by, note));
  }

  /**
   * unknown → approved: a person places the order again after a look-up found nothing at the
   * provider. Deliberate, because the first call may still surface there (a second order); the
   * unknown outcome's note moves into the history so the record shows what was set aside.
   */
  async placeAgain(id: string, by: string): Promise<TransitionResult> {
    return this.transition(id, placeAgainStep(by));
  }

  /**
   * unknown → failed: a person decides the order was not placed (e.g. checked in the provider's
   * portal). The error says who marked it and why, so the thread and the audit tell the same.
   */
  async markFailed(id: string, by: string, note: string): Promise<TransitionResult> {
    return this.transition(id, markFailedStep(by, note));
  }

  /** Requests waiting for a decision, oldest first (the one waiting longest leads). */
  async listPending(): Promise<ApprovalRequest[]> {
    return this.findByStatus("pending");
  }

  /** The audit list: newest first, optionally since a time and in one status. */
  async list(options: ListOptions = {}): Promise<ApprovalRequest[]> {
    const limit = Math.min(Math.max(Math.trunc(options.limit ?? 50), 1), MAX_LIST);
    const key = options.status ? this.keys.status(options.status) : this.keys.created();
    const min = options.since ? String(options.since.getTime()) : "-inf";
    const ids = await this.run((redis) =>
      redis.zrevrangebyscore(key, "+inf", min, "LIMIT", 0, limit),
    );
    return this.readMany(ids);
  }

  /**
   * Every request in a status, oldest created first: e.g. `approved` ones whose placement job
   * was lost (to re-queue) and `executing` ones whose worker died (updatedAt says since when).
   */
  async findByStatus(status: ApprovalStatus, limit = MAX_LIST): Promise<ApprovalRequest[]> {
    const ids = await this.run((redis) =>
      redis.zrange(this.keys.status(status), "0", String(Math.max(limit, 1) - 1)),
    );
    return this.readMany(ids);
  }

  /**
   * The names (trimmed, lower case) held in `scope` by live requests (names.ts's one rule:
   * NAME_HOLDING_STATUSES), read from the status indexes — so requests made before names were
   * reserved count too. Placed requests: the newest 1,000 (older ones hold their name key).
   */
  async namesHeld(scope: NameScope): Promise<Set<string>> {
    const lists = await Promise.all(
      NAME_HOLDING_STATUSES.map((status) =>
        status === "placed" ? this.list({ status, limit: MAX_LIST }) : this.findByStatus(status),
      ),
    );
    return namesHeldIn(scope, lists.flat());
  }

  private async transition(id: string, spec: TransitionSpec): Promise<TransitionResult> {
    const current = await readForStep(id, (step) => this.get(step));
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
      ...(note ? { note: truncateNote(note) } : {}),
    });
    if (!entry.success) throw new ApprovalInputError(describeIssues(entry.error.issues));
    const historyLine = encodeHistoryEntry(entry.data);
    // Into a state after which the call is never sent again: its secrets go (docs/SECURITY.md).
    const core = AFTER_LAST_SEND.has(spec.to) ? coreWithoutSecrets(current) : undefined;
    const set = Object.entries({ ...spec.set, ...(core ? { [FIELD.core]: core } : {}) }).flat();
    const nameKey = this.keys.name(current.kind, current.reconcileKey);
    const write = spec.confirm ? this.confirmed : this.run;
    const reply = await write((_, scripts) =>
      scripts.transition(this.keys.step(id, spec.from, spec.to, nameKey), [
        id,
        spec.from,
        spec.to,
        at,
        now.getTime(),
        now.getTime() + this.retentionMs,
        this.retentionMs,
        historyLine,
        spec.incrementAttempts ? "1" : "0",
        String(spec.sameAttempt ? current.attempts : (spec.expectedAttempts ?? "")),
        spec.name,
        set.length / 2,
        ...set,
        ...(spec.unset ?? []),
      ]),
    );

    const [outcome, pairs, holder] = Array.isArray(reply) ? reply : [];
    if (outcome === "missing") return { ok: false, reason: "not-found", id };
    const record = decodeReply(id, pairs);
    if (!("status" in record)) return record;
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
    const replies = await this.run(async (redis) => {
      const pipeline = redis.pipeline();
      for (const id of ids) pipeline.hgetall(this.keys.record(id));
      const results = (await pipeline.exec()) ?? [];
      return ids.map((_, index) => {
        const [error, fields] = results[index] ?? [null, null];
        if (error) throw error;
        return fields;
      });
    });
    return decodeMany(ids, replies, this.onInvalidRecord);
  }
}
