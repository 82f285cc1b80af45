import type { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type ApprovalRequest,
  ApprovalStore,
  type CreateApprovalInput,
} from "../../src/approvals/index.js";
import { type LifecycleJobs, OrderLifecycle } from "../../src/orders/lifecycle.js";
import type { PlacementContext } from "../../src/orders/placement/contract.js";
import { NotLookableError } from "../../src/orders/placement/contract.js";
import type { ProviderApi } from "../../src/provider/api.js";
import {
  ACTION_LOOK_UP_AGAIN,
  ACTION_MARK_FAILED,
  ACTION_PLACE_AGAIN,
} from "../../views/approvals/approvals.js";
import { portOrderInput } from "../approvals/support.js";
import { connect, deleteKeys, runPrefix } from "../jobs/support.js";

const CHANNEL = "C0APPROVALS";
const ROOT_TS = "1700000000.000100";
const APPROVER = "U0APPROVER1";

type Event =
  | { op: "post"; key: string; channel: string; threadTs?: string; text: string }
  | { op: "update"; key: string; text: string; blocks: string }
  | { op: "enqueue"; id: string }
  | { op: "track"; target: unknown; counterparty?: string };

/**
 * The lifecycle with fakes for what it drives (notifier, placement queue, tracker, provider)
 * and the real approval store on the test Redis: the order in which it tells and queues is
 * the event list.
 */
describe("OrderLifecycle", () => {
  let redis: Redis;
  let prefix: string;
  let store: ApprovalStore;
  let events: Event[];
  let ports: Array<{ id: string; name: string; status?: string; connections?: unknown[] }>;
  let lifecycle: OrderLifecycle<LifecycleJobs["placement"], LifecycleJobs["tracker"]>;
  let lookUpAgainCalls: string[];
  let names = 0;

  const notifier: LifecycleJobs["notifier"] = {
    async post(input) {
      // The real notifier de-duplicates by key within a scope; so does this fake.
      if (events.some((e) => e.op === "post" && e.key === `${input.scope}/${input.key}`))
        return { queued: false, reason: "duplicate" };
      events.push({
        op: "post",
        key: `${input.scope}/${input.key}`,
        channel: input.channel,
        threadTs: input.threadTs,
        text: input.text,
      });
      return { queued: true };
    },
    async update(input) {
      const key = `${input.scope}/${input.key}`;
      if (events.some((e) => e.op === "update" && e.key === key))
        return { queued: false, reason: "duplicate" };
      events.push({ op: "update", key, text: input.text, blocks: JSON.stringify(input.blocks) });
      return { queued: true };
    },
    // As the real notifier: one waiting update per key, rendered from the state when it is sent
    // (here at once, unless the test holds the outbox to send later).
    async updateRendered(input) {
      const key = `${input.scope}/${input.key}`;
      if (waiting.some((w) => w.key === key)) return { queued: false, reason: "duplicate" };
      waiting.push({ key, ref: input.ref });
      if (!holding) await sendWaiting();
      return { queued: true };
    },
    // No App Home here (the lifecycle is built without `homes`).
    refreshHome: async () => ({ queued: true }),
  };
  let waiting: Array<{ key: string; ref: string }> = [];
  let holding = false;
  /** Sends the waiting rendered updates, each rendered now (as the notifier's drainer does). */
  async function sendWaiting() {
    const render = lifecycle.messageRenderer();
    while (waiting.length > 0) {
      const next = waiting.shift()!;
      const view = await render(next.ref);
      if (view) {
        events.push({
          op: "update",
          key: next.key,
          text: view.text,
          blocks: JSON.stringify(view.blocks),
        });
      }
    }
  }
  const jobs: LifecycleJobs = {
    notifier,
    placement: {
      async enqueue(id) {
        events.push({ op: "enqueue", id });
      },
      async lookUpAgain(id) {
        lookUpAgainCalls.push(id);
        return "escalated";
      },
    },
    tracker: {
      async track(input) {
        events.push({ op: "track", target: input.target, counterparty: input.counterparty });
        // What the tracker answers is not read by the lifecycle.
        return undefined as never;
      },
      // Tracked: what `track` was given (the lifecycle only asks whether there is one).
      async get(target) {
        const tracked = events.some(
          (e) => e.op === "track" && JSON.stringify(e.target) === JSON.stringify(target),
        );
        return (tracked ? {} : null) as never;
      },
    },
  };
  const provider = {
    listPorts: async () => ports,
  } as unknown as ProviderApi;

  beforeAll(() => {
    redis = connect();
    prefix = runPrefix("orders-lifecycle");
    store = new ApprovalStore({ redis, prefix: `${prefix}:approvals:` });
  });
  afterAll(async () => {
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });
  beforeEach(() => {
    events = [];
    lookUpAgainCalls = [];
    waiting = [];
    holding = false;
    ports = [];
    lifecycle = new OrderLifecycle({
      store,
      provider,
      companyUsername: async () => "acme",
      redis,
      prefix: `${prefix}:orders`,
      notifier: jobs.notifier,
      placement: () => jobs.placement,
      tracker: () => jobs.tracker,
    });
  });

  async function submitted(overrides: Partial<CreateApprovalInput> = {}): Promise<ApprovalRequest> {
    names += 1;
    const created = await store.create(
      portOrderInput({ reconcileKey: `lc-port-${names}`, title: `lc-port-${names}`, ...overrides }),
    );
    const merged = await store.mergeSlackRefs(created.id, {
      approvalChannel: CHANNEL,
      approvalTs: ROOT_TS,
    });
    if (!merged) throw new Error("the request vanished");
    return merged;
  }

  async function approved(overrides: Partial<CreateApprovalInput> = {}) {
    const request = await submitted(overrides);
    const decided = await store.approve(request.id, { by: APPROVER });
    if (!decided.ok) throw new Error(decided.reason);
    return decided.record;
  }

  /** Placed by the placement job: claim, the provider's answer, complete. */
  async function placedByJob(id: string, providerId = "ord-1") {
    const claim = await store.claim(id, "worker-1");
    if (!claim.ok) throw new Error(claim.reason);
    const result = { providerId, status: "created", resource: "order" as const, record: {} };
    const done = await store.complete(id, result, { attempt: claim.record.attempts });
    if (!done.ok) throw new Error(done.reason);
    return { record: done.record, result };
  }

  async function unknownAfterSending(overrides: Partial<CreateApprovalInput> = {}) {
    const request = await approved(overrides);
    const claim = await store.claim(request.id, "worker-1");
    if (!claim.ok) throw new Error(claim.reason);
    const unknown = await store.markUnknown(request.id, "outcome unknown: 504", {
      attempt: claim.record.attempts,
    });
    if (!unknown.ok) throw new Error(unknown.reason);
    return unknown.record;
  }

  const ctx = (record: ApprovalRequest, key: string): PlacementContext => ({
    notifier,
    notifyScope: `approval:${record.id}`,
    notifyKey: key,
  });

  const layer2 = (name: string): Partial<CreateApprovalInput> => ({
    kind: "layer2",
    reconcileKey: name,
    title: name,
    call: {
      operation: "createLayer2Connection",
      pathParams: { companyUsername: "acme" },
      body: {},
    },
  });

  const shape = (list: Event[]) =>
    list.map((e) =>
      e.op === "post" || e.op === "update" ? `${e.op} ${e.key.split("/")[1]}` : e.op,
    );

  it("tells the thread and the message about an approval before its placement is queued", async () => {
    const record = await approved();
    await lifecycle.followUp(record);
    expect(shape(events)).toEqual(["post h0:approved", "update message:render", "enqueue"]);
    const [line, message] = events;
    expect(line).toMatchObject({ channel: CHANNEL, threadTs: ROOT_TS });
    expect(line?.op === "post" && line.text).toContain(`Approved by <@${APPROVER}>`);
    expect(message?.op === "update" && message.blocks).toContain("Approved");
    expect(message?.op === "update" && message.blocks).not.toContain("approval_approve");
  });

  it("keeps 'Approved by' above 'Ordered' even when the click's follow-up never ran (a crash after the ack)", async () => {
    const request = await approved();
    const { record, result } = await placedByJob(request.id);
    await lifecycle.placementCallbacks().onPlaced(record, result, ctx(record, "placed"));
    expect(shape(events)).toEqual([
      "post h0:approved",
      "post placed:thread",
      "update message:render",
      "post placed:requester",
      "track",
    ]);
    const thread = events.filter((e) => e.op === "post" && e.threadTs === ROOT_TS);
    expect(thread.map((e) => (e.op === "post" ? e.text : ""))[1]).toMatch(
      /Ordered[\s\S]*Order `ord-1`/,
    );
    expect(events.at(-1)).toEqual({
      op: "track",
      target: { kind: "port-order", id: "ord-1" },
      counterparty: undefined,
    });
    // The follow-up running late says nothing twice and queues no second placement message.
    await lifecycle.followUp(request);
    expect(events.filter((e) => e.op === "post" && e.key.endsWith("h0:approved"))).toHaveLength(1);
  });

  it("renders the approval message from the state when its update is sent, not when it was queued", async () => {
    const record = await approved();
    // The approval's update waits in the outbox (Slack's pace, an outage) while the placement
    // job places the order and asks for its own update: one update waits, and it shows "Ordered".
    holding = true;
    await lifecycle.refreshMessage(record.id);
    await placedByJob(record.id);
    await lifecycle.refreshMessage(record.id);
    expect(waiting.map((w) => w.key.split("/")[1])).toEqual(["message:render"]);
    await sendWaiting();
    const updates = events.filter((e) => e.op === "update");
    expect(updates).toHaveLength(1);
    expect(updates[0]?.op === "update" && updates[0].blocks).toContain("Ordered");
    expect(updates[0]?.op === "update" && updates[0].blocks).not.toContain("approval_approve");
  });

  it("escalates with what the look-up found, offering Place again only after it found nothing", async () => {
    const callbacks = lifecycle.placementCallbacks();
    const notFound = await unknownAfterSending(layer2("lc-l2-missing"));
    expect(await callbacks.reconcile(notFound)).toEqual({ found: false });
    await callbacks.onEscalate(
      notFound,
      { kind: "not-found", detail: "nothing named lc-l2-missing" },
      ctx(notFound, "escalated:1"),
    );
    const said = events.find((e) => e.op === "post" && e.key.endsWith("escalated:1:thread"));
    expect(said?.op === "post" && said.text).toMatch(/got no answer[\s\S]*found nothing/);
    const message = events.filter((e) => e.op === "update").at(-1);
    for (const button of [ACTION_LOOK_UP_AGAIN, ACTION_PLACE_AGAIN, ACTION_MARK_FAILED])
      expect(message?.op === "update" && message.blocks).toContain(button);

    events = [];
    // A request with no unique name to look the order up by cannot be looked up at all.
    const notLookable = await unknownAfterSending({ reconcileKey: undefined });
    await expect(callbacks.reconcile(notLookable)).rejects.toBeInstanceOf(NotLookableError);
    await callbacks.onEscalate(
      notLookable,
      { kind: "not-lookable", detail: "the request has no unique name to look it up by" },
      ctx(notLookable, "escalated:1"),
    );
    const told = events.find((e) => e.op === "post" && e.key.endsWith("escalated:1:thread"));
    expect(told?.op === "post" && told.text).toContain("cannot be looked up until the provider");
    expect(told?.op === "post" && told.text).not.toContain("could not be asked");
    const buttons = events.filter((e) => e.op === "update").at(-1);
    expect(buttons?.op === "update" && buttons.blocks).toContain(ACTION_LOOK_UP_AGAIN);
    expect(buttons?.op === "update" && buttons.blocks).not.toContain(ACTION_PLACE_AGAIN);

    events = [];
    const failedLookUp = await unknownAfterSending(layer2("lc-l2-down"));
    await callbacks.onEscalate(
      failedLookUp,
      { kind: "lookup-failed", detail: "the provider answered 503" },
      ctx(failedLookUp, "escalated:1"),
    );
    const third = events.find((e) => e.op === "post" && e.key.endsWith("escalated:1:thread"));
    expect(third?.op === "post" && third.text).toContain("Looking it up at the provider failed");
  });

  it("tells a retried request's requester that its new attempt's outcome is unknown, once per attempt", async () => {
    const callbacks = lifecycle.placementCallbacks();
    // Failed (the requester was told so), retried, sent again without an answer.
    const first = await approved(layer2("lc-l2-retried"));
    const claimed = await store.claim(first.id, "worker-1");
    if (!claimed.ok) throw new Error(claimed.reason);
    const failed = await store.fail(
      first.id,
      { message: "refused", httpStatus: 400 },
      {
        attempt: claimed.record.attempts,
      },
    );
    if (!failed.ok) throw new Error(failed.reason);
    const retried = await store.retry(first.id, APPROVER);
    if (!retried.ok) throw new Error(retried.reason);
    const again = await store.claim(first.id, "worker-1");
    if (!again.ok) throw new Error(again.reason);
    const unknown = await store.markUnknown(first.id, "outcome unknown: 504", {
      attempt: again.record.attempts,
    });
    if (!unknown.ok) throw new Error(unknown.reason);

    const cause = { kind: "not-found", detail: "nothing named lc-l2-retried" } as const;
    await callbacks.onEscalate(unknown.record, cause, ctx(unknown.record, "escalated:2"));
    const dms = () => events.filter((e) => e.op === "post" && e.channel === first.requester.userId);
    expect(dms()).toHaveLength(1);
    expect(dms()[0]?.op === "post" && dms()[0]).toMatchObject({
      key: expect.stringContaining("escalated:2:requester"),
      text: expect.stringContaining("did not say whether it took the order"),
    });
    // A person's *Look up again* escalates again: the thread hears it, the requester not twice.
    await callbacks.onEscalate(unknown.record, cause, ctx(unknown.record, "escalated:again:1"));
    expect(dms()).toHaveLength(1);

    // A first attempt's unknown outcome is the approvers' to settle; nothing the requester was
    // told has become untrue, so no DM (they hear how it ends).
    events = [];
    const plain = await unknownAfterSending(layer2("lc-l2-plain"));
    await callbacks.onEscalate(plain, cause, ctx(plain, "escalated:1"));
    expect(events.filter((e) => e.op === "post" && e.channel === plain.requester.userId)).toEqual(
      [],
    );
  });

  it("places again only after a look-up found nothing, saying so in the thread before queueing", async () => {
    const callbacks = lifecycle.placementCallbacks();
    const record = await unknownAfterSending(layer2("lc-l2-again"));
    // Not looked up yet: refused, nothing changed.
    const early = await lifecycle.placeAgain(record.id, APPROVER);
    expect(early).toMatchObject({ ok: false, reason: "look-up-first" });
    expect((await store.get(record.id))?.status).toBe("unknown");

    expect(await callbacks.reconcile(record)).toEqual({ found: false });
    await callbacks.onEscalate(
      record,
      { kind: "not-found", detail: "nothing by that name" },
      ctx(record, "escalated:1"),
    );
    events = [];
    const again = await lifecycle.placeAgain(record.id, APPROVER);
    if (!again.ok) throw new Error(again.reason);
    expect(again.record.status).toBe("approved");
    await lifecycle.followUp(again.record);
    expect(shape(events)).toEqual(["post h3:approved", "update message:render", "enqueue"]);
    expect(events[0]?.op === "post" && events[0].text).toContain("chose to place the order again");
  });

  it("marks an unknown request failed: the thread says who, the message offers no Look up again", async () => {
    const record = await unknownAfterSending(layer2("lc-l2-fail"));
    const marked = await lifecycle.markFailed(record.id, APPROVER);
    if (!marked.ok) throw new Error(marked.reason);
    await lifecycle.followUp(marked.record);
    expect(shape(events)).toEqual(["post h3:failed", "update message:render", "post h3:requester"]);
    expect(events[0]?.op === "post" && events[0].text).toContain(
      `<@${APPROVER}> marked the request as failed`,
    );
    expect(events[1]?.op === "update" && events[1].blocks).not.toContain(ACTION_LOOK_UP_AGAIN);
    // The requester is told too: their last word about the order is no longer "unknown", and
    // the next step is a new request (it is never sent again), as their App Home says.
    const dm = events[2]?.op === "post" ? events[2].text : "";
    expect(dm).toContain(`was marked as failed by <@${APPROVER}>`);
    expect(dm).toContain("submit a new request");
    expect(dm).toContain("is free again");
    expect(dm).not.toMatch(/Retry|&lt;@/);
  });

  it("a port found by name after an unknown outcome is said, kept and tracked as the port", async () => {
    const callbacks = lifecycle.placementCallbacks();
    const record = await unknownAfterSending();
    ports = [{ id: "port-42", name: record.reconcileKey!, status: "CONFIGURED" }];
    const found = await callbacks.reconcile(record);
    if (!found.found) throw new Error("the port was not found");
    // What the journal does with a look-up that found it.
    const settled = await store.reconcile(record.id, {
      by: "worker-1",
      outcome: "placed",
      result: found.result,
      note: "found by name",
    });
    if (!settled.ok) throw new Error(settled.reason);
    expect(settled.record.result).toMatchObject({
      providerId: "port-42",
      resource: "port",
      status: "CONFIGURED",
    });
    await callbacks.onPlaced(settled.record, found.result, ctx(settled.record, "placed"));
    const placed = events.find((e) => e.op === "post" && e.key.endsWith("placed:thread"));
    expect(placed?.op === "post" && placed.text).toContain("port `port-42`");
    expect(placed?.op === "post" && placed.text).not.toContain("Order `port-42`");
    // Followed as the port: never polled as /ports/orders/<port id>.
    expect(events.filter((e) => e.op === "track")).toEqual([
      { op: "track", target: { kind: "port", id: "port-42" }, counterparty: undefined },
    ]);
  });

  it("tracks a placed request that never was once its approval message's place is kept, and only once", async () => {
    // Decided in App Home before any message was posted: placed with no thread to track in.
    const created = await store.create(
      portOrderInput({ reconcileKey: "lc-orphan", title: "lc-orphan" }),
    );
    const decided = await store.approve(created.id, { by: APPROVER });
    if (!decided.ok) throw new Error(decided.reason);
    const { record, result } = await placedByJob(created.id, "ord-orphan");
    await lifecycle.placementCallbacks().onPlaced(record, result, ctx(record, "placed"));
    expect(events.filter((e) => e.op === "track")).toEqual([]);
    expect(await lifecycle.trackPlaced(record)).toBe(false);

    // The reconciler posted its message and kept the place: now it is tracked, in that thread.
    const kept = await store.keepApprovalMessage(record.id, {
      approvalChannel: CHANNEL,
      approvalTs: ROOT_TS,
    });
    if (!kept) throw new Error("the place was not kept");
    expect(await lifecycle.trackPlaced(kept)).toBe(true);
    expect(events.filter((e) => e.op === "track")).toEqual([
      { op: "track", target: { kind: "port-order", id: "ord-orphan" }, counterparty: undefined },
    ]);
    // A second run, another replica: the target is tracked already.
    expect(await lifecycle.trackPlaced(kept)).toBe(false);
    expect(events.filter((e) => e.op === "track")).toHaveLength(1);
  });

  it("looks up again through the placement journal, and says so when it escalates again", async () => {
    const record = await unknownAfterSending(layer2("lc-l2-look"));
    expect(await lifecycle.lookUpAgain(record.id)).toBe("escalated");
    expect(lookUpAgainCalls).toEqual([record.id]);
    // The journal's escalation for a person's press carries its own event key.
    await lifecycle
      .placementCallbacks()
      .onEscalate(
        record,
        { kind: "not-found", detail: "nothing yet" },
        ctx(record, "escalated:1:again:ab12cd34"),
      );
    const said = events.find((e) => e.op === "post" && e.key.endsWith(":again:ab12cd34:thread"));
    expect(said?.op === "post" && said.text).toContain("look the order up again");
    const message = events.filter((e) => e.op === "update").at(-1);
    expect(message?.op === "update" && message.blocks).toContain(ACTION_PLACE_AGAIN);
  });
});
