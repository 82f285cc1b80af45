import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RECONCILED_MESSAGE_KEY } from "../../src/orders/approvalMessages.js";
import { scopeOf } from "../../src/orders/index.js";
import { STANDIN_IDS, type TestBot } from "../harness/botEnv.js";
import { placeableDcf } from "../harness/portOrders.js";
import { waitFor } from "../harness/waitFor.js";
import { type ReconcilerBot, startReconcilerBot } from "./reconcilerBot.js";

/**
 * A pending request with no approval message (the process died between storing it and posting
 * it, or its post failed for good): the maintenance reconciler posts it once — however many
 * reconcilers run at once — keeps where it is, and its buttons work; a late message loses to the
 * place kept first; a post Slack refuses for good is reported, not retried hot.
 * (src/orders/approvalMessages.ts; docs/RELIABILITY.md, "Lifecycle gaps".)
 */
describe("approval messages a crash never posted", () => {
  let bot: ReconcilerBot;
  let env: TestBot;

  beforeAll(async () => {
    bot = await startReconcilerBot();
    env = bot.env;
  });
  afterAll(async () => {
    await bot?.close();
  });

  /** Stored through the lifecycle API, as a form does, but never posted (the crash). */
  const storedOnly = (
    portName: string,
    at?: { companyUsername: string; dataCenterFacility: string; speed: string },
  ) => bot.stored(portName, at);
  const record = (id: string) => bot.record(id);
  /** Top-level messages of the approvals channel about `name`. */
  const postsAbout = (name: string) =>
    env.standin
      .messages(STANDIN_IDS.approvals)
      .filter((m) => (m.thread_ts === undefined || m.thread_ts === m.ts) && m.text.includes(name));
  /** Runs the maintenance until the reconciled message's place is kept on the record. */
  const keptPlace = (id: string) =>
    bot.maintainUntil((now) => now?.slack.approvalTs, "the approval message's place kept")(id);
  /**
   * Runs the maintenance until the request's card is kept: the reconciler posts it once the
   * approval message is (src/orders/requestCards.ts) and keeps it on a later run, from when it
   * follows the request.
   */
  const keptCard = (id: string) =>
    bot.maintainUntil((now) => now?.slack.cardTs, "the request card's place kept")(id);

  it("posts it once when two reconcilers run at once, keeps where it is, and its Approve works", async () => {
    const approval = await storedOnly("recon-once-1");
    await Promise.all([env.bot.jobs.runMaintenance(), env.bot.jobs.runMaintenance()]);
    const ts = await keptPlace(approval.id);
    await keptCard(approval.id);
    expect(postsAbout("recon-once-1").map((m) => m.ts)).toEqual([ts]);
    expect((await record(approval.id))?.slack.approvalChannel).toBe(STANDIN_IDS.approvals);
    // More runs change nothing: one message, the same place.
    await env.bot.jobs.runMaintenance();
    expect(postsAbout("recon-once-1")).toHaveLength(1);

    const message = postsAbout("recon-once-1")[0]!;
    expect(JSON.stringify(message.blocks)).toContain("approval_approve");
    const ack = await env.slack.clickButton({
      userId: STANDIN_IDS.approver,
      message,
      actionId: "approval_approve",
    });
    expect(ack.status).toBe(200);
    await waitFor(async () => (await record(approval.id))?.history[0]?.to === "approved", {
      description: "the approval recorded",
    });
    await env.standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => m.thread_ts === ts && m.ts !== ts && m.text.includes("Approved by"),
    );
  });

  it("leaves a request alone whose message was posted; a late second message loses its buttons", async () => {
    const approval = await storedOnly("recon-late-1");
    await env.bot.jobs.runMaintenance();
    const sent = await waitFor(
      async () => {
        const marker = await env.bot.jobs.notifier.status(
          scopeOf(approval),
          RECONCILED_MESSAGE_KEY,
        );
        return marker?.state === "sent" && marker.ts;
      },
      { description: "the reconciler's post sent" },
    );
    // The form's own post outlived its grace and kept its place first.
    const formTs = "1700000000.000999";
    await env.bot.services.requests.approvalPosted(approval, {
      approvalChannel: STANDIN_IDS.approvals,
      approvalTs: formTs,
    });
    const report = await env.bot.jobs.runMaintenance();
    expect(report.maintenance?.approvalMessagesSuperseded).toBe(1);
    expect((await record(approval.id))?.slack.approvalTs).toBe(formTs);
    await waitFor(
      () => {
        const ours = env.standin.messages(STANDIN_IDS.approvals).find((m) => m.ts === sent);
        return ours && !JSON.stringify(ours.blocks).includes("approval_approve");
      },
      { description: "the late message without buttons" },
    );
    expect((await env.bot.jobs.runMaintenance()).maintenance?.approvalMessagesSuperseded).toBe(0);
    await keptCard(approval.id);
  });

  it("tracks an order approved in App Home before its message was posted, in the message it then gets", async () => {
    // An order the sandbox places: the bot's company, an on-net data center and its speed.
    const onNet = await placeableDcf(env.bot.services.provider);
    const approval = await storedOnly("recon-placed-1", {
      companyUsername: (await env.bot.services.identity()).companyUsername,
      dataCenterFacility: onNet.username,
      speed: onNet.speed,
    });
    // An approver decides it in their App Home (*Waiting on me* reads the store) at once.
    const approved = await env.bot.services.requests.approve({
      id: approval.id,
      by: STANDIN_IDS.approver,
      groups: async () => [],
      at: { home: true },
    });
    expect(approved.ok).toBe(true);
    const placed = await waitFor(
      async () => {
        const now = await record(approval.id);
        return now?.status === "placed" && now.result ? now.result : undefined;
      },
      { timeoutMs: 15_000, description: "the order placed" },
    );
    // Its placement found no thread to track in.
    expect(await env.bot.services.orders.tracker.get(placed.providerId!)).toBeNull();

    const ts = await keptPlace(approval.id);
    await keptCard(approval.id);
    const tracked = await waitFor(
      async () => {
        await env.bot.jobs.runMaintenance();
        return env.bot.services.orders.tracker.get(placed.providerId!);
      },
      { timeoutMs: 10_000, description: "the placed order tracked" },
    );
    expect(tracked).toMatchObject({ channel: STANDIN_IDS.approvals, threadTs: ts, open: true });
    // Posted as it is: placed, so nothing to approve.
    const message = postsAbout("recon-placed-1")[0]!;
    expect(JSON.stringify(message.blocks)).not.toContain("approval_approve");
    // Later runs neither post again nor start a second tracker.
    const again = await env.bot.jobs.runMaintenance();
    expect(again.maintenance?.placedTracked).toBe(0);
    expect(postsAbout("recon-placed-1")).toHaveLength(1);
  });

  it("reports a post Slack refuses for good on each run, and never posts it again", async () => {
    // Nothing else may take the refusal: the earlier tests' placements and messages are done.
    const store = env.bot.services.approvals.store;
    await waitFor(
      async () =>
        (await store.findByStatus("approved")).length === 0 &&
        (await store.findByStatus("executing")).length === 0 &&
        (await env.bot.jobs.notifier.totalOutboxLength()) === 0,
      { timeoutMs: 15_000, description: "the earlier requests settled and told" },
    );
    env.standin.failNext("chat.postMessage", { error: "channel_not_found" });
    const approval = await storedOnly("recon-refused-1");
    await env.bot.jobs.runMaintenance();
    await waitFor(
      async () =>
        (await env.bot.jobs.notifier.status(scopeOf(approval), RECONCILED_MESSAGE_KEY))?.state ===
        "dropped",
      { description: "the post dropped" },
    );
    const report = await env.bot.jobs.runMaintenance();
    expect(report.maintenance?.approvalMessagesRefused).toBe(1);
    expect(report.maintenance?.approvalMessagesQueued).toBe(0);
    expect(postsAbout("recon-refused-1")).toHaveLength(0);
    expect(env.logLines.some((line) => line.includes("could not be posted for good"))).toBe(true);
    expect((await record(approval.id))?.status).toBe("pending");
  });
});
