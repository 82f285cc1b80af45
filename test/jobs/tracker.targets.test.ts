import type { WebClient } from "@slack/web-api";
import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { DAY_MS, HOUR_MS, MINUTE_MS, type TrackTarget } from "../../src/jobs/index.js";
import { type TargetRead, trackJobId, trackJobIdOf } from "../../src/orders/tracking/index.js";
import { httpError } from "../../src/provider/errors.js";
import { type SlackStandin, STANDIN_IDS } from "../../src/standin/index.js";
import { waitFor } from "../harness/index.js";
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

// Every kind of target followed to its end with fake readers, real Redis, the real notifier
// and the Slack stand-in: what is posted, once, in order; the reminder to the requester while a
// partner has not accepted; records written before targets existed.

const CHANNEL = STANDIN_IDS.approvals;
const REQUESTER = STANDIN_IDS.requester;

/** What each target reads as; a test changes it step by step. */
class FakeTargets {
  private readonly reads = new Map<string, TargetRead>();
  private readonly counts = new Map<string, number>();
  private readonly failing = new Map<string, number>();

  private key(target: TrackTarget): string {
    return `${target.kind}|${target.id}`;
  }

  set(target: TrackTarget, read: TargetRead): void {
    this.reads.set(this.key(target), read);
  }

  failNext(target: TrackTarget, count: number): void {
    this.failing.set(this.key(target), count);
  }

  readCount(target: TrackTarget): number {
    return this.counts.get(this.key(target)) ?? 0;
  }

  read = async (target: TrackTarget, _companyName: string): Promise<TargetRead> => {
    const key = this.key(target);
    this.counts.set(key, this.readCount(target) + 1);
    const failing = this.failing.get(key) ?? 0;
    if (failing > 0) {
      this.failing.set(key, failing - 1);
      throw httpError(
        { operation: "listPorts", method: "GET", path: "/ports", subject: "the ports" },
        503,
        "unavailable",
      );
    }
    const read = this.reads.get(key);
    if (!read) throw new Error(`no ${target.kind} ${target.id}`);
    return structuredClone(read);
  };
}

describe("tracking every kind of target", () => {
  let redis: Redis;
  let standin: SlackStandin;
  let client: WebClient;
  const prefixes: string[] = [];
  const running: TestJobs[] = [];

  async function start(targets: FakeTargets, clock = manualClock()): Promise<TestJobs> {
    const prefix = runPrefix("tracker-targets");
    prefixes.push(prefix);
    const jobs = await startTestJobs({
      prefix,
      slack: client.chat,
      readTarget: targets.read,
      now: clock.now,
      random: () => 0.5,
    });
    running.push(jobs);
    return jobs;
  }

  async function jobState(jobs: TestJobs, target: TrackTarget): Promise<string> {
    const job = await jobs.queues.tracking.getJob(trackJobIdOf(target));
    return job ? job.getState() : "missing";
  }

  async function resting(jobs: TestJobs, target: TrackTarget): Promise<string> {
    return waitFor(
      async () => {
        const state = await jobState(jobs, target);
        return state === "delayed" || state === "missing" ? state : undefined;
      },
      { description: `the tracking job of ${target.kind} ${target.id} to rest` },
    );
  }

  async function delivered(jobs: TestJobs): Promise<void> {
    await waitFor(
      async () =>
        (await jobs.notifier.outboxLength(CHANNEL)) === 0 &&
        (await jobs.notifier.outboxLength(REQUESTER)) === 0,
      { description: "the outboxes to drain" },
    );
  }

  /** Runs one check now and waits until it is done and its messages are sent. */
  async function step(jobs: TestJobs, targets: FakeTargets, target: TrackTarget): Promise<void> {
    await waitFor(async () => (await jobState(jobs, target)) === "delayed");
    const before = targets.readCount(target);
    expect(await jobs.tracker.checkNow(target)).toBe(true);
    await waitFor(() => targets.readCount(target) > before, { description: "a read" });
    await resting(jobs, target);
    await delivered(jobs);
  }

  /** Starts tracking in a new thread and waits for the first read to be shown. */
  async function follow(
    jobs: TestJobs,
    targets: FakeTargets,
    target: TrackTarget,
    extra: { counterparty?: string } = {},
  ): Promise<string> {
    const root = await threadRoot(client, CHANNEL, `Placed ${target.kind} ${target.id}`);
    await jobs.tracker.track({
      target,
      companyName: "acme",
      channel: CHANNEL,
      threadTs: root,
      requestedBy: REQUESTER,
      ...extra,
    });
    await waitFor(() => targets.readCount(target) === 1);
    await resting(jobs, target);
    await delivered(jobs);
    return root;
  }

  function dms(): string[] {
    return standin.messages(REQUESTER).map((m) => m.text);
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

  it("a business-to-business layer 2: PENDING for days (polled slowly, the requester reminded after 7 days, then weekly), then ACCEPTED and ACTIVE, each posted once and in order", async () => {
    const targets = new FakeTargets();
    const clock = manualClock();
    const jobs = await start(targets, clock);
    const target: TrackTarget = { kind: "layer2", id: "l2-b2b-1" };
    targets.set(target, { status: "CREATING" });
    const dmsBefore = dms().length;
    const root = await follow(jobs, targets, target, { counterparty: "globex-cloud" });
    expect(threadTexts(standin, CHANNEL, root)).toEqual([
      expect.stringMatching(
        /^:mag: Tracking layer 2 connection `l2-b2b-1`: \*CREATING\*\. The provider is creating it\. Each change is posted in this thread\.$/,
      ),
    ]);

    clock.advance(5 * MINUTE_MS);
    targets.set(target, { status: "PENDING" });
    await step(jobs, targets, target);
    let record = await jobs.tracker.get(target);
    expect(record?.waitingSince?.getTime()).toBe(clock.now().getTime());
    // Waiting on people: at most hourly, although a 5-minute-old tracker polls every 2 minutes.
    expect((record?.nextCheckAt?.getTime() ?? 0) - clock.now().getTime()).toBe(HOUR_MS);

    // Unchanged reads post nothing; the first reminder comes after a week of waiting.
    for (const days of [1, 2, 6.9]) {
      clock.set(new Date(record!.waitingSince!.getTime() + days * DAY_MS).toISOString());
      await step(jobs, targets, target);
    }
    expect(dms().length - dmsBefore).toBe(0);
    clock.set(new Date(record!.waitingSince!.getTime() + 7 * DAY_MS + HOUR_MS).toISOString());
    await step(jobs, targets, target);
    await step(jobs, targets, target);
    expect(dms().slice(dmsBefore)).toEqual([
      expect.stringMatching(
        /Layer 2 connection `l2-b2b-1` has been \*PENDING\* for 7 days: `globex-cloud` has not accepted it yet/,
      ),
    ]);
    // The next one a week later, not before.
    clock.advance(6 * DAY_MS);
    await step(jobs, targets, target);
    expect(dms().length - dmsBefore).toBe(1);
    clock.advance(DAY_MS);
    await step(jobs, targets, target);
    expect(dms().slice(dmsBefore)).toHaveLength(2);
    expect(dms().at(-1)).toMatch(/for 14 days/);
    record = await jobs.tracker.get(target);
    expect(record?.waitReminders).toBe(2);

    targets.set(target, { status: "ACCEPTED" });
    await step(jobs, targets, target);
    await step(jobs, targets, target);
    targets.set(target, { status: "ACTIVE" });
    await step(jobs, targets, target);

    const thread = threadTexts(standin, CHANNEL, root);
    // Top to bottom: the opening reply (never edited), each change, the end.
    expect(thread).toEqual([
      expect.stringMatching(/^:mag: Tracking layer 2 connection `l2-b2b-1`: \*CREATING\*\./),
      expect.stringMatching(
        /status CREATING → \*PENDING\*\. Waiting for `globex-cloud` to accept it: a normal wait, not a failure\./,
      ),
      expect.stringMatching(
        /status PENDING → \*ACCEPTED\*\. Accepted: the provider is setting it up\./,
      ),
      expect.stringMatching(/:white_check_mark: Layer 2 connection `l2-b2b-1` is \*ACTIVE\*/),
    ]);
    expect(dms().slice(dmsBefore)).toHaveLength(2);
    expect(await jobState(jobs, target)).toBe("missing");
    expect((await jobs.tracker.get(target))?.endReason).toBe("active");
  });

  it("a layer 2 the other company DENIED: says who did not accept it and ends", async () => {
    const targets = new FakeTargets();
    const jobs = await start(targets);
    const target: TrackTarget = { kind: "layer2", id: "l2-denied" };
    targets.set(target, { status: "PENDING" });
    const root = await follow(jobs, targets, target, { counterparty: "globex-cloud" });
    targets.set(target, { status: "DENIED" });
    await step(jobs, targets, target);
    expect(threadTexts(standin, CHANNEL, root)).toEqual([
      expect.stringMatching(
        /^:mag: Tracking layer 2 connection `l2-denied`: \*PENDING\*\. Waiting for `globex-cloud` to accept it/,
      ),
      expect.stringMatching(
        /:no_entry: Layer 2 connection `l2-denied` was \*DENIED\*: `globex-cloud` did not accept it/,
      ),
    ]);
    expect((await jobs.tracker.get(target))?.open).toBe(false);
    expect(await jobs.tracker.list()).toEqual([]);
  });

  it("waiting on a cloud or partner (PENDING ACCEPTANCE, in either spelling) names no company it does not know", async () => {
    const targets = new FakeTargets();
    const clock = manualClock();
    const jobs = await start(targets, clock);
    const target: TrackTarget = { kind: "layer2", id: "l2-cloud" };
    targets.set(target, { status: "CREATING" });
    const root = await follow(jobs, targets, target);
    targets.set(target, { status: "PENDING ACCEPTANCE" });
    await step(jobs, targets, target);
    // The provider's spelling of the same status is no change.
    targets.set(target, { status: "PENDING_ACCEPTANCE" });
    clock.advance(8 * DAY_MS);
    await step(jobs, targets, target);
    expect(threadTexts(standin, CHANNEL, root).slice(1)).toEqual([
      expect.stringMatching(
        /→ \*PENDING ACCEPTANCE\*\. Waiting for the cloud or partner to accept it/,
      ),
    ]);
    expect(dms().at(-1)).toMatch(
      /`l2-cloud` has been \*PENDING_ACCEPTANCE\* for 8 days: the cloud or partner has not accepted/,
    );
  });

  it("an IO-D service until ACTIVE; an unknown status on the way is shown as it came", async () => {
    const targets = new FakeTargets();
    const jobs = await start(targets);
    const target: TrackTarget = { kind: "iod", id: "iod-1" };
    targets.set(target, { status: "CREATING" });
    const root = await follow(jobs, targets, target);
    targets.set(target, { status: "Provisioning_<b>Soon</b>" });
    await step(jobs, targets, target);
    await step(jobs, targets, target);
    expect((await jobs.tracker.get(target))?.open).toBe(true);
    targets.set(target, { status: "ACTIVE" });
    await step(jobs, targets, target);
    expect(threadTexts(standin, CHANNEL, root)).toEqual([
      expect.stringMatching(/^:mag: Tracking IO-D service `iod-1`: \*CREATING\*\./),
      "IO-D service `iod-1`: status CREATING → *Provisioning_&lt;b&gt;Soon&lt;/b&gt;*.",
      expect.stringMatching(
        /:white_check_mark: IO-D service `iod-1` is \*ACTIVE\*\. Tracking has ended\./,
      ),
    ]);
  });

  it("a port found by name: followed as the port (READY → ACTIVE), not as an order", async () => {
    const targets = new FakeTargets();
    const jobs = await start(targets);
    const target: TrackTarget = { kind: "port", id: "port-42" };
    targets.set(target, { status: "READY", port: { id: "port-42", name: "syd-core-09" } });
    const root = await follow(jobs, targets, target);
    // A port order of the same id is another tracker: nothing is found under the order's name.
    expect(await jobs.queues.tracking.getJob(trackJobId("port-42"))).toBeUndefined();
    targets.set(target, {
      status: "ACTIVE",
      port: { id: "port-42", name: "syd-core-09", speed: 10000, location: "SY1" },
    });
    await step(jobs, targets, target);
    expect(threadTexts(standin, CHANNEL, root)).toEqual([
      expect.stringMatching(
        /^:mag: Tracking port `port-42`: \*READY\*\. Allocated: waiting for the physical connection/,
      ),
      expect.stringMatching(
        /:white_check_mark: Port `port-42` is \*ACTIVE\* \(\*syd-core-09\*, id `port-42`, 10 Gbps, at SY1\)/,
      ),
    ]);
  });

  it("an Edge order done before its port is active: the port is followed next, in the same thread", async () => {
    const targets = new FakeTargets();
    const jobs = await start(targets);
    const order: TrackTarget = { kind: "edge-order", id: "edge-1" };
    const port: TrackTarget = { kind: "port", id: "edge-port-1" };
    targets.set(order, { status: "activating", loaStatus: "RECEIVED" });
    const root = await follow(jobs, targets, order);
    targets.set(port, { status: "ACTIVATING" });
    targets.set(order, {
      status: "done",
      loaStatus: "APPROVED",
      port: { id: port.id, name: "edge-fra-1", status: "ACTIVATING" },
    });
    await step(jobs, targets, order);
    await waitFor(() => targets.readCount(port) === 1, { description: "the port's first read" });
    await resting(jobs, port);
    await delivered(jobs);
    targets.set(port, { status: "ACTIVE", port: { id: port.id, name: "edge-fra-1" } });
    await step(jobs, targets, port);
    expect(threadTexts(standin, CHANNEL, root)).toEqual([
      expect.stringMatching(
        /^:mag: Tracking Edge port order `edge-1`: \*activating\*, LOA \*RECEIVED\*\./,
      ),
      expect.stringMatching(
        /:white_check_mark: Edge port order `edge-1` is done\. New port: \*edge-fra-1\*, id `edge-port-1`\.\nThe port is \*ACTIVATING\*: I'll follow it here until it is ACTIVE\./,
      ),
      expect.stringMatching(/^:mag: Tracking port `edge-port-1`: \*ACTIVATING\*\./),
      expect.stringMatching(/:white_check_mark: Port `edge-port-1` is \*ACTIVE\*/),
    ]);
    expect(await jobs.tracker.list()).toEqual([]);
  });

  it("a port order whose port is already ACTIVE, or whose read has no port status, follows nothing more", async () => {
    const targets = new FakeTargets();
    const jobs = await start(targets);
    for (const [id, portStatus] of [
      ["po-active-port", "ACTIVE"],
      ["po-no-port-status", undefined],
    ] as const) {
      const order: TrackTarget = { kind: "port-order", id };
      targets.set(order, { status: "processing" });
      const root = await follow(jobs, targets, order);
      targets.set(order, { status: "done", port: { id: `${id}-port`, status: portStatus } });
      await step(jobs, targets, order);
      expect(threadTexts(standin, CHANNEL, root).at(-1)).toMatch(/is done\..*\nNext: the LOA/s);
      expect(await jobs.tracker.get({ kind: "port", id: `${id}-port` })).toBeNull();
    }
  });

  it("finds, lists, stops and re-creates trackers of any kind by their bare id", async () => {
    const targets = new FakeTargets();
    const jobs = await start(targets);
    const connection: TrackTarget = { kind: "layer2", id: "l2-find" };
    const order: TrackTarget = { kind: "port-order", id: "po-find" };
    targets.set(connection, { status: "PENDING" });
    targets.set(order, { status: "created", loaStatus: "TODO" });
    await follow(jobs, targets, connection);
    const root = await follow(jobs, targets, order);
    expect((await jobs.tracker.list()).map((t) => t.target)).toEqual([connection, order]);
    expect((await jobs.tracker.get("l2-find"))?.target).toEqual(connection);

    await (await jobs.queues.tracking.getJob(trackJobIdOf(connection)))?.remove();
    expect(await jobs.tracker.reconcile()).toBe(1);
    await waitFor(() => targets.readCount(connection) === 2, {
      description: "a read by the new job",
    });
    await resting(jobs, connection);

    expect((await jobs.tracker.stop("l2-find", REQUESTER)).ok).toBe(true);
    expect(await jobState(jobs, connection)).toBe("missing");
    expect((await jobs.tracker.list()).map((t) => t.target)).toEqual([order]);
    await delivered(jobs);
    expect(threadTexts(standin, CHANNEL, root)).toHaveLength(1);
  });

  it("reads trackers written before targets existed: a port order and an Edge order", async () => {
    const targets = new FakeTargets();
    const clock = manualClock();
    const jobs = await start(targets, clock);
    const prefix = prefixes.at(-1)!;
    const olds = [
      { id: "po-old-layout", kind: "on-net", target: { kind: "port-order", id: "po-old-layout" } },
      {
        id: "edge-old-layout",
        kind: "edge",
        target: { kind: "edge-order", id: "edge-old-layout" },
      },
    ] as const;
    for (const old of olds) {
      const root = await threadRoot(client, CHANNEL, `Old ${old.id}`);
      const started = clock.now().getTime() - HOUR_MS;
      // Exactly the fields, index member and job an older version wrote.
      await redis.hset(`${prefix}:{tracker}:order:${old.id}`, {
        id: old.id,
        company: "acme",
        channel: CHANNEL,
        thread: root,
        by: REQUESTER,
        kind: old.kind,
        started: String(started),
        state: "open",
        seq: "0",
        checks: "3",
        failures: "0",
        status: "created",
        loa: "TODO",
      });
      await redis.zadd(`${prefix}:{tracker}:open`, started, old.id);
      await jobs.queues.tracking.add("track", { orderId: old.id }, { jobId: trackJobId(old.id) });
      targets.set(old.target, { status: "allocated", loaStatus: "TODO" });
      await waitFor(() => targets.readCount(old.target) === 1, {
        description: "the old job's read",
      });
      await resting(jobs, old.target);
      await delivered(jobs);
      const thread = threadTexts(standin, CHANNEL, root);
      expect(thread).toEqual([
        expect.stringMatching(
          old.kind === "edge"
            ? /^Edge port order `edge-old-layout`: status created → \*allocated\*/
            : /^Port order `po-old-layout`: status created → \*allocated\*/,
        ),
      ]);
      expect((await jobs.tracker.get(old.id))?.target).toEqual(old.target);
    }
    // Both started at the same time: the index orders them by member, so compare as sets.
    expect((await jobs.tracker.list()).map((t) => t.target)).toEqual(
      expect.arrayContaining(olds.map((o) => o.target)),
    );
    expect(await jobs.tracker.list()).toHaveLength(2);
  });

  it("refuses a target of an unknown kind, a bad id, or both a target and an order id", async () => {
    const jobs = await start(new FakeTargets());
    const input = {
      companyName: "acme",
      channel: CHANNEL,
      threadTs: "1700000000.000100",
      requestedBy: REQUESTER,
    };
    await expect(
      jobs.tracker.track({ ...input, target: { kind: "vpn", id: "x" } as unknown as TrackTarget }),
    ).rejects.toThrow(/target\.kind must be one of port-order, port, layer2, iod, edge-order/);
    await expect(
      jobs.tracker.track({ ...input, target: { kind: "layer2", id: "has spaces" } }),
    ).rejects.toThrow(/target\.id/);
    await expect(
      jobs.tracker.track({ ...input, target: { kind: "layer2", id: "a" }, orderId: "b" }),
    ).rejects.toThrow(/either target or orderId/);
    expect(await jobs.tracker.list()).toEqual([]);
  });
});
