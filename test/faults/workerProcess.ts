import { type ChildProcess, spawn } from "node:child_process";

/** A fixture running in a child process (under tsx), that the test can SIGKILL. */
export interface WorkerProcess {
  child: ChildProcess;
  /** Resolves with the exit code (null when killed by a signal). */
  exited: Promise<number | null>;
  /** SIGKILL, as a crash or an OOM kill would: no handler runs. Resolves once it is gone. */
  kill(): Promise<void>;
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
  const child = spawn(process.execPath, ["--import", "tsx", fixture], {
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4_000);
  });
  const kill = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    await exited;
  };
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      kill();
      reject(new Error(`worker not ready within ${readyMs} ms: ${stderr}`));
    }, readyMs);
    child.stdout?.on("data", (chunk: Buffer) => {
      if (/^ready$/m.test(chunk.toString())) {
        clearTimeout(timer);
        resolve();
      }
    });
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited (${code}) before it was ready: ${stderr}`));
    });
  });
  return { child, exited, kill };
}
