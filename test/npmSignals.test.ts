import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { describe, expect, it } from "vitest";
import { waitFor } from "./harness/index.js";

/**
 * A process manager stops `npm start` (or `npm run worker`, `npm run sandbox`) by sending SIGTERM
 * to npm. npm hands it to the shell that runs the script; a shell that merely started `tsx` dies
 * and leaves the bot running as an orphan, still answering on its port. The scripts `exec` the
 * process, so the signal reaches it and it shuts down as documented. Tried with `npm run
 * sandbox` (the lightest of the three; they share the shape, checked below).
 */

const root = new URL("..", import.meta.url).pathname;

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  if (typeof address !== "object" || address === null) throw new Error("no port");
  return address.port;
}

async function answers(port: number): Promise<boolean> {
  return fetch(`http://127.0.0.1:${port}/api/auth/token`, { method: "POST" })
    .then(() => true)
    .catch(() => false);
}

describe("npm scripts and SIGTERM", () => {
  it("SIGTERM sent to npm stops the process its script started", async () => {
    const port = await freePort();
    const npm = spawn("npm", ["run", "-s", "sandbox"], {
      cwd: root,
      env: { ...process.env, SANDBOX_PORT: String(port), LOG_LEVEL: "warn" },
      stdio: "ignore",
      // Its own process group, so a failed run can still stop an orphan (below).
      detached: true,
    });
    try {
      await waitFor(() => answers(port), { timeoutMs: 60_000, description: "the sandbox up" });
      const npmExited = once(npm, "exit");
      npm.kill("SIGTERM");
      await npmExited;
      await waitFor(async () => !(await answers(port)), {
        timeoutMs: 15_000,
        description: "the sandbox to stop with npm",
      });
    } finally {
      try {
        if (npm.pid) process.kill(-npm.pid, "SIGKILL");
      } catch {
        // The group is gone: everything stopped.
      }
    }
  }, 90_000);

  it("every long-running script execs its process", async () => {
    const { readFile } = await import("node:fs/promises");
    const scripts = JSON.parse(await readFile(`${root}package.json`, "utf8")).scripts;
    for (const name of ["start", "worker", "sandbox"]) {
      expect(scripts[name], name).toMatch(/^exec tsx /);
    }
  });
});
