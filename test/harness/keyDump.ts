import type { Redis } from "ioredis";
import { literalPattern } from "../../src/redis/keys.js";

/**
 * A Redis key space as plain JSON — key → type, value, TTL — so a store written by one version of
 * the code can be committed and loaded again by a later one (test/fixtures/layout-v0). Plain
 * values rather than DUMP/RESTORE: a DUMP payload is tied to the RDB version of the server that
 * made it, and JSON can be read in a review.
 *
 * Keys are kept relative to the prefix they were written under (`<prefix>` stands for it, in a
 * key name and anywhere in a value), so a load puts the same store under any test's prefix.
 */
export const PREFIX_MARK = "<prefix>";

export type DumpedValue =
  | { type: "string"; value: string }
  | { type: "hash"; value: Record<string, string> }
  | { type: "list"; value: string[] }
  | { type: "set"; value: string[] }
  | { type: "zset"; value: [member: string, score: string][] }
  | { type: "stream"; value: [id: string, fields: string[]][] };

/** A key's value, and its time to live in ms when it has one (relative to the dump). */
export type DumpedKey = DumpedValue & { ttlMs?: number };

export interface KeyDump {
  /** What made it, in words (the fixture's README says how to make it again). */
  madeBy: string;
  keys: Record<string, DumpedKey>;
}

/** Every key under `prefix`, sorted, with `<prefix>` in place of the prefix. */
export async function dumpKeys(redis: Redis, prefix: string, madeBy: string): Promise<KeyDump> {
  const names: string[] = [];
  for await (const batch of redis.scanStream({ match: `${literalPattern(prefix)}*`, count: 1000 }))
    names.push(...(batch as string[]));
  const keys: Record<string, DumpedKey> = {};
  const relative = (text: string) => text.split(prefix).join(PREFIX_MARK);
  for (const name of names.sort()) {
    const value = await readValue(redis, name);
    if (!value) continue;
    const ttl = await redis.pttl(name);
    const marked = JSON.parse(relative(JSON.stringify(value))) as DumpedValue;
    keys[relative(name)] = ttl > 0 ? { ...marked, ttlMs: ttl } : marked;
  }
  return { madeBy, keys };
}

async function readValue(redis: Redis, key: string): Promise<DumpedValue | undefined> {
  const type = await redis.type(key);
  switch (type) {
    case "string":
      return { type, value: (await redis.get(key)) ?? "" };
    case "hash":
      return { type, value: await redis.hgetall(key) };
    case "list":
      return { type, value: await redis.lrange(key, 0, -1) };
    case "set":
      return { type, value: (await redis.smembers(key)).sort() };
    case "zset": {
      const flat = await redis.zrange(key, "0", "-1", "WITHSCORES");
      const pairs: [string, string][] = [];
      for (let i = 0; i < flat.length; i += 2) pairs.push([flat[i]!, flat[i + 1]!]);
      return { type, value: pairs };
    }
    case "stream": {
      const entries = (await redis.xrange(key, "-", "+")) as [string, string[]][];
      return { type, value: entries };
    }
    default:
      // "none": gone between the SCAN and the read.
      return undefined;
  }
}

/**
 * Writes a dump under `prefix` (keys that exist are replaced). Run on a connection to the node
 * that owns the keys (a single Redis, or the old layout's keys on a cluster node are not a case:
 * the old layouts never ran on a cluster).
 */
export async function loadKeys(redis: Redis, dump: KeyDump, prefix: string): Promise<number> {
  const absolute = (text: string) => text.split(PREFIX_MARK).join(prefix);
  for (const [relativeName, dumped] of Object.entries(dump.keys)) {
    const key = absolute(relativeName);
    const value = JSON.parse(absolute(JSON.stringify(dumped))) as DumpedKey;
    await redis.del(key);
    switch (value.type) {
      case "string":
        await redis.set(key, value.value);
        break;
      case "hash":
        await redis.hset(key, value.value);
        break;
      case "list":
        if (value.value.length > 0) await redis.rpush(key, ...value.value);
        break;
      case "set":
        if (value.value.length > 0) await redis.sadd(key, ...value.value);
        break;
      case "zset":
        for (const [member, score] of value.value) await redis.zadd(key, score, member);
        break;
      case "stream":
        for (const [id, fields] of value.value) await redis.xadd(key, id, ...fields);
        break;
    }
    if (value.ttlMs !== undefined) await redis.pexpire(key, value.ttlMs);
  }
  return Object.keys(dump.keys).length;
}
