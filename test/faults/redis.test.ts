import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/approvals/index.js";
import { submitForApproval } from "../../src/slack/kit/index.js";
import type { StandinMessage } from "../../src/standin/index.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { type OwnRedis, startOwnRedis, waitFor } from "../harness/index.js";
import { placeableDcf, portOrderRequest } from "../harness/portOrders.js";
import { writeReliabilityResult } from "./reliabilityResults.js";
import { faultScale } from "./scale.js";

/** How long Redis stays down: the 30 s with FAULTS_SCALE=full, a few seconds in CI. */
const OUTAGE_MS = faultScale() === "full" ? 30_000 : 3_000;
/** While it is down, a person asks this often (and is told "temporarily unavailable"). */
const ASK_EVERY_MS = 2_000;

/**
 * Redis unavailable for a while: a throw-away redis-server of this test (test/harness/ownRedis.ts)
 * is killed (SIGKILL) and started again on the same port. While it is down the bot answers Slack with a clear
 * "temporarily unavailable"; it then recovers on its own, and the pending approval is still
 * there and can be approved (placed once). The server keeps an append-only file in a temporary
 * directory: without persistence any Redis restart loses everything, which the bot warns about
 * at start-up, and "no approval lost" could not hold.
 */
describe("Redis outage", () => {
  let redis: OwnRedis;
  let env: TestBot;
  let approval: ApprovalRequest;
  let request: StandinMessage;
  let trackedOrderId: string;
  const figures = {
    outages: 0,
    recoveries: 0,
    unavailableAnswers: 0,
    outageSeconds: 0,
    slowestAckMs: 0,
    recoverySeconds: 0,
    trackedOrdersBefore: 0,
    trackedOrdersAfter: 0,
    approvalsBefore: 0,
    approvalsAfter: 0,
  };

  async function killRedis(): Promise<void> {
    if (!redis?.running) return;
    await redis.kill();
    figures.outages++;
  }

  beforeAll(async () => {
    redis = await startOwnRedis();
    env = await startTestBot({ env: { REDIS_URL: redis.url } });
    const client = new WebClient(env.standin.botToken, { slackApiUrl: env.standin.apiUrl });
    const companyUsername = (await env.bot.services.identity()).companyUsername;
    const dcf = await placeableDcf(env.bot.services.provider);
    const outcome = await submitForApproval({
      services: env.bot.services,
      client,
      submission: portOrderRequest({
        portName: "redis-outage-port",
        companyUsername,
        dataCenterFacility: dcf.username,
        speed: dcf.speed,
        price: { total: 1, text: "1.00" },
        requester: { userId: STANDIN_IDS.requester, channelId: STANDIN_IDS.general },
      }),
    });
    if (!outcome.ok) throw new Error(outcome.message);
    approval = outcome.approval;
    request = await env.standin.waitForMessage(STANDIN_IDS.approvals, (m) =>
      m.text.includes("redis-outage-port"),
    );
    // A tracked order, which must still be tracked (and polled) after the outage.
    const sandbox = env.bot.sandbox!;
    const order = sandbox.state.createPortOrder({
      companyId: sandbox.apiUser.companyId,
      dcfId: dcf.dcf.id ?? "none",
      speed: Number(dcf.speed),
      portName: "redis-outage-tracked",
      durationUnit: "y",
      paymentType: "invoice",
      isEdgePort: false,
      edgePayload: null,
    });
    trackedOrderId = order.id;
    const thread = env.standin.postAsUser(STANDIN_IDS.requester, STANDIN_IDS.general, "track it");
    await env.bot.services.jobs.tracker.track({
      orderId: trackedOrderId,
      companyName: companyUsername,
      channel: STANDIN_IDS.general,
      threadTs: thread.ts,
      requestedBy: STANDIN_IDS.requester,
    });
    await waitFor(
      async () => ((await env.bot.services.jobs.tracker.get(trackedOrderId))?.checks ?? 0) > 0,
      { timeoutMs: 15_000, description: "the tracked order's first check" },
    );
    figures.trackedOrdersBefore = (await env.bot.services.jobs.tracker.list()).length;
    figures.approvalsBefore = (await env.bot.services.approvals.store.list()).length;
  }, 40_000);

  afterAll(async () => {
    writeReliabilityResult({
      suite: "redis-outage",
      checks:
        "Redis killed for the outage and restarted: clear 'temporarily unavailable' answers (each acked fast) the whole time, recovery without a restart of the bot, no approval and no tracked order lost, the approval placed once",
      figures,
      settings: { scale: faultScale(), outageMs: OUTAGE_MS, askEveryMs: ASK_EVERY_MS },
    });
    await env?.close();
    await redis?.stop();
  });

  let lastAckMs = 0;
  async function reply(text: string): Promise<string> {
    const before = env.standin.calls("response_url").length;
    const sent = performance.now();
    expect((await env.connect(text)).status).toBe(200);
    lastAckMs = performance.now() - sent;
    const call = await waitFor(() => env.standin.calls("response_url")[before], {
      timeoutMs: 15_000,
      description: `the answer to /connect ${text}`,
    });
    return JSON.stringify(call.args);
  }

  it(
    "answers 'temporarily unavailable' while Redis is down, without hanging",
    async () => {
      await killRedis();
      const started = Date.now();
      // A person keeps asking for the whole outage: each ack within Slack's 3 s, each answer clear.
      for (;;) {
        const asked = Date.now();
        expect(await reply("approvals")).toMatch(/temporarily unavailable/i);
        figures.unavailableAnswers++;
        figures.slowestAckMs = Math.max(figures.slowestAckMs, Math.round(lastAckMs));
        if (Date.now() - started + ASK_EVERY_MS > OUTAGE_MS) break;
        await new Promise((resolve) => setTimeout(resolve, asked + ASK_EVERY_MS - Date.now()));
      }
      expect(figures.slowestAckMs).toBeLessThan(3_000);
      const seen = env.standin.ephemerals(STANDIN_IDS.approver).length;
      const ack = await env.slack.clickButton({
        userId: STANDIN_IDS.approver,
        message: request,
        actionId: "approval_approve",
      });
      // Acked means kept: a click that cannot be recorded is not acked with 200 (Slack shows
      // the person it failed); the ephemeral still says why.
      expect(ack.status).toBe(500);
      const told = await waitFor(() => env.standin.ephemerals(STANDIN_IDS.approver)[seen], {
        timeoutMs: 15_000,
        description: "the approver to be told",
      });
      expect(told.text).toMatch(/temporarily unavailable/i);
      figures.unavailableAnswers++;
      // Help needs no Redis: the bot answers it as usual.
      expect(await reply("help")).toContain("Commands");
      // Down for the whole outage, then back (the next test starts it).
      const left = OUTAGE_MS - (Date.now() - started);
      if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
      figures.outageSeconds = Math.round((Date.now() - started) / 100) / 10;
    },
    OUTAGE_MS + 40_000,
  );

  it("recovers on its own once Redis is back, with the approval intact, and places it once", async () => {
    await redis.restart();
    const back = Date.now();
    await waitFor(async () => !(await reply("approvals")).match(/temporarily unavailable/i), {
      timeoutMs: 20_000,
      intervalMs: 250,
      description: "the bot to read approvals again",
    });
    figures.recoverySeconds = Math.round((Date.now() - back) / 100) / 10;
    figures.recoveries++;
    figures.approvalsAfter = (await env.bot.services.approvals.store.list()).length;
    expect(figures.approvalsAfter).toBe(figures.approvalsBefore);
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
      (m) => m.thread_ts === request.ts && m.ts !== request.ts && m.text.includes("Ordered"),
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

  it("still tracks the order it tracked before the outage, and polls it again", async () => {
    const { tracker } = env.bot.services.jobs;
    const before = await tracker.get(trackedOrderId);
    expect(before?.open).toBe(true);
    await tracker.checkNow(trackedOrderId);
    await waitFor(
      async () => ((await tracker.get(trackedOrderId))?.checks ?? 0) > (before?.checks ?? 0),
      { timeoutMs: 15_000, description: "a check of the tracked order after the outage" },
    );
    const open = await tracker.list();
    figures.trackedOrdersAfter = open.length;
    expect(open.map((t) => t.orderId)).toContain(trackedOrderId);
    expect(figures.trackedOrdersAfter).toBeGreaterThanOrEqual(figures.trackedOrdersBefore);
  }, 30_000);
});
