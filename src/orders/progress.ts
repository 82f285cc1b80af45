import type { Redis } from "ioredis";
import { storageCall } from "../domain/errors.js";
import { isSlackUserId, MAX_USER_ID } from "../domain/slackIds.js";
import { defineScript } from "../redis/scripts.js";

/**
 * What tracking has said about a placed order, kept per request: the latest status the provider
 * reported and when, and once tracking ended, how (absent while it goes on). Owned here (the
 * store that keeps it); the read model (readModel.ts) and the views read it.
 */
export interface OrderProgress {
  /** The provider's latest status, as it came (escaped when shown). */
  status?: string;
  outcome?: "done" | "failed" | "cancelled" | "stopped";
  /** A short line worth showing with the outcome (the provider's reason). */
  detail?: string;
  /** When tracking last reported (ISO time): the status's change, or the end. */
  changedAt?: string;
  /** Who stopped following it (a Slack user id), for the `stopped` outcome a person chose. */
  stoppedBy?: string;
}

/**
 * What tracking said of a placed order, per request: one Redis hash
 * `<prefix>:<approvalId>` with the latest `status`, `outcome`, `detail`, `at` (ISO time) and
 * `by` (who stopped it), `n` (events so far) and `seen:<eventKey>` = the event's number. An event repeated after a crash gets its number
 * back, so whatever is keyed by it (the card's reply) is said once. Kept as long as approval
 * records (at least 90 days): `/connect approvals all` shows the outcome. Every Redis call goes
 * through `run`: StorageUnavailableError when Redis is out of reach (src/domain/errors.ts).
 */

const TTL_SECONDS = 100 * 24 * 3600;

/**
 * KEYS: the hash. ARGV: event key, status, outcome, detail, ttl, at, by. Returns the event's
 * number. A later event replaces the outcome: an order tracked again after someone stopped it
 * shows how it ended.
 */
const RECORD = `
local seen = redis.call('HGET', KEYS[1], 'seen:' .. ARGV[1])
if seen then return tonumber(seen) end
local n = redis.call('HINCRBY', KEYS[1], 'n', 1)
redis.call('HSET', KEYS[1], 'seen:' .. ARGV[1], n, 'status', ARGV[2], 'outcome', ARGV[3], 'detail', ARGV[4], 'at', ARGV[6], 'by', ARGV[7])
redis.call('EXPIRE', KEYS[1], ARGV[5])
return n
`;

const FIELDS = ["n", "status", "outcome", "detail", "at", "by"] as const;

/** How tracking can end (`OrderProgress["outcome"]`): a state key `placed:<outcome>` is an end. */
export const TRACKING_OUTCOMES: ReadonlySet<string> = new Set<
  NonNullable<OrderProgress["outcome"]>
>(["done", "failed", "cancelled", "stopped"]);

export class ProgressStore {
  private readonly run: <T>(
    call: (redis: Redis, record: ReturnType<typeof defineScript>) => Promise<T>,
  ) => Promise<T>;

  constructor(
    redis: Redis,
    private readonly prefix: string,
  ) {
    const record = defineScript(redis, "ordersProgressRecordV2", RECORD, 1);
    this.run = (call) => storageCall(() => call(redis, record));
  }

  /** Keeps one tracking event; returns its number (the same when the event is repeated). */
  async record(id: string, eventKey: string, progress: OrderProgress): Promise<number> {
    const n = await this.run((_, record) =>
      record(
        [this.key(id)],
        [
          eventKey,
          (progress.status ?? "").slice(0, 200),
          progress.outcome ?? "",
          (progress.detail ?? "").slice(0, 300),
          TTL_SECONDS,
          progress.changedAt ?? new Date().toISOString(),
          progress.stoppedBy ?? "",
        ],
      ),
    );
    return Number(n);
  }

  async get(id: string): Promise<{ progress: OrderProgress; n: number } | undefined> {
    return parse(await this.run((redis) => redis.hmget(this.key(id), ...FIELDS)));
  }

  async many(ids: readonly string[]): Promise<Map<string, OrderProgress>> {
    const out = new Map<string, OrderProgress>();
    if (ids.length === 0) return out;
    const results = await this.run(async (redis) => {
      const pipeline = redis.pipeline();
      for (const id of ids) pipeline.hmget(this.key(id), ...FIELDS);
      const replies = (await pipeline.exec()) ?? [];
      // A pipeline answers an outage per command: raised here, so `run` says what it is.
      const failed = replies.find(([error]) => error);
      if (failed?.[0]) throw failed[0];
      return replies;
    });
    results.forEach(([, fields], index) => {
      const id = ids[index];
      const parsed = parse(fields as (string | null)[]);
      if (id && parsed) out.set(id, parsed.progress);
    });
    return out;
  }

  private key(id: string): string {
    return `${this.prefix}:${id}`;
  }
}

function parse(
  fields: (string | null)[] | undefined,
): { progress: OrderProgress; n: number } | undefined {
  const [n, status, outcome, detail, at, by] = fields ?? [];
  if (!n || !Number.isFinite(Number(n))) return undefined;
  const progress: OrderProgress = {};
  if (status) progress.status = status;
  if (outcome && TRACKING_OUTCOMES.has(outcome))
    progress.outcome = outcome as OrderProgress["outcome"];
  if (detail) progress.detail = detail;
  if (at) progress.changedAt = at;
  const stoppedBy = by ?? undefined;
  if (isSlackUserId(stoppedBy) && stoppedBy.length <= MAX_USER_ID) progress.stoppedBy = stoppedBy;
  return { progress, n: Number(n) };
}
