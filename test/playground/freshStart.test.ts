import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startBot } from "../../src/bot.js";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/log.js";
import { startPlaygroundAfresh } from "../../src/playground/index.js";
import { deleteKeysMatching } from "../../src/redis/keys.js";

// The local playground starts a fresh sandbox each time, so its Redis keys belong to one run:
// they are removed at start-up — its own prefix only, never a neighbour's.

const REDIS_URL = "redis://127.0.0.1:6379";

function recordingLogger() {
  const lines: string[] = [];
  const logger = createLogger({
    level: "info",
    destination: new Writable({
      write(chunk, _encoding, callback) {
        lines.push(...chunk.toString().split("\n").filter(Boolean));
        callback();
      },
    }),
  });
  return { logger, lines };
}

describe("the playground starts afresh", () => {
  // Every key of this file lives under `root`; a glob character in the prefix proves that only
  // the literal prefix is matched (unescaped, `[pg]` would also match a neighbour "p").
  const root = `test:${randomBytes(6).toString("hex")}`;
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    await deleteKeysMatching(redis, `${root}:*`);
    await redis.quit();
  });

  it("removes the keys under its prefix, only those, and logs how many", async () => {
    const prefix = `${root}:[pg]`;
    await redis.set(`${prefix}:approvals:request:1`, "old run");
    await redis.zadd(`${prefix}:approvals:status:pending`, 1, "1");
    const neighbours = [`${root}:p:approvals:request:1`, `${prefix}x:a`, `${root}:[pg]`];
    for (const key of neighbours) await redis.set(key, "not the playground's");

    const { logger, lines } = recordingLogger();
    expect(await startPlaygroundAfresh(redis, prefix, logger)).toBe(2);
    expect(await redis.exists(`${prefix}:approvals:request:1`)).toBe(0);
    expect(await redis.exists(`${prefix}:approvals:status:pending`)).toBe(0);
    for (const key of neighbours) expect(await redis.get(key), key).toBe("not the playground's");
    expect(lines.join("\n")).toContain("playground starts afresh: removed 2 Redis keys");
  });

  it("clears the previous run's state when the local playground starts, not a deployment's", async () => {
    const prefix = `${root}:run`;
    await redis.set(`${prefix}:approvals:request:ghost`, "from the previous run");
    await redis.set(`${root}:deployment:approvals:request:1`, "a real deployment's");

    const { logger, lines } = recordingLogger();
    const config = { ...loadConfig({ REDIS_URL, LOG_LEVEL: "info" }), port: 0 };
    expect(config.slack.mode).toBe("playground");
    expect(config.provider.kind).toBe("sandbox");
    const bot = await startBot({ config, logger, redisPrefix: prefix });
    try {
      expect(await redis.exists(`${prefix}:approvals:request:ghost`)).toBe(0);
      expect(await bot.services.approvals.store.listPending()).toEqual([]);
      expect(lines.join("\n")).toContain(
        "playground starts afresh: removed 1 Redis key of the previous run",
      );
    } finally {
      await bot.stop();
    }
    expect(await redis.get(`${root}:deployment:approvals:request:1`)).toBe("a real deployment's");
  });
});
