import { describe, expect, it } from "vitest";
import { waitFor } from "../harness/index.js";
import { diedAt, placementRig } from "./placementRig.js";
import { gate, ORDER_1, storeWith } from "./placementSupport.js";

const STUCK_MS = 5 * 60_000;
/** Short, so a cut-off tell's lease runs out in Redis while the test waits for it. */
const TELL_LEASE_MS = 300;

/**
 * A placed or failed outcome is told at least once wherever its tell started. A placement job
 * that dies mid-tell is re-run by BullMQ; these are the other callers, which nothing re-runs: a
 * reconciler's look-up or a person's *Look up again* that found the order, and died (or failed)
 * before its tell — the thread's words and the order's tracking — was confirmed. Another
 * replica's reconciler tells it once the lease has run out, and only then.
 */
describe("placement: an outcome whose tell was cut off is told by the reconciler", () => {
  const { setup } = placementRig({ stuckAfterMs: STUCK_MS, tellLeaseMs: TELL_LEASE_MS });

  /** An unknown request whose order the provider holds: a look-up will find it. */
  async function unknownButPlaced(t: ReturnType<typeof setup>) {
    const { id, root } = await t.approved();
    await diedAt(t, id, "sending");
    expect((await t.store.markUnknown(id, "worker gone", { attempt: 1 })).ok).toBe(true);
    t.provider.lookupBehaviour = async () => ({ found: true, result: ORDER_1 });
    return { id, root };
  }

  /** Runs `healthy`'s reconcilers until one tells an owed outcome; the number they told. */
  async function retoldBy(jobs: Awaited<ReturnType<ReturnType<typeof setup>["replica"]>>) {
    let retold = 0;
    await waitFor(
      async () => {
        retold = (await jobs.runMaintenance()).placement?.retold ?? 0;
        return retold > 0;
      },
      { timeoutMs: 20_000, description: "the reconciler to tell the owed outcome" },
    );
    return retold;
  }

  it("a look-up that died mid-tell: told once by another replica, after the lease", async () => {
    const t = setup();
    const entered = gate();
    const dying = await t.replica({
      callbacks: {
        onPlaced: () => {
          entered.open();
          return new Promise(() => {}); // the process died here: it never goes on
        },
      },
    });
    const healthy = await t.replica();
    const { id, root } = await unknownButPlaced(t);

    void dying.placement.lookUpAgain(id);
    await entered.promise;
    expect((await t.store.get(id))?.status).toBe("placed");

    // While its lease runs, the tell is the dying process's: nobody takes it over.
    expect((await healthy.runMaintenance()).placement?.retold).toBe(0);
    expect(t.provider.placed).toEqual([]);

    t.clock.advance(TELL_LEASE_MS);
    expect(await retoldBy(healthy)).toBe(1);
    expect(t.provider.placed.map((p) => p.id)).toEqual([id]);
    await waitFor(() => t.thread(root).length === 1);
    expect(t.thread(root)).toEqual(["Placed: order-1"]);

    // Told once: later sweeps owe nothing.
    t.clock.advance(STUCK_MS);
    expect((await healthy.runMaintenance()).placement?.retold).toBe(0);
    expect(t.provider.placed).toHaveLength(1);
    expect(t.provider.placeCalls).toEqual([]);
  });

  it("a look-up that died between recording the order and telling: told by another replica", async () => {
    const t = setup();
    const recorded = gate();
    const dying = await t.replica({
      store: storeWith(t.store, {
        reconcile: async (id, input) => {
          await t.store.reconcile(id, input);
          recorded.open();
          return new Promise(() => {}); // died right after the store's step
        },
      }),
    });
    const healthy = await t.replica();
    const { id, root } = await unknownButPlaced(t);

    void dying.placement.lookUpAgain(id);
    await recorded.promise;
    expect((await t.store.get(id))?.status).toBe("placed");
    expect((await healthy.runMaintenance()).placement?.retold).toBe(0);

    t.clock.advance(TELL_LEASE_MS);
    expect(await retoldBy(healthy)).toBe(1);
    await waitFor(() => t.thread(root).length === 1);
    expect(t.thread(root)).toEqual(["Placed: order-1"]);
    expect(t.provider.placed.map((p) => p.id)).toEqual([id]);
  });

  it("a tell that failed is told again by the next sweep once due", async () => {
    const t = setup();
    let calls = 0;
    const flaky = await t.replica({
      callbacks: {
        onPlaced: async (request, result, ctx) => {
          calls += 1;
          if (calls === 1) throw new Error("Slack is down");
          await t.provider.callbacks().onPlaced(request, result, ctx);
        },
      },
    });
    const { id, root } = await unknownButPlaced(t);

    await expect(flaky.placement.lookUpAgain(id)).rejects.toThrow("Slack is down");
    expect((await t.store.get(id))?.status).toBe("placed");
    expect((await flaky.runMaintenance()).placement?.retold).toBe(0);

    t.clock.advance(TELL_LEASE_MS);
    expect((await flaky.runMaintenance()).placement?.retold).toBe(1);
    await waitFor(() => t.thread(root).length === 1);
    expect(t.thread(root)).toEqual(["Placed: order-1"]);
    expect(calls).toBe(2);
  });

  it("an outcome owed but never recorded is left to the look-up, and told once", async () => {
    const t = setup();
    const reached = gate();
    const dying = await t.replica({
      store: storeWith(t.store, {
        reconcile: () => {
          reached.open();
          return new Promise(() => {}); // died before the store's step
        },
      }),
    });
    const healthy = await t.replica();
    const { id, root } = await unknownButPlaced(t);

    void dying.placement.lookUpAgain(id);
    await reached.promise;
    expect((await t.store.get(id))?.status).toBe("unknown");

    // The owed tell is struck off (nothing was settled); the reconciler's own look-up settles it.
    t.clock.advance(TELL_LEASE_MS);
    const report = (await healthy.runMaintenance()).placement;
    expect(report).toMatchObject({ retriedLookups: 1, retold: 0 });
    await t.statusIs(id, "placed");
    await waitFor(() => t.thread(root).length === 1);
    t.clock.advance(STUCK_MS);
    expect((await healthy.runMaintenance()).placement?.retold).toBe(0);
    expect(t.thread(root)).toEqual(["Placed: order-1"]);
  });
});
