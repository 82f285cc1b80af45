import { Cluster, type ClusterOptions, type Redis } from "ioredis";
import type { ConnectionKind, RedisAddress } from "./topology.js";

/**
 * Connections to a Redis Cluster (REDIS_CLUSTER_NODES), made by src/redis/topology.ts's `connect`
 * for its `cluster` mode, one per kind as on a single Redis:
 * - `requests`: the HTTP side's (approvals, replay guard, orders): no offline queue and two
 *   retries, so a click while the cluster cannot answer fails at once instead of running minutes
 *   later (src/redis/topology.ts says why);
 * - `commands`: the jobs' queues and records: a command fails after a few attempts;
 * - `workers`: BullMQ's workers: `maxRetriesPerRequest: null` (BullMQ refuses a worker
 *   connection without it), waiting through a failover rather than losing their place.
 * The seeds are any few of the cluster's nodes; ioredis reads the slot map from them and
 * follows MOVED/ASK redirections and failovers by itself. REDIS_URL still gives the user,
 * password and TLS (`rediss://`) every node is reached with.
 *
 * Returned as ioredis' `Redis` type: a Cluster answers every command the bot sends (each of the
 * bot's scripts and transactions touches one hash slot: src/redis/layout/README.md), and the one
 * thing it lacks, a key-space SCAN, src/redis/keys.ts does per master (`isCluster`).
 */
export function createClusterConnection(
  seeds: readonly RedisAddress[],
  kind: ConnectionKind,
  connectionName: string | undefined,
  redisUrl: string,
): Redis {
  const options: ClusterOptions = {
    redisOptions: {
      ...credentialsOf(redisUrl),
      connectionName,
      maxRetriesPerRequest: kind === "workers" ? null : kind === "requests" ? 2 : 3,
    },
    lazyConnect: kind === "requests",
    enableOfflineQueue: kind !== "requests",
    // Reconnect forever, never more slowly than every 2 s (as on a single Redis).
    clusterRetryStrategy: (times) => Math.min(100 * 2 ** times, 2_000),
  };
  return new Cluster([...seeds], options) as unknown as Redis;
}

/** The user, password and TLS of REDIS_URL (its host, port and database are not used). */
function credentialsOf(redisUrl: string): { username?: string; password?: string; tls?: object } {
  try {
    const url = new URL(redisUrl);
    return {
      ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
      ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
      ...(url.protocol === "rediss:" ? { tls: {} } : {}),
    };
  } catch {
    return {};
  }
}
