import type { KnownBlock } from "@slack/types";
import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/approvals/index.js";
import { dcfRef } from "../../src/domain/catalog/dcfs.js";
import { formatMoney as moneyIn } from "../../src/domain/money.js";
import type { OrderSubmission } from "../../src/orders/index.js";
import { submitForApproval } from "../../src/slack/kit/index.js";
import type { StandinMessage } from "../../src/standin/index.js";
import { ACTION_WITHDRAW } from "../../views/approvals/approvals.js";
import { formatSpeed } from "../../views/format.js";

/** Amounts as the bot shows them: the harness sets no PRICE_CURRENCY, so USD. */
const formatMoney = (amount: unknown) => moneyIn(amount, "USD") ?? "—";

import { PORT_ORDER_BLOCKS, PORT_ORDER_VIEW } from "../../views/portOrder/portOrderModal.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { waitFor } from "../harness/index.js";
import { portOrderRequest } from "../harness/portOrders.js";
import { readable } from "../views/support.js";

/**
 * Issue 24 and issue 23 item 6, end to end through signed requests: the request card in the
 * channel where an order was asked (or the requester's DM), updated in place with a reply in its
 * thread per change, through the same ordered notifier as the approvals thread; and the final
 * outcome on the approval message, in `/connect approvals all` and in the requester's DM.
 */

const DAY = 24 * 3600_000;
/** The requester's DM as the stand-in names it (Slack's D… id). */
const REQUESTER_DM = `D${STANDIN_IDS.requester.slice(1)}`;

interface Sandboxed {
  env: TestBot;
  client: WebClient;
  company: string;
  dcf: { username: string; speed: number };
}

async function start(env: Record<string, string> = {}): Promise<Sandboxed> {
  const bot = await startTestBot({ env });
  const client = new WebClient(bot.standin.botToken, {
    slackApiUrl: bot.standin.apiUrl,
    retryConfig: { retries: 0 },
  });
  const company = (await bot.bot.services.identity()).companyUsername;
  const dcfs = await bot.bot.services.provider.listDcfs({
    where: { "dataCenterFacility.ready": true },
  });
  const onNet = dcfs.find(
    (d) =>
      (d.dataCenterFacility?.speeds?.length ?? 0) > 0 &&
      !(d.tags ?? []).some((t) => /off|ext/i.test(t)),
  );
  if (!onNet?.username) throw new Error("the sandbox has no on-net DCF with speeds");
  return {
    env: bot,
    client,
    company,
    dcf: { username: onNet.username, speed: Number(onNet.dataCenterFacility?.speeds?.[0]) },
  };
}

function order(s: Sandboxed, portName: string, channelId?: string): OrderSubmission {
  return portOrderRequest({
    portName,
    companyUsername: s.company,
    dataCenterFacility: s.dcf.username,
    speed: String(s.dcf.speed),
    price: { total: 12_345, text: "12,345.00 for 12 months" },
    requester: {
      userId: STANDIN_IDS.requester,
      ...(channelId ? { channelId } : {}),
    },
  });
}

async function submit(s: Sandboxed, submission: OrderSubmission) {
  const outcome = await submitForApproval({
    services: s.env.bot.services,
    client: s.client,
    submission,
  });
  if (!outcome.ok) throw new Error(outcome.message);
  const message = await s.env.standin.waitForMessage(
    STANDIN_IDS.approvals,
    (m) => m.text.includes(submission.title) && !m.thread_ts,
  );
  return { approval: outcome.approval, message };
}

/** A message as Slack shows it now. */
function current(s: Sandboxed, channel: string, ts: string): StandinMessage {
  const found = s.env.standin.messages(channel).find((m) => m.ts === ts);
  if (!found) throw new Error(`no message ${ts} in ${channel}`);
  return found;
}

/** The card of a request: the top-level message in `channel` that names the request's id. */
function cardIn(s: Sandboxed, channel: string, approval: ApprovalRequest) {
  return s.env.standin
    .messages(channel)
    .filter((m) => !m.thread_ts || m.thread_ts === m.ts)
    .filter((m) => JSON.stringify(m.blocks ?? []).includes("request_card_view_approvals"))
    .find((m) => JSON.stringify(m.blocks).includes(approval.id));
}

/** The state line's block id (`state_<key>`) of a message's blocks. */
function stateOf(blocks: unknown): string | undefined {
  return (blocks as Array<{ block_id?: string }> | undefined)
    ?.map((b) => b.block_id)
    .find((id) => id?.startsWith("state_"));
}

function replies(s: Sandboxed, channel: string, ts: string): string[] {
  return s.env.standin
    .thread(channel, ts)
    .filter((m) => m.ts !== ts)
    .map((m) => m.text);
}

async function drained(s: Sandboxed): Promise<void> {
  await waitFor(async () => (await s.env.bot.jobs.notifier.totalOutboxLength()) === 0, {
    timeoutMs: 15_000,
    description: "the notifier's outboxes to drain",
  });
}

async function approve(s: Sandboxed, message: StandinMessage): Promise<void> {
  const ack = await s.env.slack.clickButton({
    userId: STANDIN_IDS.approver,
    message: current(s, STANDIN_IDS.approvals, message.ts),
    actionId: "approval_approve",
  });
  expect(ack.status).toBe(200);
}

async function placed(s: Sandboxed, approval: ApprovalRequest): Promise<ApprovalRequest> {
  await waitFor(
    async () => (await s.env.bot.services.approvals.store.get(approval.id))?.status === "placed",
    { timeoutMs: 15_000, description: "the order placed" },
  );
  const record = await s.env.bot.services.approvals.store.get(approval.id);
  if (!record) throw new Error("the request vanished");
  return record;
}

describe("the request card", () => {
  let s: Sandboxed;

  beforeAll(async () => {
    s = await start();
  });
  afterAll(async () => {
    await s?.env.close();
  });

  it("a port order asked in #general: a card there with the price, updated to the end, a reply per change; the approval message, approvals all and the requester's DM show the outcome", async () => {
    const { env } = s;
    const { approval, message } = await submit(s, order(s, "card-e2e-1", STANDIN_IDS.general));

    // Posted right after submission, in the channel, with what, who, the price and its state.
    const card = cardIn(s, STANDIN_IDS.general, approval);
    expect(card, "the card in #general").toBeDefined();
    const first = JSON.stringify(card!.blocks);
    for (const expected of ["card-e2e-1", "12,345.00 for 12 months", STANDIN_IDS.requester]) {
      expect(first).toContain(expected);
    }
    expect(first).toContain("Waiting for approval");
    expect(stateOf(card!.blocks)).toBe("state_pending");
    // Its link leads to the approval message; nothing about the decision is on the card.
    const link = await env.bot.services.approvals.store.get(approval.id);
    expect(link?.slack.approvalLink).toMatch(/^https?:\/\//);
    expect(first).toContain(link!.slack.approvalLink);
    expect(first).not.toContain("approval_approve");
    expect(first).not.toContain("approval_reject");

    await approve(s, message);
    const record = await placed(s, approval);
    const orderId = record.result!.providerId!;
    await waitFor(
      () => JSON.stringify(current(s, STANDIN_IDS.general, card!.ts).blocks).includes(orderId),
      {
        timeoutMs: 15_000,
        description: "the card to say the order was placed",
      },
    );
    await waitFor(
      () => replies(s, STANDIN_IDS.general, card!.ts).some((t) => t.includes("Approved")),
      {
        description: "the approval said in the card's thread",
      },
    );

    // Tracked to its end: the sandbox's order completes, then its port; each read now.
    await waitFor(async () => ((await env.bot.jobs.tracker.get(orderId))?.checks ?? 0) >= 1, {
      timeoutMs: 15_000,
      description: "the tracker's first read",
    });
    for (let round = 0; round < 6; round += 1) {
      const progress = (await env.bot.services.orders.progressOf([approval.id])).get(approval.id);
      if (progress?.outcome) break;
      env.bot.sandbox!.clock.advance(2 * DAY);
      for (const open of await env.bot.jobs.tracker.list()) {
        if (open.ref === approval.id) await env.bot.jobs.tracker.checkNow(open.target);
      }
      await waitFor(
        async () =>
          (await env.bot.jobs.tracker.list()).every(
            (t) => t.ref !== approval.id || (t.checks ?? 0) > 0,
          ),
        { description: "the tracker's read" },
      );
      await drained(s);
    }
    const progress = (await env.bot.services.orders.progressOf([approval.id])).get(approval.id);
    expect(progress?.outcome).toBe("done");
    await drained(s);

    // The card shows the latest state; its thread has a reply per change, in order.
    const final = current(s, STANDIN_IDS.general, card!.ts);
    expect(stateOf(final.blocks)).toBe("state_placed:done");
    expect(JSON.stringify(final.blocks)).toContain("Done");
    const thread = replies(s, STANDIN_IDS.general, card!.ts);
    const approvedAt = thread.findIndex((t) => t.includes("Approved"));
    const placedAt = thread.findIndex((t) => t.includes("Ordered"));
    const doneAt = thread.findIndex((t) => t.includes("Done"));
    expect(approvedAt).toBeGreaterThanOrEqual(0);
    expect(placedAt).toBeGreaterThan(approvedAt);
    expect(doneAt).toBeGreaterThan(placedAt);
    // Each tracked status was said between placing and the end.
    expect(doneAt - placedAt).toBeGreaterThanOrEqual(2);
    expect(doneAt).toBe(thread.length - 1);

    // Issue 23 item 6: the approval message shows the outcome, not "Ordered" forever…
    const approvalMessage = current(s, STANDIN_IDS.approvals, message.ts);
    expect(stateOf(approvalMessage.blocks)).toBe("state_placed:done");
    expect(JSON.stringify(approvalMessage.blocks)).toContain("Done");
    expect(JSON.stringify(approvalMessage.blocks)).not.toContain("Ordered");
    // …so does the audit trail…
    const ack = await env.connect("approvals all");
    expect(ack.status).toBe(200);
    const list = await env.standin.waitForEphemeral(STANDIN_IDS.requester, (m) =>
      JSON.stringify(m.blocks ?? []).includes("card-e2e-1"),
    );
    const row = (list.blocks as Array<{ text?: { text?: string } }>).find((b) =>
      b.text?.text?.includes("card-e2e-1"),
    );
    expect(row?.text?.text).toContain("Done");
    // …and the requester's DM gets the end.
    const dm = env.standin
      .messages(REQUESTER_DM)
      .filter((m) => m.text.includes("card-e2e-1") && m.text.includes("Done"));
    expect(dm).toHaveLength(1);
  });

  it("through the order form in #general: the card there carries the provider's price", async () => {
    const { env } = s;
    const dcfs = await env.bot.services.provider.listDcfs({
      where: { "dataCenterFacility.ready": true },
    });
    const dcf = dcfs.find((d) => d.username === s.dcf.username);
    if (!dcf) throw new Error("the DCF vanished");
    const ack = await env.connect("port order");
    expect(ack.status).toBe(200);
    await env.standin.waitForView(
      STANDIN_IDS.requester,
      (v) => v.view.callback_id === PORT_ORDER_VIEW,
    );
    await env.slack.fillView(STANDIN_IDS.requester, {
      "Data center": { query: dcf.name ?? dcf.username ?? "", pick: dcfRef(dcf) },
    });
    await env.standin.waitForView(STANDIN_IDS.requester, (v) =>
      (v.view.blocks as unknown as Array<{ block_id?: string }>).some(
        (b) => b.block_id === PORT_ORDER_BLOCKS.speed,
      ),
    );
    const speed = formatSpeed(s.dcf.speed);
    await env.slack.fillView(STANDIN_IDS.requester, {
      Speed: speed,
      Term: "1 year (12 months)",
      "Port name": "card-e2e-form",
    });
    const [price] = await env.bot.services.provider.pricePorts([
      { dcf: dcf.id, speed: s.dcf.speed, durationUnit: "y" },
    ]);
    await env.standin.waitForView(STANDIN_IDS.requester, (v) =>
      JSON.stringify(v.view.blocks).includes(formatMoney(price?.price)),
    );
    const submitted = await env.slack.submitView(STANDIN_IDS.requester);
    expect(submitted.errors).toBeUndefined();
    const card = await env.standin.waitForMessage(
      STANDIN_IDS.general,
      (m) =>
        !m.thread_ts &&
        JSON.stringify(m.blocks ?? []).includes("request_card_view_approvals") &&
        JSON.stringify(m.blocks).includes("card-e2e-form"),
    );
    expect(readable(card.blocks as KnownBlock[])).toContain(formatMoney(price?.price));
    expect(stateOf(card.blocks)).toBe("state_pending");
  });

  it("the provider refuses: the card says failed and why; the requester is told", async () => {
    const { env } = s;
    env.bot.sandbox!.faults.add({
      match: "PUT /api/company/*/ports/orders",
      status: 400,
      body: { message: "Speed not available in this facility" },
      times: 1,
    });
    const { approval, message } = await submit(
      s,
      order(s, "card-e2e-refused", STANDIN_IDS.general),
    );
    const card = cardIn(s, STANDIN_IDS.general, approval);
    expect(card).toBeDefined();
    await approve(s, message);
    await waitFor(
      async () => (await env.bot.services.approvals.store.get(approval.id))?.status === "failed",
      { timeoutMs: 15_000, description: "the order refused" },
    );
    await waitFor(
      () => stateOf(current(s, STANDIN_IDS.general, card!.ts).blocks) === "state_failed",
      {
        description: "the card to say it failed",
      },
    );
    await env.standin.waitForMessage(
      STANDIN_IDS.requester,
      (m) => m.text.includes("card-e2e-refused") && m.text.includes("refused"),
    );
    await drained(s);
    const shown = readable(current(s, STANDIN_IDS.general, card!.ts).blocks as KnownBlock[]);
    expect(shown).toContain("Failed");
    expect(replies(s, STANDIN_IDS.general, card!.ts).at(-1)).toContain("Failed");
    expect(stateOf(current(s, STANDIN_IDS.approvals, message.ts).blocks)).toBe("state_failed");
  });

  it("a rejection shows the reason on the card and in its thread", async () => {
    const { env } = s;
    const { approval, message } = await submit(s, order(s, "card-e2e-reject", STANDIN_IDS.general));
    const card = cardIn(s, STANDIN_IDS.general, approval);
    expect(card).toBeDefined();
    await env.slack.clickButton({
      userId: STANDIN_IDS.approver,
      message: current(s, STANDIN_IDS.approvals, message.ts),
      actionId: "approval_reject",
    });
    await env.standin.waitForView(
      STANDIN_IDS.approver,
      (v) => v.view.callback_id === "approval_reject_reason",
    );
    await env.slack.fillView(STANDIN_IDS.approver, { Reason: "Use the spare port in LD5" });
    const submitted = await env.slack.submitView(STANDIN_IDS.approver);
    expect(submitted.errors).toBeUndefined();
    await waitFor(
      () =>
        JSON.stringify(current(s, STANDIN_IDS.general, card!.ts).blocks).includes(
          "Use the spare port in LD5",
        ),
      { description: "the reason on the card" },
    );
    await drained(s);
    const shown = current(s, STANDIN_IDS.general, card!.ts);
    expect(stateOf(shown.blocks)).toBe("state_rejected");
    expect(JSON.stringify(shown.blocks)).toContain("Rejected");
    expect(replies(s, STANDIN_IDS.general, card!.ts).at(-1)).toContain("Use the spare port in LD5");
  });

  it("Withdraw on the card: refused for anyone but the requester; the requester's ends it on the card and the approval message", async () => {
    const { env } = s;
    const { approval, message } = await submit(
      s,
      order(s, "card-e2e-withdraw", STANDIN_IDS.general),
    );
    const card = cardIn(s, STANDIN_IDS.general, approval);
    expect(card).toBeDefined();
    const click = (userId: string) =>
      env.slack.clickButton({
        userId,
        message: current(s, STANDIN_IDS.general, card!.ts),
        actionId: ACTION_WITHDRAW,
      });
    expect((await click(STANDIN_IDS.approver)).status).toBe(200);
    await env.standin.waitForCall(
      "chat.postEphemeral",
      (c) =>
        c.args.user === STANDIN_IDS.approver && String(c.args.text).includes("Only the requester"),
    );
    expect((await env.bot.services.approvals.store.get(approval.id))?.status).toBe("pending");

    expect((await click(STANDIN_IDS.requester)).status).toBe(200);
    await waitFor(
      () => JSON.stringify(current(s, STANDIN_IDS.general, card!.ts).blocks).includes("Withdrawn"),
      { description: "the card showing the withdrawal" },
    );
    await drained(s);
    expect((await env.bot.services.approvals.store.get(approval.id))?.status).toBe("cancelled");
    expect(stateOf(current(s, STANDIN_IDS.general, card!.ts).blocks)).toBe(
      stateOf(current(s, STANDIN_IDS.approvals, message.ts).blocks),
    );
    const approvalMessage = current(s, STANDIN_IDS.approvals, message.ts);
    expect(readable(approvalMessage.blocks as KnownBlock[])).toContain(
      "Withdrawn by the requester",
    );
    expect(JSON.stringify(approvalMessage.blocks)).not.toContain("approval_approve");
    expect(JSON.stringify(current(s, STANDIN_IDS.general, card!.ts).blocks)).not.toContain(
      ACTION_WITHDRAW,
    );
  });

  it("a request from a DM: the card and its thread are in the requester's DM", async () => {
    const { approval, message } = await submit(s, order(s, "card-e2e-dm", REQUESTER_DM));
    const card = cardIn(s, REQUESTER_DM, approval);
    expect(card, "the card in the requester's DM").toBeDefined();
    expect(cardIn(s, STANDIN_IDS.general, approval)).toBeUndefined();
    await approve(s, message);
    await placed(s, approval);
    await waitFor(() => replies(s, REQUESTER_DM, card!.ts).some((t) => t.includes("Ordered")), {
      description: "the placement said in the card's thread in the DM",
    });
    await drained(s);
    expect(stateOf(current(s, REQUESTER_DM, card!.ts).blocks)).toBe(
      stateOf(current(s, STANDIN_IDS.approvals, message.ts).blocks),
    );
    // Asked in the DM: nothing to explain.
    expect(
      s.env.standin.messages(REQUESTER_DM).filter((m) => m.text.includes("I can't post in")),
    ).toHaveLength(0);
  });

  it("the bot not in the channel: the card goes to the DM, and the requester is told why once", async () => {
    const { env } = s;
    const why = () =>
      env.standin.messages(REQUESTER_DM).filter((m) => m.text.includes("I can't post in"));
    const before = why().length;
    env.standin.setBotMembership(STANDIN_IDS.general, false);
    try {
      const { approval, message } = await submit(
        s,
        order(s, "card-e2e-noinvite", STANDIN_IDS.general),
      );
      const card = cardIn(s, REQUESTER_DM, approval);
      expect(card, "the card in the requester's DM").toBeDefined();
      expect(why().length - before).toBe(1);
      expect(why().at(-1)?.text).toContain(`<#${STANDIN_IDS.general}>`);
      await approve(s, message);
      await placed(s, approval);
      await drained(s);
      await waitFor(() => replies(s, REQUESTER_DM, card!.ts).some((t) => t.includes("Ordered")), {
        description: "the placement said in the card's thread in the DM",
      });
      await drained(s);
      // Every later change went to the card in the DM; the reason was not said again.
      expect(why().length - before).toBe(1);
      // A second request there: its card in the DM too, and the reason is not repeated.
      const second = await submit(s, order(s, "card-e2e-noinvite-2", STANDIN_IDS.general));
      expect(cardIn(s, REQUESTER_DM, second.approval)).toBeDefined();
      expect(why().length - before).toBe(1);
      const refused = env.standin
        .calls("chat.postMessage")
        .filter((c) => (c.args as { channel?: string }).channel === STANDIN_IDS.general && !c.ok);
      expect(refused.length).toBe(2);
    } finally {
      env.standin.setBotMembership(STANDIN_IDS.general, true);
    }
  });

  it("over every call recorded in this suite: the card and the approval message never disagree on the last state", async () => {
    await drained(s);
    const store = s.env.bot.services.approvals.store;
    const requests = await store.list({ since: new Date(Date.now() - DAY), limit: 100 });
    const withCard = requests.filter((r) => r.slack.cardTs);
    expect(withCard.length).toBeGreaterThanOrEqual(4);
    for (const request of withCard) {
      /** The state of the last chat.update Slack accepted for a message (else its post). */
      const lastState = (channel: string | undefined, ts: string | undefined) => {
        const last = s.env.standin
          .calls("chat.update")
          .filter((c) => {
            const args = c.args as { channel?: string; ts?: string };
            return c.ok && args.channel === channel && args.ts === ts;
          })
          .at(-1);
        const blocks = last
          ? (last.args as { blocks?: unknown }).blocks
          : current(s, channel ?? "", ts ?? "").blocks;
        // Blocks may arrive as a JSON string (form-encoded calls).
        return stateOf(typeof blocks === "string" ? JSON.parse(blocks) : blocks);
      };
      const card = lastState(request.slack.cardChannel, request.slack.cardTs);
      const message = lastState(request.slack.approvalChannel, request.slack.approvalTs);
      expect(card, request.title).toBeDefined();
      expect(card, request.title).toBe(message);
      // And both are what Slack shows now.
      expect(stateOf(current(s, request.slack.cardChannel!, request.slack.cardTs!).blocks)).toBe(
        card,
      );
    }
  });
});

describe("ORDER_UPDATES=off", () => {
  let s: Sandboxed;

  beforeAll(async () => {
    s = await start({ ORDER_UPDATES: "off" });
  });
  afterAll(async () => {
    await s?.env.close();
  });

  it("posts nothing outside the approvals channel and the requester's DM", async () => {
    const { approval, message } = await submit(s, order(s, "card-e2e-off", STANDIN_IDS.general));
    await approve(s, message);
    await placed(s, approval);
    await s.env.standin.waitForMessage(STANDIN_IDS.requester, (m) =>
      m.text.includes("card-e2e-off"),
    );
    await drained(s);
    const where = new Set(
      s.env.standin
        .calls("chat.postMessage")
        .concat(s.env.standin.calls("chat.update"))
        .map((c) => (c.args as { channel?: string }).channel),
    );
    // The approvals channel got everything, the requester their DM ("ordered").
    expect(where.has(STANDIN_IDS.approvals)).toBe(true);
    for (const channel of where) {
      expect([STANDIN_IDS.approvals, STANDIN_IDS.requester, REQUESTER_DM]).toContain(channel);
    }
    expect(cardIn(s, STANDIN_IDS.general, approval)).toBeUndefined();
    expect(
      (await s.env.bot.services.approvals.store.get(approval.id))?.slack.cardTs,
    ).toBeUndefined();
  });
});
