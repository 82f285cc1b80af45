import { setTimeout as sleep } from "node:timers/promises";
import type { Redis } from "ioredis";
import { RateLimitWaitTooLongError, StorageUnavailableError } from "../domain/errors.js";
import { defineScript } from "../redis/scripts.js";

/**
 * A global limit on provider requests per second, shared by every worker and replica: one Redis
 * key holding a GCRA "theoretical arrival time" (TAT).
 *
 * Each `acquire()` reserves the next free slot in one Lua step (using Redis' clock, so replicas
 * with skewed clocks agree) and then sleeps until its slot. Slots are `intervalMs` apart with no
 * burst, so within any window of one second at most `requestsPerSecond` requests start.
 *
 * `marginMs` widens the spacing a little: a caller wakes up a few milliseconds after its slot
 * (timers, the event loop, the network), and if the first request of a window wakes late while
 * the last wakes on time, strict spacing would let N+1 requests into one second as seen by the
 * provider. With the default 50 ms, a second holds N requests even when wake-ups differ by 50 ms.
 *
 * The provider documents no rate limit ("Rate limits: not shown"); this protects it (and our
 * key) from bursts, e.g. thousands of tracked orders polled after a restart.
 *
 * The provider client calls it before every request (`beforeRequest`), whoever asks (a person's
 * command, a placement, the tracker): src/bot.ts builds it before the client, on its own Redis
 * connection, so the provider depends on nothing built after it.
 */

export interface ProviderRateLimiterOptions {
  redis: Redis;
  /**
   * Where the limiter's key lives: the jobs' prefix (`keyLayout().jobs`), where it has always
   * been, so replicas of older and newer versions share one limit (src/redis/layout/README.md).
   */
  prefix: string;
  requestsPerSecond: number;
  /** See above. Default 50. */
  marginMs?: number;
  /** A caller whose slot is further away than this is refused instead of queued. Default 60 s. */
  maxWaitMs?: number;
  /**
   * How long a caller waits for the limiter's Redis to answer (an outage, a Sentinel failover)
   * before it is refused with nothing sent. Default 10 s: a failover's few seconds are waited
   * out, a longer outage fails commands in time to tell the person.
   */
  unavailableWaitMs?: number;
  /** The key's name under the prefix, so different limits can coexist. Default "provider". */
  name?: string;
}

/**
 * The limiter's Redis did not answer within its wait (an outage, or a failover longer than
 * `unavailableWaitMs`): refused before sending, like RateLimitWaitTooLongError, so an order refused here
 * is failed with nothing sent — never escalated as an outcome unknown. A CodedError
 * (`storage_unavailable`, src/domain/errors.ts), so every layer words it as the outage it is.
 */
export class RateLimiterUnavailableError extends StorageUnavailableError {
  readonly outcomeUnknown = false;
  readonly userMessage =
    "The bot could not reach its storage to pace requests to the provider; nothing was sent. Try again in a minute.";

  constructor(cause: unknown) {
    super(cause instanceof Error ? cause : new Error(String(cause)));
    this.message = `provider rate limiter: Redis did not answer (${this.cause.message})`;
    this.name = "RateLimiterUnavailableError";
  }
}

/** Backoff between tries of the limiter's Redis step while Redis is away: 100 ms doubling to 2 s. */
const UNAVAILABLE_RETRY_BASE_MS = 100;
const UNAVAILABLE_RETRY_MAX_MS = 2_000;

/**
 * KEYS: tat. ARGV: interval µs, max wait µs.
 * Returns the µs to wait for the reserved slot, or -(wait) when the wait exceeds the maximum
 * (nothing reserved then).
 */
const RESERVE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local wait = tat - now
if wait > tonumber(ARGV[2]) then return -wait end
local nextTat = tat + tonumber(ARGV[1])
redis.call('SET', KEYS[1], string.format('%.0f', nextTat), 'PX', math.ceil((nextTat - now) / 1000) + 1000)
return wait
`;

export interface ProviderRateLimiter {
  /**
   * Resolves when a request may go; rejects when the wait would exceed maxWaitMs, when Redis
   * stays unreachable that long (RateLimiterUnavailableError: nothing sent), or on abort.
   */
  acquire(signal?: AbortSignal): Promise<void>;
  /** The same, shaped for the provider client's `beforeRequest` hook. */
  readonly beforeRequest: () => Promise<void>;
  readonly intervalMs: number;
}

/**
 * The bot's limit when none is configured: the provider documents none, and 10 a second keeps
 * thousands of tracked orders within a day's polling while leaving room for people's commands.
 */
export const DEFAULT_PROVIDER_REQUESTS_PER_SECOND = 10;

/** The spacing of the limiter's slots: `marginMs` (see above) widens the plain 1/rps. */
export function limiterSpacingMs(requestsPerSecond: number, marginMs = 50): number {
  return (1000 + Math.max(0, marginMs)) / requestsPerSecond;
}

export function createProviderRateLimiter(
  options: ProviderRateLimiterOptions,
): ProviderRateLimiter {
  const rps = options.requestsPerSecond;
  if (!Number.isFinite(rps) || rps <= 0) {
    throw new RangeError("requestsPerSecond must be a positive number");
  }
  const maxWaitMs = Math.max(0, options.maxWaitMs ?? 60_000);
  const unavailableWaitMs = Math.max(0, options.unavailableWaitMs ?? 10_000);
  const intervalMs = limiterSpacingMs(rps, options.marginMs);
  // `<prefix>:{ratelimit}:<name>`: the key of the jobs' state layout (src/jobs/queues.ts
  // `stateKey`), its own hash tag on a Redis Cluster.
  const key = `${options.prefix}:{ratelimit}:${options.name ?? "provider"}`;
  const reserve = defineScript(options.redis, "jobsRateLimitReserveV1", RESERVE, 1);

  /**
   * The slot, waiting out a Redis outage or failover for up to `unavailableWaitMs` (the request
   * has not left yet, so waiting is safe; failing here must say nothing was sent).
   */
  async function reserveSlot(signal?: AbortSignal): Promise<number> {
    const deadline = Date.now() + unavailableWaitMs;
    for (let failures = 0; ; failures++) {
      try {
        return Number(
          await reserve([key], [Math.round(intervalMs * 1000), Math.round(maxWaitMs * 1000)]),
        );
      } catch (error) {
        const delay = Math.min(UNAVAILABLE_RETRY_BASE_MS * 2 ** failures, UNAVAILABLE_RETRY_MAX_MS);
        if (Date.now() + delay > deadline) throw new RateLimiterUnavailableError(error);
        await sleep(delay, undefined, { signal });
      }
    }
  }

  async function acquire(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    const result = await reserveSlot(signal);
    if (result < 0) throw new RateLimitWaitTooLongError(-result / 1000);
    const waitMs = result / 1000;
    if (waitMs > 0) await sleep(Math.ceil(waitMs), undefined, { signal });
  }

  return { acquire, beforeRequest: () => acquire(), intervalMs };
}
