import type { Redis } from "ioredis";
import {
  type PlacementError,
  type PlacementResult,
  placementErrorSchema,
  placementResultSchema,
} from "../../approvals/types.js";
import { defineScripts, type Script, type ScriptSpec, stateKey } from "../../jobs/queues.js";
import { DAY_MS } from "../../jobs/schedule.js";
import { confirmedWrite, REPLICA_WAIT_MS } from "../../replicaConfirmation.js";

/**
 * The placement journal: how far the placement of one approval attempt got, written to Redis in
 * order, so whoever picks the request up after a crash knows what is safe.
 *
 *   claimed  — nothing sent yet. Written before the store's claim (owner "") and named after it
 *              (owner = the claim's winner, or a worker that took the claim over). SAFE TO SEND.
 *   sending  — written by the owner, as a compare-and-set from `claimed`, just before the
 *              request leaves: exactly one worker ever wins it per attempt. From here the outcome
 *              may be unknown: look up, never resend.
 *   answered — the provider's answer (order id included, or its refusal), written before
 *              anything else is done with it. Completing from it is always safe.
 *
 * One hash per approval, `<prefix>:{placement}:journal:<approvalId>`: `attempt` (the store's
 * claim number the state belongs to), `state`, `owner`, `at` (ISO time of the last change), and
 * `answer.<attempt>` (JSON), one per attempt, never overwritten by a later attempt. A journal of
 * an older attempt than the record's is no journal for it. Kept as long as approval records.
 *
 * Every step is one Lua script (an atomic compare-and-set, like the approval store's steps), and
 * each is idempotent for its caller: a command ioredis resends after a reconnect, or a retry
 * after a lost reply, finds its own write and reports success again.
 *
 * Through a Redis failover (src/replicaConfirmation.ts): `sending` and `answered` are confirmed
 * on a replica (WAIT) when the master has one. An unconfirmed `sending` is not sent: it is moved
 * back to `claimed` (if the master still answers) and `startSending` throws
 * JournalNotReplicatedError, which the sender's retries treat like an outage — its next try
 * finds `claimed` (the write was lost with the old master, or moved back) and writes it again,
 * or finds its own `sending` and confirms it. An unconfirmed `answered` throws the same way and
 * is written again until confirmed; if the answer is lost after all, the confirmed `sending`
 * makes whoever finds the request look it up by its name, never resend.
 */

export const JOURNAL_STATES = ["claimed", "sending", "answered"] as const;
export type JournalState = (typeof JOURNAL_STATES)[number];

/** What the provider said: it took the order, or it certainly refused it (nothing ordered). */
export type PlacementAnswer =
  | { outcome: "placed"; result: PlacementResult }
  | { outcome: "refused"; error: PlacementError };

export interface JournalEntry {
  attempt: number;
  state: JournalState;
  /** The worker allowed to move a `claimed` entry on; "" until the claim's winner names itself. */
  owner: string;
  at: string;
  /** The answer recorded for this attempt, if any. */
  answer?: PlacementAnswer;
}

export interface PlacementJournalOptions {
  redis: Redis;
  /** The jobs' prefix (the same as the placement queue's). */
  prefix: string;
  now?: () => Date;
  /** How long an entry is kept after its last change. Default 100 days (as approval records). */
  retentionDays?: number;
  /** How long `sending` and `answered` wait for a replica (WAIT). Default 1 s. */
  replicaWaitMs?: number;
}

/** A journal step the master took but no replica confirmed: it may not survive a failover. */
export class JournalNotReplicatedError extends Error {
  constructor(step: string, waitMs: number) {
    super(`placement journal: "${step}" was not confirmed by a replica within ${waitMs} ms`);
    this.name = "JournalNotReplicatedError";
  }
}

/** ARGV: attempt, at, ttlMs. Starts the attempt's entry unless one for it (or later) exists. */
const INTEND = `
local current = tonumber(redis.call('HGET', KEYS[1], 'attempt') or '0')
if current >= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'attempt', ARGV[1], 'state', 'claimed', 'owner', '', 'at', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`;

/**
 * ARGV: attempt, from state, expected owner, to state, new owner, at, ttlMs.
 * 1 when moved, or when it already is as this step would leave it (a resent command); else 0.
 */
const MOVE = `
if redis.call('HGET', KEYS[1], 'attempt') ~= ARGV[1] then return 0 end
local state = redis.call('HGET', KEYS[1], 'state')
local owner = redis.call('HGET', KEYS[1], 'owner') or ''
if state == ARGV[4] and owner == ARGV[5] then return 1 end
if state ~= ARGV[2] or owner ~= ARGV[3] then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[4], 'owner', ARGV[5], 'at', ARGV[6])
redis.call('PEXPIRE', KEYS[1], ARGV[7])
return 1
`;

/**
 * ARGV: attempt, answer JSON, at, ttlMs. Always keeps the answer (field answer.<attempt>); moves
 * the entry to `answered` unless a later attempt has started (then returns 2, else 1).
 */
const ANSWER = `
redis.call('HSET', KEYS[1], 'answer.' .. ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
local current = tonumber(redis.call('HGET', KEYS[1], 'attempt') or '0')
if current > tonumber(ARGV[1]) then return 2 end
redis.call('HSET', KEYS[1], 'attempt', ARGV[1], 'state', 'answered', 'at', ARGV[3])
return 1
`;

/** The journal's scripts, by the ioredis command names replicas know them by. */
const SCRIPTS = {
  intend: ["placementJournalIntend", INTEND, 1],
  move: ["placementJournalMove", MOVE, 1],
  answer: ["placementJournalAnswer", ANSWER, 1],
} as const satisfies Record<string, ScriptSpec>;

/** A larger provider record is replaced by a marker (as the approval store does; ids stay). */
const MAX_RECORD_BYTES = 16 * 1024;

export class PlacementJournal {
  private readonly redis: Redis;
  private readonly prefix: string;
  private readonly now: () => Date;
  private readonly ttlMs: number;
  private readonly replicaWaitMs: number;
  private readonly scripts: Record<keyof typeof SCRIPTS, Script>;

  constructor(options: PlacementJournalOptions) {
    this.redis = options.redis;
    this.prefix = options.prefix;
    this.now = options.now ?? (() => new Date());
    this.ttlMs = Math.round((options.retentionDays ?? 100) * DAY_MS);
    this.replicaWaitMs = options.replicaWaitMs ?? REPLICA_WAIT_MS;
    this.scripts = defineScripts(this.redis, SCRIPTS);
  }

  /** The entry as it is, or null when there is none (or it cannot be read: treated as none). */
  async read(approvalId: string): Promise<JournalEntry | null> {
    const fields = await this.redis.hgetall(this.key(approvalId));
    const attempt = Number(fields.attempt);
    const state = fields.state as JournalState;
    if (!Number.isInteger(attempt) || attempt < 1 || !JOURNAL_STATES.includes(state)) return null;
    const answer = parseAnswer(fields[`answer.${attempt}`]);
    return {
      attempt,
      state,
      owner: fields.owner ?? "",
      at: fields.at ?? "",
      ...(answer ? { answer } : {}),
    };
  }

  /**
   * Before the store's claim: "attempt `attempt` is being claimed, nothing sent". Written first
   * so that a crash right after the claim leaves `claimed`, never a claim without a journal
   * (which only a version without the journal leaves, and which is looked up, not resent).
   */
  async intend(approvalId: string, attempt: number): Promise<void> {
    await this.scripts.intend([this.key(approvalId)], [attempt, this.stamp(), this.ttlMs]);
  }

  /**
   * `claimed` by `expectedOwner` → `claimed` by `owner`: the claim's winner naming itself
   * (expected ""), or a worker taking over a claim whose worker is presumed gone. Like every
   * step: true when done (or already done by this caller), false when the entry is not as
   * expected.
   */
  async own(
    approvalId: string,
    attempt: number,
    owner: string,
    expectedOwner: string,
  ): Promise<boolean> {
    return this.move(approvalId, attempt, ["claimed", expectedOwner], ["claimed", owner]);
  }

  /**
   * `claimed` by `owner` → `sending`. Only a `true` here allows the request to leave. Throws
   * JournalNotReplicatedError (after moving it back to `claimed`) when the master has replicas
   * and none confirmed it: the request must not leave on a step a failover could undo.
   */
  async startSending(approvalId: string, attempt: number, owner: string): Promise<boolean> {
    const write = await confirmedWrite(
      this.redis,
      () => this.move(approvalId, attempt, ["claimed", owner], ["sending", owner]),
      this.replicaWaitMs,
    );
    if (!write.value || write.confirmed) return write.value;
    // Nothing was sent: say so, so that nobody who finds the entry looks up in vain (best
    // effort: if the master is gone, so is the unconfirmed `sending`, most likely).
    await this.move(approvalId, attempt, ["sending", owner], ["claimed", owner]).catch(() => false);
    throw new JournalNotReplicatedError("sending", this.replicaWaitMs);
  }

  /**
   * Records the provider's answer for `attempt` (always kept). `"newer-attempt"`: the request
   * has been claimed again since (a person placed it again), so this answer belongs to history.
   */
  async recordAnswer(
    approvalId: string,
    attempt: number,
    answer: PlacementAnswer,
  ): Promise<"recorded" | "newer-attempt"> {
    const write = await confirmedWrite(
      this.redis,
      () =>
        this.scripts.answer(
          [this.key(approvalId)],
          [attempt, answerJson(answer), this.stamp(), this.ttlMs],
        ),
      this.replicaWaitMs,
    );
    if (!write.confirmed) throw new JournalNotReplicatedError("answered", this.replicaWaitMs);
    return write.value === 2 ? "newer-attempt" : "recorded";
  }

  key(approvalId: string): string {
    return stateKey(this.prefix, "placement", "journal", approvalId);
  }

  private async move(
    approvalId: string,
    attempt: number,
    [fromState, fromOwner]: [JournalState, string],
    [toState, toOwner]: [JournalState, string],
  ): Promise<boolean> {
    const reply = await this.scripts.move(
      [this.key(approvalId)],
      [attempt, fromState, fromOwner, toState, toOwner, this.stamp(), this.ttlMs],
    );
    return reply === 1;
  }

  private stamp(): string {
    return this.now().toISOString();
  }
}

function answerJson(answer: PlacementAnswer): string {
  if (answer.outcome !== "placed") return JSON.stringify(answer);
  const recordJson = JSON.stringify(answer.result.record ?? null) ?? "null";
  const bytes = Buffer.byteLength(recordJson);
  if (bytes <= MAX_RECORD_BYTES) return JSON.stringify(answer);
  const record = { omitted: `provider record larger than ${MAX_RECORD_BYTES} bytes`, bytes };
  return JSON.stringify({ ...answer, result: { ...answer.result, record } });
}

function parseAnswer(json: string | undefined): PlacementAnswer | undefined {
  if (!json) return undefined;
  try {
    const value = JSON.parse(json) as { outcome?: unknown; result?: unknown; error?: unknown };
    if (value.outcome === "placed") {
      const result = placementResultSchema.safeParse(value.result);
      if (result.success) return { outcome: "placed", result: result.data };
    } else if (value.outcome === "refused") {
      const error = placementErrorSchema.safeParse(value.error);
      if (error.success) return { outcome: "refused", error: error.data };
    }
  } catch {
    // An unreadable answer is no answer: the request is then looked up, never resent.
  }
  return undefined;
}
