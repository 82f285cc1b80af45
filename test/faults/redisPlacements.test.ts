import { setTimeout as sleep } from "node:timers/promises";
import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { submitForApproval } from "../../src/slack/kit/index.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { type OwnRedis, startOwnRedis, waitFor, waitWhileProgressing } from "../harness/index.js";
import { portOrderRequest } from "../harness/portOrders.js";
import { holdingRequests } from "./fixtures/answerWindow.js";
import { messageLagFigures, neverCaughtUp, watchMessageLag } from "./messageLag.js";
import {
  type ApprovalTally,
  figures,
  type OrderedApproval,
  type ProviderOrder,
  providerOrdersByName,
  settled,
  tallyApproval,
  tallySources,
  threadReplies,
} from "./placementTally.js";
import { type FinishedTask, verdictOf, writeReliabilityResult } from "./reliabilityResults.js";
import { faultScale } from "./scale.js";
import { threadOrderProblems } from "./threadOrder.js";

const SCALE = faultScale();
/** Issue 19: Redis down 20 s in CI, 60 s with FAULTS_SCALE=full. */
const OUTAGE_MS = SCALE === "full" ? 60_000 : 20_000;
/** Placements approved together; issue 19 asks for at least 8 in flight when Redis dies. */
const PLACEMENTS = 10;
const MIN_IN_FLIGHT = 8;
/**
 * The provider answers a port order this late after the call reaches it. The calls are held on
 * their way out until Redis is dead (holdingRequests), so every answer comes during the outage.
 */
const PROVIDER_LATENCY_MS = 1_000;
const PORT_ORDER_CALL = /^PUT \/api\/company\/[^/]+\/ports\/orders$/;
/** After Redis is back, the bot is stuck if nothing moves for this long. */
const SETTLE_MS = 90_000;
const CHANNEL = STANDIN_IDS.approvals;

/**
 * Issue 19, bug 1: "a Redis outage throws away the provider's answer". The bot (HTTP front and
 * workers) runs on a redis-server of this test's own (AOF, fsync always), with 10 port orders
 * approved and their calls on their way to the provider: each is held as it leaves (its
 * journal says `sending`) until all 10 are out, Redis is SIGKILLed, and then they go on, so the
 * provider answers every one while Redis is down, whatever the machine's load. Redis stays down
 * for the outage and comes back on the same port. Every answer the provider gave must end
 * recorded as placed with its order id (provider orders counted against records), nothing may
 * be ordered twice, and every thread must tell its story in order.
 */
describe("a Redis outage while placements are in flight", () => {
  /** The tests as they finished, for the verdict written with the figures. */
  const finished: FinishedTask[] = [];
  let redis: OwnRedis;
  let env: TestBot;
  let sandbox: Sandbox;
  const approvals: OrderedApproval[] = [];
  // Installed before the bot is built: its provider client takes globalThis.fetch then.
  const transport = globalThis.fetch;
  const calls = holdingRequests(transport, PORT_ORDER_CALL);
  const run = {
    placements: PLACEMENTS,
    inFlightAtKill: 0,
    providerAnswersDuringOutage: 0,
    outageSeconds: 0,
    settleSeconds: 0,
    providerOrders: 0,
    answersRecorded: 0,
    answersLost: 0,
    duplicateOrders: 0,
    threadsInOrder: 0,
    threadsOutOfOrder: 0,
    repliesPostedTwice: 0,
    // Issue 29: how long each approval message (and card) stayed behind its record.
    messagesChecked: 0,
    messagesBehindAfter10s: 0,
    messagesNeverCaughtUp: 0,
    maxMessageLagMs: 0,
  };
  let counted: ReturnType<typeof figures> | undefined;

  beforeAll(async () => {
    redis = await startOwnRedis();
    globalThis.fetch = calls.fetch;
    env = await startTestBot({
      env: { REDIS_URL: redis.url },
      sandbox: {
        faults: [{ match: "PUT /api/company/*/ports/orders", latencyMs: PROVIDER_LATENCY_MS }],
      },
      jobs: {
        // Room for every placement at once (the default is 5 per worker process).
        concurrency: { placement: PLACEMENTS },
        // The reconciler's schedule and bounds in seconds, so its part is seen in the run.
        maintenanceEveryMs: 1_000,
        placementSettings: { stuckAfterMs: 5_000 },
      },
    });
    sandbox = env.bot.sandbox!;
    const client = new WebClient(env.standin.botToken, { slackApiUrl: env.standin.apiUrl });
    const dcf = sandbox.state.world.dcfs.find(
      (d) => d.ready && d.kind === "ON_NET" && !d.edge && d.speeds.length > 0,
    );
    if (!dcf) throw new Error("the sandbox has no ready on-net DCF");
    for (let i = 0; i < PLACEMENTS; i++) {
      const portName = `redis-kill-${i}`;
      const outcome = await submitForApproval({
        services: env.bot.services,
        client,
        submission: portOrderRequest({
          portName,
          companyUsername: sandbox.apiUser.companyUsername,
          dataCenterFacility: dcf.username,
          speed: String(dcf.speeds[0]),
        }),
      });
      if (!outcome.ok) throw new Error(outcome.message);
      const threadTs = (await env.bot.services.approvals.store.get(outcome.approval.id))?.slack
        .approvalTs;
      if (!threadTs) throw new Error(`approval ${outcome.approval.id} was not posted`);
      approvals.push({ id: outcome.approval.id, portName, threadTs });
    }
  }, 60_000);

  afterAll(async () => {
    writeReliabilityResult({
      verdict: verdictOf(finished),
      suite: "faults-redis-placements",
      checks:
        "Redis SIGKILLed while approved port orders are at the provider, down for the outage, back on the same port (AOF): every provider answer ends recorded as placed with its order id, nothing ordered twice, every thread in order",
      figures: { ...run, ...counted },
      settings: {
        scale: SCALE,
        outageMs: OUTAGE_MS,
        providerLatencyMs: PROVIDER_LATENCY_MS,
        appendfsync: "always",
      },
    });
    calls.release();
    await env?.close();
    globalThis.fetch = transport;
    await redis?.stop();
  });

  function sandboxOrders(portName: string): ProviderOrder[] {
    return providerOrdersByName(sandbox).get(portName) ?? [];
  }

  /** Whether the approval's thread tells the story of its order in order (./threadOrder.ts). */
  function threadProblems(approval: OrderedApproval): string[] {
    const providerId = sandboxOrders(approval.portName)[0]?.orderId;
    if (!providerId) return ["the provider holds no order"];
    const root = env.standin.messages(CHANNEL).find((m) => m.ts === approval.threadTs);
    return threadOrderProblems({
      root: `${root?.text ?? ""} ${JSON.stringify(root?.blocks ?? [])}`,
      replies: threadReplies(env.standin, CHANNEL, approval.threadTs).map((r) => r.text),
      providerId,
    });
  }

  async function tally(): Promise<ApprovalTally[]> {
    const store = env.bot.services.approvals.store;
    const sources = tallySources({
      sandbox,
      standin: env.standin,
      channel: CHANNEL,
      // While Redis is still coming back a read may fail: "not yet", not a crash.
      record: (id) => store.get(id).catch(() => null),
    });
    return Promise.all(approvals.map((approval) => tallyApproval(sources, approval)));
  }

  it(
    "records every provider answer given while Redis was down, orders nothing twice, and tells each thread in order",
    async () => {
      onTestFinished(({ task }) => {
        finished.push(task);
      });
      // Issue 29: each message's lag behind its record, sampled from before the first click
      // (src/jobs/notifier/renderedUpdate.ts renders the approval message and the card when sent).
      const lag = watchMessageLag(
        { store: env.bot.services.approvals.store, standin: env.standin },
        approvals,
      );
      for (const approval of approvals) {
        const ack = await env.slack.clickButton({
          userId: STANDIN_IDS.approver,
          message: { channel: CHANNEL, ts: approval.threadTs },
          actionId: "approval_approve",
        });
        expect(ack.status).toBe(200);
      }
      // Every call on its way out, held: the event, not a count within a window.
      await calls.allHeld(PLACEMENTS);
      run.inFlightAtKill = calls.held();
      const answeredBefore = sandbox.state.orders.size;
      await redis.kill();
      const down = Date.now();
      calls.release(); // they reach the provider, which answers while Redis is down
      // The fault itself: Redis stays down this long, whatever the bot does meanwhile.
      await sleep(OUTAGE_MS);
      run.providerAnswersDuringOutage = sandbox.state.orders.size - answeredBefore;
      await redis.restart();
      run.outageSeconds = Math.round((Date.now() - down) / 100) / 10;

      const back = Date.now();
      // Waited for while anything moves (a loaded machine takes longer to work through what the
      // outage held up); stuck means nothing changed for SETTLE_MS.
      await waitWhileProgressing(
        async () =>
          settled(await tally()) &&
          approvals.every((a) => threadProblems(a).every((p) => p.startsWith("posted twice"))),
        async () => {
          const tallies = await tally();
          const replies = approvals.reduce(
            (n, a) => n + threadReplies(env.standin, CHANNEL, a.threadTs).length,
            0,
          );
          return `${tallies.map((t) => t.status).join(",")}; ${replies} replies`;
        },
        {
          idleMs: SETTLE_MS,
          timeoutMs: 10 * 60_000,
          intervalMs: 500,
          description: "every answer recorded, tracked and told, in order",
        },
      ).catch(() => undefined); // what is still unsettled is reported by the checks below
      run.settleSeconds = Math.round((Date.now() - back) / 100) / 10;
      await waitFor(async () => (await env.bot.jobs.notifier.totalOutboxLength()) === 0, {
        timeoutMs: 60_000,
        description: "the notifier's outboxes to drain",
      }).catch(() => undefined);
      const lags = await lag.stop();
      Object.assign(run, messageLagFigures(lags));

      const tallies = await tally();
      counted = figures(tallies);
      const outOfOrder: string[] = [];
      for (const t of tallies) {
        const orders = sandboxOrders(t.portName);
        run.providerOrders += orders.length;
        run.duplicateOrders += Math.max(0, orders.length - 1);
        if (t.status === "placed" && orders.some((o) => o.orderId === t.providerId)) {
          run.answersRecorded++;
        } else if (orders.length > 0) {
          run.answersLost++;
        }
        const approval = approvals.find((a) => a.id === t.id);
        const found = approval ? threadProblems(approval) : ["no such approval"];
        // The notifier is at-least-once (src/jobs/README.md): a message Slack took just before
        // Redis died, and whose "sent" mark the outage then lost, is posted again when Redis is
        // back. Counted and reported, not hidden; the order of the thread is still asserted.
        const twice = found.filter((p) => p.startsWith("posted twice"));
        run.repliesPostedTwice += twice.length;
        const problems = found.filter((p) => !p.startsWith("posted twice"));
        if (problems.length === 0) run.threadsInOrder++;
        else {
          run.threadsOutOfOrder++;
          outOfOrder.push(`${t.portName}: ${problems.join("; ")}`);
        }
      }

      // The outage must have cut in while the provider was answering, or it proves nothing.
      expect(run.inFlightAtKill).toBeGreaterThanOrEqual(MIN_IN_FLIGHT);
      expect(run.providerAnswersDuringOutage).toBeGreaterThan(0);
      expect(run.outageSeconds * 1_000).toBeGreaterThanOrEqual(OUTAGE_MS);
      expect(run.duplicateOrders, "orders placed twice").toBe(0);
      expect(run.answersLost, "provider answers not recorded as placed").toBe(0);
      expect(run.answersRecorded).toBe(run.providerOrders);
      expect(run.providerOrders).toBe(PLACEMENTS);
      expect(counted.leftExecutingOrUnknownUntold, "left executing/unknown, nobody told").toBe(0);
      expect(
        tallies.filter((t) => t.problems.length > 0).map((t) => `${t.portName}: ${t.problems}`),
        "approvals that broke the promise",
      ).toEqual([]);
      expect(outOfOrder, "threads out of order").toEqual([]);
      // Every approval message ends showing its record's final state (the 10 s figure is
      // measured and reported in docs/RELIABILITY.md, not asserted: a loaded machine is slower).
      expect(
        neverCaughtUp(lags),
        "messages still behind their record once the notifier was idle",
      ).toEqual([]);
    },
    OUTAGE_MS + 10 * 60_000 + 60_000,
  );
});
