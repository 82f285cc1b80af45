import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { createServer } from "node:net";
import { Cluster, Redis } from "ioredis";
import { describe, expect, it } from "vitest";
import { freePort, startOwnRedis, waitFor } from "./index.js";
import { startOwnCluster } from "./ownCluster.js";
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

  it("startOwnCluster: three masters sharing every slot, then gone with their directories", async () => {
    const own = await startOwnCluster();
    const cluster = new Cluster(own.nodes);
    try {
      expect(own.nodes.map((n) => n.port)).not.toContain(6379);
      const slots = (await cluster.cluster("SLOTS")) as [number, number, ...unknown[]][];
      expect(slots).toHaveLength(3);
      expect(slots.reduce((sum, [from, to]) => sum + (to - from + 1), 0)).toBe(16384);
      // Keys with different hash tags land on different masters; each is read back.
      const tags = Array.from({ length: 12 }, (_, i) => `{tag${i}}:k`);
      for (const key of tags) await cluster.set(key, key);
      const holding = cluster.nodes("master").map((node) => node.dbsize());
      expect((await Promise.all(holding)).filter((n) => n > 0).length).toBe(3);
      for (const key of tags) expect(await cluster.get(key)).toBe(key);
    } finally {
      cluster.disconnect();
      await own.stop();
    }
    for (const dir of own.dirs) expect(existsSync(dir)).toBe(false);
    const probe = new Redis(own.nodes[0]!.port, "127.0.0.1", {
      lazyConnect: true,
      retryStrategy: () => null,
    });
    probe.on("error", () => {});
    await expect(probe.connect()).rejects.toThrow();
    probe.disconnect();
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
