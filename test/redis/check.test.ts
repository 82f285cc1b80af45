import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { redisWarnings } from "../../src/redis/check.js";

describe("redisWarnings", () => {
  const redis = new Redis("redis://127.0.0.1:6379", { lazyConnect: true });
  afterAll(async () => {
    await redis.quit();
  });

  it("reports the live Redis's persistence and eviction settings as they are", async () => {
    const [, appendonly] = (await redis.config("GET", "appendonly")) as [string, string];
    const [, policy] = (await redis.config("GET", "maxmemory-policy")) as [string, string];
    const warnings = await redisWarnings(redis);
    expect(warnings.some((w) => w.includes("AOF"))).toBe(appendonly !== "yes");
    expect(warnings.some((w) => w.includes("noeviction"))).toBe(policy !== "noeviction");
  });

  it("says it could not check when CONFIG is refused, instead of failing", async () => {
    const refusing = {
      config: async () => Promise.reject(new Error("ERR unknown command 'CONFIG'")),
    } as unknown as Redis;
    expect(await redisWarnings(refusing)).toEqual([
      expect.stringContaining("Could not read the Redis configuration"),
    ]);
  });
});
