import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { limiterSpacingMs } from "../../src/provider/rateLimit.js";
import { keyLayout } from "../../src/redis/layout/keyLayout.js";
import { startTestBot, type TestBot } from "../harness/botEnv.js";
import { harnessRedis } from "../harness/redisTopology.js";

// Issue 29: the provider's rate limiter is built by src/bot.ts before the provider client, which
// calls it before every request from the first one on (it was bound late, once the jobs
// existed). Its key stays where the jobs kept it, so replicas of older and newer versions
// share one limit.

const RATE = 4;
const CALLS = 5;

describe("the bot's provider client is paced by the shared rate limiter", () => {
  let env: TestBot;
  let redis: Redis;

  beforeAll(async () => {
    env = await startTestBot({ providerRateLimit: { requestsPerSecond: RATE } });
    redis = harnessRedis();
  });
  afterAll(async () => {
    redis?.disconnect();
    await env?.close();
  });

  it("spaces the provider's requests and keeps the limit in the jobs' key", async () => {
    const started = performance.now();
    // One after another: identical reads in flight would be sent once (src/provider/client.ts).
    for (let i = 0; i < CALLS; i++) await env.bot.services.provider.whoami();
    const elapsed = performance.now() - started;

    // Each call waits for its own slot: CALLS - 1 gaps of the limiter's spacing at least.
    expect(elapsed).toBeGreaterThanOrEqual((CALLS - 1) * limiterSpacingMs(RATE) - 50);
    const key = `${keyLayout(env.redisPrefix).jobs}:{ratelimit}:provider`;
    expect(await redis.exists(key)).toBe(1);
  });
});
