import type { WebClient } from "@slack/web-api";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MINUTE_MS } from "../../src/jobs/index.js";
import { type TrackingEvent, trackJobId } from "../../src/orders/tracking/index.js";
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

// The tracker's observer (src/orders' request card and final outcome): told each status and
// the end, after the thread, only for trackers that carry a ref; its failure never fails a step.

const CHANNEL = STANDIN_IDS.approvals;

describe("the tracker's observer", () => {
  let redis: Redis;
  let standin: SlackStandin;
  let client: WebClient;
  let jobs: TestJobs;
  const prefix = runPrefix("tracker-observer");
  const events: TrackingEvent[] = [];
  let failNext = false;
  const orders = new FakeOrders();
  const clock = manualClock();

  beforeAll(async () => {
    redis = connect();
    standin = await startStandin();
    client = slackClient(standin);
    jobs = await startTestJobs({
      prefix,
      slack: client.chat,
      readOrder: orders.read,
      now: clock.now,
      random: () => 0.5,
      trackingObserver: async (event) => {
        if (failNext) {
          failNext = false;
          throw new Error("observer down");
        }
        events.push(event);
      },
    });
  });
  afterAll(async () => {
    await jobs?.close(5_000);
    await deleteKeys(redis, prefix);
    await standin.close();
    redis.disconnect();
  });

  async function step(id: string): Promise<void> {
    await waitFor(
      async () =>
        (await (await jobs.queues.tracking.getJob(trackJobId(id)))?.getState()) === "delayed",
    );
    const before = orders.readCount(id);
    clock.advance(2 * MINUTE_MS);
    expect(await jobs.tracker.checkNow(id)).toBe(true);
    await waitFor(() => orders.readCount(id) > before);
    await waitFor(async () => {
      const job = await jobs.queues.tracking.getJob(trackJobId(id));
      const state = job ? await job.getState() : "missing";
      return state === "delayed" || state === "missing";
    });
  }

  it("reports the first status, each change and the end (failed, with the reason), with the ref", async () => {
    const id = "po-obs-1";
    const root = await threadRoot(client, CHANNEL, "Port order placed");
    orders.set(id, { status: "created" });
    await jobs.tracker.track({
      orderId: id,
      companyName: "acme",
      channel: CHANNEL,
      threadTs: root,
      requestedBy: STANDIN_IDS.requester,
      ref: "apr_abcdefghijklmnop",
    });
    await waitFor(() => events.length === 1, { description: "the first status" });
    orders.set(id, { status: "allocated" });
    await step(id);
    // A failing observer is logged; the step and the thread go on.
    failNext = true;
    orders.set(id, { status: "processing" });
    await step(id);
    await waitFor(() => threadTexts(standin, CHANNEL, root).some((t) => t.includes("processing")), {
      description: "the change in the thread all the same",
    });
    orders.set(id, { status: "error", details: "no capacity" });
    await step(id);
    await waitFor(() => events.some((e) => e.ended), { description: "the end" });
    expect(events.map((e) => e.status)).toEqual(["created", "allocated", "error"]);
    expect(new Set(events.map((e) => e.ref))).toEqual(new Set(["apr_abcdefghijklmnop"]));
    expect(new Set(events.map((e) => e.eventKey)).size).toBe(3);
    expect(events.at(-1)?.ended).toEqual({ outcome: "failed", detail: "no capacity" });
  });

  it("says nothing for a tracker without a ref (/connect track)", async () => {
    const before = events.length;
    const id = "po-obs-2";
    const root = await threadRoot(client, CHANNEL, "Tracking");
    orders.set(id, { status: "created" });
    await jobs.tracker.track({
      orderId: id,
      companyName: "acme",
      channel: CHANNEL,
      threadTs: root,
      requestedBy: STANDIN_IDS.requester,
    });
    await waitFor(() => orders.readCount(id) === 1, { description: "the first read" });
    orders.set(id, { status: "done" });
    await step(id);
    expect((await jobs.tracker.get(id))?.open).toBe(false);
    expect(events.length).toBe(before);
  });
});
