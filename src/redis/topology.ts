import { Redis, type RedisOptions } from "ioredis";
import { createClusterConnection } from "./cluster.js";

/**
 * Where Redis is, and the one way every part of the bot connects to it (issue 31). The
 * configuration (src/config.ts) says which topology runs; `connect(kind, name)` makes a
 * connection of one kind on it. Nothing else calls `new Redis(...)` for the bot: the approvals
 * store, the replay guard, health, the jobs' queues, workers (BullMQ duplicates a worker's
 * connection for its blocking commands, with these options) and the provider rate limiter all
 * get theirs here, so all of them follow a Sentinel failover by themselves:
 *
 * - `single`: one Redis at REDIS_URL (as before).
 * - `sentinel`: REDIS_SENTINELS are asked where the master named REDIS_SENTINEL_MASTER is; REDIS_URL
 *   gives only the password and the database. A connection whose master died reconnects and asks
 *   the sentinels again (every 0.1–2 s, forever) until they name the new master and it answers as
 *   a master; a command answered READONLY (a connection still on a master demoted to replica)
 *   reconnects and is sent again (`reconnectOnError`).
 * - `cluster`: REDIS_CLUSTER_NODES seeds (parsed and validated by config.ts): an ioredis Cluster
 *   (src/redis/cluster.ts), which follows slot moves and a master's failover by itself; every key
 *   is hash-tagged so each script stays in one slot (src/redis/layout/README.md).
 */

export interface RedisAddress {
  host: string;
  port: number;
}

export type RedisTopologyConfig =
  | { mode: "single"; url: string }
  | { mode: "sentinel"; url: string; sentinels: RedisAddress[]; masterName: string }
  | { mode: "cluster"; url: string; nodes: RedisAddress[] };

export type RedisMode = RedisTopologyConfig["mode"];

/**
 * What a connection is for; each kind wants its own failure behaviour:
 * - `requests`: the Slack request path (approvals store, replay guard, health). No offline queue:
 *   while Redis is away a command fails at once ("temporarily unavailable") instead of waiting
 *   in memory and running minutes later — a click the person was told did nothing must not be
 *   applied when Redis returns (test/faults/redis.test.ts). Connects on `connect()`.
 * - `commands`: the jobs' queues, outboxes, tracking records, placement journal, rate limiter.
 *   A command fails after a few reconnect attempts, so enqueueing while Redis is gone errors
 *   instead of hanging past Slack's 3-second ack.
 * - `workers`: BullMQ workers (`maxRetriesPerRequest: null`, BullMQ's requirement): blocking
 *   commands wait through a restart or failover rather than fail and lose their place.
 */
export type ConnectionKind = "requests" | "commands" | "workers";

export interface RedisTopology {
  readonly config: RedisTopologyConfig;
  readonly mode: RedisMode;
  /** A new connection of `kind`, named `name` in CLIENT LIST. */
  connect(kind: ConnectionKind, name?: string): Redis;
  /** Where Redis is, for messages: no password. */
  describe(): string;
}

/** Reconnect forever, never more slowly than every 2 s: a restarted or promoted Redis is picked up fast. */
const retryStrategy = (times: number) => Math.min(100 * 2 ** times, 2_000);

/**
 * A command refused with READONLY went to a master that has since been demoted (the failover
 * happened under an open connection): reconnect — the sentinels then name the new master — and
 * send the command again (2). Anything else is the command's own error.
 */
export function reconnectOnReadOnly(error: Error): 2 | false {
  return error.message.startsWith("READONLY") ? 2 : false;
}

const KIND_OPTIONS: Record<ConnectionKind, RedisOptions> = {
  requests: { lazyConnect: true, maxRetriesPerRequest: 2, enableOfflineQueue: false },
  commands: { maxRetriesPerRequest: 3 },
  workers: { maxRetriesPerRequest: null },
};

export function redisTopology(config: RedisTopologyConfig): RedisTopology {
  return {
    config,
    mode: config.mode,
    connect(kind, name) {
      const options: RedisOptions = {
        ...KIND_OPTIONS[kind],
        connectionName: name,
        retryStrategy,
        reconnectOnError: reconnectOnReadOnly,
      };
      if (config.mode === "cluster")
        return createClusterConnection(config.nodes, kind, name, config.url);
      return config.mode === "single"
        ? new Redis(config.url, options)
        : new Redis({ ...sentinelOptions(config), ...options });
    },
    describe: () => describeTopology(config),
  };
}

/** The one-host topology of a URL (tests, benchmarks, `startJobs({ redisUrl })`). */
export function singleRedis(url: string): RedisTopology {
  return redisTopology({ mode: "single", url });
}

/** What REDIS_URL still says when something else says where Redis is: password, user, database. */
export function credentialsOf(url: string): Pick<RedisOptions, "username" | "password" | "db"> {
  const parsed = new URL(url);
  const db = Number(parsed.pathname.replace(/^\//, "") || "0");
  return {
    ...(parsed.username ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password ? { password: decodeURIComponent(parsed.password) } : {}),
    db: Number.isInteger(db) ? db : 0,
  };
}

/** A Sentinel-managed master's connection options. */
function sentinelOptions(config: Extract<RedisTopologyConfig, { mode: "sentinel" }>): RedisOptions {
  const credentials = credentialsOf(config.url);
  return {
    ...credentials,
    sentinels: config.sentinels,
    name: config.masterName,
    role: "master",
    // Sentinels protected by the same password as the data nodes (the usual set-up).
    ...(credentials.password ? { sentinelPassword: credentials.password } : {}),
    // No `failoverDetector`: in ioredis 6.0 the detector of a connection whose master died
    // can fire (+switch-master) while that connection is already reconnecting, which aborts
    // the reconnect for good ("Connection is closed", status "end": the bot would need a
    // restart). The failover suite saw it. A dead master closes the socket (reconnect, ask
    // the sentinels, which name the new master once elected; `role: "master"` refuses a
    // replica), and a demoted one answers writes READONLY (below), so nothing is missed.
    // The sentinels each tried in turn, then again from the first, forever.
    sentinelRetryStrategy: retryStrategy,
    // Learn sentinels added later from the ones configured.
    updateSentinels: true,
    // A sentinel that does not answer in 2 s is skipped for the next one.
    sentinelCommandTimeout: 2_000,
    connectTimeout: 5_000,
  };
}

function describeTopology(config: RedisTopologyConfig): string {
  switch (config.mode) {
    case "single":
      return redactUrl(config.url);
    case "sentinel":
      return `master "${config.masterName}" via sentinels ${config.sentinels.map(addressText).join(",")}`;
    case "cluster":
      return `cluster seeds ${config.nodes.map(addressText).join(",")}`;
  }
}

export function addressText(address: RedisAddress): string {
  return `${address.host}:${address.port}`;
}

/** A Redis URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "the configured REDIS_URL";
  }
}
