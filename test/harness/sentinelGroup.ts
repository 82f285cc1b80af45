import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { type OwnRedis, startOwnRedis } from "./ownRedis.js";
import { freePort } from "./ports.js";
import { waitFor } from "./waitFor.js";

/**
 * A Redis Sentinel group of the test's own (issue 31): two data nodes (a master and its replica)
 * and three sentinels (quorum 2), on free ports, started and removed by the suite. The shared
 * Redis on 6379 is never part of it. The sentinels' `down-after-milliseconds` (1 s) and
 * `failover-timeout` (3 s) are small, so a SIGKILLed master is replaced in seconds; the same master
 * name can fail over again after twice the failover timeout, so a suite can kill back and forth.
 *
 * `killMaster()` SIGKILLs whichever node the sentinels name; `awaitFailover()` waits until they
 * name the other one and it accepts writes; `restartKilled()` brings the killed node back as the
 * new master's replica (what the sentinels would make of it; its unreplicated writes are
 * discarded by the full resync, as in production) and waits until it is in sync.
 */

export const SENTINEL_MASTER_NAME = "connect-test";

export interface SentinelGroup {
  masterName: string;
  nodes: OwnRedis[];
  sentinelPorts: number[];
  /** The bot's settings for this group: REDIS_SENTINELS, REDIS_SENTINEL_MASTER, REDIS_URL. */
  env: Record<string, string>;
  /** The port of the master the sentinels name now. */
  masterPort(): Promise<number>;
  /** SIGKILLs the current master (no shutdown, no final fsync); resolves with its port. */
  killMaster(): Promise<number>;
  /** Resolves with the new master's port once the sentinels name another master than `oldPort` and it takes writes. */
  awaitFailover(oldPort: number, timeoutMs?: number): Promise<number>;
  /**
   * Makes the master's replica fall behind, as a lagging one does: it processes nothing for `ms`
   * (DEBUG SLEEP), and `ballastMb` of throw-away writes (keys `ballast:*`) then fill the socket
   * buffers between them, so what the master acknowledges next waits in the master's own
   * output buffer — and dies with it if it is killed. Resolves once that is so; `awake` once
   * the replica wakes.
   */
  freezeReplica(ms: number, ballastMb?: number): Promise<{ awake: Promise<unknown> }>;
  /** Restarts every killed node and waits until each is the master's replica, in sync. */
  restartKilled(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
}

const DOWN_AFTER_MS = 1_000;
/**
 * No 5-second pause before a full copy to a (returning) replica (Redis 7's diskless default);
 * DEBUG SLEEP allowed, so a suite can make the replica fall behind for a moment (`freezeReplica`).
 */
const QUICK_SYNC = ["--repl-diskless-sync-delay", "0", "--enable-debug-command", "yes"];
const FAILOVER_TIMEOUT_MS = 3_000;

export async function startSentinelGroup(): Promise<SentinelGroup> {
  const dir = mkdtempSync(join(tmpdir(), "sentinel-group-"));
  const nodes: OwnRedis[] = [];
  const sentinels: ChildProcess[] = [];
  const sentinelPorts: number[] = [];
  // One probe client per port, kept: it reconnects by itself after a kill and a restart.
  const probes = new Map<number, Redis>();
  const probe = (port: number) => {
    let client = probes.get(port);
    if (!client) {
      client = new Redis(port, "127.0.0.1", { maxRetriesPerRequest: 1, retryStrategy: () => 200 });
      client.on("error", () => {});
      probes.set(port, client);
    }
    return client;
  };

  async function stop(): Promise<void> {
    for (const client of probes.values()) client.disconnect();
    await Promise.all(
      sentinels.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode) return resolve();
            child.once("exit", () => resolve());
            child.kill("SIGKILL");
          }),
      ),
    );
    await Promise.all(nodes.map((node) => node.stop()));
    rmSync(dir, { recursive: true, force: true });
  }

  try {
    const quickSync = QUICK_SYNC;
    const master = await startOwnRedis({ args: quickSync });
    nodes.push(master);
    const replica = await startOwnRedis({
      args: [...quickSync, "--replicaof", "127.0.0.1", String(master.port)],
    });
    nodes.push(replica);
    await waitFor(async () => replicaInSync(probe(master.port)), {
      timeoutMs: 10_000,
      description: "the replica in sync",
    });

    for (let index = 0; index < 3; index++) {
      const port = await freePort();
      const config = join(dir, `sentinel-${index}.conf`);
      writeFileSync(
        config,
        [
          `port ${port}`,
          "bind 127.0.0.1",
          `dir ${dir}`,
          `sentinel monitor ${SENTINEL_MASTER_NAME} 127.0.0.1 ${master.port} 2`,
          `sentinel down-after-milliseconds ${SENTINEL_MASTER_NAME} ${DOWN_AFTER_MS}`,
          `sentinel failover-timeout ${SENTINEL_MASTER_NAME} ${FAILOVER_TIMEOUT_MS}`,
          `sentinel parallel-syncs ${SENTINEL_MASTER_NAME} 1`,
          "",
        ].join("\n"),
      );
      const child = spawn("redis-server", [config, "--sentinel", "--loglevel", "warning"], {
        stdio: ["ignore", "ignore", "ignore"],
      });
      const reap = () => child.kill("SIGKILL");
      process.once("exit", reap);
      child.once("exit", () => process.off("exit", reap));
      sentinels.push(child);
      sentinelPorts.push(port);
    }
    // Every sentinel knows the master, the replica and the other two: a failover needs them.
    await waitFor(
      async () => {
        for (const port of sentinelPorts) {
          const fields = await sentinelMasterFields(probe(port));
          if (Number(fields["num-slaves"]) < 1 || Number(fields["num-other-sentinels"]) < 2)
            return false;
        }
        return true;
      },
      { timeoutMs: 20_000, intervalMs: 100, description: "three sentinels that know each other" },
    );
  } catch (error) {
    await stop();
    throw error;
  }

  async function masterPort(): Promise<number> {
    // Any sentinel that answers; the first may be slow to learn of a switch, so ask them all
    // and take the majority.
    const answers = await Promise.all(
      sentinelPorts.map((port) =>
        probe(port)
          .call("SENTINEL", "get-master-addr-by-name", SENTINEL_MASTER_NAME)
          .then((reply) => Number((reply as string[])[1]))
          .catch(() => undefined),
      ),
    );
    const counts = new Map<number, number>();
    for (const port of answers) if (port) counts.set(port, (counts.get(port) ?? 0) + 1);
    const [best] = [...counts.entries()].sort((a, b) => b[1] - a[1]);
    if (!best) throw new Error("no sentinel answered");
    return best[0];
  }
  const nodeOn = (port: number) => {
    const node = nodes.find((n) => n.port === port);
    if (!node) throw new Error(`no node of the group on port ${port}`);
    return node;
  };

  return {
    masterName: SENTINEL_MASTER_NAME,
    nodes,
    sentinelPorts,
    env: {
      REDIS_SENTINELS: sentinelPorts.map((port) => `127.0.0.1:${port}`).join(","),
      REDIS_SENTINEL_MASTER: SENTINEL_MASTER_NAME,
      REDIS_URL: "redis://127.0.0.1:6379/0",
    },
    masterPort,
    async killMaster() {
      const port = await masterPort();
      await nodeOn(port).kill();
      return port;
    },
    async awaitFailover(oldPort, timeoutMs = 30_000) {
      return waitFor(
        async () => {
          const port = await masterPort();
          if (port === oldPort) return false;
          const role = (await probe(port).call("ROLE")) as unknown[];
          return role[0] === "master" ? port : false;
        },
        { timeoutMs, intervalMs: 100, description: `a failover away from port ${oldPort}` },
      );
    },
    async freezeReplica(ms, ballastMb = 32) {
      const master = await masterPort();
      const replica = nodes.find((node) => node.port !== master && node.running);
      if (!replica) throw new Error("the group has no running replica");
      // A connection of its own: DEBUG SLEEP holds it until the replica wakes.
      const sleeper = new Redis(replica.port, "127.0.0.1", { maxRetriesPerRequest: 0 });
      sleeper.on("error", () => {});
      await sleeper.ping();
      const awake = sleeper
        .call("DEBUG", "SLEEP", String(ms / 1000))
        .catch(() => undefined)
        .finally(() => sleeper.disconnect());
      await new Promise((resolve) => setTimeout(resolve, 20));
      const writer = probe(master);
      const megabyte = "x".repeat(1024 * 1024);
      const pipeline = writer.pipeline();
      for (let i = 0; i < ballastMb; i++) pipeline.set(`ballast:${i}`, megabyte);
      await pipeline.exec();
      return { awake };
    },
    async restartKilled(timeoutMs = 30_000) {
      // Back as the master's replica, as the sentinels would make it (they rewrite a node's
      // configuration so): the group has two copies again without waiting for them.
      const port = await masterPort();
      for (const node of nodes) {
        if (!node.running) {
          await node.restart([
            "--repl-diskless-sync-delay",
            "0",
            "--replicaof",
            "127.0.0.1",
            String(port),
          ]);
        }
      }
      await waitFor(
        async () => {
          for (const node of nodes) {
            if (node.port === port) continue;
            const role = (await probe(node.port).call("ROLE")) as unknown[];
            if (role[0] !== "slave" || Number(role[2]) !== port || role[3] !== "connected")
              return false;
          }
          return replicaInSync(probe(port));
        },
        { timeoutMs, intervalMs: 100, description: "the killed node back as the master's replica" },
      );
    },
    stop,
  };
}

/** The master has a replica whose link is up and which has acknowledged everything written. */
async function replicaInSync(master: Redis): Promise<boolean> {
  const info = await master.info("replication");
  const offset = Number(/master_repl_offset:(\d+)/.exec(info)?.[1]);
  const replica = /slave0:.*state=online,offset=(\d+)/.exec(info);
  return replica !== null && Number(replica[1]) >= offset;
}

async function sentinelMasterFields(sentinel: Redis): Promise<Record<string, string>> {
  const reply = (await sentinel.call("SENTINEL", "master", SENTINEL_MASTER_NAME)) as string[];
  const fields: Record<string, string> = {};
  for (let i = 0; i + 1 < reply.length; i += 2) fields[reply[i]!] = reply[i + 1]!;
  return fields;
}
