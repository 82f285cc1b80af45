import { Cluster, Redis } from "ioredis";
import { inject } from "vitest";

declare module "vitest" {
  export interface ProvidedContext {
    /** REDIS_CLUSTER_NODES of the suite's own cluster (test/harness/clusterSetup.ts). */
    redisClusterNodes?: string;
  }
}

/**
 * The Redis topology the end-to-end harness runs on: the shared Redis on 6379 by default, or the
 * three-master cluster `npm run test:cluster` starts (vitest.cluster.config.ts provides its
 * seeds). startTestBot gives the bot REDIS_CLUSTER_NODES then, and its clean-up reaches every
 * master — so the same test files run on both.
 */
export function clusterSeeds(): string | undefined {
  return inject("redisClusterNodes") || undefined;
}

/** A connection to where the harness's bots keep their keys (disconnect it when done). */
export function harnessRedis(): Redis {
  const seeds = clusterSeeds();
  if (!seeds) return new Redis("redis://127.0.0.1:6379");
  const nodes = seeds.split(",").map((seed) => {
    const [host = "127.0.0.1", port = "0"] = seed.split(":");
    return { host, port: Number(port) };
  });
  // Typed as a Redis as the bot's own cluster connections are (src/redis/cluster.ts).
  return new Cluster(nodes) as unknown as Redis;
}
