import type { Redis } from "ioredis";

/** What moving one key did. */
export type Moved = "renamed" | "merged" | "gone";

/**
 * Moves `from` to `to`, keeping its value and time to live: how a layout migration renames a key.
 *
 * On one Redis (or Sentinel's master) this is RENAMENX: atomic, the value never copied. Where that
 * cannot be used the value is copied by type and `from` deleted, under the migration's lock:
 * - `to` exists already (a replica of the old version wrote its key again after the move began,
 *   or a migration stopped half way): the two are merged, what `to` holds winning where both hold
 *   one thing (a string, a hash field, a sorted set member); list items are appended;
 * - on a Redis Cluster, where the old and the new name are in different hash slots (RENAME
 *   across slots is refused as CROSSSLOT).
 * "gone" when `from` no longer exists (another run moved it).
 */
export async function moveKey(redis: Redis, from: string, to: string): Promise<Moved> {
  if (!redis.isCluster) {
    try {
      if ((await redis.renamenx(from, to)) === 1) return "renamed";
    } catch (error) {
      if (/no such key/i.test((error as Error).message)) return "gone";
      throw error;
    }
  }
  const existed = (await redis.exists(to)) === 1;
  const copied = await copyInto(redis, from, to);
  if (!copied) return "gone";
  const ttl = await redis.pttl(from);
  if (!existed && ttl > 0) await redis.pexpire(to, ttl);
  await redis.del(from);
  return existed ? "merged" : "renamed";
}

/** Copies `from`'s value into `to` (merging, `to` winning); false when `from` does not exist. */
async function copyInto(redis: Redis, from: string, to: string): Promise<boolean> {
  const type = await redis.type(from);
  switch (type) {
    case "string": {
      const value = await redis.get(from);
      if (value !== null) await redis.set(to, value, "NX");
      return true;
    }
    case "hash": {
      const fields = await redis.hgetall(from);
      for (const [field, value] of Object.entries(fields)) await redis.hsetnx(to, field, value);
      return true;
    }
    case "list": {
      const items = await redis.lrange(from, 0, -1);
      if (items.length > 0) await redis.rpush(to, ...items);
      return true;
    }
    case "set": {
      const members = await redis.smembers(from);
      if (members.length > 0) await redis.sadd(to, ...members);
      return true;
    }
    case "zset": {
      const flat = await redis.zrange(from, "0", "-1", "WITHSCORES");
      for (let i = 0; i < flat.length; i += 2) {
        await redis.zadd(to, "NX", flat[i + 1] as string, flat[i] as string);
      }
      return true;
    }
    case "stream": {
      const entries = (await redis.xrange(from, "-", "+")) as [string, string[]][];
      for (const [id, fields] of entries) {
        // An entry older than `to`'s last is refused: `to` already has the newer history.
        await redis.xadd(to, id, ...fields).catch(() => undefined);
      }
      return true;
    }
    default:
      return false;
  }
}
