import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { WebClient } from "@slack/web-api";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/approvals/index.js";
import { submitForApproval } from "../../src/slack/approvals.js";
import type { StandinMessage } from "../../src/standin/index.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { freePort, waitFor } from "../harness/index.js";
import { writeReliabilityResult } from "./reliabilityResults.js";

/**
 * Redis unavailable for a while: a throw-away redis-server of this test is killed (SIGKILL) and
 * started again on the same port. While it is down the bot answers Slack with a clear
 * "temporarily unavailable"; it then recovers on its own, and the pending approval is still
 * there and can be approved (placed once). The server keeps an append-only file in a temporary
 * directory: without persistence any Redis restart loses everything, which the bot warns about
 * at start-up, and "no approval lost" could not hold.
 */
describe("Redis outage", () => {
  let port: number;
  let dir: string;
  let redisServer: ChildProcess | undefined;
  let env: TestBot;
  let approval: ApprovalRequest;
  let request: StandinMessage;
  const figures = { outages: 0, recoveries: 0, unavailableAnswers: 0 };

  async function startRedis(): Promise<void> {
    const child = spawn(
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
      ],
      { stdio: "ignore" },
    );
    redisServer = child;
    const probe = new Redis(port, "127.0.0.1", {
      lazyConnect: true,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    probe.on("error", () => {});
    await waitFor(
      async () => {
        try {
          if (probe.status !== "ready") await probe.connect();
          return (await probe.ping()) === "PONG";
        } catch {
          probe.disconnect();
          return false;
        }
      },
      { timeoutMs: 10_000, description: "the test's redis-server to answer" },
    );
    probe.disconnect();
  }

  async function killRedis(): Promise<void> {
    const child = redisServer;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    figures.outages++;
  }

  beforeAll(async () => {
    port = await freePort();
    dir = mkdtempSync(join(tmpdir(), "redis-fault-"));
    await startRedis();
    env = await startTestBot({ env: { REDIS_URL: `redis://127.0.0.1:${port}` } });
    const client = new WebClient(env.standin.botToken, { slackApiUrl: env.standin.apiUrl });
    const companyUsername = (await env.bot.services.identity()).companyUsername;
    const dcfs = await env.bot.services.provider.listDcfs({
      where: { "dataCenterFacility.ready": true },
    });
    const dcf = dcfs.find(
      (d) =>
        (d.dataCenterFacility?.speeds?.length ?? 0) > 0 &&
        !(d.tags ?? []).some((t) => /off|ext/i.test(t)),
    );
    const outcome = await submitForApproval({
      services: env.bot.services,
      client,
      submission: {
        kind: "port",
        title: "redis-outage-port",
        summary: [{ label: "Port name", value: "redis-outage-port" }],
        call: {
          operation: "createPortOrder",
          pathParams: { companyUsername },
          body: {
            dataCenterFacility: dcf?.username ?? "none",
            speed: String(dcf?.dataCenterFacility?.speeds?.[0] ?? 1000),
            durationUnit: "y",
            portName: "redis-outage-port",
            paymentType: "invoice",
          },
        },
        reconcileKey: "redis-outage-port",
        price: { total: 1, text: "1.00" },
        requester: { userId: STANDIN_IDS.requester, channelId: STANDIN_IDS.general },
      },
    });
    if (!outcome.ok) throw new Error(outcome.message);
    approval = outcome.approval;
    request = await env.standin.waitForMessage(STANDIN_IDS.approvals, (m) =>
      m.text.includes("redis-outage-port"),
    );
  }, 40_000);

  afterAll(async () => {
    writeReliabilityResult({
      suite: "redis-outage",
      checks:
        "Redis killed and restarted: clear 'temporarily unavailable' answers while down, recovery without a restart of the bot, no approval lost, placed once",
      figures,
    });
    await env?.close();
    await killRedis();
    rmSync(dir, { recursive: true, force: true });
  });

  async function reply(text: string): Promise<string> {
    const before = env.standin.calls("response_url").length;
    expect((await env.connect(text)).status).toBe(200);
    const call = await waitFor(() => env.standin.calls("response_url")[before], {
      timeoutMs: 15_000,
      description: `the answer to /connect ${text}`,
    });
    return JSON.stringify(call.args);
  }

  it("answers 'temporarily unavailable' while Redis is down, without hanging", async () => {
    await killRedis();
    const started = Date.now();
    expect(await reply("approvals")).toMatch(/temporarily unavailable/i);
    figures.unavailableAnswers++;
    const seen = env.standin.ephemerals(STANDIN_IDS.approver).length;
    const ack = await env.slack.clickButton({
      userId: STANDIN_IDS.approver,
      message: request,
      actionId: "approval_approve",
    });
    expect(ack.status).toBe(200);
    const told = await waitFor(() => env.standin.ephemerals(STANDIN_IDS.approver)[seen], {
      timeoutMs: 15_000,
      description: "the approver to be told",
    });
    expect(told.text).toMatch(/temporarily unavailable/i);
    figures.unavailableAnswers++;
    expect(Date.now() - started).toBeLessThan(15_000);
    // Help needs no Redis: the bot answers it as usual.
    expect(await reply("help")).toContain("Commands");
  }, 40_000);

  it("recovers on its own once Redis is back, with the approval intact, and places it once", async () => {
    await startRedis();
    await waitFor(async () => !(await reply("approvals")).match(/temporarily unavailable/i), {
      timeoutMs: 20_000,
      intervalMs: 250,
      description: "the bot to read approvals again",
    });
    figures.recoveries++;
    const stored = await env.bot.services.approvals.store.get(approval.id);
    expect(stored?.status).toBe("pending");
    expect(stored?.title).toBe("redis-outage-port");
    await env.slack.clickButton({
      userId: STANDIN_IDS.approver,
      message: request,
      actionId: "approval_approve",
    });
    await env.standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => m.thread_ts === request.ts && m.text.includes("Ordered"),
      { timeoutMs: 20_000 },
    );
    const placed = await env.bot.services.approvals.store.get(approval.id);
    expect(placed?.status).toBe("placed");
    expect(placed?.attempts).toBe(1);
    const creates = env.bot.sandbox!.state.requestLog.filter(
      (e) => e.operationId === "createPortOrder",
    );
    expect(creates).toHaveLength(1);
  }, 50_000);
});
