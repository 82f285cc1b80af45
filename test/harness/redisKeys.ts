import type { Redis } from "ioredis";

/**
 * Deletes every key matching `pattern` and says how many went. Tests and benchmarks leave Redis
 * as they found it; this is the one place that does it. SCAN (ioredis' scanStream) rather than
 * KEYS, and UNLINK rather than DEL, so a large clean-up never blocks the shared Redis.
 */
export async function deleteKeysMatching(redis: Redis, pattern: string): Promise<number> {
  let deleted = 0;
  for await (const keys of redis.scanStream({ match: pattern, count: 1000 })) {
    const batch = keys as string[];
    if (batch.length > 0) deleted += await redis.unlink(...batch);
  }
  return deleted;
}
