import { type ChildProcess, spawn } from "node:child_process";
import { createInterface } from "node:readline";

/** A fixture running in a child process (under tsx), that the test can SIGKILL. */
export interface WorkerProcess {
  child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** SIGKILL, as a crash or an OOM kill would: no handler runs. Resolves once it is gone. */
  kill(): Promise<void>;
  /**
   * Calls `listener` with each line the fixture prints to stdout from now on (fixtures report
   * the moments a test may want to kill them at); returns a function that stops listening.
   */
  onLine(listener: (line: string) => void): () => void;
}

/**
 * A fixture started with WORKER_START_ON_GO=1: it has loaded its modules (printed "loaded") and
 * waits for "go" on stdin before it starts. Loading is most of a start's cost, so a test that
 * kills many lives in a row keeps the next one loaded while the current one runs.
 */
export interface LoadedWorker {
  /** Starts it; resolves once it prints "ready". */
  go(readyMs?: number): Promise<WorkerProcess>;
  /** Ends it without starting it. */
  discard(): Promise<void>;
}

function spawnFixture(fixture: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ["--import", "tsx", fixture], {
    env: { ...process.env, ...env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const listeners = new Set<(line: string) => void>();
  if (child.stdout) {
    createInterface({ input: child.stdout }).on("line", (line) => {
      for (const listener of listeners) listener(line);
    });
  }
  const onLine = (listener: (line: string) => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
  };
  /** Resolves once the fixture prints `line`; rejects if it exits first or takes over `ms`. */
  const printed = (line: string, ms: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        stop();
        kill();
        reject(new Error(`worker did not print "${line}" within ${ms} ms: ${stderr}`));
      }, ms);
      const stop = onLine((seen) => {
        if (seen !== line) return;
        clearTimeout(timer);
        stop();
        resolve();
      });
      exited.then((code) => {
        clearTimeout(timer);
        stop();
        reject(new Error(`worker exited (${code}) before it printed "${line}": ${stderr}`));
      });
    });
  return { child, exited, kill, onLine, printed };
}

/**
 * Starts `fixture` with `env` added to this process's environment and resolves once it prints
 * "ready" (rejects, with what it wrote to stderr, if it exits first or takes over `readyMs`).
 */
export async function startWorkerProcess(
  fixture: string,
  env: Record<string, string>,
  readyMs = 20_000,
): Promise<WorkerProcess> {
  const worker = spawnFixture(fixture, env);
  await worker.printed("ready", readyMs);
  return worker;
}

/** Spawns `fixture` loaded but not started (see LoadedWorker); resolves once it has loaded. */
export async function loadWorkerProcess(
  fixture: string,
  env: Record<string, string>,
  loadMs = 60_000,
): Promise<LoadedWorker> {
  const worker = spawnFixture(fixture, { ...env, WORKER_START_ON_GO: "1" });
  await worker.printed("loaded", loadMs);
  return {
    async go(readyMs = 20_000) {
      const ready = worker.printed("ready", readyMs);
      worker.child.stdin?.write("go\n");
      await ready;
      return worker;
    },
    discard: worker.kill,
  };
}
