import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/approvals/index.js";
import type { OrderSubmission } from "../../src/orders/index.js";
import type { Port } from "../../src/provider/api.js";
import { submitForApproval } from "../../src/slack/kit/index.js";
import { interactionBody, type StandinMessage } from "../../src/standin/index.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { waitFor } from "../harness/index.js";
import { portOrderRequest } from "../harness/portOrders.js";

/**
 * The order lifecycle end to end, through signed requests: the approval message and its thread
 * are written by one ordered writer (the last update shows the latest state, the thread reads
 * in order); an unknown outcome gets buttons that do what they say; a click is honoured only
 * on the request's own approval message.
 */
describe("the order lifecycle in the approvals channel", () => {
  let env: TestBot;
  let client: WebClient;
  let company: string;
  let dcf: { username: string; speed: number };
  let own: Port[];

  beforeAll(async () => {
    env = await startTestBot();
    client = new WebClient(env.standin.botToken, {
      slackApiUrl: env.standin.apiUrl,
      retryConfig: { retries: 0 },
    });
    company = (await env.bot.services.identity()).companyUsername;
    own = await env.bot.services.provider.listPorts(company, { deleted: false });
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

  function ownPort(name: string): Port {
    const port = own.find((p) => p.name === name);
    if (!port) throw new Error(`the sandbox has no port ${name}`);
    return port;
  }

  /** Own port to own port: nobody else must accept it. */
  function layer2Request(name: string): OrderSubmission {
    const source = ownPort("nyc-edge-01");
    const dest = ownPort("iad-core-01");
    return {
      kind: "layer2",
      title: name,
      summary: [{ label: "Connection name", value: name }],
      call: {
        operation: "createLayer2Connection",
        pathParams: { companyUsername: company },
        body: {
          name,
          portId: source.id,
          destPortId: dest.id,
          destCompany: company,
          destMetroId: (dest as { metroId?: string }).metroId,
          duration: 12,
          durationUnit: "m",
          paymentType: "invoice",
          classOfService: "GOLD",
          speed: 100,
          type: "LAYER2",
          evergreen: false,
        },
      },
      reconcileKey: name,
      requester: { userId: STANDIN_IDS.requester, channelId: STANDIN_IDS.general },
    };
  }

  async function submit(
    submission: OrderSubmission,
  ): Promise<{ approval: ApprovalRequest; message: StandinMessage }> {
    const outcome = await submitForApproval({ services: env.bot.services, client, submission });
    if (!outcome.ok) throw new Error(outcome.message);
    const message = await env.standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => m.text.includes(submission.title) && !m.thread_ts,
    );
    return { approval: outcome.approval, message };
  }

  const store = () => env.bot.services.approvals.store;
  const status = async (id: string) => (await store().get(id))?.status;
  /** The replies in a request's thread (its root, the approval message, left out). */
  const threadTexts = (ts: string) =>
    env.standin
      .thread(STANDIN_IDS.approvals, ts)
      .filter((m) => m.ts !== ts)
      .map((m) => m.text);
  const providerCalls = async (operation: string) => {
    const summary = (await (
      await fetch(`${env.bot.sandbox!.url}/__sandbox/requests?summary=1`)
    ).json()) as { byOperation: Record<string, number> };
    return summary.byOperation[operation] ?? 0;
  };
  /** The approval message as Slack shows it now. */
  const current = (ts: string) =>
    env.standin.messages(STANDIN_IDS.approvals).find((m) => m.ts === ts)!;
  const blocksOf = (ts: string) => JSON.stringify(current(ts).blocks);
  /** Every chat.update of one message, in the order Slack received them. */
  const updatesOf = (ts: string) =>
    env.standin
      .calls("chat.update")
      .filter((call) => (call.args as { ts?: string }).ts === ts)
      .map((call) => JSON.stringify((call.args as { blocks?: unknown }).blocks));

  /** A block_actions click as Slack would send it, built by hand (not from a shown button). */
  function forgedClick(
    approvalId: string,
    where: { channel: string; message: { ts: string; text: string } },
    actionId = "approval_approve",
  ) {
    return interactionBody({
      type: "block_actions",
      user: { id: STANDIN_IDS.approver, username: "alex", team_id: "T0STANDIN1" },
      api_app_id: "A0STANDIN1",
      token: "legacy-verification-token",
      trigger_id: "1.2.forged",
      team: { id: "T0STANDIN1", domain: "standin" },
      container: {
        type: "message",
        message_ts: where.message.ts,
        channel_id: where.channel,
        is_ephemeral: false,
      },
      channel: { id: where.channel, name: "somewhere" },
      message: { type: "message", ...where.message },
      actions: [
        {
          type: "button",
          action_id: actionId,
          block_id: `approval_${approvalId}`,
          value: approvalId,
          action_ts: "1700000000.000009",
        },
      ],
    });
  }

  async function click(userId: string, ts: string, actionId: string) {
    const ack = await env.slack.clickButton({ userId, message: current(ts), actionId });
    expect(ack.status).toBe(200);
  }

  it("approve: the thread reads in order and the approval message's last update shows the order placed", async () => {
    const { approval, message } = await submit(
      portOrderRequest({
        portName: "lc-e2e-order-1",
        companyUsername: company,
        dataCenterFacility: dcf.username,
        speed: String(dcf.speed),
        requester: { userId: STANDIN_IDS.requester, channelId: STANDIN_IDS.general },
      }),
    );
    await click(STANDIN_IDS.approver, message.ts, "approval_approve");
    await waitFor(() => threadTexts(message.ts).some((t) => t.includes("Ordered")), {
      timeoutMs: 15_000,
      description: "the order placed in the thread",
    });
    await waitFor(() => blocksOf(message.ts).includes("Ordered"), {
      description: "the approval message to show the order placed",
    });
    // Everything about the request was queued; wait for the outbox to drain, then read.
    await waitFor(async () => (await env.bot.jobs.notifier.totalOutboxLength()) === 0);
    const thread = threadTexts(message.ts);
    const approvedAt = thread.findIndex((t) => t.includes("Approved by"));
    const orderedAt = thread.findIndex((t) => t.includes("Ordered"));
    expect(approvedAt).toBeGreaterThanOrEqual(0);
    expect(orderedAt).toBeGreaterThan(approvedAt);
    const updates = updatesOf(message.ts);
    expect(updates.length).toBeGreaterThanOrEqual(2);
    expect(updates.at(-1)).toContain("Ordered");
    expect(updates.at(-1)).not.toContain("placing the order");
    expect(await status(approval.id)).toBe("placed");
  });

  it("unknown outcome: buttons shown; Look up again says what it found; Place again places it", async () => {
    const name = "lc-e2e-l2-again";
    // The provider's gateway times out after the request left: the outcome is unknown.
    env.bot.sandbox!.faults.add({
      match: "PUT /api/v2/company/*/connections/layer2",
      status: 504,
      times: 1,
    });
    const { approval, message } = await submit(layer2Request(name));
    await click(STANDIN_IDS.approver, message.ts, "approval_approve");
    await waitFor(() => blocksOf(message.ts).includes("approval_place_again"), {
      timeoutMs: 15_000,
      description: "the way forward on the approval message",
    });
    expect(await status(approval.id)).toBe("unknown");
    const buttons = blocksOf(message.ts);
    for (const action of ["approval_look_up_again", "approval_place_again", "approval_mark_failed"])
      expect(buttons).toContain(action);
    // The escalation says what happened: sent, no answer, nothing found by that name.
    const escalation = threadTexts(message.ts).find((t) => t.includes("got no answer"));
    expect(escalation).toContain("found nothing");
    expect(escalation).not.toContain("could not be asked");

    await click(STANDIN_IDS.approver, message.ts, "approval_look_up_again");
    await waitFor(
      () => threadTexts(message.ts).some((t) => t.includes("look the order up again")),
      { description: "the second look-up in the thread" },
    );
    expect(await status(approval.id)).toBe("unknown");

    // A non-approver's Place again changes nothing.
    await click(STANDIN_IDS.outsider, message.ts, "approval_place_again");
    await env.standin.waitForEphemeral(STANDIN_IDS.outsider, (m) =>
      m.text.includes("not an approver"),
    );
    expect(await status(approval.id)).toBe("unknown");

    // (The first call was answered by the gateway's 504, so the provider counted none.)
    const before = await providerCalls("createLayer2Connection");
    await click(STANDIN_IDS.approver, message.ts, "approval_place_again");
    await waitFor(async () => (await status(approval.id)) === "placed", {
      timeoutMs: 15_000,
      description: "the order placed again",
    });
    expect((await providerCalls("createLayer2Connection")) - before).toBe(1);
    await waitFor(() => blocksOf(message.ts).includes("Ordered"), {
      description: "the approval message to show it placed",
    });
    // The message is rendered when its update is sent, so it may show the order before the
    // thread says it: wait for the thread's line too.
    await waitFor(() => threadTexts(message.ts).some((t) => t.includes("Ordered")), {
      description: "the thread to say it placed",
    });
    const thread = threadTexts(message.ts);
    const againAt = thread.findIndex((t) => t.includes("chose to place the order again"));
    expect(againAt).toBeGreaterThan(thread.findIndex((t) => t.includes("got no answer")));
    expect(thread.findIndex((t) => t.includes("Ordered"))).toBeGreaterThan(againAt);
  });

  it("unknown outcome: Mark as failed ends it, says who, and frees the name", async () => {
    const name = "lc-e2e-l2-fail";
    env.bot.sandbox!.faults.add({
      match: "PUT /api/v2/company/*/connections/layer2",
      status: 504,
      times: 1,
    });
    const { approval, message } = await submit(layer2Request(name));
    await click(STANDIN_IDS.approver, message.ts, "approval_approve");
    await waitFor(() => blocksOf(message.ts).includes("approval_mark_failed"), {
      timeoutMs: 15_000,
      description: "the way forward on the approval message",
    });
    const calls = await providerCalls("createLayer2Connection");
    await click(STANDIN_IDS.approver, message.ts, "approval_mark_failed");
    await waitFor(
      () => threadTexts(message.ts).some((t) => t.includes("marked the request as failed")),
      { description: "the thread to say who marked it failed" },
    );
    expect(await status(approval.id)).toBe("failed");
    await waitFor(() => !blocksOf(message.ts).includes("approval_look_up_again"), {
      description: "the unknown-outcome buttons to go",
    });
    expect(await providerCalls("createLayer2Connection")).toBe(calls);

    // Its order may exist at the provider: no Retry anywhere, and its words say what is known.
    await waitFor(() => blocksOf(message.ts).includes("Marked as failed"), {
      description: "the approval message to say it was marked as failed",
    });
    const card = await waitFor(
      () =>
        env.standin
          .messages(STANDIN_IDS.general)
          .find(
            (m) =>
              (m.thread_ts ?? m.ts) === m.ts &&
              m.text.includes(name) &&
              JSON.stringify(m.blocks).includes("Marked as failed"),
          ),
      { description: "the request card to say it was marked as failed" },
    );
    for (const blocks of [blocksOf(message.ts), JSON.stringify(card.blocks)]) {
      expect(blocks).not.toContain("approval_retry");
      expect(blocks).not.toContain("nothing ordered");
      expect(blocks).not.toContain("&lt;@");
      // Who marked it: once, a real mention (the same approver also approved it, said apart).
      expect(blocks.match(new RegExp(`marked by <@${STANDIN_IDS.approver}>`, "g"))).toHaveLength(1);
      expect(blocks).not.toMatch(/marked as failed by/i);
    }

    // A retry click all the same (an old message, a forged payload): refused, nothing changes.
    const before = JSON.stringify(await store().get(approval.id));
    const seen = env.standin.ephemerals(STANDIN_IDS.approver).length;
    const where = { channel: STANDIN_IDS.approvals, message: { ts: message.ts, text: "" } };
    const ack = await env.slack.transport.postRaw(
      forgedClick(approval.id, where, "approval_retry"),
    );
    expect(ack.status).toBe(200);
    const told = await waitFor(() => env.standin.ephemerals(STANDIN_IDS.approver)[seen], {
      description: "the approver told why it is not retried",
    });
    expect(told.text).toContain("it is not sent again");
    expect(JSON.stringify(await store().get(approval.id))).toBe(before);
    expect(await providerCalls("createLayer2Connection")).toBe(calls);

    // The name is free again: the same connection can be asked for anew.
    const again = await submitForApproval({
      services: env.bot.services,
      client,
      submission: layer2Request(name),
    });
    expect(again.ok).toBe(true);
  });

  it("Look up again after a crash mid-call finds the port by name and records it as the port, not an order", async () => {
    const portName = "lc-e2e-found-port";
    const submission = portOrderRequest({
      portName,
      companyUsername: company,
      dataCenterFacility: dcf.username,
      speed: String(dcf.speed),
    });
    const { approval, message } = await submit(submission);
    // The order reached the provider, but the worker died before it could record the answer:
    // the request is left `unknown` with nothing in its journal.
    await env.bot.services.provider.createPortOrder(
      company,
      submission.call.body as Parameters<typeof env.bot.services.provider.createPortOrder>[1],
    );
    const decided = await store().decide(approval.id, {
      by: STANDIN_IDS.approver,
      action: "approve",
    });
    expect(decided.ok).toBe(true);
    const claim = await store().claim(approval.id, "a-worker-that-died");
    if (!claim.ok) throw new Error(claim.reason);
    const unknown = await store().markUnknown(approval.id, "the worker stopped mid-call", {
      attempt: claim.record.attempts,
    });
    expect(unknown.ok).toBe(true);
    await env.bot.services.orders.refreshMessage(approval.id);
    await waitFor(() => blocksOf(message.ts).includes("approval_look_up_again"), {
      description: "Look up again on the approval message",
    });
    // Until the provider has made the port, a look-up finds nothing, and says the port may
    // still come; approvers may then wait, place again (confirmed) or mark it failed.
    await click(STANDIN_IDS.approver, message.ts, "approval_look_up_again");
    await waitFor(
      () => threadTexts(message.ts).some((t) => t.includes("only once its port exists")),
      { description: "the not-found escalation with the port caveat" },
    );
    await waitFor(() => blocksOf(message.ts).includes("approval_place_again"), {
      description: "Place again offered after the look-up found nothing",
    });
    expect(await status(approval.id)).toBe("unknown");

    env.bot.sandbox!.clock.advance(2 * 24 * 3600_000);
    const port = (await env.bot.services.provider.listPorts(company, { deleted: false })).find(
      (p) => p.name === portName,
    );
    if (!port?.id) throw new Error("the sandbox made no port for the order");
    await click(STANDIN_IDS.approver, message.ts, "approval_look_up_again");
    await waitFor(async () => (await status(approval.id)) === "placed", {
      timeoutMs: 15_000,
      description: "the request settled by the look-up",
    });
    const record = await store().get(approval.id);
    expect(record?.result).toMatchObject({ providerId: port.id, resource: "port" });
    await waitFor(() => threadTexts(message.ts).some((t) => t.includes(`port \`${port.id}\``)), {
      description: "the thread to name the port",
    });
    expect(threadTexts(message.ts).some((t) => t.includes(`Order \`${port.id}\``))).toBe(false);
    // Followed as the port, never polled as /ports/orders/<port id>.
    await waitFor(
      async () => (await env.bot.jobs.tracker.get({ kind: "port", id: port.id })) !== null,
      {
        description: "the port to be tracked",
      },
    );
    expect(await env.bot.jobs.tracker.get({ kind: "port-order", id: port.id })).toBeNull();
  });

  it("acked means kept: an Approve that cannot be recorded is not acked with 200, and nothing changes", async () => {
    const { approval, message } = await submit(
      portOrderRequest({
        portName: "lc-e2e-not-kept",
        companyUsername: company,
        dataCenterFacility: dcf.username,
        speed: String(dcf.speed),
      }),
    );
    const approve = store().approve;
    // Storage goes away between reading the request and recording the approval.
    store().approve = async () => {
      throw new Error("Connection is closed.");
    };
    const seen = env.standin.ephemerals(STANDIN_IDS.approver).length;
    let ack: Awaited<ReturnType<typeof env.slack.clickButton>>;
    try {
      ack = await env.slack.clickButton({
        userId: STANDIN_IDS.approver,
        message: current(message.ts),
        actionId: "approval_approve",
      });
    } finally {
      store().approve = approve;
    }
    expect(ack.status).toBe(500);
    const told = await waitFor(() => env.standin.ephemerals(STANDIN_IDS.approver)[seen], {
      description: "the approver told privately",
    });
    expect(told.text).toMatch(/temporarily unavailable/i);
    expect(await status(approval.id)).toBe("pending");
    // Once storage is back, the same click works.
    await click(STANDIN_IDS.approver, message.ts, "approval_approve");
    await waitFor(async () => (await status(approval.id)) === "placed", {
      timeoutMs: 15_000,
      description: "the order placed",
    });
  });

  it("acks within Slack's 3 s when the checks before recording are slow, changing nothing", async () => {
    const { approval, message } = await submit(
      portOrderRequest({
        portName: "lc-e2e-slow-check",
        companyUsername: company,
        dataCenterFacility: dcf.username,
        speed: String(dcf.speed),
      }),
    );
    const get = store().get;
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // Storage answers only after the click was answered.
    store().get = async (id) => {
      await held;
      return get.call(store(), id);
    };
    const seen = env.standin.ephemerals(STANDIN_IDS.approver).length;
    const started = Date.now();
    let ack: Awaited<ReturnType<typeof env.slack.clickButton>>;
    try {
      ack = await env.slack.clickButton({
        userId: STANDIN_IDS.approver,
        message: current(message.ts),
        actionId: "approval_approve",
      });
    } finally {
      store().get = get;
      release();
    }
    expect(ack.status).toBe(200);
    expect(Date.now() - started).toBeLessThan(3_000);
    const told = await waitFor(() => env.standin.ephemerals(STANDIN_IDS.approver)[seen], {
      description: "the approver told privately",
    });
    expect(told.text).toContain("couldn't check this click in time");
    expect(await status(approval.id)).toBe("pending");
  });

  describe("a click is honoured only on the request's own approval message", () => {
    it("refuses an approve carrying the right id from another channel or from another request's message", async () => {
      const target = await submit(
        portOrderRequest({
          portName: "lc-e2e-forged-target",
          companyUsername: company,
          dataCenterFacility: dcf.username,
          speed: String(dcf.speed),
        }),
      );
      const other = await submit(
        portOrderRequest({
          portName: "lc-e2e-forged-other",
          companyUsername: company,
          dataCenterFacility: dcf.username,
          speed: String(dcf.speed),
        }),
      );
      const before = JSON.stringify(await store().get(target.approval.id));
      const orders = await providerCalls("createPortOrder");
      const places = [
        // The right id, clicked in #general.
        { channel: STANDIN_IDS.general, message: { ts: target.message.ts, text: "" } },
        // The right id on the other request's message in the approvals channel.
        { channel: STANDIN_IDS.approvals, message: { ts: other.message.ts, text: "" } },
      ];
      for (const where of places) {
        const seen = env.standin.ephemerals(STANDIN_IDS.approver).length;
        const ack = await env.slack.transport.postRaw(forgedClick(target.approval.id, where));
        expect(ack.status).toBe(200);
        const told = await waitFor(() => env.standin.ephemerals(STANDIN_IDS.approver)[seen], {
          description: "the approver told privately",
        });
        expect(told.text).toContain("only works on the request's own message");
      }
      expect(JSON.stringify(await store().get(target.approval.id))).toBe(before);
      expect(await status(other.approval.id)).toBe("pending");
      expect(await providerCalls("createPortOrder")).toBe(orders);
      expect(threadTexts(target.message.ts)).toEqual([]);
    });

    it("refuses a reject-reason submission whose modal was opened for another message", async () => {
      const target = await submit(
        portOrderRequest({
          portName: "lc-e2e-forged-reject",
          companyUsername: company,
          dataCenterFacility: dcf.username,
          speed: String(dcf.speed),
        }),
      );
      const before = JSON.stringify(await store().get(target.approval.id));
      for (const origin of [
        { id: target.approval.id, channel: STANDIN_IDS.general, ts: target.message.ts },
        { id: target.approval.id, channel: STANDIN_IDS.approvals, ts: "1700000000.000001" },
        // A bare id (what the modal carried before): its origin cannot be checked.
        target.approval.id,
      ]) {
        const ack = await env.slack.sendInteraction({
          type: "view_submission",
          user: { id: STANDIN_IDS.approver, username: "alex", team_id: "T0STANDIN1" },
          api_app_id: "A0STANDIN1",
          token: "legacy-verification-token",
          trigger_id: "1.2.forged-view",
          team: { id: "T0STANDIN1", domain: "standin" },
          view: {
            id: "V0FORGED01",
            type: "modal",
            callback_id: "approval_reject_reason",
            private_metadata: typeof origin === "string" ? origin : JSON.stringify(origin),
            blocks: [],
            state: {
              values: { reject_reason: { reason: { type: "plain_text_input", value: "no" } } },
            },
            hash: "1.a",
          },
          response_urls: [],
        });
        expect(ack.status).toBe(200);
        const body = ack.body as { response_action?: string; errors?: Record<string, string> };
        expect(body.response_action).toBe("errors");
        expect(Object.values(body.errors ?? {}).join(" ")).toContain(
          "only works on the request's own message",
        );
      }
      expect(JSON.stringify(await store().get(target.approval.id))).toBe(before);
    });
  });
});
