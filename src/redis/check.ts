import type { Redis } from "ioredis";

/**
 * Approvals and tracked orders live only in Redis: it must persist them (AOF) and must never
 * evict a key to make room. These are operator settings the bot cannot change, so it checks
 * them at start-up and warns — it does not refuse to start (a developer's throw-away Redis is fine).
 */
export async function redisWarnings(redis: Redis): Promise<string[]> {
  const read = async (name: string): Promise<string | undefined> => {
    const reply = (await redis.config("GET", name)) as unknown;
    return Array.isArray(reply) ? (reply[1] as string | undefined) : undefined;
  };
  try {
    const [appendonly, policy] = await Promise.all([read("appendonly"), read("maxmemory-policy")]);
    const warnings: string[] = [];
    if (appendonly !== "yes") {
      warnings.push(
        "Redis persistence (AOF) is off: a Redis restart loses approvals and tracked orders. Set appendonly yes.",
      );
    }
    if (policy !== "noeviction") {
      warnings.push(
        `Redis maxmemory-policy is ${policy ?? "unknown"}: under memory pressure it may evict approvals and jobs. Set maxmemory-policy noeviction.`,
      );
    }
    return warnings;
  } catch {
    // Managed Redis services often disable CONFIG.
    return [
      "Could not read the Redis configuration (CONFIG GET refused): make sure AOF is on and maxmemory-policy is noeviction.",
    ];
  }
}
