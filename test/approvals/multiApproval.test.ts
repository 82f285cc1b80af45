import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApprovalStore } from "../../src/approvals/store.js";
import type { ApprovalRequirement } from "../../src/approvals/types.js";
import { describeRefusal } from "../../views/approvals/refusals.js";
import { connect, deleteKeys, portOrderInput, runPrefix } from "./support.js";

/**
 * Requests that need several distinct approvers (the spend-aware policy): every approval is
 * recorded in the same atomic step that counts it, so concurrent clicks from two replicas
 * approve once, with the right people recorded.
 */

let redis: Redis;
let replicaA: Redis;
let replicaB: Redis;
const prefix = runPrefix("approvals-multi");

beforeAll(() => {
  redis = connect();
  replicaA = connect();
  replicaB = connect();
});

afterAll(async () => {
  await deleteKeys(redis, prefix);
  await Promise.all([redis.quit(), replicaA.quit(), replicaB.quit()]);
});

const ALEX = "U0NETALEX";
const BEA = "U0NETBEA1";
const FIN = "U0FINANCE";

const TWO_ONE_FROM_FINANCE: ApprovalRequirement = {
  rule: "1,000 a month or more",
  approvals: 2,
  from: ["network", "finance"],
  approvers: ["S0NETWORK", "S0FINANCE"],
  atLeastOneFrom: { name: "finance", ids: ["S0FINANCE"] },
};

let storeCount = 0;
function stores() {
  storeCount += 1;
  const own = `${prefix}${storeCount}:`;
  return {
    a: new ApprovalStore({ redis: replicaA, prefix: own }),
    b: new ApprovalStore({ redis: replicaB, prefix: own }),
  };
}

describe("a request needing two approvals", () => {
  it("20 concurrent approvals by three approvers from two replicas approve once, with one network and the finance approver recorded, and one claim wins", async () => {
    const { a, b } = stores();
    const { id } = await a.create(portOrderInput({ requirement: TWO_ONE_FROM_FINANCE }));
    const clickers = [ALEX, BEA, FIN];
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => {
        const by = clickers[i % 3]!;
        const store = i % 2 === 0 ? a : b;
        return store.approve(id, { by, inGroup: by === FIN });
      }),
    );

    const record = await a.get(id);
    expect(record?.status).toBe("approved");
    const approvers = (record?.approvals ?? []).map((approval) => approval.by);
    expect(approvers).toHaveLength(2);
    expect(approvers).toContain(FIN);
    expect(approvers.filter((by) => by === ALEX || by === BEA)).toHaveLength(1);
    expect(record?.approvals?.find((approval) => approval.by === FIN)?.inGroup).toBe(true);
    // One step made it approved; one more recorded the first approval.
    expect(record?.history.filter((h) => h.to === "approved")).toHaveLength(1);
    expect(record?.history.filter((h) => h.from === "pending" && h.to === "pending")).toHaveLength(
      1,
    );
    expect(record?.decision?.by).toBe(approvers[1]);
    // Exactly two clicks changed the request; the others were told why not.
    expect(results.filter((r) => r.ok)).toHaveLength(2);
    const refusals = results.filter((r) => !r.ok).map((r) => (r.ok ? "" : r.reason));
    expect(new Set(refusals)).toEqual(
      new Set(
        refusals.filter((reason) =>
          ["not-pending", "already-approved-by-you", "group-required"].includes(reason),
        ),
      ),
    );

    const claims = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).claim(id, `worker-${i}`)),
    );
    expect(claims.filter((c) => c.ok)).toHaveLength(1);
  });

  it("counts the same approver clicking twice once, and says so", async () => {
    const { a, b } = stores();
    const { id } = await a.create(
      portOrderInput({ requirement: { ...TWO_ONE_FROM_FINANCE, atLeastOneFrom: undefined } }),
    );
    const [first, second] = await Promise.all([
      a.approve(id, { by: ALEX }),
      b.approve(id, { by: ALEX }),
    ]);
    const refused = [first, second].filter((r) => !r.ok);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toMatchObject({ ok: false, reason: "already-approved-by-you" });
    if (refused[0]?.ok === false && "record" in refused[0]) {
      expect(describeRefusal(refused[0])).toBe(
        "Your approval is already counted (1 of 2 approvals); it needs another approver.",
      );
    }
    const record = await a.get(id);
    expect(record?.status).toBe("pending");
    expect(record?.approvals?.map((approval) => approval.by)).toEqual([ALEX]);

    const done = await b.approve(id, { by: BEA });
    expect(done).toMatchObject({ ok: true, record: { status: "approved" } });
    if (done.ok) expect(done.record.approvals?.map((approval) => approval.by)).toEqual([ALEX, BEA]);
  });

  it("refuses the last approval from outside the required group, then takes the group's", async () => {
    const { a } = stores();
    const { id } = await a.create(portOrderInput({ requirement: TWO_ONE_FROM_FINANCE }));
    expect(await a.approve(id, { by: ALEX })).toMatchObject({
      ok: true,
      record: { status: "pending" },
    });
    const refused = await a.approve(id, { by: BEA });
    expect(refused).toMatchObject({ ok: false, reason: "group-required" });
    if (!refused.ok && "record" in refused) {
      expect(describeRefusal(refused)).toContain(
        "needs its last approval from someone in *finance*",
      );
    }
    expect((await a.get(id))?.approvals).toHaveLength(1);
    expect(await a.approve(id, { by: FIN, inGroup: true })).toMatchObject({
      ok: true,
      record: { status: "approved" },
    });
  });

  it("ends with a reject after one approval, and releases the name", async () => {
    const { a } = stores();
    const input = portOrderInput({ requirement: TWO_ONE_FROM_FINANCE });
    const { id } = await a.create(input);
    await a.approve(id, { by: FIN, inGroup: true });
    const rejected = await a.decide(id, { by: BEA, action: "reject", reason: "too dear" });
    expect(rejected).toMatchObject({ ok: true, record: { status: "rejected" } });
    expect(await a.approve(id, { by: ALEX })).toMatchObject({ ok: false, reason: "not-pending" });
    // The name is free again: a new request may ask for it.
    await expect(a.create({ ...input })).resolves.toMatchObject({ status: "pending" });
  });

  it("keeps a single approval's record as it was before policies (no per-approver fields)", async () => {
    const { a } = stores();
    const { id } = await a.create(portOrderInput());
    expect(await a.approve(id, { by: ALEX })).toMatchObject({
      ok: true,
      record: { status: "approved" },
    });
    const fields = await replicaA.hkeys(`${prefix}${storeCount}:approval:${id}`);
    expect(
      fields.filter((field) => field.startsWith("approvedBy.") || field === "groupApproved"),
    ).toEqual([]);
  });
});
