import type { WebClient } from "@slack/web-api";
import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ApprovalStore } from "../../src/approvals/store.js";
import { RateLimitWaitTooLongError } from "../../src/domain/errors.js";
import { httpError, timeoutError } from "../../src/provider/errors.js";
import type { SlackStandin } from "../../src/standin/index.js";
import { waitFor } from "../harness/index.js";
import { APPROVALS_CHANNEL, approvedRequest, FakeProvider } from "./placementSupport.js";
import {
  connect,
  deleteKeys,
  manualClock,
  runPrefix,
  slackClient,
  startStandin,
  startTestJobs,
  type TestJobs,
  threadTexts,
} from "./support.js";

const CHANNEL = APPROVALS_CHANNEL;
const PUT_ORDER = {
  operation: "createPortOrder",
  method: "PUT",
  path: "/api/company/{companyUsername}/ports/orders",
  subject: "the port order",
};

describe("placement of approved orders", () => {
  let redis: Redis;
  let standin: SlackStandin;
  let client: WebClient;
  const prefixes: string[] = [];
  const running: TestJobs[] = [];

  interface Setup {
    store: ApprovalStore;
    provider: FakeProvider;
    clock: ReturnType<typeof manualClock>;
    prefix: string;
    replica: (options?: { workers?: boolean }) => Promise<TestJobs>;
  }

  function setup(): Setup {
    const prefix = runPrefix("placement");
    prefixes.push(prefix);
    const clock = manualClock();
    const store = new ApprovalStore({ redis, prefix: `${prefix}:approvals:`, now: clock.now });
    const provider = new FakeProvider();
    const replica = async (options: { workers?: boolean } = {}) => {
      const jobs = await startTestJobs({
        prefix,
        slack: client.chat,
        placement: { store, ...provider.callbacks() },
        now: clock.now,
        placementSettings: { stuckAfterMs: 5 * 60_000 },
        workers: options.workers,
      });
      running.push(jobs);
      return jobs;
    };
    return { store, provider, clock, prefix, replica };
  }

  const approved = (store: ApprovalStore, title?: string) => approvedRequest(store, client, title);

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

  it("places once when 20 enqueues and claims race across two replicas", async () => {
    const { store, provider, replica } = setup();
    const [a, b] = [await replica(), await replica()];
    const { id, root } = await approved(store);

    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const jobs = i % 2 === 0 ? a : b;
        // Half enqueue (a Slack retry, a double click), half claim directly (a second worker).
        return i < 10
          ? jobs.placement.enqueue(id).then(() => "queued")
          : jobs.placement.process(id);
      }),
    );
    await waitFor(async () => (await store.get(id))?.status === "placed");
    await waitFor(() => threadTexts(standin, CHANNEL, root).length === 1);

    expect(provider.placeCalls).toEqual([id]);
    expect(outcomes.filter((o) => o === "placed").length).toBeLessThanOrEqual(1);
    expect(provider.placed).toHaveLength(1);
    expect(threadTexts(standin, CHANNEL, root)).toEqual(["Placed: order-1"]);
    const record = await store.get(id);
    expect(record?.attempts).toBe(1);
    expect(record?.result?.providerId).toBe("order-1");
  });

  it("reconciles an unknown outcome by looking the order up: found means placed, not resent", async () => {
    const { store, provider, replica } = setup();
    const jobs = await replica();
    provider.placeBehaviour = async () => {
      throw timeoutError(PUT_ORDER, 15_000);
    };
    provider.lookupBehaviour = async () => ({
      found: true,
      result: { providerId: "order-found", status: "created", record: { portName: "syd-core-01" } },
    });
    const { id, root } = await approved(store);
    await jobs.placement.enqueue(id);

    await waitFor(async () => (await store.get(id))?.status === "placed");
    const record = await store.get(id);
    expect(record?.result?.providerId).toBe("order-found");
    // The unknown step's note is in people's words: seconds, no operation name, no milliseconds.
    expect(record?.history.find((h) => h.to === "unknown")?.note).toBe(
      "The provider did not answer within 15 s; the port order may still have gone through — check before trying again.",
    );
    expect(record?.history.map((h) => h.to)).toEqual([
      "approved",
      "executing",
      "unknown",
      "placed",
    ]);
    expect(provider.placeCalls).toEqual([id]);
    expect(provider.lookups).toEqual([id]);
    await waitFor(() => threadTexts(standin, CHANNEL, root).length === 1);
    expect(threadTexts(standin, CHANNEL, root)).toEqual(["Placed: order-found"]);
  });

  it("escalates an unknown outcome it cannot settle, once, and never resends", async () => {
    const { store, provider, replica } = setup();
    const jobs = await replica();
    provider.placeBehaviour = async () => {
      throw httpError(PUT_ORDER, 504, "gateway timeout");
    };
    const { id, root } = await approved(store);
    await jobs.placement.enqueue(id);
    await waitFor(() => provider.escalated.length === 1);
    const unknown = await store.get(id);
    expect(unknown?.status).toBe("unknown");
    // What people see of it is the client's sentence for them, not the log's detail (the
    // operation name, the method and path).
    expect(unknown?.error?.message).toBe(
      "The provider's gateway answered 504 for the port order; it may still have gone through — check before trying again.",
    );
    expect(unknown?.error?.message).not.toMatch(/createPortOrder|PUT|outcome unknown:/);
    expect(provider.escalated[0]?.cause).toEqual({
      kind: "not-found",
      detail: "nothing named syd-core-01 at the provider yet",
    });

    // The reconciler looks again later; still not found: no second escalation, no resend.
    const report = await jobs.runMaintenance();
    expect(report.placement).toEqual({ requeued: 0, stuck: 0, retriedLookups: 1, retold: 0 });
    expect(provider.lookups).toEqual([id, id]);
    expect(provider.escalated).toHaveLength(1);
    expect(provider.placeCalls).toEqual([id]);
    await waitFor(() => threadTexts(standin, CHANNEL, root).length === 1);
    expect(threadTexts(standin, CHANNEL, root)[0]).toMatch(/Please check/);

    // Found on a later look: completed without anyone resending.
    provider.lookupBehaviour = async () => ({
      found: true,
      result: { providerId: "order-late", record: {} },
    });
    await jobs.placement.reconcile();
    expect((await store.get(id))?.status).toBe("placed");
    expect(provider.placed.map((p) => p.result.providerId)).toEqual(["order-late"]);
  });

  it("records a definite refusal as failed and says so", async () => {
    const { store, provider, replica } = setup();
    const jobs = await replica();
    provider.placeBehaviour = async () => {
      throw httpError(
        PUT_ORDER,
        400,
        '{"code":400,"message":"Speed 25000 is not offered at this data center."}',
      );
    };
    const { id, root } = await approved(store);
    await jobs.placement.enqueue(id);
    await waitFor(async () => (await store.get(id))?.status === "failed");
    const record = await store.get(id);
    expect(record?.error?.httpStatus).toBe(400);
    expect(record?.error?.message).toMatch(/25000/);
    await waitFor(() => threadTexts(standin, CHANNEL, root).length === 1);
    expect(threadTexts(standin, CHANNEL, root)[0]).toMatch(/^Failed: .*25000/);
    expect(provider.lookups).toEqual([]);
    expect(provider.placeCalls).toEqual([id]);
  });

  it("fails (not escalates) an order the rate limiter refused before sending", async () => {
    const { store, provider, replica } = setup();
    const jobs = await replica();
    provider.placeBehaviour = async () => {
      throw new RateLimitWaitTooLongError(90_000);
    };
    const { id } = await approved(store);
    await jobs.placement.enqueue(id);
    await waitFor(async () => (await store.get(id))?.status === "failed");
    expect((await store.get(id))?.error?.message).toMatch(/nothing was sent/);
    expect(provider.escalated).toEqual([]);
    expect(provider.lookups).toEqual([]);
  });

  it("escalates a request whose worker died between claim and complete, never resending it", async () => {
    const { store, provider, clock, replica } = setup();
    const jobs = await replica();
    const { id } = await approved(store);
    // A worker claimed it and died mid-call (no job left behind).
    const claim = await store.claim(id, "worker-that-died");
    expect(claim.ok).toBe(true);

    // Not yet past the bound: left alone (the worker might still be calling).
    clock.advance(60_000);
    expect((await jobs.runMaintenance()).placement?.stuck).toBe(0);
    expect((await store.get(id))?.status).toBe("executing");

    clock.advance(10 * 60_000);
    const report = await jobs.runMaintenance();
    expect(report.placement?.stuck).toBe(1);
    // Handed to a placement job, which looks it up.
    await waitFor(() => provider.escalated.length === 1);
    expect((await store.get(id))?.status).toBe("unknown");
    expect(provider.lookups).toEqual([id]);
    expect(provider.escalated.map((e) => e.id)).toEqual([id]);
    expect(provider.placeCalls).toEqual([]);

    // Enqueueing it again cannot resend either: the claim is refused.
    await jobs.placement.enqueue(id);
    expect(await jobs.placement.process(id)).toBe("not-claimed");
    expect(provider.placeCalls).toEqual([]);
  });

  it("re-queues an approved request whose job was lost", async () => {
    const { store, provider, replica } = setup();
    const producer = await replica({ workers: false });
    const { id } = await approved(store);
    // Approved, but the enqueue never happened (a crash right after the decision).
    const report = await producer.runMaintenance();
    expect(report.placement?.requeued).toBe(1);
    expect((await producer.runMaintenance()).placement?.requeued).toBe(0);
    await replica();
    await waitFor(async () => (await store.get(id))?.status === "placed");
    expect(provider.placeCalls).toEqual([id]);
  });
});
