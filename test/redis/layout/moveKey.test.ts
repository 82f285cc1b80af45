import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { literalPattern } from "../../../src/redis/keys.js";
import { moveKey } from "../../../src/redis/layout/moveKey.js";
import { deleteKeysMatching } from "../../harness/redisKeys.js";

/** One key moved by a layout migration: renamed, or merged into a key already there. */

let redis: Redis;
const prefix = `test:move-${randomBytes(5).toString("hex")}`;
const key = (name: string) => `${prefix}:${name}`;

beforeAll(() => {
  redis = new Redis("redis://127.0.0.1:6379");
});
afterAll(async () => {
  await deleteKeysMatching(redis, `${literalPattern(prefix)}:*`);
  redis.disconnect();
});

describe("moveKey", () => {
  it("renames a key, keeping its value and time to live", async () => {
    await redis.hset(key("a"), { status: "pending" });
    await redis.pexpire(key("a"), 600_000);
    expect(await moveKey(redis, key("a"), key("b"))).toBe("renamed");
    expect(await redis.exists(key("a"))).toBe(0);
    expect(await redis.hgetall(key("b"))).toEqual({ status: "pending" });
    expect(await redis.pttl(key("b"))).toBeGreaterThan(590_000);
  });

  it("says a key another run moved already is gone, changing nothing", async () => {
    await redis.set(key("moved-to"), "kept");
    expect(await moveKey(redis, key("never-there"), key("moved-to"))).toBe("gone");
    expect(await redis.get(key("moved-to"))).toBe("kept");
  });

  it("merges into a key written under the new name meanwhile, the newer value winning", async () => {
    await redis.set(key("s-old"), "old");
    await redis.set(key("s-new"), "new");
    await redis.hset(key("h-old"), { status: "pending", only: "old" });
    await redis.hset(key("h-new"), { status: "approved" });
    await redis.zadd(key("z-old"), 1, "a", 2, "b");
    await redis.zadd(key("z-new"), 5, "b", 3, "c");
    await redis.sadd(key("set-old"), "x", "y");
    await redis.sadd(key("set-new"), "z");
    await redis.rpush(key("l-old"), "1", "2");
    await redis.rpush(key("l-new"), "3");
    for (const kind of ["s", "h", "z", "set", "l"]) {
      expect(await moveKey(redis, key(`${kind}-old`), key(`${kind}-new`))).toBe("merged");
      expect(await redis.exists(key(`${kind}-old`))).toBe(0);
    }
    expect(await redis.get(key("s-new"))).toBe("new");
    expect(await redis.hgetall(key("h-new"))).toEqual({ status: "approved", only: "old" });
    expect(await redis.zrange(key("z-new"), "0", "-1", "WITHSCORES")).toEqual([
      "a",
      "1",
      "c",
      "3",
      "b",
      "5",
    ]);
    expect((await redis.smembers(key("set-new"))).sort()).toEqual(["x", "y", "z"]);
    expect(await redis.lrange(key("l-new"), 0, -1)).toEqual(["3", "1", "2"]);
  });
});
