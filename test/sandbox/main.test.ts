// `npm run sandbox`: the stand-alone process listens on SANDBOX_PORT, logs its URL, and stops
// on SIGTERM.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { call } from "./helpers.js";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== "object" || address === null) throw new Error("no port");
  return address.port;
}

describe("npm run sandbox", () => {
  let child: ChildProcess | undefined;

  afterEach(() => {
    if (child && child.exitCode === null) child.kill("SIGKILL");
  });

  it("listens on SANDBOX_PORT, logs its URL as JSON, and exits cleanly on SIGTERM", async () => {
    const port = await freePort();
    child = spawn(process.execPath, ["--import", "tsx", "src/sandbox/main.ts"], {
      env: {
        ...process.env,
        SANDBOX_PORT: String(port),
        LOG_LEVEL: "info",
        SLACK_BOT_TOKEN: "xoxb-unrelated",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const line = await new Promise<Record<string, unknown>>((resolve, reject) => {
      let buffered = "";
      child!.stdout!.on("data", (chunk: Buffer) => {
        buffered += chunk.toString();
        for (const text of buffered.split("\n")) {
          if (text.includes("provider sandbox listening")) resolve(JSON.parse(text));
        }
      });
      child!.once("exit", (code) => reject(new Error(`exited early with ${code}`)));
    });
    expect(line.url).toBe(`http://127.0.0.1:${port}`);
    expect((await call(String(line.url), "GET", "/api/auth/token")).status).toBe(200);

    const exited = new Promise<number | null>((resolve) =>
      child!.once("exit", (code) => resolve(code)),
    );
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
  });
});
