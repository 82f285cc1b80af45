import { describe, expect, it } from "vitest";
import { NotLookableError } from "../../src/orders/placement/index.js";
import { httpError } from "../../src/provider/errors.js";
import { waitFor } from "../harness/index.js";
import { diedAt, placementRig } from "./placementRig.js";
import {
  capturingLogger,
  failingFirst,
  gate,
  journalWith,
  ORDER_1,
  storeWith,
} from "./placementSupport.js";

const STUCK_MS = 5 * 60_000;
const LOOK_UP_ERROR = {
  operation: "listPorts",
  method: "GET",
  path: "/api/company/{companyUsername}/ports",
  subject: "the ports",
};

/**
 * The placement journal's rules, each at the moment a crash (or a second worker) can meet it:
 * `claimed` is sent (once), `sending` is looked up (never resent), `answered` is completed, and
 * an answer whose writes fail is retried until they work. Crashes are staged either by writing
 * what a dead worker leaves behind (journal + store steps), or for real through BullMQ: a
 * worker frozen mid-placement whose replica is closed, so its job's lock expires and another
 * replica re-runs it.
 */
describe("placement journal: what each step means after a crash", () => {
  const { setup } = placementRig({ stuckAfterMs: STUCK_MS });

  it.each([
    ["right after the store's claim", "claimed-unnamed"],
    ["after naming itself in the journal", "claimed"],
  ] as const)(
    "a worker that died %s sent nothing: the reconciler sends it, once",
    async (_, point) => {
      const t = setup();
      const jobs = await t.replica();
      const { id, root } = await t.approved();
      await diedAt(t, id, point);

      // A first run does not know the claim's worker is gone: it leaves the claim alone.
      expect(await jobs.placement.process(id)).toBe("not-claimed");
      t.clock.advance(60_000);
      expect((await jobs.runMaintenance()).placement?.stuck).toBe(0);
      expect(t.provider.placeCalls).toEqual([]);

      t.clock.advance(STUCK_MS);
      expect((await jobs.runMaintenance()).placement).toEqual({
        requeued: 0,
        stuck: 1,
        retriedLookups: 0,
        retold: 0,
      });
      await t.statusIs(id, "placed");
      expect(t.provider.placeCalls).toEqual([id]);
      expect(t.provider.lookups).toEqual([]);
      expect(await t.history(id)).toEqual(["approved", "executing", "placed"]);
      expect((await t.store.get(id))?.result?.providerId).toBe("order-1");
      expect(await t.journal.read(id)).toMatchObject({
        attempt: 1,
        state: "answered",
        owner: jobs.placement.workerId,
        answer: { outcome: "placed", result: { providerId: "order-1" } },
      });
      await waitFor(() => t.thread(root).length === 1);
      expect(t.thread(root)).toEqual(["Placed: order-1"]);

      // Everything again: nothing more is sent.
      t.clock.advance(STUCK_MS);
      await jobs.runMaintenance();
      expect(await jobs.placement.process(id)).toBe("not-claimed");
      expect(t.provider.placeCalls).toEqual([id]);
    },
  );

  it("a job whose worker froze right after claiming is re-run by BullMQ and sent once", async () => {
    const t = setup();
    const claimed = gate();
    const frozen = await t.replica({
      store: storeWith(t.store, {
        claim: async (id, workerId) => {
          await t.store.claim(id, workerId);
          claimed.open();
          return new Promise(() => {}); // frozen: never goes on
        },
      }),
    });
    const { id, root } = await t.approved();
    await frozen.placement.enqueue(id);
    await claimed.promise;
    // Its replica goes away mid-job: the job's lock is no longer renewed.
    await frozen.close(200);
    const other = await t.replica();

    await waitFor(async () => (await t.store.get(id))?.status === "placed", { timeoutMs: 20_000 });
    expect(t.provider.placeCalls).toEqual([id]);
    expect((await t.journal.read(id))?.owner).toBe(other.placement.workerId);
    await waitFor(() => t.thread(root).length === 1);
    expect(t.thread(root)).toEqual(["Placed: order-1"]);
  }, 30_000);

  it("a job whose worker froze mid-call is re-run by BullMQ and looked up, never resent", async () => {
    const t = setup();
    const sent = gate();
    t.provider.placeBehaviour = () => {
      sent.open();
      return new Promise(() => {}); // the provider never answers this worker
    };
    const frozen = await t.replica();
    const { id, root } = await t.approved();
    await frozen.placement.enqueue(id);
    await sent.promise;
    await frozen.close(200);
    await t.replica();

    await waitFor(() => t.provider.escalated.length === 1, { timeoutMs: 20_000 });
    expect(t.provider.placeCalls).toEqual([id]);
    expect(t.provider.lookups).toEqual([id]);
    expect(await t.history(id)).toEqual(["approved", "executing", "unknown"]);
    expect(t.provider.escalated[0]?.cause.kind).toBe("not-found");
    await waitFor(() => t.thread(root).length === 1);
    expect(t.thread(root)[0]).toMatch(/^Please check: not-found/);
  }, 30_000);

  it("the reconciler looks up (never resends) a request whose worker died while sending", async () => {
    const t = setup();
    const jobs = await t.replica();
    const { id } = await t.approved();
    await diedAt(t, id, "sending");
    t.clock.advance(STUCK_MS + 1);
    expect((await jobs.runMaintenance()).placement?.stuck).toBe(1);
    await waitFor(() => t.provider.escalated.length === 1);
    expect(t.provider.placeCalls).toEqual([]);
    expect(t.provider.lookups).toEqual([id]);
    expect((await t.store.get(id))?.status).toBe("unknown");
    expect(t.provider.escalated.map((e) => e.id)).toEqual([id]);
  });

  it("of a live worker paused after its claim and a worker taking it over, exactly one sends", async () => {
    const t = setup();
    const jobs = await t.replica();
    const { id } = await t.approved();
    const resume = gate();
    const claimedByFirst = gate();
    const first = t.worker(jobs, {
      workerId: "first-worker",
      store: storeWith(t.store, {
        claim: async (approvalId, workerId) => {
          const claim = await t.store.claim(approvalId, workerId);
          claimedByFirst.open();
          await resume.promise; // e.g. an event loop stalled for minutes
          return claim;
        },
      }),
    });
    const firstRun = first.process(id);
    await claimedByFirst.promise;

    t.clock.advance(STUCK_MS + 1);
    expect((await jobs.runMaintenance()).placement?.stuck).toBe(1);
    await t.statusIs(id, "placed");

    resume.open();
    expect(await firstRun).toBe("handed-over");
    expect(t.provider.placeCalls).toEqual([id]);
  });

  it("of a live worker about to send and a worker taking it over, exactly one sends", async () => {
    const t = setup();
    const jobs = await t.replica();
    const { id } = await t.approved();
    const resume = gate();
    const aboutToSend = gate();
    const first = t.worker(jobs, {
      workerId: "first-worker",
      journal: journalWith(t.journal, {
        startSending: async (approvalId, attempt, owner) => {
          aboutToSend.open();
          await resume.promise;
          return t.journal.startSending(approvalId, attempt, owner);
        },
      }),
    });
    const firstRun = first.process(id);
    await aboutToSend.promise;
    expect(await t.journal.read(id)).toMatchObject({ state: "claimed", owner: "first-worker" });

    t.clock.advance(STUCK_MS + 1);
    await jobs.runMaintenance();
    // The taker's job records `placed`, then tells (onPlaced): await the tell itself, which on
    // a busy machine comes a while after the status.
    await waitFor(() => t.provider.placed.length > 0, {
      timeoutMs: 20_000,
      description: "the placement told",
    });
    expect(t.provider.placed.map((p) => p.id)).toEqual([id]);
    expect((await t.store.get(id))?.status).toBe("placed");

    resume.open();
    expect(await firstRun).toBe("handed-over");
    expect(t.provider.placeCalls).toEqual([id]);
    expect(t.provider.placed).toHaveLength(1);
  });

  it("keeps an answer whose writes fail until Redis answers again, and logs its order id first", async () => {
    const t = setup();
    const jobs = await t.replica();
    const { id, root } = await t.approved();
    const complete = failingFirst(3, t.store.complete.bind(t.store));
    const recordAnswer = failingFirst(2, t.journal.recordAnswer.bind(t.journal));
    const log = capturingLogger();
    const worker = t.worker(jobs, {
      logger: log.logger,
      store: storeWith(t.store, { complete: complete.step }),
      journal: journalWith(t.journal, { recordAnswer: recordAnswer.step }),
    });

    expect(await worker.process(id)).toBe("placed");
    expect(recordAnswer.calls()).toBe(3);
    expect(complete.calls()).toBe(4);
    expect(t.provider.placeCalls).toEqual([id]);
    expect((await t.store.get(id))?.result?.providerId).toBe("order-1");
    expect((await t.journal.read(id))?.answer).toEqual({ outcome: "placed", result: ORDER_1 });
    await waitFor(() => t.thread(root).length === 1);
    expect(t.thread(root)).toEqual(["Placed: order-1"]);

    const lines = log.lines();
    const accepted = lines.findIndex(
      (l) => l.msg === "placement: the provider accepted the order" && l.level === 30,
    );
    expect(lines[accepted]).toMatchObject({ approvalId: id, orderId: "order-1", attempt: 1 });
    const firstRetry = lines.findIndex((l) => String(l.msg).startsWith("placement: could not"));
    expect(firstRetry).toBeGreaterThan(accepted);
    expect(lines[firstRetry]).toMatchObject({
      orderId: "order-1",
      err: "Stream isn't writeable and enableOfflineQueue options is false",
    });
  });

  it("gives up writing an answer only after its bound, with the order id in the log; then looks it up", async () => {
    const t = setup();
    const jobs = await t.replica();
    const { id } = await t.approved();
    const log = capturingLogger();
    const worker = t.worker(jobs, {
      logger: log.logger,
      answerWriteTimeoutMs: 500,
      journal: journalWith(t.journal, {
        recordAnswer: async () => {
          throw new Error("Connection is closed.");
        },
      }),
    });
    await expect(worker.process(id)).rejects.toThrow("Connection is closed.");
    expect(
      log.lines().find((l) => String(l.msg).startsWith("placement: gave up recording")),
    ).toMatchObject({ approvalId: id, orderId: "order-1", level: 50 });

    // The request was sent and nothing recorded its answer: looked up, never resent.
    t.provider.lookupBehaviour = async () => ({ found: true, result: ORDER_1 });
    t.clock.advance(STUCK_MS + 1);
    await jobs.runMaintenance();
    await t.statusIs(id, "placed");
    expect(t.provider.placeCalls).toEqual([id]);
    expect(t.provider.lookups).toEqual([id]);
  });

  it("an answer arriving after another worker looked up and marked it unknown settles it as placed", async () => {
    const t = setup();
    const jobs = await t.replica();
    const { id, root } = await t.approved();
    const answer = gate();
    t.provider.placeBehaviour = async () => {
      await answer.promise;
      return ORDER_1;
    };
    const firstRun = t.worker(jobs, { workerId: "slow-worker" }).process(id);
    await waitFor(async () => (await t.journal.read(id))?.state === "sending");

    t.clock.advance(STUCK_MS + 1);
    await jobs.runMaintenance();
    await waitFor(() => t.provider.escalated.length === 1);
    expect((await t.store.get(id))?.status).toBe("unknown");

    answer.open();
    expect(await firstRun).toBe("reconciled");
    expect(await t.history(id)).toEqual(["approved", "executing", "unknown", "placed"]);
    expect((await t.store.get(id))?.result?.providerId).toBe("order-1");
    expect(t.provider.placeCalls).toEqual([id]);
    expect(t.provider.placed.map((p) => p.result.providerId)).toEqual(["order-1"]);
    await waitFor(() => t.thread(root).length === 2);
    expect(t.thread(root)).toEqual([
      "Please check: not-found: nothing named syd-core-01 at the provider yet",
      "Placed: order-1",
    ]);
  });

  it.each([
    ["placed", { outcome: "placed", result: ORDER_1 }, "placed"],
    [
      "refused",
      { outcome: "refused", error: { message: "Speed not offered", httpStatus: 400 } },
      "failed",
    ],
  ] as const)(
    "a recorded answer (%s) is completed by whoever finds it, without a call",
    async (_, answer, status) => {
      const t = setup();
      const jobs = await t.replica();
      const { id } = await t.approved();
      await diedAt(t, id, "sending");
      await t.journal.recordAnswer(id, 1, answer);

      // Even a first run completes it: a recorded answer is safe to complete by anyone.
      await jobs.placement.process(id);
      expect((await t.store.get(id))?.status).toBe(status);
      expect(t.provider.placeCalls).toEqual([]);
      expect(t.provider.lookups).toEqual([]);
      expect(t.provider.placed.length + t.provider.failed.length).toBe(1);
    },
  );

  it("look up again: escalates each time nothing is found, settles once found", async () => {
    const t = setup();
    const jobs = await t.replica();
    const { id, root } = await t.approved();
    await diedAt(t, id, "sending");
    expect((await t.store.markUnknown(id, "worker gone", { attempt: 1 })).ok).toBe(true);

    expect(await jobs.placement.lookUpAgain(id)).toBe("escalated");
    expect(await jobs.placement.lookUpAgain(id)).toBe("escalated");
    expect(t.provider.escalated).toHaveLength(2);
    await waitFor(() => t.thread(root).length === 2);

    t.provider.lookupBehaviour = async () => ({ found: true, result: ORDER_1 });
    expect(await jobs.placement.lookUpAgain(id)).toBe("reconciled");
    expect((await t.store.get(id))?.status).toBe("placed");
    expect(await jobs.placement.lookUpAgain(id)).toBe("not-unknown");
    expect(t.provider.placeCalls).toEqual([]);
  });

  it("look up again settles from an answer recorded meanwhile, without asking the provider", async () => {
    const t = setup();
    const jobs = await t.replica();
    const { id } = await t.approved();
    await diedAt(t, id, "sending");
    await t.store.markUnknown(id, "worker gone", { attempt: 1 });
    await t.journal.recordAnswer(id, 1, { outcome: "placed", result: ORDER_1 });
    expect(await jobs.placement.lookUpAgain(id)).toBe("reconciled");
    expect((await t.store.get(id))?.result?.providerId).toBe("order-1");
    expect(t.provider.lookups).toEqual([]);
  });

  it.each([
    [
      "cannot be looked up yet",
      () =>
        Promise.reject(new NotLookableError("a port order can only be found once its port exists")),
      { kind: "not-lookable", detail: "a port order can only be found once its port exists" },
    ],
    [
      "the look-up failed",
      () => Promise.reject(httpError(LOOK_UP_ERROR, 500, "boom")),
      { kind: "lookup-failed", detail: expect.stringMatching(/provider/i) },
    ],
  ] as const)("the escalation says when the order %s", async (_, lookup, cause) => {
    const t = setup();
    const jobs = await t.replica();
    const { id } = await t.approved();
    t.provider.lookupBehaviour = lookup;
    await diedAt(t, id, "sending");
    t.clock.advance(STUCK_MS + 1);
    await jobs.runMaintenance();
    await waitFor(() => t.provider.escalated.length === 1);
    expect(t.provider.escalated.map((e) => e.cause)).toEqual([cause]);
  });
});
