import type { Redis } from "ioredis";
import type { RedisMode } from "./topology.js";

/**
 * What /healthz tells of Redis besides "it answers" (issue 31): the topology's mode, the master
 * the bot is connected to now, and each replica's state and lag as that master reports them;
 * and `watchMaster`, which notices the master moving (a failover: the metric
 * `redis_failovers_total`, a log line, and a catch-up of the jobs).
 */

export interface RedisReplicaHealth {
  address: string;
  state: string;
  /** Bytes of the replication stream the replica has not acknowledged yet. */
  lagBytes?: number;
  /** Seconds since the replica last acknowledged (INFO's `lag`). */
  lagSeconds?: number;
}

export interface RedisHealth {
  mode: RedisMode;
  /** `host:port` of the master this process is connected to (as the master sees itself). */
  master?: string;
  role?: string;
  replicas?: RedisReplicaHealth[];
}

/** Reads the topology's state from the master the connection is on; partial when a read fails. */
export async function readRedisHealth(redis: Redis, mode: RedisMode): Promise<RedisHealth> {
  const health: RedisHealth = { mode };
  const [address, info] = await Promise.allSettled([
    serverAddress(redis),
    redis.info("replication"),
  ]);
  if (address.status === "fulfilled" && address.value) health.master = address.value;
  if (info.status === "fulfilled") Object.assign(health, readReplication(info.value));
  return health;
}

/** INFO replication: this server's role and, on a master, its replicas with their lag. */
export function readReplication(info: string): Pick<RedisHealth, "role" | "replicas"> {
  const role = /^role:(\w+)/m.exec(info)?.[1];
  const offset = Number(/^master_repl_offset:(\d+)/m.exec(info)?.[1]);
  const replicas: RedisReplicaHealth[] = [];
  for (const line of info.split(/\r?\n/)) {
    const match = /^slave\d+:(.*)$/.exec(line.trim());
    if (!match) continue;
    const fields = Object.fromEntries(
      match[1]!.split(",").map((pair) => pair.split("=") as [string, string]),
    );
    const replicaOffset = Number(fields.offset);
    replicas.push({
      address: `${fields.ip}:${fields.port}`,
      state: fields.state ?? "unknown",
      ...(Number.isFinite(offset) && Number.isFinite(replicaOffset)
        ? { lagBytes: Math.max(0, offset - replicaOffset) }
        : {}),
      ...(fields.lag !== undefined ? { lagSeconds: Number(fields.lag) } : {}),
    });
  }
  return { ...(role ? { role } : {}), ...(role === "master" ? { replicas } : {}) };
}

/**
 * Calls `onMove(from, to)` whenever the connection comes up on another server than before (by
 * the server's own address): with Sentinel, a failover. The first connection only records it.
 * Returns a function that stops watching.
 */
export function watchMaster(redis: Redis, onMove: (from: string, to: string) => void): () => void {
  let current: string | undefined;
  const onReady = () => {
    serverAddress(redis)
      .then((address) => {
        if (!address) return;
        if (current !== undefined && current !== address) onMove(current, address);
        current = address;
      })
      .catch(() => undefined);
  };
  redis.on("ready", onReady);
  if (redis.status === "ready") onReady();
  return () => redis.off("ready", onReady);
}

/** The server's own `host:port` for this connection (CLIENT INFO's `laddr`). */
async function serverAddress(redis: Redis): Promise<string | undefined> {
  const info = String(await redis.call("CLIENT", "INFO"));
  return /\bladdr=(\S+)/.exec(info)?.[1];
}
