import type { WebClient } from "@slack/web-api";
import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DAY_MS, MINUTE_MS } from "../../src/jobs/index.js";
import { trackJobId } from "../../src/orders/tracking/index.js";
import { type SlackStandin, STANDIN_IDS } from "../../src/standin/index.js";
import { waitFor } from "../harness/index.js";
import { FakeOrders } from "./orderSource.js";
import {
  connect,
  deleteKeys,
  manualClock,
  runPrefix,
  slackClient,
  startStandin,
  startTestJobs,
  type TestJobs,
  threadRoot,
  threadTexts,
} from "./support.js";

const CHANNEL = STANDIN_IDS.approvals;
const REQUESTER = STANDIN_IDS.requester;

async function jobState(jobs: TestJobs, orderId: string): Promise<string> {
  const job = await jobs.queues.tracking.getJob(trackJobId(orderId));
  return job ? job.getState() : "missing";
}

/** Waits until the order's tracking job rests (delayed until its next check, or gone). */
async function resting(jobs: TestJobs, orderId: string): Promise<string> {
  return waitFor(
    async () => {
      const state = await jobState(jobs, orderId);
      return state === "delayed" || state === "missing" ? state : undefined;
    },
    { description: `the tracking job of ${orderId} to rest` },
  );
}

/** Runs one check of the order now and waits until it is done and its messages are sent. */
async function step(jobs: TestJobs, orders: FakeOrders, orderId: string): Promise<void> {
  await waitFor(async () => (await jobState(jobs, orderId)) === "delayed");
  const before = orders.readCount(orderId);
  expect(await jobs.tracker.checkNow(orderId)).toBe(true);
  await waitFor(() => orders.readCount(orderId) > before, { description: "a read" });
  await resting(jobs, orderId);
  await delivered(jobs);
}

async function delivered(jobs: TestJobs): Promise<void> {
  await waitFor(async () => (await jobs.notifier.outboxLength(CHANNEL)) === 0, {
    description: "the outbox to drain",
  });
}

describe("order tracking", () => {
  let redis: Redis;
  let standin: SlackStandin;
  let client: WebClient;
  const prefixes: string[] = [];
  const running: TestJobs[] = [];

  async function start(
    orders: FakeOrders,
    clock = manualClock(),
    extra: { deadlineDays?: number; prefix?: string } = {},
  ): Promise<TestJobs> {
    const prefix = extra.prefix ?? runPrefix("tracker");
    prefixes.push(prefix);
    const jobs = await startTestJobs({
      prefix,
      slack: client.chat,
      readOrder: orders.read,
      now: clock.now,
      random: () => 0.5,
      trackerSettings: { deadlineDays: extra.deadlineDays },
    });
    running.push(jobs);
    return jobs;
  }

  beforeAll(async () => {
    redis = connect();
    standin = await startStandin();
    client = slackClient(standin);
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((jobs) => jobs.close(5_000)));
  });

  afterAll(async () => {
    for (const prefix of prefixes) await deleteKeys(redis, prefix);
    await standin.close();
    redis.disconnect();
  });

  it("posts one reply per change, none for unchanged reads, and a final message at done", async () => {
    const orders = new FakeOrders();
    const clock = manualClock();
    const jobs = await start(orders, clock);
    const id = "po-1001";
    const root = await threadRoot(client, CHANNEL, "Port order placed");
    const line = await client.chat.postMessage({
      channel: CHANNEL,
      thread_ts: root,
      text: "Port order po-1001: placed",
    });
    orders.set(id, { status: "created", loaStatus: "TODO" });

    const started = await jobs.tracker.track({
      orderId: id,
      companyName: "acme",
      channel: CHANNEL,
      threadTs: root,
      statusMessageTs: line.ts,
      requestedBy: REQUESTER,
    });
    expect(started.joined).toBe(false);
    await waitFor(() => orders.readCount(id) === 1);
    await resting(jobs, id);
    await delivered(jobs);
    const lineText = () => standin.thread(CHANNEL, root).find((m) => m.ts === line.ts)?.text ?? "";
    // The first read shows the status on the status line; it is not a change. The provider's
    // placeholder LOA status TODO is said in words.
    expect(lineText()).toMatch(/\*created\*, LOA \*not issued yet\* \(tracking since/);
    expect(threadTexts(standin, CHANNEL, root)).toHaveLength(1);

    clock.advance(2 * MINUTE_MS);
    await step(jobs, orders, id);
    await step(jobs, orders, id);
    expect(threadTexts(standin, CHANNEL, root)).toHaveLength(1);

    orders.set(id, { status: "allocated", loaStatus: "TODO" });
    await step(jobs, orders, id);
    await step(jobs, orders, id);
    orders.set(id, { status: "Weird_New_State", loaStatus: "TODO" });
    await step(jobs, orders, id);
    orders.set(id, { status: "processing", loaStatus: "TODO" });
    await step(jobs, orders, id);
    await step(jobs, orders, id);

    const replies = threadTexts(standin, CHANNEL, root).slice(1);
    expect(replies).toHaveLength(3);
    expect(replies[0]).toMatch(/status created → \*allocated\*/);
    // Unknown statuses are shown as they are.
    expect(replies[1]).toMatch(/allocated → \*Weird_New_State\*/);
    expect(replies[2]).toMatch(/Weird_New_State → \*processing\*/);
    // Updated in place: still one status line, now saying processing.
    expect(lineText()).toMatch(/\*processing\*/);

    orders.set(id, {
      status: "DONE",
      loaStatus: "TODO",
      port: { id: "port-77", name: "syd-core-01", speed: 10000, location: "Equinix SY1" },
    });
    await step(jobs, orders, id);
    const final = threadTexts(standin, CHANNEL, root).at(-1) ?? "";
    expect(threadTexts(standin, CHANNEL, root)).toHaveLength(5);
    expect(final).toMatch(/is done/);
    expect(final).toMatch(/syd-core-01/);
    expect(final).toMatch(/port-77/);
    expect(final).toMatch(/10 Gbps/);
    expect(final).toMatch(/Equinix SY1/);
    // The LOA is still TODO: its step is next.
    expect(final).toMatch(/Next: the LOA/);
    expect(lineText()).toMatch(/\*DONE\*.*tracking ended/);

    // The tracker ended: no job, not listed, no more reads.
    expect(await jobState(jobs, id)).toBe("missing");
    expect(await jobs.tracker.list()).toEqual([]);
    expect((await jobs.tracker.get(id))?.open).toBe(false);
    expect((await jobs.tracker.get(id))?.endReason).toBe("done");
  });

  it("posts its own opening reply when none is given, never edits it, and each change follows below it", async () => {
    const orders = new FakeOrders();
    const jobs = await start(orders);
    const id = "po-own-line";
    const root = await threadRoot(client, CHANNEL, "Own line");
    orders.set(id, { status: "created", loaStatus: "TODO" });
    await jobs.tracker.track({
      orderId: id,
      companyName: "acme",
      channel: CHANNEL,
      threadTs: root,
      requestedBy: REQUESTER,
    });
    await waitFor(() => orders.readCount(id) === 1);
    await resting(jobs, id);
    await delivered(jobs);
    const opening =
      /^:mag: Tracking port order `po-own-line`: \*created\*, LOA \*not issued yet\*\. Waiting for the provider's administrators to approve it\. Each change is posted in this thread\.$/;
    expect(threadTexts(standin, CHANNEL, root)).toEqual([expect.stringMatching(opening)]);

    orders.set(id, { status: "created", loaStatus: "DONE" });
    await step(jobs, orders, id);
    orders.set(id, { status: "done", loaStatus: "DONE" });
    await step(jobs, orders, id);
    await delivered(jobs);
    // Top to bottom: the opening reply as it was, the change, the end; nothing edited above.
    expect(threadTexts(standin, CHANNEL, root)).toEqual([
      expect.stringMatching(opening),
      expect.stringMatching(/LOA not issued yet → \*DONE\*/),
      expect.stringMatching(/is done\./),
    ]);
    const threadTsList = standin.thread(CHANNEL, root).map((m) => m.ts);
    expect(
      standin.calls("chat.update").filter((c) => threadTsList.includes(String(c.args.ts))),
    ).toEqual([]);
    // The LOA is settled: the end does not say the LOA comes next.
    const final = threadTexts(standin, CHANNEL, root).at(-1) ?? "";
    expect(final).not.toMatch(/Next: the LOA/);
    expect(final).toMatch(/The LOA step is complete/);
  });

  it("lets a second track of the same order join the open tracker", async () => {
    const orders = new FakeOrders();
    const jobs = await start(orders);
    const id = "po-join";
    const root = await threadRoot(client, CHANNEL, "Join");
    orders.set(id, { status: "created" });
    const input = {
      orderId: id,
      companyName: "acme",
      channel: CHANNEL,
      threadTs: root,
      requestedBy: REQUESTER,
    };
    const [first, second] = await Promise.all([
      jobs.tracker.track(input),
      jobs.tracker.track({ ...input, requestedBy: STANDIN_IDS.approver }),
    ]);
    expect([first.joined, second.joined].sort()).toEqual([false, true]);
    const list = await jobs.tracker.list();
    expect(list).toHaveLength(1);
    expect(list[0]?.watchers).toEqual(first.joined ? [REQUESTER] : [STANDIN_IDS.approver]);
    expect(await jobs.queues.tracking.getJobCountByTypes("waiting", "delayed", "active")).toBe(1);
  });

  it("backs off on provider errors without losing the tracker, and reports after recovery", async () => {
    const orders = new FakeOrders();
    const clock = manualClock();
    const jobs = await start(orders, clock);
    const id = "po-flaky";
    const root = await threadRoot(client, CHANNEL, "Flaky");
    orders.set(id, { status: "created", loaStatus: "TODO" });
    await jobs.tracker.track({
      orderId: id,
      companyName: "acme",
      channel: CHANNEL,
      threadTs: root,
      requestedBy: REQUESTER,
    });
    await waitFor(() => orders.readCount(id) === 1);
    await resting(jobs, id);

    orders.failNext(id, 2);
    orders.set(id, { status: "allocated", loaStatus: "TODO" });
    await step(jobs, orders, id);
    let record = await jobs.tracker.get(id);
    expect(record?.failures).toBe(1);
    expect(record?.lastError).toMatch(/503/);
    // Base 2 min in the first hour, doubled once (jitter off).
    expect((record?.nextCheckAt?.getTime() ?? 0) - clock.now().getTime()).toBe(4 * MINUTE_MS);
    await step(jobs, orders, id);
    record = await jobs.tracker.get(id);
    expect(record?.failures).toBe(2);
    expect((record?.nextCheckAt?.getTime() ?? 0) - clock.now().getTime()).toBe(8 * MINUTE_MS);
    expect(threadTexts(standin, CHANNEL, root)).toHaveLength(1);

    await step(jobs, orders, id);
    record = await jobs.tracker.get(id);
    expect(record?.failures).toBe(0);
    expect(record?.status).toBe("allocated");
    expect((record?.nextCheckAt?.getTime() ?? 0) - clock.now().getTime()).toBe(2 * MINUTE_MS);
    expect(threadTexts(standin, CHANNEL, root).slice(1)).toEqual([
      expect.stringMatching(/created → \*allocated\*/),
    ]);
  });

  it("reminds weekly while the LOA waits, and stops with a message at the deadline", async () => {
    const orders = new FakeOrders();
    const clock = manualClock();
    const jobs = await start(orders, clock, { deadlineDays: 60 });
    const id = "po-offnet";
    const root = await threadRoot(client, CHANNEL, "Off-net");
    orders.set(id, { status: "processing", loaStatus: "TODO" });
    await jobs.tracker.track({
      orderId: id,
      companyName: "acme",
      channel: CHANNEL,
      threadTs: root,
      requestedBy: REQUESTER,
      kind: "off-net",
    });
    await waitFor(() => orders.readCount(id) === 1);
    await resting(jobs, id);

    clock.advance(6 * DAY_MS);
    await step(jobs, orders, id);
    expect(threadTexts(standin, CHANNEL, root)).toHaveLength(1);
    clock.advance(2 * DAY_MS);
    await step(jobs, orders, id);
    await step(jobs, orders, id);
    let thread = threadTexts(standin, CHANNEL, root);
    expect(thread).toHaveLength(2);
    expect(thread[1]).toMatch(
      /LOA is still \*not issued yet\* after 1 week\. Off-net LOAs take 4–6 weeks/,
    );
    clock.advance(7 * DAY_MS);
    await step(jobs, orders, id);
    thread = threadTexts(standin, CHANNEL, root);
    expect(thread).toHaveLength(3);
    expect(thread[2]).toMatch(/after 2 weeks/);

    clock.advance(46 * DAY_MS); // 61 days after the start
    await step(jobs, orders, id);
    thread = threadTexts(standin, CHANNEL, root);
    expect(thread).toHaveLength(4);
    expect(thread[3]).toMatch(
      /Stopped tracking .* after 60 days; last status \*processing\*, LOA \*not issued yet\*/,
    );
    expect(await jobState(jobs, id)).toBe("missing");
    expect((await jobs.tracker.get(id))?.endReason).toBe("deadline");
  });

  it("re-creates a tracking job that went missing, in reconcile", async () => {
    const orders = new FakeOrders();
    const jobs = await start(orders);
    const id = "po-lost";
    const root = await threadRoot(client, CHANNEL, "Lost");
    orders.set(id, { status: "created" });
    await jobs.tracker.track({
      orderId: id,
      companyName: "acme",
      channel: CHANNEL,
      threadTs: root,
      requestedBy: REQUESTER,
    });
    await waitFor(() => orders.readCount(id) === 1);
    await resting(jobs, id);
    const job = await jobs.queues.tracking.getJob(trackJobId(id));
    await job?.remove();
    expect(await jobState(jobs, id)).toBe("missing");

    expect((await jobs.runMaintenance()).tracking?.recreated).toBe(1);
    await waitFor(() => orders.readCount(id) === 2, { description: "a read by the new job" });
    await resting(jobs, id);
    expect(await jobs.tracker.reconcile()).toBe(0);
    orders.set(id, { status: "allocated" });
    await step(jobs, orders, id);
    expect(threadTexts(standin, CHANNEL, root).at(-1)).toMatch(/\*allocated\*/);
  });

  it("lets only the owner or an approver stop a tracker", async () => {
    const orders = new FakeOrders();
    const jobs = await start(orders);
    const id = "po-stop";
    const root = await threadRoot(client, CHANNEL, "Stop");
    orders.set(id, { status: "created" });
    await jobs.tracker.track({
      orderId: id,
      companyName: "acme",
      channel: CHANNEL,
      threadTs: root,
      // The thread's root is the status line kept current in place.
      statusMessageTs: root,
      requestedBy: REQUESTER,
    });
    await waitFor(() => orders.readCount(id) === 1);
    await resting(jobs, id);
    const isApprover = (user: string) => user === STANDIN_IDS.approver;

    expect(await jobs.tracker.stop(id, STANDIN_IDS.outsider, { isApprover })).toEqual({
      ok: false,
      reason: "not-allowed",
    });
    const stopped = await jobs.tracker.stop(id, STANDIN_IDS.approver, { isApprover });
    expect(stopped.ok).toBe(true);
    expect(await jobs.tracker.stop(id, REQUESTER)).toEqual({ ok: false, reason: "not-tracked" });
    await delivered(jobs);
    expect(threadTexts(standin, CHANNEL, root).at(-1)).toMatch(
      new RegExp(`stopped by <@${STANDIN_IDS.approver}>`),
    );
    // Once stopped, the kept-current line no longer says "tracking since".
    const line = standin.thread(CHANNEL, root)[0]?.text ?? "";
    expect(line).toMatch(/^Port order `po-stop`: \*created\* \(tracking stopped\)$/);
    expect(await jobState(jobs, id)).toBe("missing");
    expect(await jobs.tracker.list()).toEqual([]);
  });

  it("keeps an order's tracking state under 2 KiB in Redis, job and markers included", async () => {
    const orders = new FakeOrders();
    const prefix = runPrefix("tracker-size");
    const jobs = await start(orders, manualClock(), { prefix });
    const id = "0b4f6d8e-3c1a-4e5f-9a7b-2d1c0e9f8a6b";
    const root = await threadRoot(client, CHANNEL, "Size");
    orders.set(id, { status: "processing", loaStatus: "TODO" });
    await jobs.tracker.track({
      orderId: id,
      companyName: "Acme Networks Pty Ltd",
      channel: CHANNEL,
      threadTs: root,
      statusMessageTs: root,
      requestedBy: REQUESTER,
      kind: "off-net",
    });
    await waitFor(() => orders.readCount(id) === 1);
    await resting(jobs, id);
    const recordBytes = Number(
      await redis.call("MEMORY", "USAGE", `${prefix}:{tracker}:order:${id}`, "SAMPLES", "0"),
    );
    const jobBytes = Number(
      await redis.call(
        "MEMORY",
        "USAGE",
        `${prefix}:{order-tracking}:order-tracking:${trackJobId(id)}`,
        "SAMPLES",
        "0",
      ),
    );
    // Its notification markers (the status line's versions so far): one hash for the order,
    // kept until the deadline (60 days) and 14 days more, so a quiet order's line is still found.
    await delivered(jobs);
    const markerKeys = await redis.keys(`${prefix}:{notifier}:*${id}*`);
    expect(markerKeys).toHaveLength(1);
    const markersKey = markerKeys[0]!;
    expect(await redis.ttl(markersKey)).toBeGreaterThan(74 * 24 * 3600 - 60);
    const markerBytes = Number(await redis.call("MEMORY", "USAGE", markersKey, "SAMPLES", "0"));
    // Index entries: the open-trackers zset and BullMQ's delayed zset hold the id once each.
    const indexBytes = 2 * (id.length + 16);
    expect(recordBytes).toBeGreaterThan(0);
    expect(jobBytes).toBeGreaterThan(0);
    expect(markerBytes).toBeGreaterThan(0);
    expect(recordBytes + jobBytes + markerBytes + indexBytes).toBeLessThan(2048);
  });

  it("refuses bad track input with a clear error", async () => {
    const jobs = await start(new FakeOrders());
    const input = {
      orderId: "po-x",
      companyName: "acme",
      channel: CHANNEL,
      threadTs: "1700000000.000100",
      requestedBy: REQUESTER,
    };
    await expect(jobs.tracker.track({ ...input, orderId: "bad id with spaces" })).rejects.toThrow(
      /orderId/,
    );
    await expect(jobs.tracker.track({ ...input, threadTs: "yesterday" })).rejects.toThrow(
      /threadTs/,
    );
    await expect(jobs.tracker.track({ ...input, requestedBy: "rita" })).rejects.toThrow(
      /requestedBy/,
    );
    expect(await jobs.tracker.list()).toEqual([]);
  });
});
