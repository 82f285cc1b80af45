import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrderSubmission } from "../../src/orders/index.js";
import type { RequestReadModel } from "../../src/orders/readModel.js";
import { ledgerEntries, ledgerMonthOf, monthlySpend } from "../../src/orders/spend/ledger.js";
import { submitForApproval } from "../../src/slack/kit/index.js";
import type { StandinMessage } from "../../src/standin/index.js";
import { ACTION_WITHDRAW } from "../../views/approvals/approvals.js";
import { stateLine } from "../../views/requestState.js";
import { spendView } from "../../views/spend/spend.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { waitFor } from "../harness/index.js";
import { placeableDcf, portOrderRequest } from "../harness/portOrders.js";
import { dmAgrees, toldState } from "../support/cardAgreement.js";

/**
 * One story everywhere (issue 29), end to end through signed requests: after each step of a
 * request's life, the approval message, the request card, the requester's App Home, the last DM
 * that told the requester a state, `/connect approvals all` and `/connect spend` show the same
 * state, order id, tracked status and amounts — the read model's (src/orders/readModel.ts),
 * however the step happened.
 */

const DAY = 24 * 3600_000;
const REQUESTER = STANDIN_IDS.requester;
const PRICE = {
  monthly: 1_000,
  total: 12_000,
  termMonths: 12,
  text: "1,000.00 a month, 12,000.00 for 12 months",
};

let env: TestBot;
let client: WebClient;
let company: string;
let dcf: { username: string; speed: number };

beforeAll(async () => {
  env = await startTestBot();
  client = new WebClient(env.standin.botToken, {
    slackApiUrl: env.standin.apiUrl,
    retryConfig: { retries: 0 },
  });
  company = (await env.bot.services.identity()).companyUsername;
  const onNet = await placeableDcf(env.bot.services.provider);
  dcf = { username: onNet.username, speed: Number(onNet.speed) };
}, 60_000);
afterAll(async () => {
  await env?.close();
});

function order(portName: string): OrderSubmission {
  return portOrderRequest({
    portName,
    companyUsername: company,
    dataCenterFacility: dcf.username,
    speed: String(dcf.speed),
    price: PRICE,
    requester: { userId: REQUESTER, channelId: STANDIN_IDS.general },
  });
}

async function submit(name: string) {
  const outcome = await submitForApproval({
    services: env.bot.services,
    client,
    submission: order(name),
  });
  if (!outcome.ok) throw new Error(outcome.message);
  const message = await env.standin.waitForMessage(
    STANDIN_IDS.approvals,
    (m) => m.text.includes(name) && !m.thread_ts,
  );
  return { id: outcome.approval.id, message };
}

function current(channel: string, ts: string): StandinMessage {
  const found = env.standin.messages(channel).find((m) => m.ts === ts);
  if (!found) throw new Error(`no message ${ts} in ${channel}`);
  return found;
}

/** The state line a message shows (its `state_<key>` block) and the key. */
function shownState(blocks: unknown): { key?: string; line?: string } {
  const block = (
    blocks as Array<{ block_id?: string; text?: { text?: string } }> | undefined
  )?.find((b) => b.block_id?.startsWith("state_"));
  return { key: block?.block_id?.slice("state_".length), line: block?.text?.text };
}

async function drained(): Promise<void> {
  await waitFor(async () => (await env.bot.jobs.notifier.totalOutboxLength()) === 0, {
    timeoutMs: 20_000,
    description: "the notifier's outboxes to drain",
  });
}

/** The request as the read model says it now: what every surface must show. */
async function truth(id: string): Promise<RequestReadModel> {
  const read = await env.bot.services.orders.reads.one(id);
  if (!read) throw new Error(`request ${id} vanished`);
  return read.model;
}

/** The state the requester's last state DM about `id` told (views/requestState.ts `stateDm`). */
function lastToldDm(id: string): { state: string; text: string } | undefined {
  const told = env.standin
    .messages(`D${REQUESTER.slice(1)}`)
    .map((message) => ({ told: toldState(message), text: message.text }))
    .filter((dm) => dm.told?.requestId === id);
  const last = told.at(-1);
  return last?.told ? { state: last.told.state, text: last.text } : undefined;
}

/**
 * What the requester's last state DM should tell after a step: the state itself, or for a
 * placed order "placed" until tracking ends (each status is said in the card's thread).
 */
type Told = string | undefined | ((model: RequestReadModel) => string | undefined);

/** After placement: "placed", until tracking ends and the end is told. */
const placedUntilItEnds: Told = (model) => (model.tracking?.outcome ? model.state.key : "placed");

/** The section of the requester's Home about `id`, once a publish shows `line` there. */
async function homeSays(id: string, line: string): Promise<string> {
  const ack = await env.slack.openAppHome(REQUESTER);
  expect(ack.status).toBe(200);
  return waitFor(
    () => {
      const view = env.standin.homeView(REQUESTER);
      const blocks = (view?.view.blocks ?? []) as Array<{ text?: { text?: string } }>;
      const section = blocks
        .map((b) => b.text?.text ?? "")
        .find((text) => text.includes(`\`${id}\``));
      return section?.includes(line) ? section : undefined;
    },
    { timeoutMs: 15_000, description: `the requester's Home to show ${line}` },
  );
}

/**
 * After a step: the approval message, the card, the requester's Home, their last state DM (the
 * state `told`: none before anything was told), `/connect approvals all` and `/connect spend`
 * say what the read model says. Returns the read model.
 */
async function oneStory(id: string, told: Told): Promise<RequestReadModel> {
  await drained();
  const model = await truth(id);
  const line = stateLine(model);
  const record = await env.bot.services.approvals.store.get(id);
  const { approvalChannel, approvalTs, cardChannel, cardTs } = record?.slack ?? {};
  if (!approvalChannel || !approvalTs || !cardChannel || !cardTs) {
    throw new Error("the request has no approval message or card");
  }
  const message = shownState(current(approvalChannel, approvalTs).blocks);
  const card = shownState(current(cardChannel, cardTs).blocks);
  expect({ message, card }).toEqual({
    message: { key: model.state.key, line },
    card: { key: model.state.key, line },
  });
  if (model.order) expect(line).toContain(model.order.id);
  // The tracked status is said (with an outcome, only when it is another word: "Done (ACTIVE)").
  const status = model.tracking?.status;
  if (status && status.toLowerCase() !== model.tracking?.outcome) expect(line).toContain(status);

  expect(await homeSays(id, line)).toContain(model.title);

  // The requester's DMs: the last one that told a state tells this one (said after the approval
  // message's update, so it is waited for), in words that name the request and its order.
  const expectedDm = typeof told === "function" ? told(model) : told;
  if (expectedDm === undefined) {
    expect(lastToldDm(id), "no DM told the requester a state yet").toBeUndefined();
  } else {
    const dm = await waitFor(
      () => (lastToldDm(id)?.state === expectedDm ? lastToldDm(id) : undefined),
      {
        timeoutMs: 15_000,
        description: `the requester's last state DM to tell ${expectedDm}`,
      },
    );
    expect(dmAgrees(dm.state, model.state.key), `DM ${dm.state}, message ${model.state.key}`).toBe(
      true,
    );
    expect(dm.text).toContain(model.title);
    if (model.order) expect(dm.text).toContain(model.order.id);
    if (model.tracking?.outcome) expect(dm.text).toContain(line);
  }

  // `/connect approvals all`: the request's row carries the same line.
  expect((await env.connect("approvals all", REQUESTER)).status).toBe(200);
  await env.standin.waitForEphemeral(
    REQUESTER,
    (m) =>
      (m.blocks as Array<{ text?: { text?: string } }> | undefined)?.some(
        (b) => b.text?.text?.includes(`\`${id}\``) && b.text.text.includes(line),
      ) === true,
  );

  // `/connect spend`: the month's sums over every request as the read model shows them, asked
  // by an approver (who sees the team's money; the requester sees their own only).
  const placed = await env.bot.services.orders.readMany(
    await env.bot.services.approvals.store.findByStatus("placed"),
  );
  const expected = spendView(
    monthlySpend(ledgerEntries(placed, "USD"), ledgerMonthOf(new Date()), "USD"),
  );
  expect((await env.connect("spend", STANDIN_IDS.approver)).status).toBe(200);
  await env.standin.waitForEphemeral(STANDIN_IDS.approver, (m) => m.text === expected.text);
  return model;
}

async function approve(message: StandinMessage): Promise<void> {
  const ack = await env.slack.clickButton({
    userId: STANDIN_IDS.approver,
    message: current(STANDIN_IDS.approvals, message.ts),
    actionId: "approval_approve",
  });
  expect(ack.status).toBe(200);
}

async function statusOf(id: string) {
  return (await env.bot.services.approvals.store.get(id))?.status;
}

describe("one story everywhere", () => {
  it("approved, placed, tracked through its statuses and done", async () => {
    const { id, message } = await submit("story-done-1");
    expect((await oneStory(id, undefined)).state.phase).toBe("waiting");

    await approve(message);
    await waitFor(async () => (await statusOf(id)) === "placed", {
      timeoutMs: 15_000,
      description: "the order placed",
    });
    const placed = await oneStory(id, "placed");
    expect(placed.order?.id).toBeTruthy();
    expect(placed.money).toMatchObject({ monthly: 1_000, total: 12_000, termMonths: 12 });

    // Tracked to its end on the sandbox's clock; the story is checked at every status.
    const statuses = new Set<string>();
    for (let round = 0; round < 8; round += 1) {
      const now = await truth(id);
      if (now.tracking?.status) statuses.add(now.tracking.status);
      if (now.tracking?.outcome) break;
      env.bot.sandbox!.clock.advance(2 * DAY);
      for (const open of await env.bot.jobs.tracker.list()) {
        if (open.ref === id) await env.bot.jobs.tracker.checkNow(open.target);
      }
      await waitFor(
        async () =>
          (await env.bot.jobs.tracker.list()).every((t) => t.ref !== id || (t.checks ?? 0) > 0),
        { description: "the tracker's read" },
      );
      const seen = await oneStory(id, placedUntilItEnds);
      if (seen.tracking?.status) statuses.add(seen.tracking.status);
    }
    const done = await oneStory(id, placedUntilItEnds);
    expect(done.state.phase).toBe("done");
    expect(statuses.size).toBeGreaterThanOrEqual(2);
    // The requester's DM at the end says it in the same words.
    const dm = env.standin
      .messages(`D${REQUESTER.slice(1)}`)
      .filter((m) => m.text.includes("story-done-1") && m.text.includes("Done"));
    expect(dm.map((m) => m.text)).toEqual([
      expect.stringContaining(stateLine(done).replace(/ · changed .*$/, "")),
    ]);
  }, 120_000);

  it("rejected", async () => {
    const { id, message } = await submit("story-rejected-1");
    await env.slack.clickButton({
      userId: STANDIN_IDS.approver,
      message: current(STANDIN_IDS.approvals, message.ts),
      actionId: "approval_reject",
    });
    await env.standin.waitForView(
      STANDIN_IDS.approver,
      (v) => v.view.callback_id === "approval_reject_reason",
    );
    await env.slack.fillView(STANDIN_IDS.approver, { Reason: "Use the spare port in LD5" });
    expect((await env.slack.submitView(STANDIN_IDS.approver)).errors).toBeUndefined();
    await waitFor(async () => (await statusOf(id)) === "rejected", {
      description: "the request rejected",
    });
    const model = await oneStory(id, "rejected");
    expect(model.state).toMatchObject({ phase: "rejected", detail: "Use the spare port in LD5" });
  }, 60_000);

  it("withdrawn by the requester", async () => {
    const { id } = await submit("story-withdrawn-1");
    const record = await env.bot.services.approvals.store.get(id);
    const ack = await env.slack.clickButton({
      userId: REQUESTER,
      message: current(record!.slack.cardChannel!, record!.slack.cardTs!),
      actionId: ACTION_WITHDRAW,
    });
    expect(ack.status).toBe(200);
    await waitFor(async () => (await statusOf(id)) === "cancelled", {
      description: "the request withdrawn",
    });
    // Answered where the Withdraw was clicked (the card's channel): no DM tells it.
    const model = await oneStory(id, undefined);
    expect(model.state).toMatchObject({ phase: "withdrawn", words: "Withdrawn by the requester" });
  }, 60_000);

  it("refused by the provider", async () => {
    env.bot.sandbox!.faults.add({
      match: "PUT /api/company/*/ports/orders",
      status: 400,
      body: { message: "Speed not available in this facility" },
      times: 1,
    });
    const { id, message } = await submit("story-refused-1");
    await approve(message);
    await waitFor(async () => (await statusOf(id)) === "failed", {
      timeoutMs: 15_000,
      description: "the order refused",
    });
    const model = await oneStory(id, "failed");
    expect(model.state.phase).toBe("not-ordered");
    expect(model.state.detail).toMatch(/speed not available/i);
  }, 60_000);

  it("placed, then the requester stops tracking it", async () => {
    const { id, message } = await submit("story-stopped-1");
    await approve(message);
    await waitFor(async () => (await statusOf(id)) === "placed", {
      timeoutMs: 15_000,
      description: "the order placed",
    });
    const placed = await oneStory(id, "placed");
    await waitFor(async () => (await env.bot.jobs.tracker.list()).some((t) => t.ref === id), {
      description: "the order tracked",
    });
    expect((await env.connect(`track stop ${placed.order!.id}`, REQUESTER)).status).toBe(200);
    await waitFor(async () => (await truth(id)).tracking?.outcome === "stopped", {
      timeoutMs: 15_000,
      description: "tracking stopped",
    });
    // Told the end as every end is: the requester's DMs no longer say it is followed.
    const stopped = await oneStory(id, "placed:stopped");
    expect(stopped.tracking?.stoppedBy).toBe(REQUESTER);
    expect(stateLine(stopped)).toContain(`<@${REQUESTER}> stopped following it`);
    expect(stateLine(stopped)).not.toContain(`stopped by ${REQUESTER}`);
  }, 60_000);
});
