import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { freePort, startOwnRedis, waitFor } from "./index.js";
import { deleteKeysMatching } from "./redisKeys.js";

describe("test harness helpers", () => {
  it("freePort gives a port a server can then listen on", async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", resolve);
    });
    await new Promise((resolve) => server.close(resolve));
  });

  it("waitFor resolves with the condition's value once it holds", async () => {
    let calls = 0;
    const value = await waitFor(() => (++calls >= 3 ? `after ${calls}` : undefined), {
      intervalMs: 1,
    });
    expect(value).toBe("after 3");
  });

  it("waitFor times out naming what it waited for and the last error", async () => {
    await expect(
      waitFor(
        () => {
          throw new Error("not yet");
        },
        { timeoutMs: 30, intervalMs: 5, description: "the order to be ACTIVE" },
      ),
    ).rejects.toThrow(
      /Timed out after 30 ms waiting for the order to be ACTIVE \(last error: not yet\)/,
    );
  });

  it("deleteKeysMatching deletes every matching key across SCAN pages and nothing else", async () => {
    const redis = new Redis("redis://127.0.0.1:6379", { maxRetriesPerRequest: 1 });
    const prefix = `test:harness-${randomUUID().slice(0, 8)}`;
    try {
      const pipeline = redis.pipeline();
      for (let i = 0; i < 2_500; i++) pipeline.set(`${prefix}:in:${i}`, "x");
      pipeline.set(`${prefix}:out`, "kept");
      await pipeline.exec();
      expect(await deleteKeysMatching(redis, `${prefix}:in:*`)).toBe(2_500);
      expect(await redis.exists(`${prefix}:in:0`, `${prefix}:in:2499`)).toBe(0);
      expect(await redis.get(`${prefix}:out`)).toBe("kept");
    } finally {
      await redis.del(`${prefix}:out`);
      await redis.quit();
    }
  });

  it("startOwnRedis: a Redis of the test's own that keeps acknowledged writes through a SIGKILL and a restart, then goes away", async () => {
    const own = await startOwnRedis();
    const client = new Redis(own.url, { maxRetriesPerRequest: 1, lazyConnect: true });
    client.on("error", () => {});
    try {
      expect(own.port).not.toBe(6379);
      expect(own.running).toBe(true);
      await client.connect();
      await client.set("kept", "through the kill");
      await own.kill();
      expect(own.running).toBe(false);
      await expect(client.get("kept")).rejects.toThrow();
      await expect(own.restart()).resolves.toBeUndefined();
      expect(own.running).toBe(true);
      // Same port: a client that was configured before the kill finds it again.
      const value = await waitFor(() => client.get("kept").catch(() => undefined), {
        timeoutMs: 10_000,
        description: "the key back after the restart",
      });
      expect(value).toBe("through the kill");
      await expect(own.restart()).rejects.toThrow(/still running/);
    } finally {
      client.disconnect();
      await own.stop();
    }
    expect(own.running).toBe(false);
    expect(existsSync(own.dir)).toBe(false);
  });
});
