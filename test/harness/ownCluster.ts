import { type ChildProcess, execFile, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { Redis } from "ioredis";
import { freePort } from "./ports.js";
import { waitFor } from "./waitFor.js";

const run = promisify(execFile);

/**
 * A Redis Cluster of the test's own: `masters` redis-servers started with
 * `--cluster-enabled yes` on free ports (their cluster bus on another free port each,
 * `--cluster-port`), each in its own temporary directory, joined by
 * `redis-cli --cluster create … --cluster-replicas 0 --cluster-yes` (the hash slots split
 * evenly), ready once every node reports `cluster_state:ok`. `stop()` kills them and removes the
 * directories. The shared Redis on 6379 is never touched.
 */
export interface OwnCluster {
  /** `host:port` of every node, as REDIS_CLUSTER_NODES takes them. */
  seeds: string;
  nodes: { host: string; port: number }[];
  /** The nodes' directories (their cluster config and append-only files); removed by stop(). */
  dirs: string[];
  stop(): Promise<void>;
}

export async function startOwnCluster(
  options: { masters?: number; readyMs?: number } = {},
): Promise<OwnCluster> {
  const masters = options.masters ?? 3;
  const readyMs = options.readyMs ?? 20_000;
  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  const nodes: { host: string; port: number }[] = [];

  async function stop(): Promise<void> {
    await Promise.all(
      children.map(async (child) => {
        if (child.exitCode !== null || child.signalCode) return;
        const exited = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGKILL");
        await exited;
      }),
    );
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }

  try {
    for (let i = 0; i < masters; i++) {
      const port = await freePort();
      const busPort = await freePort();
      const dir = mkdtempSync(join(tmpdir(), "own-cluster-"));
      dirs.push(dir);
      const child = spawn(
        "redis-server",
        [
          "--port",
          String(port),
          "--cluster-port",
          String(busPort),
          "--bind",
          "127.0.0.1",
          "--cluster-enabled",
          "yes",
          "--cluster-config-file",
          join(dir, "nodes.conf"),
          "--cluster-node-timeout",
          "5000",
          "--dir",
          dir,
          "--save",
          "",
          "--appendonly",
          "yes",
          "--daemonize",
          "no",
          "--loglevel",
          "warning",
        ],
        { stdio: ["ignore", "ignore", "pipe"] },
      );
      children.push(child);
      // Should the test runner die first, its cluster goes with it instead of lingering.
      const reap = () => child.kill("SIGKILL");
      process.once("exit", reap);
      child.once("exit", () => process.off("exit", reap));
      nodes.push({ host: "127.0.0.1", port });
    }
    await Promise.all(nodes.map((node) => answering(node.port, readyMs)));
    await run("redis-cli", [
      "--cluster",
      "create",
      ...nodes.map((n) => `${n.host}:${n.port}`),
      "--cluster-replicas",
      "0",
      "--cluster-yes",
    ]);
    await Promise.all(nodes.map((node) => clusterOk(node.port, readyMs)));
  } catch (error) {
    await stop();
    throw error;
  }
  return { seeds: nodes.map((n) => `${n.host}:${n.port}`).join(","), nodes, dirs, stop };
}

/** A probe connection that fails fast rather than retrying. */
function probe(port: number): Redis {
  const redis = new Redis(port, "127.0.0.1", {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on("error", () => {});
  return redis;
}

async function answering(port: number, timeoutMs: number): Promise<void> {
  await waitFor(
    async () => {
      const redis = probe(port);
      try {
        await redis.connect();
        return (await redis.ping()) === "PONG";
      } finally {
        redis.disconnect();
      }
    },
    { timeoutMs, intervalMs: 25, description: `cluster node on port ${port} answering` },
  );
}

/** Every node must see all slots served: `cluster_state:ok` in CLUSTER INFO. */
async function clusterOk(port: number, timeoutMs: number): Promise<void> {
  await waitFor(
    async () => {
      const redis = probe(port);
      try {
        await redis.connect();
        const info = (await redis.call("CLUSTER", "INFO")) as string;
        return info.includes("cluster_state:ok");
      } finally {
        redis.disconnect();
      }
    },
    { timeoutMs, intervalMs: 50, description: `cluster_state:ok on port ${port}` },
  );
}
