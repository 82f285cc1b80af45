import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isCodedError, RateLimitWaitTooLongError } from "../../src/domain/errors.js";
import { readProviderFailure } from "../../src/jobs/quotes/providerFailure.js";
import {
  createProviderRateLimiter,
  RateLimiterUnavailableError,
} from "../../src/provider/rateLimit.js";
import { startOwnRedis } from "../harness/ownRedis.js";
import { connect, deleteKeys, runPrefix } from "../jobs/support.js";

/** The largest number of timestamps inside any half-open window [t, t + windowMs). */
function maxInWindow(times: number[], windowMs: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end += 1) {
    while ((sorted[end] ?? 0) - (sorted[start] ?? 0) >= windowMs) start += 1;
    best = Math.max(best, end - start + 1);
  }
  return best;
}

describe("provider rate limiter", () => {
  const prefix = runPrefix("ratelimit");
  let a: Redis;
  let b: Redis;

  beforeAll(() => {
    a = connect();
    b = connect();
  });

  afterAll(async () => {
    await deleteKeys(a, prefix);
    a.disconnect();
    b.disconnect();
  });

  it("never lets more than the rate through in any second, across connections", async () => {
    const rate = 20;
    // Two replicas: separate connections, same key.
    const replicaA = createProviderRateLimiter({ redis: a, prefix, requestsPerSecond: rate });
    const replicaB = createProviderRateLimiter({ redis: b, prefix, requestsPerSecond: rate });
    const started = Date.now();
    const times: number[] = [];
    await Promise.all(
      Array.from({ length: 70 }, async (_, i) => {
        await (i % 2 === 0 ? replicaA : replicaB).acquire();
        times.push(performance.timeOrigin + performance.now());
      }),
    );
    const elapsed = Date.now() - started;

    expect(times).toHaveLength(70);
    expect(maxInWindow(times, 1_000)).toBeLessThanOrEqual(rate);
    // It limits, but does not starve: 70 requests at ~20/s take about 3.5 s.
    expect(elapsed).toBeGreaterThanOrEqual(3_000);
    expect(elapsed).toBeLessThan(6_000);
  });

  it("refuses a caller whose slot is further away than maxWaitMs, reserving nothing", async () => {
    const own = `${prefix}:maxwait`;
    const limiter = createProviderRateLimiter({
      redis: a,
      prefix: own,
      requestsPerSecond: 2,
      maxWaitMs: 1_200,
    });
    // Slots 525 ms apart: 0, 0.525 s and 1.05 s are within the bound; the fourth (1.575 s) is not.
    const results = await Promise.allSettled(Array.from({ length: 4 }, () => limiter.acquire()));
    const refused = results.filter((r) => r.status === "rejected");
    expect(refused).toHaveLength(1);
    expect((refused[0] as PromiseRejectedResult).reason).toBeInstanceOf(RateLimitWaitTooLongError);
    await deleteKeys(a, own);
  });

  it("stops waiting when the caller aborts", async () => {
    const own = `${prefix}:abort`;
    const limiter = createProviderRateLimiter({ redis: a, prefix: own, requestsPerSecond: 1 });
    await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort();
    await expect(waiting).rejects.toThrow(/abort/i);
    await deleteKeys(a, own);
  });

  it("waits out a Redis outage shorter than unavailableWaitMs (a failover), else refuses with nothing sent", async () => {
    const own = await startOwnRedis();
    const redis = new Redis(own.url, { maxRetriesPerRequest: 0, retryStrategy: () => 50 });
    redis.on("error", () => {});
    try {
      const limiter = createProviderRateLimiter({
        redis,
        prefix: `${prefix}:outage`,
        requestsPerSecond: 10,
        unavailableWaitMs: 3_000,
      });
      await limiter.acquire();
      await own.kill();
      // Back within the wait: the request goes, late but once.
      const waiting = limiter.acquire();
      await own.restart();
      await expect(waiting).resolves.toBeUndefined();
      // Away for longer than the wait: refused as not sent (placement fails it, never "unknown").
      await own.kill();
      const error = await limiter.acquire().then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(RateLimiterUnavailableError);
      expect(readProviderFailure(error).outcomeUnknown).toBe(false);
      // Worded as the outage it is, by its code (views/failures.ts), like any storage outage.
      expect(isCodedError(error, "storage_unavailable")).toBe(true);
    } finally {
      redis.disconnect();
      await own.stop();
    }
  });

  it("rejects a nonsensical rate", () => {
    expect(() => createProviderRateLimiter({ redis: a, prefix, requestsPerSecond: 0 })).toThrow(
      RangeError,
    );
  });
});
