import type { Redis } from "ioredis";

/**
 * Deletes every key matching `pattern` and says how many went. SCAN (ioredis' scanStream)
 * rather than KEYS, and UNLINK rather than DEL, so a large clean-up never blocks a shared
 * Redis. Used by the playground's fresh start and by tests and benchmarks, which leave Redis
 * as they found it.
 */
export async function deleteKeysMatching(redis: Redis, pattern: string): Promise<number> {
  let deleted = 0;
  for await (const keys of redis.scanStream({ match: pattern, count: 1000 })) {
    const batch = keys as string[];
    if (batch.length > 0) deleted += await redis.unlink(...batch);
  }
  return deleted;
}

/** A SCAN pattern matching `prefix` literally: its glob characters (`*?[]\`) are escaped. */
export function literalPattern(prefix: string): string {
  return prefix.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}
