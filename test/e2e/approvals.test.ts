import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrderSubmission } from "../../src/orders/index.js";
import { submitForApproval } from "../../src/slack/kit/index.js";
import { interactionBody } from "../../src/standin/index.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";

/**
 * The approval core, end to end: a submitted order is posted for approval, only approvers can
 * decide, concurrent clicks place it once, the thread follows the order to done.
 */
describe("approvals and exactly-once placement", () => {
  let env: TestBot;
  let client: WebClient;
  let companyUsername: string;
  let dcf: { username: string; speed: number };

  beforeAll(async () => {
    env = await startTestBot();
    client = new WebClient(env.standin.botToken, {
      slackApiUrl: env.standin.apiUrl,
      retryConfig: { retries: 0 },
    });
    companyUsername = (await env.bot.services.identity()).companyUsername;
    const dcfs = await env.bot.services.provider.listDcfs({
      where: { "dataCenterFacility.ready": true },
    });
    const onNet = dcfs.find(
      (d) =>
        (d.dataCenterFacility?.speeds?.length ?? 0) > 0 &&
        !(d.tags ?? []).some((t) => /off|ext/i.test(t)),
    );
    if (!onNet?.username) throw new Error("the sandbox has no on-net DCF with speeds");
    dcf = { username: onNet.username, speed: Number(onNet.dataCenterFacility?.speeds?.[0]) };
  });
  afterAll(async () => {
    await env?.close();
  });

  function portOrder(portName: string): OrderSubmission {
    return {
      kind: "port",
      title: portName,
      summary: [
        { label: "Data center", value: dcf.username },
        { label: "Speed", value: `${dcf.speed} Mbps` },
        { label: "Port name", value: portName },
      ],
      call: {
        operation: "createPortOrder",
        pathParams: { companyUsername },
        body: {
          dataCenterFacility: dcf.username,
          speed: String(dcf.speed),
          durationUnit: "y",
          portName,
          paymentType: "invoice",
        },
      },
      reconcileKey: portName,
      price: { total: 1200, text: "1,200.00 for the term" },
      requester: { userId: STANDIN_IDS.requester, channelId: STANDIN_IDS.general },
    };
  }

  async function portOrderCalls(): Promise<number> {
    const url = `${env.bot.sandbox!.url}/__sandbox/requests?summary=1`;
    const summary = (await (await fetch(url)).json()) as { byOperation: Record<string, number> };
    return summary.byOperation.createPortOrder ?? 0;
  }

  it("posts the request, refuses non-approvers and the requester, places the order once under 20 concurrent clicks", async () => {
    const outcome = await submitForApproval({
      services: env.bot.services,
      client,
      submission: portOrder("e2e-once-1"),
    });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const request = await env.standin.waitForMessage(STANDIN_IDS.approvals, (m) =>
      m.text.includes("e2e-once-1"),
    );
    const text = JSON.stringify(request.blocks);
    for (const shown of [dcf.username, "e2e-once-1", "1,200.00", "Approve", "Reject", "Sandbox"])
      expect(text).toContain(shown);

    await env.slack.clickButton({
      userId: STANDIN_IDS.outsider,
      message: request,
      actionId: "approval_approve",
    });
    await env.standin.waitForEphemeral(STANDIN_IDS.outsider, (m) =>
      m.text.includes("not an approver"),
    );
    await env.slack.clickButton({
      userId: STANDIN_IDS.requester,
      message: request,
      actionId: "approval_approve",
    });
    await env.standin.waitForEphemeral(STANDIN_IDS.requester, (m) =>
      m.text.includes("not an approver"),
    );
    expect((await env.bot.services.approvals.store.get(outcome.approval.id))?.status).toBe(
      "pending",
    );

    const before = await portOrderCalls();
    const approvers = [STANDIN_IDS.approver, "U0APPROVE2"];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        env.slack.clickButton({
          userId: approvers[i % 2]!,
          message: request,
          actionId: "approval_approve",
        }),
      ),
    );
    const placed = await env.standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => m.thread_ts === request.ts && m.ts !== request.ts && m.text.includes("Ordered"),
      { timeoutMs: 15_000 },
    );
    expect(placed.text).toMatch(/Order `[^`]+` is \*created\*/);
    const record = await env.bot.services.approvals.store.get(outcome.approval.id);
    expect(record?.status).toBe("placed");
    expect(record?.attempts).toBe(1);
    expect((await portOrderCalls()) - before).toBe(1);
    // The provider call of the placement is logged under the approval's id.
    const placementLog = env.logLines.find((line) =>
      line.includes('"operation":"createPortOrder"'),
    );
    expect(placementLog).toContain(`"requestId":"${outcome.approval.id}.`);

    // The approval message is updated in place: no buttons, the new state.
    const updated = await env.standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => m.ts === request.ts && JSON.stringify(m.blocks).includes("Ordered"),
    );
    expect(JSON.stringify(updated.blocks)).not.toContain("approval_approve");

    // The tracker follows the order: once it has read the new order (advancing before that
    // would have its first read see it done already), advance past provisioning and read now.
    const orderId = record!.result!.providerId!;
    await expect
      .poll(async () => (await env.bot.jobs.tracker.get(orderId))?.checks ?? 0)
      .toBeGreaterThanOrEqual(1);
    env.bot.sandbox!.clock.advance(2 * 24 * 3600_000);
    await expect.poll(() => env.bot.jobs.tracker.checkNow(orderId), { timeout: 10_000 }).toBe(true);
    const done = await env.standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => m.thread_ts === request.ts && m.text.includes("New port"),
      { timeoutMs: 15_000 },
    );
    expect(done.text).toContain(orderId);
    expect(done.text).toContain("e2e-once-1");
  });

  it("does not let an approver approve their own request", async () => {
    const submission = portOrder("e2e-self-1");
    submission.requester = { userId: STANDIN_IDS.approver };
    const outcome = await submitForApproval({ services: env.bot.services, client, submission });
    if (!outcome.ok) throw new Error(outcome.message);
    const request = await env.standin.waitForMessage(STANDIN_IDS.approvals, (m) =>
      m.text.includes("e2e-self-1"),
    );
    await env.slack.clickButton({
      userId: STANDIN_IDS.approver,
      message: request,
      actionId: "approval_approve",
    });
    await env.standin.waitForEphemeral(STANDIN_IDS.approver, (m) =>
      m.text.includes("someone else"),
    );
    expect((await env.bot.services.approvals.store.get(outcome.approval.id))?.status).toBe(
      "pending",
    );
  });

  it("decides once when Slack delivers the same Approve click again (X-Slack-Retry-Num)", async () => {
    const outcome = await submitForApproval({
      services: env.bot.services,
      client,
      submission: portOrder("e2e-retry-1"),
    });
    if (!outcome.ok) throw new Error(outcome.message);
    const request = await env.standin.waitForMessage(STANDIN_IDS.approvals, (m) =>
      m.text.includes("e2e-retry-1"),
    );
    const body = interactionBody({
      type: "block_actions",
      user: { id: STANDIN_IDS.approver, username: "alex", team_id: "T0STANDIN1" },
      api_app_id: "A0STANDIN1",
      token: "legacy-verification-token",
      trigger_id: "1.2.retry",
      team: { id: "T0STANDIN1", domain: "standin" },
      container: {
        type: "message",
        message_ts: request.ts,
        channel_id: STANDIN_IDS.approvals,
        is_ephemeral: false,
      },
      channel: { id: STANDIN_IDS.approvals, name: "network-approvals" },
      message: request,
      actions: [
        {
          type: "button",
          action_id: "approval_approve",
          block_id: `approval_${outcome.approval.id}`,
          value: outcome.approval.id,
          action_ts: "1700000000.000001",
        },
      ],
    });
    const first = await env.slack.transport.postRaw(body);
    const retried = await env.slack.transport.postRaw(body, {
      retry: { num: 1, reason: "http_timeout" },
    });
    expect([first.status, retried.status]).toEqual([200, 200]);
    await env.standin.waitForEphemeral(STANDIN_IDS.approver, (m) =>
      m.text.includes("Already approved"),
    );
    await env.standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => m.thread_ts === request.ts && m.ts !== request.ts && m.text.includes("Ordered"),
      { timeoutMs: 15_000 },
    );
    const approvedReplies = env.standin
      .thread(STANDIN_IDS.approvals, request.ts)
      .filter((m) => m.text.includes("Approved by"));
    expect(approvedReplies).toHaveLength(1);
    expect((await env.bot.services.approvals.store.get(outcome.approval.id))?.attempts).toBe(1);
  });

  it("rejects with a reason, asked for in a modal, and tells the requester", async () => {
    const outcome = await submitForApproval({
      services: env.bot.services,
      client,
      submission: portOrder("e2e-reject-1"),
    });
    if (!outcome.ok) throw new Error(outcome.message);
    const request = await env.standin.waitForMessage(STANDIN_IDS.approvals, (m) =>
      m.text.includes("e2e-reject-1"),
    );
    await env.slack.clickButton({
      userId: STANDIN_IDS.approver,
      message: request,
      actionId: "approval_reject",
    });
    await env.standin.waitForView(
      STANDIN_IDS.approver,
      (v) => v.view.callback_id === "approval_reject_reason",
    );
    await env.slack.fillView(STANDIN_IDS.approver, { Reason: "Use the existing port in AMS" });
    const submitted = await env.slack.submitView(STANDIN_IDS.approver);
    expect(submitted.errors).toBeUndefined();
    await env.standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => m.ts === request.ts && JSON.stringify(m.blocks).includes("Rejected"),
    );
    await env.standin.waitForMessage(STANDIN_IDS.requester, (m) =>
      m.text.includes("Use the existing port in AMS"),
    );
    expect((await env.bot.services.approvals.store.get(outcome.approval.id))?.status).toBe(
      "rejected",
    );
  });

  it("lists pending requests with /connect approvals", async () => {
    const outcome = await submitForApproval({
      services: env.bot.services,
      client,
      submission: portOrder("e2e-pending-1"),
    });
    if (!outcome.ok) throw new Error(outcome.message);
    await env.connect("approvals");
    const reply = await env.standin.waitForEphemeral(STANDIN_IDS.requester, (m) =>
      m.text.includes("waiting for approval"),
    );
    expect(JSON.stringify(reply.blocks)).toContain("e2e-pending-1");
  });

  it("lists every request with its decision and outcome with /connect approvals all", async () => {
    await env.connect("approvals all");
    const reply = await env.standin.waitForEphemeral(STANDIN_IDS.requester, (m) =>
      m.text.includes("of the last 90 days"),
    );
    const text = JSON.stringify(reply.blocks);
    expect(text).toContain("e2e-once-1");
    expect(text).toContain("Ordered");
    expect(text).toContain("e2e-reject-1");
    expect(text).toContain("Rejected");
    expect(text).toContain("Use the existing port in AMS");
  });
});
