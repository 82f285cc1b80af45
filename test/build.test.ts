import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { cp, mkdtemp, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { connect, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, waitFor } from "./harness/index.js";

// The Docker image runs the compiled build (`npm run build`, then `node dist/src/main.js`), and
// CI cannot build the image: this test is how CI runs that build. It lays out a directory as the
// image's /app is (dist, openapi, node_modules, package.json), starts the bot on its embedded
// defaults (sandbox provider, Slack stand-in, playground) and expects /healthz, then a clean
// stop on SIGTERM. The playground run clears its own Redis keys on start, so the bot gets a
// Redis of its own (a throwaway redis-server), never the shared one.

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** PORT for the bot; the playground takes PORT+1, so that one must be free too. */
async function freePortPair(): Promise<number> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await freePort();
    const nextFree = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once("error", () => resolve(false));
      probe.listen(port + 1, "127.0.0.1", () => probe.close(() => resolve(true)));
    });
    if (nextFree) return port;
  }
  throw new Error("no free pair of ports found");
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

async function exited(child: ChildProcess, timeoutMs: number): Promise<number | string> {
  if (child.exitCode !== null || child.signalCode !== null)
    return child.exitCode ?? child.signalCode!;
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const [code, signal] = (await once(child, "exit")) as [number | null, string | null];
  clearTimeout(timer);
  return code ?? signal ?? "unknown";
}

describe("the production build (what the Docker image runs)", () => {
  let app: string;
  let redis: ChildProcess | undefined;
  let bot: ChildProcess | undefined;
  const output: string[] = [];

  beforeAll(async () => {
    app = await mkdtemp(join(tmpdir(), "connect-build-"));
    // The image's layout: the compiled code next to package.json ("type": "module"), the
    // dependencies and the contract the sandbox validates against.
    await writeFile(join(app, "package.json"), await readFile(join(ROOT, "package.json")));
    await symlink(join(ROOT, "node_modules"), join(app, "node_modules"), "dir");
    await symlink(join(ROOT, "openapi"), join(app, "openapi"), "dir");
  });

  afterAll(async () => {
    if (bot && bot.exitCode === null && bot.signalCode === null) {
      bot.kill("SIGKILL");
      await exited(bot, 5_000);
    }
    if (redis && redis.exitCode === null) {
      redis.kill("SIGTERM");
      await exited(redis, 5_000);
    }
    if (app) await rm(app, { recursive: true, force: true });
  });

  it("compiles with `npm run build`, serves /healthz from node dist/src/main.js, and stops on SIGTERM", async () => {
    const dist = join(app, "dist");
    await run("npm", ["run", "build", "--", "--outDir", dist], { cwd: ROOT });
    // As the Dockerfile does: the playground's page is not TypeScript, tsc does not copy it.
    await cp(join(ROOT, "src/playground/static"), join(dist, "src/playground/static"), {
      recursive: true,
    });

    const redisPort = await freePort();
    redis = spawn(
      "redis-server",
      [
        "--port",
        String(redisPort),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--dir",
        app,
      ],
      { stdio: "ignore" },
    );
    const redisFailed = new Promise<never>((_, reject) =>
      redis?.once("error", (error) =>
        reject(
          new Error(
            `redis-server could not start (npm run test:deps installs it): ${error.message}`,
          ),
        ),
      ),
    );
    // The bot refuses to start without Redis: wait until this one accepts connections.
    await Promise.race([
      redisFailed,
      waitFor(() => canConnect(redisPort), {
        timeoutMs: 10_000,
        description: "the test's redis-server",
      }),
    ]);

    const port = await freePortPair();
    // Only what the run needs: no Slack or provider settings leak in from the test's own
    // environment, so these are the embedded defaults a newcomer gets.
    bot = spawn(process.execPath, ["dist/src/main.js"], {
      cwd: app,
      env: {
        PATH: process.env.PATH ?? "",
        NODE_ENV: "production",
        PORT: String(port),
        SANDBOX_PORT: String(await freePort()),
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        LOG_LEVEL: "warn",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    bot.stdout?.on("data", (chunk: Buffer) => output.push(chunk.toString()));
    bot.stderr?.on("data", (chunk: Buffer) => output.push(chunk.toString()));

    const health = await waitFor(
      async () => {
        if (bot?.exitCode !== null) throw new Error(`the bot exited: ${output.join("")}`);
        const response = await fetch(`http://127.0.0.1:${port}/healthz`);
        return response.status === 200 ? response : undefined;
      },
      { timeoutMs: 20_000, intervalMs: 200, description: "/healthz of the built bot" },
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${output.join("")}`);
    });
    expect(health.status).toBe(200);
    expect(output.join("")).toContain("Playground:");

    bot.kill("SIGTERM");
    expect(await exited(bot, 15_000)).toBe(0);
  }, 90_000);
});
