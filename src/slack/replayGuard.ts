import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
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
  /** Lets go of what it holds open (a connection); the app calls it when it stops. */
  close?(): Promise<void>;
}

/** How long a replica may wait for Redis before it answers from its own memory (Slack's 3 s ack). */
const REDIS_TIMEOUT_MS = 1_000;
/** Longer than any signature's window (5 minutes plus a minute of clock skew, requestGuard.ts). */
const LONGEST_WINDOW_MS = 15 * 60_000;

/**
 * Shared by every replica, and kept through a Redis outage: a signature seen by this replica
 * (its memory) or by any replica (Redis) is refused for its whole window, whichever of the two
 * can be asked.
 *
 * - Redis: one `SET key NX EX` per accepted request, `<prefix>:slack:seen:<sha256 of the
 *   signature>` (about 100 bytes a key, gone after its TTL): of any number of replicas, one wins.
 * - Memory: every signature this replica accepted or refused, and every one another replica
 *   accepted, announced on the pub/sub channel `<prefix>:slack:seen` as it happened and kept in
 *   the sorted set `<prefix>:slack:seen-recent` (score: when it may be forgotten), which a
 *   replica reads whenever its feed (re)connects. Memory is asked first, so a replay arriving
 *   while Redis is down is refused by every replica that was listening when it was accepted.
 * - While Redis does not answer, a new signature is accepted from memory (on purpose rather than
 *   refusing with 503: the bot answers "temporarily unavailable" to what needs Redis and
 *   `/connect help` as usual, where Slack would show "dispatch_failed") and kept to be written
 *   to Redis, and announced, with what is left of its window as soon as Redis answers again.
 *
 * What a replica cannot know is in docs/SECURITY.md (a replay during an outage to a replica that
 * was not listening when the signature was accepted; one to another replica of a signature
 * accepted during the same outage).
 */
export class RedisSeenSignatures implements SeenSignatures {
  private readonly memory: MemorySeenSignatures;
  /** Accepted while Redis did not answer, to be written there: digest → until (ms). */
  private readonly unshared = new Map<string, number>();
  /** The subscriber connection that hears what the other replicas accept. */
  private readonly feed: Redis;
  private sharing: Promise<void> | undefined;
  private readonly onRedisReady = () => void this.share();

  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
    /**
     * The subscriber connection: one that waits for Redis rather than failing fast (src/bot.ts
     * makes it on the Redis topology, so it follows Sentinel or a cluster like every other).
     * Default: a duplicate of `redis` with that behaviour (a single Redis or Sentinel only: a
     * cluster client's duplicate takes other arguments).
     */
    feed?: Redis,
  ) {
    this.memory = new MemorySeenSignatures(now);
    // The bot's own connection fails fast while Redis is down (no offline queue); the feed
    // waits for Redis instead, and subscribes again by itself after each reconnection.
    this.feed =
      feed ??
      redis.duplicate({
        lazyConnect: false,
        enableOfflineQueue: true,
        maxRetriesPerRequest: null,
      });
    this.feed.on("error", () => undefined); // the bot's connection logs Redis' failures
    this.feed.on("message", (_channel, message: string) => this.heard(message));
    this.feed.on("ready", () => void this.catchUp());
    this.feed.subscribe(this.channel).catch(() => undefined); // resubscribed on reconnect
    redis.on("ready", this.onRedisReady);
  }

  async firstSighting(signature: string, rememberSeconds: number): Promise<boolean> {
    const digest = digestOf(signature);
    const until = this.now() + rememberSeconds * 1000;
    if (this.memory.knows(digest)) return false;
    let answer: unknown;
    try {
      answer = await this.withinTimeout(
        this.redis.set(this.key(digest), "1", "EX", rememberSeconds, "NX"),
      );
    } catch (error) {
      this.logger.warn(
        { err: error },
        "replay check: Redis unavailable; the signature is remembered here and written to Redis when it answers",
      );
      const first = await this.memory.firstSighting(digest, rememberSeconds);
      if (first) this.unshared.set(digest, until);
      return first;
    }
    // Seen here now, whoever saw it first: a replay during a later outage is refused too.
    this.memory.remember(digest, until);
    if (answer !== "OK") return false;
    await this.announce(digest, until);
    if (this.unshared.size > 0) void this.share();
    return true;
  }

  /** Whether this replica would refuse `signature` without asking Redis (its memory). */
  remembers(signature: string): boolean {
    return this.memory.knows(digestOf(signature));
  }

  async close(): Promise<void> {
    this.redis.off("ready", this.onRedisReady);
    this.feed.disconnect();
  }

  /**
   * Writes what was accepted during an outage to Redis (SET NX with what is left of its
   * window) and announces it, so the other replicas refuse it too. One run at a time; a failed
   * write leaves the rest for the next time Redis answers.
   */
  private share(): Promise<void> {
    this.sharing ??= (async () => {
      try {
        for (const [digest, until] of this.unshared) {
          const left = until - this.now();
          if (left > 0) {
            await this.withinTimeout(this.redis.set(this.key(digest), "1", "PX", left, "NX"));
            await this.announce(digest, until);
          }
          this.unshared.delete(digest);
        }
      } catch (error) {
        this.logger.warn(
          { err: error },
          "replay check: could not yet share signatures seen offline",
        );
      } finally {
        this.sharing = undefined;
      }
    })();
    return this.sharing;
  }

  /** Tells the other replicas (now, and those whose feed connects later within the window). */
  private async announce(digest: string, until: number): Promise<void> {
    try {
      await this.withinTimeout(
        this.redis
          .multi()
          .zadd(this.recentKey, until, digest)
          .zremrangebyscore(this.recentKey, "-inf", this.now())
          .publish(this.channel, `${digest} ${until}`)
          .exec(),
      );
    } catch (error) {
      // Redis has the key: any replica asking Redis refuses it; only memory misses it.
      this.logger.warn({ err: error }, "replay check: could not announce a signature");
    }
  }

  private heard(message: string): void {
    const [digest, until] = message.split(" ");
    if (digest && /^[0-9a-f]{64}$/.test(digest)) this.learn(digest, Number(until));
  }

  /** Another replica's signature, kept no longer than a window could last. */
  private learn(digest: string, until: number): void {
    this.memory.remember(digest, Math.min(until, this.now() + LONGEST_WINDOW_MS));
  }

  /** What the other replicas accepted while this feed was not listening, still in its window. */
  private async catchUp(): Promise<void> {
    try {
      const entries = await this.withinTimeout(
        this.redis.zrangebyscore(this.recentKey, this.now(), "+inf", "WITHSCORES"),
      );
      for (let i = 0; i + 1 < entries.length; i += 2) {
        this.learn(entries[i] as string, Number(entries[i + 1]));
      }
    } catch {
      // The next (re)connection of the feed tries again.
    }
  }

  private get channel(): string {
    return `${this.keyPrefix}:slack:seen`;
  }

  private get recentKey(): string {
    return `${this.keyPrefix}:slack:seen-recent`;
  }

  private key(digest: string): string {
    return `${this.keyPrefix}:slack:seen:${digest}`;
  }

  private async withinTimeout<T>(command: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    try {
      return await Promise.race([
        command,
        new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`no answer within ${REDIS_TIMEOUT_MS} ms`)),
            REDIS_TIMEOUT_MS,
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}

function digestOf(signature: string): string {
  return createHash("sha256").update(signature).digest("hex");
}

/** At most this many signatures in one process: far above Slack's traffic in ten minutes. */
const MEMORY_LIMIT = 50_000;

/**
 * One process's memory of signatures: what RedisSeenSignatures asks first, and the store of an
 * app started without Redis (tests of the Slack layer). Only correctly signed requests reach
 * it, so only Slack (or whoever holds the signing secret) can fill it; should it ever be full of
 * live entries, it refuses (fail closed) rather than forget a signature early.
 */
export class MemorySeenSignatures implements SeenSignatures {
  /** Signature → when it may be forgotten (ms since the epoch). */
  private readonly until = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  async firstSighting(signature: string, rememberSeconds: number): Promise<boolean> {
    if (this.knows(signature)) return false;
    return this.remember(signature, this.now() + rememberSeconds * 1000);
  }

  /** Whether `signature` was seen and its window is not over. */
  knows(signature: string): boolean {
    const known = this.until.get(signature);
    return known !== undefined && known > this.now();
  }

  /** Keeps `signature` until `until` (never shortens); false when memory is full of live ones. */
  remember(signature: string, until: number): boolean {
    if (!(until > this.now())) return true;
    const known = this.until.get(signature);
    if (known === undefined) {
      if (this.until.size >= MEMORY_LIMIT) this.forgetExpired(this.now());
      if (this.until.size >= MEMORY_LIMIT) return false;
    }
    this.until.set(signature, Math.max(known ?? 0, until));
    return true;
  }

  private forgetExpired(now: number): void {
    for (const [signature, until] of this.until) {
      if (until <= now) this.until.delete(signature);
    }
  }
}
