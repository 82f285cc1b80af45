import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { waitFor } from "../harness/index.js";
import { writeReliabilityResult } from "./reliabilityResults.js";

/**
 * Tracking while the provider fails 30 % of its calls with 500 and answers slowly (sandbox
 * fault rules): no crash, the status updates come late but none is lost, each posted once.
 */
describe("tracking through provider 500s and latency", () => {
  let env: TestBot;
  const figures = { injected500s: 0, providerCalls: 0, updatesPosted: 0 };

  beforeAll(async () => {
    env = await startTestBot();
  });
  afterAll(async () => {
    writeReliabilityResult({
      suite: "tracking-faults",
      checks:
        "an order tracked while 30 % of provider calls answer 500 after added latency: no crash, updates delayed not lost, each posted once",
      figures,
    });
    await env?.close();
  });

  it("reaches the final status message despite 500s", async () => {
    const sandbox = env.bot.sandbox!;
    const companyUsername = (await env.bot.services.identity()).companyUsername;
    const dcfs = await env.bot.services.provider.listDcfs({
      where: { "dataCenterFacility.ready": true },
    });
    const dcf = dcfs.find(
      (d) =>
        (d.dataCenterFacility?.speeds?.length ?? 0) > 0 &&
        !(d.tags ?? []).some((t) => /off|ext/i.test(t)),
    );
    const created = await fetch(`${sandbox.url}/api/company/${companyUsername}/ports/orders`, {
      method: "PUT",
      headers: { authorization: "Bearer sandbox-key", "content-type": "application/json" },
      body: JSON.stringify({
        dataCenterFacility: dcf?.username,
        speed: String(dcf?.dataCenterFacility?.speeds?.[0]),
        durationUnit: "y",
        portName: "faulty-tracking-port",
        paymentType: "invoice",
      }),
    });
    expect(created.ok).toBe(true);
    const order = (await created.json()) as { id: string };

    const client = new WebClient(env.standin.botToken, { slackApiUrl: env.standin.apiUrl });
    const root = await client.chat.postMessage({ channel: STANDIN_IDS.approvals, text: "track" });
    const threadTs = root.ts!;
    await env.bot.jobs.tracker.track({
      orderId: order.id,
      companyName: companyUsername,
      channel: STANDIN_IDS.approvals,
      threadTs,
      requestedBy: STANDIN_IDS.requester,
    });

    const logStart = sandbox.state.requestLog.length;
    // The next two reads fail for sure (a seed may draw few failures in a handful of polls),
    // then 30 % of them, all slow.
    sandbox.faults.set([
      { match: "GET /api/company/**", status: 500, latencyMs: 150, times: 2 },
      { match: "GET /api/company/**", errorRate: 0.3, latencyMs: 150 },
    ]);
    // Step through the order's life (allocated, processing, LOA, done) so that every status
    // change is polled, through the faults.
    const threadLength = () => env.standin.thread(STANDIN_IDS.approvals, threadTs).length;
    for (const hours of [0.5, 2, 21]) {
      const before = threadLength();
      sandbox.clock.advance(hours * 3600_000);
      await waitFor(
        async () => {
          await env.bot.jobs.tracker.checkNow(order.id).catch(() => false);
          return threadLength() > before;
        },
        { timeoutMs: 15_000, intervalMs: 200, description: `an update after ${hours} h` },
      );
    }
    sandbox.clock.advance(2 * 24 * 3600_000);
    const done = await waitFor(
      async () => {
        await env.bot.jobs.tracker.checkNow(order.id).catch(() => false);
        return env.standin
          .thread(STANDIN_IDS.approvals, threadTs)
          .find((m) => m.text.includes("New port"));
      },
      { timeoutMs: 20_000, intervalMs: 200, description: "the final status in the thread" },
    );
    expect(done.text).toContain(order.id);
    sandbox.faults.clear();

    const calls = sandbox.state.requestLog.slice(logStart);
    figures.providerCalls = calls.length;
    figures.injected500s = calls.filter((c) => c.status === 500).length;
    const thread = env.standin.thread(STANDIN_IDS.approvals, threadTs).slice(1);
    figures.updatesPosted = thread.length;
    // Each status change once: no duplicate text in the thread.
    const texts = thread.map((m) => m.text);
    expect(new Set(texts).size).toBe(texts.length);
    expect(texts.filter((t) => t.includes("New port"))).toHaveLength(1);
    // The bot still answers.
    const before = env.standin.calls("response_url").length;
    expect((await env.connect("help")).status).toBe(200);
    await waitFor(() => env.standin.calls("response_url").length > before);
  }, 55_000);

  it("saw faults injected (otherwise the test proves nothing)", () => {
    expect(figures.injected500s).toBeGreaterThan(0);
  });
});
