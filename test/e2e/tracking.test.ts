import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TrackTarget } from "../../src/jobs/index.js";
import type { OrderSubmission } from "../../src/orders/index.js";
import { DAY, MINUTE } from "../../src/sandbox/clock.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import { submitForApproval } from "../../src/slack/kit/index.js";
import type { StandinMessage } from "../../src/standin/index.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";

// After approval, every kind is followed to its end in the approval thread: a business-to-
// business layer 2 waits days on the partner (PENDING), then ACCEPTED and ACTIVE; one the
// partner denies ends DENIED; an IO-D service goes ACTIVE. The running bot, the Slack stand-in
// and the sandbox, whose clock the test moves forward.

const PARTNER = "globex-cloud";

describe("tracking layer 2 and IO-D after approval, end to end", () => {
  let env: TestBot;
  let sandbox: Sandbox;
  let client: WebClient;
  let companyUsername: string;
  let companyId: string;

  beforeAll(async () => {
    env = await startTestBot();
    sandbox = env.bot.sandbox!;
    client = new WebClient(env.standin.botToken, {
      slackApiUrl: env.standin.apiUrl,
      retryConfig: { retries: 0 },
    });
    ({ companyUsername, companyId } = await env.bot.services.identity());
  });
  afterAll(async () => {
    await env?.close();
  });

  const ownPort = (name: string) => {
    const port = sandbox.state.world.ports.find((p) => p.name === name);
    if (!port) throw new Error(`the sandbox has no port ${name}`);
    return port;
  };

  function businessToBusiness(name: string): OrderSubmission {
    const metro = sandbox.state.world.metros.find((m) => m.layer2 && m.code === "AMS")!;
    const dcf = sandbox.state.world.dcfs.find((d) => d.metroId === metro.id && d.ready)!;
    return {
      kind: "layer2",
      title: name,
      summary: [{ label: "Connection name", value: name }],
      call: {
        operation: "createLayer2Connection",
        pathParams: { companyUsername },
        body: {
          name,
          portId: ownPort("lon-core-01").id,
          destCompany: PARTNER,
          destMetroId: metro.id,
          destDcf: dcf.id,
          destRegionId: metro.regionId,
          duration: 6,
          durationUnit: "m",
          paymentType: "invoice",
          classOfService: "SILVER",
          speed: 100,
          type: "LAYER2",
          evergreen: false,
        },
      },
      reconcileKey: name,
      requester: { userId: STANDIN_IDS.requester, channelId: STANDIN_IDS.general },
    };
  }

  function iod(name: string): OrderSubmission {
    return {
      kind: "iod",
      title: name,
      summary: [{ label: "Service name", value: name }],
      call: {
        operation: "createGiaService",
        pathParams: { companyId },
        body: {
          accessPortId: ownPort("nyc-edge-01").id,
          name,
          rateLimit: 50,
          type: "STATIC",
          privateAsn: true,
          privateAsnAutoAssign: true,
          ipBlock: 29,
          duration: { quantity: 1, unit: "d" },
          paymentType: "payg",
        },
      },
      reconcileKey: name,
      requester: { userId: STANDIN_IDS.requester, channelId: STANDIN_IDS.general },
    };
  }

  /** Submits, approves, waits for placement; answers the approval message and the target. */
  async function approved(
    submission: OrderSubmission,
    kind: TrackTarget["kind"],
  ): Promise<{ request: StandinMessage; target: TrackTarget }> {
    const outcome = await submitForApproval({ services: env.bot.services, client, submission });
    if (!outcome.ok) throw new Error(outcome.message);
    const request = await env.standin.waitForMessage(STANDIN_IDS.approvals, (m) =>
      m.text.includes(submission.title),
    );
    await env.slack.clickButton({
      userId: STANDIN_IDS.approver,
      message: request,
      actionId: "approval_approve",
    });
    await env.standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => m.thread_ts === request.ts && m.ts !== request.ts && m.text.includes("Ordered"),
      { timeoutMs: 15_000 },
    );
    const record = await env.bot.services.approvals.store.get(outcome.approval.id);
    const target: TrackTarget = { kind, id: record!.result!.providerId! };
    // Its first read (CREATING) is done before the clock moves.
    await expect
      .poll(async () => (await env.bot.jobs.tracker.get(target))?.checks ?? 0, {
        timeout: 15_000,
      })
      .toBeGreaterThanOrEqual(1);
    return { request, target };
  }

  /** The tracker's replies in the approval thread (the opening reply, the changes, the end). */
  function trackerReplies(request: StandinMessage, target: TrackTarget): string[] {
    return env.standin
      .thread(STANDIN_IDS.approvals, request.ts)
      .filter((m) => m.ts !== request.ts && m.text.includes(`\`${target.id}\``))
      .filter((m) => !m.text.includes("Ordered"))
      .map((m) => m.text);
  }

  /** Moves sandbox time, has each open target read now, and waits for `posted` in its thread. */
  async function advanceAndRead(
    ms: number,
    expectations: Array<{ request: StandinMessage; target: TrackTarget; posted: RegExp }>,
  ): Promise<void> {
    sandbox.clock.advance(ms);
    for (const { request, target, posted } of expectations) {
      await expect
        .poll(() => env.bot.jobs.tracker.checkNow(target), { timeout: 10_000 })
        .toBe(true);
      await env.standin.waitForMessage(
        STANDIN_IDS.approvals,
        (m) => m.thread_ts === request.ts && posted.test(m.text),
        { timeoutMs: 15_000 },
      );
    }
  }

  it("posts PENDING (waiting on the partner), ACCEPTED and ACTIVE; DENIED; and IO-D ACTIVE, each once and in order", async () => {
    const accepted = await approved(businessToBusiness("e2e-track-b2b"), "layer2");
    const denied = await approved(businessToBusiness("e2e-track-b2b-deny"), "layer2");
    const service = await approved(iod("e2e-track-iod"), "iod");

    await advanceAndRead(10 * MINUTE, [
      { ...accepted, posted: /CREATING → \*PENDING\*\. Waiting for `globex-cloud` to accept/ },
      { ...denied, posted: /CREATING → \*PENDING\*/ },
      { ...service, posted: /IO-D service `[^`]+` is \*ACTIVE\*/ },
    ]);
    // Three days after the order the partner answers (one accepts, the other denies); ACCEPTED
    // lasts 5 minutes of sandbox time before ACTIVE.
    await advanceAndRead(3 * DAY - 10 * MINUTE + MINUTE, [
      { ...accepted, posted: /PENDING → \*ACCEPTED\*/ },
      { ...denied, posted: /was \*DENIED\*: `globex-cloud` did not accept it/ },
    ]);
    await advanceAndRead(10 * MINUTE, [{ ...accepted, posted: /is \*ACTIVE\*/ }]);

    // Let anything queued drain: nothing may be posted twice.
    await expect.poll(() => env.bot.jobs.notifier.totalOutboxLength(), { timeout: 10_000 }).toBe(0);
    // Each reads top to bottom: the opening reply stays as posted, each change follows it.
    expect(trackerReplies(accepted.request, accepted.target)).toEqual([
      expect.stringMatching(/^:mag: Tracking layer 2 connection `[^`]+`: \*CREATING\*\./),
      expect.stringMatching(/status CREATING → \*PENDING\*\. Waiting for `globex-cloud`/),
      expect.stringMatching(/status PENDING → \*ACCEPTED\*/),
      expect.stringMatching(/:white_check_mark: Layer 2 connection `[^`]+` is \*ACTIVE\*/),
    ]);
    expect(trackerReplies(denied.request, denied.target)).toEqual([
      expect.stringMatching(/^:mag: Tracking layer 2 connection `[^`]+`: \*CREATING\*\./),
      expect.stringMatching(/status CREATING → \*PENDING\*/),
      expect.stringMatching(/:no_entry: Layer 2 connection `[^`]+` was \*DENIED\*/),
    ]);
    expect(trackerReplies(service.request, service.target)).toEqual([
      expect.stringMatching(/^:mag: Tracking IO-D service `[^`]+`: \*CREATING\*\./),
      expect.stringMatching(/:white_check_mark: IO-D service `[^`]+` is \*ACTIVE\*/),
    ]);
    for (const { target } of [accepted, denied, service]) {
      expect((await env.bot.jobs.tracker.get(target))?.open).toBe(false);
    }
    // Nothing in the thread was edited after it was posted, except the approval message itself.
    const requests = new Set([accepted.request.ts, denied.request.ts, service.request.ts]);
    const edited = env.standin
      .calls("chat.update")
      .filter((c) => c.args.channel === STANDIN_IDS.approvals && !requests.has(String(c.args.ts)));
    expect(edited).toEqual([]);
  });
});
