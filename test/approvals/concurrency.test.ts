import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApprovalStore } from "../../src/approvals/store.js";
import { describeRefusal } from "../../views/approvals/refusals.js";
import { connect, deleteKeys, newStore, portOrderInput, runPrefix } from "./support.js";

/** The never-order-twice guard under double clicks, two replicas and a crashed worker. */

let redis: Redis;
let replicaA: Redis;
let replicaB: Redis;
const prefix = runPrefix("approvals-concurrency");

beforeAll(() => {
  redis = connect();
  replicaA = connect();
  replicaB = connect();
});

afterAll(async () => {
  await deleteKeys(redis, prefix);
  await Promise.all([redis.quit(), replicaA.quit(), replicaB.quit()]);
});

const approvers = Array.from({ length: 20 }, (_, i) => `UAPPR${String(i).padStart(4, "0")}`);

describe("racing decisions", () => {
  it("lets exactly one of 20 concurrent approvals win and names the winner to the others", async () => {
    const { store } = newStore(redis, prefix);
    const { id } = await store.create(portOrderInput());

    const results = await Promise.all(
      approvers.map((by) => store.decide(id, { by, action: "approve" })),
    );

    const winners = results.filter((r) => r.ok);
    expect(winners).toHaveLength(1);
    const winner = winners[0]!.ok ? winners[0]!.record.decision?.by : undefined;
    expect(approvers).toContain(winner);

    for (const result of results.filter((r) => !r.ok)) {
      expect(result).toMatchObject({ ok: false, reason: "not-pending" });
      if (result.ok || !("record" in result)) throw new Error("expected a refusal with a record");
      expect(result.record.decision?.by).toBe(winner);
      expect(describeRefusal(result)).toContain(`Already approved by <@${winner}> <!date^`);
    }

    const stored = await store.get(id);
    expect(stored?.status).toBe("approved");
    expect(stored?.history.filter((h) => h.to === "approved")).toHaveLength(1);
  });

  it("lets exactly one of an approval and a rejection racing from two replicas win", async () => {
    const prefixed = `${prefix}mixed:`;
    const a = new ApprovalStore({ redis: replicaA, prefix: prefixed });
    const b = new ApprovalStore({ redis: replicaB, prefix: prefixed });
    const { id } = await a.create(portOrderInput());

    const results = await Promise.all([
      ...approvers.slice(0, 10).map((by) => a.decide(id, { by, action: "approve" })),
      ...approvers
        .slice(10)
        .map((by) => b.decide(id, { by, action: "reject", reason: "duplicate of last week's" })),
    ]);

    expect(results.filter((r) => r.ok)).toHaveLength(1);
    const stored = await a.get(id);
    expect(["approved", "rejected"]).toContain(stored?.status);
    expect(stored?.history).toHaveLength(1);
  });
});

describe("racing claims", () => {
  it("lets exactly one of 40 claims from two replicas (two connections) win", async () => {
    const prefixed = `${prefix}claims:`;
    const a = new ApprovalStore({ redis: replicaA, prefix: prefixed });
    const b = new ApprovalStore({ redis: replicaB, prefix: prefixed });
    const { id } = await a.create(portOrderInput());
    await a.decide(id, { by: "UAPPROVER1", action: "approve" });

    const claims = await Promise.all(
      Array.from({ length: 20 }, (_, i) => [
        a.claim(id, `replica-a:worker-${i}`),
        b.claim(id, `replica-b:worker-${i}`),
      ]).flat(),
    );

    const won = claims.filter((c) => c.ok);
    expect(won).toHaveLength(1);
    expect(claims.filter((c) => !c.ok).every((c) => !c.ok && c.reason === "not-approved")).toBe(
      true,
    );
    const stored = await b.get(id);
    expect(stored).toMatchObject({ status: "executing", attempts: 1 });
    expect(stored?.claimedBy).toBe(won[0]!.ok ? won[0]!.record.claimedBy : "none");
    expect(stored?.history.filter((h) => h.to === "executing")).toHaveLength(1);
  });
});

describe("a worker that crashes between claim and complete", () => {
  it("leaves the request executing for the reconciler, which resolves it without resending", async () => {
    const prefixed = `${prefix}crash:`;
    const crashing = connect();
    const worker = new ApprovalStore({ redis: crashing, prefix: prefixed });
    const { id } = await worker.create(portOrderInput());
    await worker.decide(id, { by: "UAPPROVER1", action: "approve" });
    const claim = await worker.claim(id, "replica-a:worker-1");
    expect(claim.ok).toBe(true);
    // The process dies here, after (possibly) sending the order and before recording it.
    crashing.disconnect();

    const reconciler = new ApprovalStore({ redis: replicaB, prefix: prefixed });
    const stuck = await reconciler.findByStatus("executing");
    expect(stuck.map((r) => r.id)).toEqual([id]);
    expect(stuck[0]).toMatchObject({ claimedBy: "replica-a:worker-1", attempts: 1 });
    // Nothing to re-queue: the request is not `approved`, so no worker can claim it again.
    expect(await reconciler.findByStatus("approved")).toEqual([]);
    expect(await reconciler.claim(id, "replica-b:worker-1")).toMatchObject({
      ok: false,
      reason: "not-approved",
    });

    const unknown = await reconciler.markUnknown(id, "worker died during placement", {
      attempt: 1,
    });
    expect(unknown).toMatchObject({
      ok: true,
      record: { status: "unknown", error: { message: "worker died during placement" } },
    });
    // markUnknown is a worker-side step; its actor is the worker that held the claim.
    expect(unknown.ok && unknown.record.history.at(-1)?.actor).toBe("replica-a:worker-1");
    expect((await reconciler.findByStatus("unknown")).map((r) => r.id)).toEqual([id]);
    expect(await reconciler.findByStatus("executing")).toEqual([]);

    // The restarted worker comes back and tries to record its (lost) call: refused.
    const restarted = new ApprovalStore({ redis: replicaA, prefix: prefixed });
    expect(
      await restarted.complete(id, { providerId: "po-1", record: {} }, { attempt: 1 }),
    ).toMatchObject({ ok: false, reason: "not-executing" });

    const reconciled = await reconciler.reconcile(id, {
      by: "reconciler",
      outcome: "placed",
      result: { providerId: "po-1", status: "CREATED", record: { productName: "syd-core-01" } },
      note: "found port syd-core-01 at the provider",
    });
    expect(reconciled).toMatchObject({
      ok: true,
      record: { status: "placed", attempts: 1, result: { providerId: "po-1" } },
    });
    expect(reconciled.ok && reconciled.record.error).toBeUndefined();
    expect(reconciled.ok && reconciled.record.history.map((h) => h.to)).toEqual([
      "approved",
      "executing",
      "unknown",
      "placed",
    ]);
  });
});
