import type { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/approvals/index.js";
import { scopeOf } from "../../src/orders/index.js";
import { RECONCILED_CARD_KEY } from "../../src/orders/requestCards.js";
import { postForApproval } from "../../src/slack/kit/index.js";
import type { StandinMessage } from "../../src/standin/index.js";
import { STANDIN_IDS, type TestBot } from "../harness/botEnv.js";
import { waitFor } from "../harness/waitFor.js";
import { type ReconcilerBot, startReconcilerBot } from "./reconcilerBot.js";

/**
 * A request whose card the form never posted (its post failed, or the process died between the
 * approval message and the card): the maintenance reconciler posts the card where the form would
 * have — the channel asked in, or the requester's DM —, keeps where it is, and the card follows
 * the request from then on (its chat.update lands on the kept ts and channel). A channel that
 * answers not_in_channel has the card in the DM on the next run.
 * (src/orders/requestCards.ts; docs/RELIABILITY.md, "A request with no card".)
 */
describe("request cards the form never posted", () => {
  /** The requester's DM as the stand-in names it (Slack's D… id). */
  const REQUESTER_DM = `D${STANDIN_IDS.requester.slice(1)}`;
  let bot: ReconcilerBot;
  let env: TestBot;
  let client: WebClient;

  beforeAll(async () => {
    bot = await startReconcilerBot();
    ({ env, client } = bot);
  });
  afterAll(async () => {
    await bot?.close();
  });

  /**
   * Stored and posted for approval as a form does, with Slack failing every post but the
   * approval message's: the card's first post is lost.
   */
  async function withoutCard(portName: string, channelId: string): Promise<ApprovalRequest> {
    const stored = await bot.stored(portName, { channelId });
    const cardPostFails = {
      chat: {
        ...client.chat,
        postMessage: (args: Parameters<WebClient["chat"]["postMessage"]>[0]) =>
          args.channel === STANDIN_IDS.approvals
            ? client.chat.postMessage(args)
            : Promise.reject(new Error("socket hang up")),
      },
    } as unknown as WebClient;
    await postForApproval({
      services: env.bot.services,
      client: cardPostFails,
      approval: stored,
    });
    const now = await record(stored.id);
    expect(now?.slack.approvalTs).toBeDefined();
    expect(now?.slack.cardTs).toBeUndefined();
    return stored;
  }

  const record = (id: string) => bot.record(id);
  /** Top-level messages in `channel` naming the request (its card carries the id). */
  const cardsOf = (channel: string, approval: ApprovalRequest) =>
    env.standin
      .messages(channel)
      .filter((m) => !m.thread_ts || m.thread_ts === m.ts)
      .filter((m) => JSON.stringify(m.blocks ?? []).includes(`request_card_${approval.id}`));
  /** Runs the maintenance until the card's place is kept on the record. */
  const keptCard = async (id: string) => {
    const slack = await bot.maintainUntil(
      (now) => (now?.slack.cardTs ? now.slack : undefined),
      "the card's place kept",
      15_000,
    )(id);
    return { channel: slack.cardChannel, ts: slack.cardTs };
  };
  /** The state line's block id (`state_<key>`) of a message. */
  const stateOf = (message: StandinMessage | undefined) =>
    (message?.blocks as Array<{ block_id?: string }> | undefined)
      ?.map((b) => b.block_id)
      .find((id) => id?.startsWith("state_"));
  /** Approves from the request's approval message, as an approver clicks it. */
  async function approve(approval: ApprovalRequest): Promise<void> {
    const ts = (await record(approval.id))?.slack.approvalTs;
    const message = env.standin.messages(STANDIN_IDS.approvals).find((m) => m.ts === ts);
    if (!message) throw new Error("no approval message");
    const ack = await env.slack.clickButton({
      userId: STANDIN_IDS.approver,
      message,
      actionId: "approval_approve",
    });
    expect(ack.status).toBe(200);
  }
  /** The card at its kept place follows the request past pending. */
  async function followsApproval(approval: ApprovalRequest, at: { channel?: string; ts?: string }) {
    expect(stateOf(cardsOf(at.channel!, approval)[0])).toBe("state_pending");
    await approve(approval);
    await waitFor(
      () => {
        const card = env.standin.messages(at.channel!).find((m) => m.ts === at.ts);
        const state = stateOf(card);
        return state !== undefined && state !== "state_pending";
      },
      { timeoutMs: 15_000, description: "the reconciled card updated past pending" },
    );
  }

  it("posts a card lost in the channel asked in once, keeps it, and updates it on approval", async () => {
    const approval = await withoutCard("card-lost-1", STANDIN_IDS.general);
    expect(cardsOf(STANDIN_IDS.general, approval)).toHaveLength(0);
    // Two reconcilers at once, then more runs: one card.
    await Promise.all([env.bot.jobs.runMaintenance(), env.bot.jobs.runMaintenance()]);
    const at = await keptCard(approval.id);
    expect(at.channel).toBe(STANDIN_IDS.general);
    expect(cardsOf(STANDIN_IDS.general, approval).map((m) => m.ts)).toEqual([at.ts]);
    await env.bot.jobs.runMaintenance();
    expect(cardsOf(STANDIN_IDS.general, approval)).toHaveLength(1);
    expect(cardsOf(REQUESTER_DM, approval)).toHaveLength(0);
    await followsApproval(approval, at);
  });

  it("posts the card of a request asked in a DM to that DM, kept by its D… channel", async () => {
    const approval = await withoutCard("card-lost-dm-1", REQUESTER_DM);
    const at = await keptCard(approval.id);
    expect(at.channel).toBe(REQUESTER_DM);
    expect(cardsOf(REQUESTER_DM, approval).map((m) => m.ts)).toEqual([at.ts]);
    await followsApproval(approval, at);
  });

  it("posts to the DM what the channel refused as not here, on the next run", async () => {
    const approval = await withoutCard("card-lost-nic-1", STANDIN_IDS.general);
    // Nothing else may take the refusal: the earlier tests' placements and messages are done.
    const store = env.bot.services.approvals.store;
    await waitFor(
      async () =>
        (await store.findByStatus("approved")).length === 0 &&
        (await store.findByStatus("executing")).length === 0 &&
        (await env.bot.jobs.notifier.totalOutboxLength()) === 0,
      { timeoutMs: 15_000, description: "the earlier requests settled and told" },
    );
    env.standin.failNext("chat.postMessage", { error: "not_in_channel" });
    await env.bot.jobs.runMaintenance();
    await waitFor(
      async () =>
        (await env.bot.jobs.notifier.status(scopeOf(approval), RECONCILED_CARD_KEY))?.state ===
        "dropped",
      { description: "the channel's card dropped" },
    );
    const at = await keptCard(approval.id);
    expect(at.channel).toBe(REQUESTER_DM);
    expect(cardsOf(STANDIN_IDS.general, approval)).toHaveLength(0);
    expect(cardsOf(REQUESTER_DM, approval).map((m) => m.ts)).toEqual([at.ts]);
    // Said why, once, before the card.
    const why = env.standin
      .messages(REQUESTER_DM)
      .filter((m) => m.text.includes(`<#${STANDIN_IDS.general}>`));
    expect(why).toHaveLength(1);
    expect(Number(why[0]?.ts)).toBeLessThan(Number(at.ts));
  });
});
