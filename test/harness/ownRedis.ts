import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redis } from "ioredis";
import { freePort } from "./ports.js";
import { waitFor } from "./waitFor.js";

/**
 * A redis-server of the test's own, which it may SIGKILL: the shared Redis on 6379 must never be
 * killed. It keeps an append-only file fsynced on every write in a temporary directory, as a
 * production Redis for the bot must (without persistence a restart loses every approval, which
 * the bot warns about at start-up), and no RDB snapshots. `restart()` starts it again on the same
 * port and directory, so it comes back with what it had acknowledged before the kill.
 */
export interface OwnRedis {
  port: number;
  url: string;
  /** The directory holding the append-only file; removed by stop(). */
  dir: string;
  /** Whether the server process is running. */
  readonly running: boolean;
  /** SIGKILL, as a crash or an OOM kill would: no shutdown, no final fsync. */
  kill(): Promise<void>;
  /**
   * Starts it again on the same port and directory; resolves once it answers PING. `args`
   * replace the extra arguments it was started with (a returning master's `--replicaof`).
   */
  restart(args?: string[]): Promise<void>;
  /** Kills it (if running) and removes its directory. */
  stop(): Promise<void>;
}

export async function startOwnRedis(
  options: {
    readyMs?: number;
    /** More redis-server arguments (a replica's `--replicaof`, a group's timeouts). */
    args?: string[];
  } = {},
): Promise<OwnRedis> {
  const readyMs = options.readyMs ?? 10_000;
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), "own-redis-"));
  let child: ChildProcess | undefined;

  const isRunning = () => child !== undefined && child.exitCode === null && !child.signalCode;

  let extraArgs = options.args ?? [];
  async function start(): Promise<void> {
    let stderr = "";
    const started = spawn(
      "redis-server",
      [
        "--port",
        String(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "yes",
        "--appendfsync",
        "always",
        "--dir",
        dir,
        "--daemonize",
        "no",
        "--loglevel",
        "warning",
        ...extraArgs,
      ],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    started.stderr?.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-2_000);
    });
    child = started;
    // Should the test runner die first, its Redis goes with it instead of lingering.
    const reap = () => started.kill("SIGKILL");
    process.once("exit", reap);
    started.once("exit", () => process.off("exit", reap));
    const probe = new Redis(port, "127.0.0.1", {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    probe.on("error", () => {});
    try {
      await waitFor(
        async () => {
          if (started.exitCode !== null) {
            throw new Error(`redis-server exited (${started.exitCode}): ${stderr}`);
          }
          try {
            if (probe.status !== "ready") await probe.connect();
            // LOADING while it replays the append-only file: not ready yet.
            return (await probe.ping()) === "PONG";
          } catch {
            probe.disconnect();
            return false;
          }
        },
        { timeoutMs: readyMs, intervalMs: 25, description: `redis-server on port ${port}` },
      );
    } finally {
      probe.disconnect();
    }
  }

  async function kill(): Promise<void> {
    const running = child;
    if (!running || !isRunning()) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGKILL");
    await exited;
  }

  await start().catch((error: unknown) => {
    child?.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
    throw error;
  });
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    dir,
    get running() {
      return isRunning();
    },
    kill,
    async restart(args?: string[]) {
      if (isRunning()) throw new Error("own redis: restart() while it is still running");
      if (args) extraArgs = args;
      await start();
    },
    async stop() {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
