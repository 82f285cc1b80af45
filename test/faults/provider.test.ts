import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestBot, type TestBot } from "../harness/botEnv.js";
import { waitFor } from "../harness/index.js";
import { writeReliabilityResult } from "./reliabilityResults.js";

const API_KEY = "prov-key-3f9c1e7d2b8a4c6e";

/** What the fake provider answers to everything but the identity call. */
type Malformation = keyof typeof MALFORMED;

const item = (status: string) => ({
  id: "p-1",
  productUid: "p-1",
  name: "weird-port",
  status,
  orderStatus: status,
  loaStatus: status,
  speed: "fast",
  dataCenterFacility: { username: 42, speeds: "all" },
  companyName: null,
});

const MALFORMED = {
  "malformed JSON": { status: 200, type: "application/json", body: '{"data": [{"id": "p-1",' },
  "a 5 MB body": {
    status: 200,
    type: "application/json",
    body: JSON.stringify({
      data: Array.from({ length: 25_000 }, (_, i) => ({
        ...item("done"),
        id: `p-${i}`,
        name: "x".repeat(150),
      })),
    }),
  },
  "missing fields": {
    status: 200,
    type: "application/json",
    body: JSON.stringify({ data: [{}], id: null }),
  },
  "unknown enum values": {
    status: 200,
    type: "application/json",
    body: JSON.stringify({ ...item("TELEPORTING"), data: [item("TELEPORTING")] }),
  },
  "an empty 200": { status: 200, type: "application/json", body: "" },
  "an HTML 502": { status: 502, type: "text/html", body: "<html><body>Bad gateway</body></html>" },
} as const;

/**
 * The bot's provider calls answered by a local server that misbehaves (not the sandbox): each
 * command still ends in a plain message to the person, never a stack trace or the API key, and
 * the process keeps answering.
 */
describe("malformed provider responses", () => {
  let env: TestBot;
  let server: Server;
  let mode: Malformation = "malformed JSON";
  let served = 0;
  const handled: Record<string, number> = {};

  beforeAll(async () => {
    server = createServer((req, res) => {
      served++;
      if (req.url?.startsWith("/api/auth/token")) {
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ id: "u-1", companies: [{ id: "c-1", username: "acme" }] }));
        return;
      }
      const answer = MALFORMED[mode];
      res.writeHead(answer.status, { "content-type": answer.type });
      res.end(answer.body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    env = await startTestBot({
      env: { PROVIDER_BASE_URL: `http://127.0.0.1:${port}`, PROVIDER_API_KEY: API_KEY },
    });
  });
  afterAll(async () => {
    writeReliabilityResult({
      suite: "provider-malformed",
      checks:
        "malformed JSON, a 5 MB body, missing fields, unknown enum values, empty and HTML answers from the provider: every command answers plainly, no crash, no key shown",
      figures: {
        commandsAnswered: Object.values(handled).reduce((a, b) => a + b, 0),
        malformations: Object.keys(MALFORMED).length,
        providerAnswersServed: served,
      },
    });
    await env?.close();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Runs a command and returns what the person was shown in answer. */
  async function run(text: string): Promise<string> {
    const before = env.standin.calls("response_url").length;
    const ack = await env.connect(text);
    expect(ack.status).toBe(200);
    const reply = await waitFor(() => env.standin.calls("response_url")[before], {
      timeoutMs: 20_000,
      description: `the answer to /connect ${text}`,
    });
    return JSON.stringify(reply.args);
  }

  for (const malformation of Object.keys(MALFORMED) as Malformation[]) {
    it(`answers ports, port, order and dcf plainly when the provider sends ${malformation}`, async () => {
      mode = malformation;
      for (const command of ["ports", "port p-1", "order o-1", "dcf ams"]) {
        const shown = await run(command);
        expect(shown.length, command).toBeGreaterThan(20);
        expect(shown.length, `${command}: fits a Slack message`).toBeLessThan(60_000);
        expect(shown, command).not.toContain(API_KEY);
        expect(shown, command).not.toMatch(/\bat [\w.<>]+ \(|\.ts:\d+|node_modules|Error:/);
        expect(shown, command).not.toContain("undefined");
        handled[malformation] = (handled[malformation] ?? 0) + 1;
      }
    }, 50_000);
  }

  it("keeps answering and never wrote the key anywhere", async () => {
    expect(await run("help")).toContain("Commands");
    const everything = [
      ...env.logLines,
      ...env.standin.calls().map((c) => JSON.stringify(c.args)),
    ].join("\n");
    expect(everything).not.toContain(API_KEY);
    expect(handled).not.toEqual({});
  });
});
