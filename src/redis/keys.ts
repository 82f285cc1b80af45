import type { Cluster, Redis } from "ioredis";

/**
 * Every key matching `pattern`, in batches. SCAN (ioredis' scanStream) rather than KEYS, so a
 * large key space never blocks a shared Redis. On a Redis Cluster a SCAN sees one node only: each
 * master is scanned in turn (src/redis/layout/README.md).
 */
export async function* scanKeys(redis: Redis, pattern: string): AsyncGenerator<string[]> {
  for (const node of scannedNodes(redis)) {
    for await (const keys of node.scanStream({ match: pattern, count: 1000 })) {
      const batch = keys as string[];
      if (batch.length > 0) yield batch;
    }
  }
}

/** The connections a SCAN must visit: the Redis itself, or each master of a cluster. */
function scannedNodes(redis: Redis): Redis[] {
  // A cluster connection is typed as a Redis where the bot passes one around.
  return redis.isCluster ? (redis as unknown as Cluster).nodes("master") : [redis];
}

/**
 * Deletes every key matching `pattern` and says how many went. UNLINK rather than DEL, so a
 * large clean-up never blocks a shared Redis; one key per UNLINK on a cluster, where a batch
 * from one node's SCAN spans slots (one multi-key UNLINK would be refused as CROSSSLOT). Used by
 * the playground's fresh start and by tests and benchmarks, which leave Redis as they found it.
 */
export async function deleteKeysMatching(redis: Redis, pattern: string): Promise<number> {
  let deleted = 0;
  for await (const batch of scanKeys(redis, pattern)) {
    if (!redis.isCluster) {
      deleted += await redis.unlink(...batch);
      continue;
    }
    const counts = await Promise.all(batch.map((key) => redis.unlink(key)));
    deleted += counts.reduce((sum, n) => sum + n, 0);
  }
  return deleted;
}

/** A SCAN pattern matching `prefix` literally: its glob characters (`*?[]\`) are escaped. */
export function literalPattern(prefix: string): string {
  return prefix.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}
