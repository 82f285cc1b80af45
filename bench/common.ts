import { type ChildProcess, execFileSync, fork } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { cpus, freemem, loadavg, totalmem } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Redis } from "ioredis";
import { deleteKeysMatching } from "../test/harness/redisKeys.js";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
/** Scratch output (CPU profiles); not kept. */
export const RESULTS_DIR = join(ROOT, ".bench-results");
/**
 * Each benchmark's last result, committed beside the report it backs: re-running one benchmark
 * rewrites its own file, and docs/BENCHMARKS.md still shows the others' recorded runs.
 */
export const BENCH_RESULTS_DIR = join(ROOT, "docs", "benchmarks");

/** A whole number from the environment (bigger runs), else the default that fits the budget. */
export function envInt(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw.trim() === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new Error(`${name} must be a whole number ≥ ${min}`);
  return n;
}

export function envList(name: string, fallback: number[]): number[] {
  const raw = process.env[name];
  if (!raw) return fallback;
  return raw.split(",").map((part) => {
    const n = Number(part.trim());
    if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must list positive whole numbers`);
    return n;
  });
}

export interface Machine {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  freeMemoryGiB: number;
  node: string;
  platform: string;
}

export function machine(): Machine {
  const cpu = cpus();
  return {
    cpuModel: cpu[0]?.model.trim() ?? "unknown",
    cores: cpu.length,
    memoryGiB: round(totalmem() / 2 ** 30, 1),
    freeMemoryGiB: round(freemem() / 2 ** 30, 1),
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

export function loadAverage(): [number, number, number] {
  const [a = 0, b = 0, c = 0] = loadavg();
  return [round(a, 2), round(b, 2), round(c, 2)];
}

export function round(n: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

export interface Distribution {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

/** The 0-based index of quantile `q` among `count` sorted values, by nearest rank. */
export function nearestRankIndex(q: number, count: number): number {
  return Math.min(count - 1, Math.ceil(q * count) - 1);
}

/** Nearest-rank percentiles. */
export function distribution(values: readonly number[], digits = 2): Distribution {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) => sorted[nearestRankIndex(q, sorted.length)];
  const mean = sorted.reduce((s, v) => s + v, 0) / Math.max(sorted.length, 1);
  return {
    count: sorted.length,
    p50: round(at(0.5) ?? 0, digits),
    p90: round(at(0.9) ?? 0, digits),
    p99: round(at(0.99) ?? 0, digits),
    max: round(sorted[sorted.length - 1] ?? 0, digits),
    mean: round(mean, digits),
  };
}

export interface ResultEnvelope<T> {
  name: string;
  command: string;
  startedAt: string;
  finishedAt: string;
  durationSeconds: number;
  machine: Machine;
  loadAverageBefore: [number, number, number];
  loadAverageAfter: [number, number, number];
  figures: T;
}

/** The command that repeats this benchmark alone, with the size settings it ran with. */
function benchmarkCommand(name: string): string {
  const settings = Object.entries(process.env)
    .filter(([key]) => key.startsWith("BENCH_"))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => `${key}=${value} `)
    .join("");
  return `${settings}npm run bench -- ${name}`;
}

/** Runs one benchmark and writes `docs/benchmarks/<name>.json`. */
export async function recordBenchmark<T>(name: string, run: () => Promise<T>): Promise<T> {
  const started = new Date();
  const loadBefore = loadAverage();
  const figures = await run();
  const finished = new Date();
  const envelope: ResultEnvelope<T> = {
    name,
    command: benchmarkCommand(name),
    startedAt: started.toISOString(),
    finishedAt: finished.toISOString(),
    durationSeconds: round((finished.getTime() - started.getTime()) / 1000, 1),
    machine: machine(),
    loadAverageBefore: loadBefore,
    loadAverageAfter: loadAverage(),
    figures,
  };
  await mkdir(BENCH_RESULTS_DIR, { recursive: true });
  await writeFile(
    join(BENCH_RESULTS_DIR, `${name}.json`),
    `${JSON.stringify(envelope, null, 2)}\n`,
  );
  return figures;
}

export function printTable(title: string, rows: Array<Record<string, string | number>>): void {
  process.stdout.write(`\n${title}\n`);
  console.table(rows);
}

/** Polls a condition with a short interval until it holds or the deadline passes. */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  options: { timeoutMs: number; intervalMs?: number; what: string },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${options.what}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 20));
  }
}

/** Deletes every key under a prefix (SCAN, never FLUSH*): the bench shares Redis with tests. */
export function deleteKeys(redis: Redis, prefix: string): Promise<number> {
  return deleteKeysMatching(redis, `${prefix}*`);
}

/** Sums MEMORY USAGE over every key under a prefix. */
export async function memoryUnder(
  redis: Redis,
  prefix: string,
  /** Sorts each key into a group (e.g. the order it belongs to). */
  groupOf: (key: string) => string,
): Promise<Map<string, { keys: number; bytes: number }>> {
  let cursor = "0";
  const groups = new Map<string, { keys: number; bytes: number }>();
  do {
    const [next, batch] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
    cursor = next;
    const pipeline = redis.pipeline();
    for (const key of batch) pipeline.memory("USAGE", key, "SAMPLES", "0");
    const sizes = (await pipeline.exec()) ?? [];
    batch.forEach((key, i) => {
      const value = sizes[i]?.[1];
      const size = typeof value === "number" ? value : 0;
      const group = groupOf(key);
      const total = groups.get(group) ?? { keys: 0, bytes: 0 };
      total.keys += 1;
      total.bytes += size;
      groups.set(group, total);
    });
  } while (cursor !== "0");
  return groups;
}

// ---------------------------------------------------------------- child processes

/**
 * Binds a process and all its threads to CPU cores (`taskset`, util-linux), e.g. "1" or "0-2".
 * Returns false where that cannot be done (no taskset, not Linux), so a bench runs unpinned.
 */
export function pinToCores(pid: number, cores: string): boolean {
  try {
    execFileSync("taskset", ["-a", "-p", "-c", cores, String(pid)], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

export type ChildRole = "bot" | "bare" | "services" | "worker" | "load";

export interface ChildHandle {
  process: ChildProcess;
  ready: Record<string, unknown>;
  /** Sends a request over IPC and resolves with the child's answer. */
  ask<T = unknown>(type: string, args?: Record<string, unknown>): Promise<T>;
  stop(): Promise<void>;
}

/** Forks `bench/child.ts` in a role; resolves when it says it is ready. */
export async function startChild(
  role: ChildRole,
  env: Record<string, string> = {},
): Promise<ChildHandle & { spawnedAt: number; readyAt: number }> {
  const spawnedAt = performance.now();
  const child = fork(join(ROOT, "bench", "child.ts"), [role], {
    execArgv: [
      "--import",
      "tsx",
      ...((process.env.BENCH_PROFILE ?? "").split(",").includes(role)
        ? ["--cpu-prof", "--cpu-prof-dir=.bench-results/profiles"]
        : []),
    ],
    env: { ...process.env, ...env },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const ready = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const onExit = (code: number | null) => reject(new Error(`${role} child exited (${code})`));
    child.once("exit", onExit);
    child.on("message", (message: unknown) => {
      const m = message as { type?: string; id?: number; ok?: boolean; value?: unknown };
      if (m.type === "ready") {
        child.off("exit", onExit);
        resolve(m as Record<string, unknown>);
      } else if (m.type === "answer" && typeof m.id === "number") {
        const waiter = pending.get(m.id);
        pending.delete(m.id);
        if (m.ok) waiter?.resolve(m.value);
        else waiter?.reject(new Error(String(m.value)));
      }
    });
  });
  const readyAt = performance.now();
  return {
    process: child,
    ready,
    spawnedAt,
    readyAt,
    ask<T>(type: string, args: Record<string, unknown> = {}) {
      const id = nextId++;
      return new Promise<T>((resolve, reject) => {
        pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
        child.send({ type, id, ...args });
      });
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
