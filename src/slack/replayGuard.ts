import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import { within } from "../domain/deadline.js";
import { DeadlineExceededError } from "../domain/errors.js";
import type { Logger } from "../log.js";

/**
 * Signatures of Slack requests already accepted, so an identical signed request sent again
 * (a replay) is refused. A signature covers the timestamp and the body, so Slack's own retries,
 * signed anew at each delivery, never look like a replay.
 */
export interface SeenSignatures {
  /**
   * True the first time `signature` is offered; false when it was offered in the last
   * `rememberSeconds` (or when it cannot be remembered: see MemorySeenSignatures' bound).
   */
  firstSighting(signature: string, rememberSeconds: number): Promise<boolean>;
}

/** How long a replica may wait for Redis before it answers from its own memory (Slack's 3 s ack). */
const REDIS_TIMEOUT_MS = 1_000;

/**
 * Shared by every replica: one `SET key NX EX` per accepted request under the bot's key prefix,
 * `<prefix>:slack:seen:<sha256 of the signature>` (64 hex characters, about 100 bytes a key,
 * gone after its TTL).
 *
 * When Redis does not answer, the signature is remembered in this process instead, on purpose
 * rather than refusing with 503: the bot answers "temporarily unavailable" to every request while
 * Redis is down and `/connect help` as usual (test/faults/redis.test.ts), and Slack would show
 * its own "dispatch_failed" instead. What a replay could do in that moment is small: a replay to
 * this replica is still refused; one to another replica can run read-only work only, because
 * everything that changes state (approvals, orders, tracking) needs the same unavailable Redis.
 */
export class RedisSeenSignatures implements SeenSignatures {
  private readonly local = new MemorySeenSignatures();

  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly logger: Logger,
  ) {}

  async firstSighting(signature: string, rememberSeconds: number): Promise<boolean> {
    const key = `${this.keyPrefix}:slack:seen:${createHash("sha256").update(signature).digest("hex")}`;
    try {
      const answer = await within(
        this.redis.set(key, "1", "EX", rememberSeconds, "NX"),
        REDIS_TIMEOUT_MS,
        (): never => {
          throw new DeadlineExceededError(REDIS_TIMEOUT_MS);
        },
      );
      return answer === "OK";
    } catch (error) {
      this.logger.warn(
        { err: error },
        "replay check: Redis unavailable, the request's signature is remembered in this process only",
      );
      return this.local.firstSighting(signature, rememberSeconds);
    }
  }
}

/** At most this many signatures in one process: far above Slack's traffic in ten minutes. */
const MEMORY_LIMIT = 50_000;

/**
 * One process's memory of signatures: Redis' stand-in while it is unavailable, and the store of
 * an app started without Redis (tests of the Slack layer). Only correctly signed requests reach
 * it, so only Slack (or whoever holds the signing secret) can fill it; should it ever be full of
 * live entries, it refuses (fail closed) rather than forget a signature early.
 */
export class MemorySeenSignatures implements SeenSignatures {
  /** Signature → when it may be forgotten (ms since the epoch). */
  private readonly until = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  async firstSighting(signature: string, rememberSeconds: number): Promise<boolean> {
    const now = this.now();
    const known = this.until.get(signature);
    if (known !== undefined && known > now) return false;
    if (this.until.size >= MEMORY_LIMIT) this.forgetExpired(now);
    if (this.until.size >= MEMORY_LIMIT) return false;
    this.until.set(signature, now + rememberSeconds * 1000);
    return true;
  }

  private forgetExpired(now: number): void {
    for (const [signature, until] of this.until) {
      if (until <= now) this.until.delete(signature);
    }
  }
}
