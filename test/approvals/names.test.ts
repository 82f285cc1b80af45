import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NameReservedError } from "../../src/approvals/names.js";
import type { TransitionResult } from "../../src/approvals/results.js";
import { ApprovalStore } from "../../src/approvals/store.js";
import type { ApprovalKind, CreateApprovalInput } from "../../src/approvals/types.js";
import { describeRefusal } from "../../views/approvals/refusals.js";
import { connect, deleteKeys, newStore, portOrderInput, runPrefix } from "./support.js";

/**
 * Order names are reserved in the step that creates the request: two live requests can never
 * ask the provider for one name, however they race, and a request that can no longer become an
 * order gives its name back.
 */

const APPROVER = "UAPPROVER1";
const REQUESTER = "UREQ00001";
const DAY_MS = 24 * 60 * 60 * 1000;

let redis: Redis;
let replicaA: Redis;
let replicaB: Redis;
const prefix = runPrefix("approvals-names");

beforeAll(() => {
  redis = connect();
  replicaA = connect();
  replicaB = connect();
});

afterAll(async () => {
  await deleteKeys(redis, prefix);
  await Promise.all([redis.quit(), replicaA.quit(), replicaB.quit()]);
});

function named(name: string, kind: ApprovalKind = "port"): CreateApprovalInput {
  return portOrderInput({ kind, reconcileKey: name, requester: { userId: REQUESTER } });
}

/** The id `create` failed on, or undefined when it succeeded or failed otherwise. */
async function heldByOnCreate(
  store: ApprovalStore,
  input: CreateApprovalInput,
): Promise<string | undefined> {
  try {
    await store.create(input);
    return undefined;
  } catch (error) {
    if (error instanceof NameReservedError) return error.heldBy;
    throw error;
  }
}

function mustBeOk(result: TransitionResult, step: string) {
  if (!result.ok) throw new Error(`${step} refused: ${result.reason}`);
  return result.record;
}

/** Steps that bring a new request to each status the name rules care about. */
async function requestIn(
  store: ApprovalStore,
  name: string,
  status: "pending" | "approved" | "executing" | "unknown" | "placed" | "failed",
): Promise<string> {
  const { id } = await store.create(named(name));
  if (status === "pending") return id;
  mustBeOk(await store.decide(id, { by: APPROVER, action: "approve" }), "approve");
  if (status === "approved") return id;
  mustBeOk(await store.claim(id, "worker-a"), "claim");
  if (status === "executing") return id;
  if (status === "placed") {
    mustBeOk(await store.complete(id, { providerId: "po-1", record: {} }), "complete");
  } else if (status === "failed") {
    mustBeOk(await store.fail(id, { message: "speed not available", httpStatus: 400 }), "fail");
  } else {
    mustBeOk(await store.markUnknown(id, "timeout after sending"), "markUnknown");
  }
  return id;
}

describe("reserving a name at creation", () => {
  it("lets exactly one of 10 concurrent requests for one name (two replicas) be created", async () => {
    const own = `${prefix}race:`;
    const a = new ApprovalStore({ redis: replicaA, prefix: own });
    const b = new ApprovalStore({ redis: replicaB, prefix: own });

    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? a : b).create(named("syd-race-1"))),
    );

    const created = results.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    const refused = results.flatMap((r) => (r.status === "rejected" ? [r.reason] : []));
    expect(created).toHaveLength(1);
    expect(refused).toHaveLength(9);
    for (const error of refused) {
      expect(error).toBeInstanceOf(NameReservedError);
      expect(error).toMatchObject({ name: "syd-race-1", heldBy: created[0]?.id });
    }
    // Nothing of the refused ones was written: one record, one entry in each index.
    expect(await redis.keys(`${own}approval:*`)).toEqual([`${own}approval:${created[0]?.id}`]);
    expect(await redis.zrange(`${own}approvals:created`, "0", "-1")).toEqual([created[0]?.id]);
    expect(await redis.zrange(`${own}approvals:status:pending`, "0", "-1")).toEqual([
      created[0]?.id,
    ]);
  });

  it("compares names trimmed and case-insensitively, and reports the name as asked", async () => {
    const { store } = newStore(redis, prefix);
    const first = await store.create(named("Syd-Core-Case"));

    for (const variant of ["syd-core-case", "  SYD-CORE-CASE ", "\tsyd-Core-case\n"]) {
      const refused = await store.create(named(variant)).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(NameReservedError);
      expect(refused).toMatchObject({ name: variant.trim(), heldBy: first.id });
    }
    // A different name is free.
    await expect(store.create(named("syd-core-case-2"))).resolves.toMatchObject({
      status: "pending",
    });
  });

  it("keeps one namespace for ports (port, Edge) and one for connections (layer 2, IO-D)", async () => {
    const { store } = newStore(redis, prefix);
    const port = await store.create(named("shared-name", "port"));
    expect(await heldByOnCreate(store, named("shared-name", "edge"))).toBe(port.id);

    const connection = await store.create(named("shared-name", "layer2"));
    expect(await heldByOnCreate(store, named("SHARED-name", "iod"))).toBe(connection.id);
    expect(await heldByOnCreate(store, named("shared-name", "layer2"))).toBe(connection.id);
  });

  it("reserves nothing for a request without a name", async () => {
    const { store } = newStore(redis, prefix);
    const { reconcileKey: _none, ...unnamed } = portOrderInput();
    await store.create(unnamed);
    await expect(store.create(unnamed)).resolves.toMatchObject({ status: "pending" });
  });
});

describe("holding and releasing a name", () => {
  it.each(["pending", "approved", "executing", "unknown", "placed"] as const)(
    "a request that is %s keeps its name",
    async (status) => {
      const { store } = newStore(redis, prefix);
      const id = await requestIn(store, `kept-${status}`, status);
      expect(await heldByOnCreate(store, named(`kept-${status}`))).toBe(id);
    },
  );

  const releases: Array<[string, (store: ApprovalStore, name: string) => Promise<string>]> = [
    [
      "rejected",
      async (store, name) => {
        const id = await requestIn(store, name, "pending");
        mustBeOk(await store.decide(id, { by: APPROVER, action: "reject", reason: "no" }), "x");
        return id;
      },
    ],
    [
      "cancelled",
      async (store, name) => {
        const id = await requestIn(store, name, "pending");
        mustBeOk(await store.cancel(id, REQUESTER), "cancel");
        return id;
      },
    ],
    ["failed (provider refused)", (store, name) => requestIn(store, name, "failed")],
    [
      "failed (reconciled)",
      async (store, name) => {
        const id = await requestIn(store, name, "unknown");
        const note = "no such order";
        mustBeOk(await store.reconcile(id, { by: APPROVER, outcome: "failed", note }), "x");
        return id;
      },
    ],
    [
      "marked failed",
      async (store, name) => {
        const id = await requestIn(store, name, "unknown");
        mustBeOk(await store.markFailed(id, APPROVER, "not in the portal"), "markFailed");
        return id;
      },
    ],
  ];

  it.each(releases)("a request %s gives its name back", async (label, endIt) => {
    const { store, prefix: own } = newStore(redis, prefix);
    const name = `released-${label.replace(/\W+/g, "-")}`;
    await endIt(store, name);
    expect(await redis.keys(`${own}approvals:name:*`)).toEqual([]);
    const again = await store.create(named(name.toUpperCase()));
    expect(again.status).toBe("pending");
  });

  it("releases only a name the request itself holds", async () => {
    const { store, prefix: own } = newStore(redis, prefix);
    // A request from before names were reserved holds no key; a newer one took the name.
    const legacy = await store.create(named("legacy-release"));
    await redis.del(`${own}approvals:name:port:legacy-release`);
    const newer = await store.create(named("legacy-release"));

    mustBeOk(await store.decide(legacy.id, { by: APPROVER, action: "reject", reason: "x" }), "x");
    expect(await redis.get(`${own}approvals:name:port:legacy-release`)).toBe(newer.id);
  });

  it("keeps a name for the record's retention, renewed by each step", async () => {
    const { store, prefix: own } = newStore(redis, prefix, { retentionDays: 90 });
    const id = await requestIn(store, "ttl-name", "pending");
    const key = `${own}approvals:name:port:ttl-name`;
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(90 * DAY_MS - 60_000);
    expect(ttl).toBeLessThanOrEqual(90 * DAY_MS);

    mustBeOk(await store.decide(id, { by: APPROVER, action: "approve" }), "approve");
    mustBeOk(await store.claim(id, "worker-a"), "claim");
    await redis.pexpire(key, 60_000);
    mustBeOk(await store.complete(id, { providerId: "po-1", record: {} }), "complete");
    // Placed: the provider has the name now; the key expires with the record, not never.
    expect(await redis.pttl(key)).toBeGreaterThan(90 * DAY_MS - 60_000);
    // Both TTLs set by the same step; read one after the other, they may differ by the
    // milliseconds between the two reads on a loaded machine.
    const [nameTtl, recordTtl] = [await redis.pttl(key), await redis.pttl(`${own}approval:${id}`)];
    expect(Math.abs(nameTtl - recordTtl)).toBeLessThan(1_000);
  });

  it("lets a request from before names were reserved take its free name at its next step", async () => {
    const { store, prefix: own } = newStore(redis, prefix);
    const legacy = await store.create(named("legacy-adopt"));
    await redis.del(`${own}approvals:name:port:legacy-adopt`);

    mustBeOk(await store.decide(legacy.id, { by: APPROVER, action: "approve" }), "approve");
    expect(await heldByOnCreate(store, named("legacy-adopt"))).toBe(legacy.id);
  });
});

describe("coming back from failed or unknown", () => {
  it("retry takes the name back when it is still free", async () => {
    const { store } = newStore(redis, prefix);
    const id = await requestIn(store, "retry-free", "failed");

    const retried = await store.retry(id, APPROVER);
    expect(retried).toMatchObject({ ok: true, record: { status: "approved" } });
    expect(await heldByOnCreate(store, named("retry-free"))).toBe(id);
  });

  it("refuses a retry when another request took the name meanwhile, changing nothing", async () => {
    const { store } = newStore(redis, prefix);
    const id = await requestIn(store, "Retry-Taken", "failed");
    const other = await store.create(named("retry-taken "));
    const before = await store.get(id);

    const retried = await store.retry(id, APPROVER);
    expect(retried).toMatchObject({
      ok: false,
      reason: "name-taken",
      id,
      name: "Retry-Taken",
      heldBy: other.id,
    });
    if (retried.ok || retried.reason !== "name-taken") throw new Error("expected name-taken");
    expect(retried.record).toEqual(before);
    expect(await store.get(id)).toEqual(before);
    expect(describeRefusal(retried)).toBe(
      `Another request (\`${other.id}\`) has asked for the name "Retry-Taken" since, so this one can't be placed under it.`,
    );
    // The holder keeps it.
    expect(await heldByOnCreate(store, named("retry-taken"))).toBe(other.id);
    // …and the failed request says so: the holder is named, and the read model offers no Retry.
    expect(await store.nameHeldElsewhere(before!)).toBe(other.id);
    expect(await store.nameHeldElsewhere(other)).toBeUndefined();
  });

  it("places again under the name an unknown request kept", async () => {
    const { store } = newStore(redis, prefix);
    const id = await requestIn(store, "place-again", "unknown");
    mustBeOk(await store.placeAgain(id, APPROVER), "placeAgain");
    expect(await heldByOnCreate(store, named("place-again"))).toBe(id);
  });

  it("refuses to place again a request from before names were reserved whose name was taken", async () => {
    const { store, prefix: own } = newStore(redis, prefix);
    // An old record that went unknown without a name key (removed by hand to simulate it).
    const id = await requestIn(store, "place-again-taken", "unknown");
    await redis.del(`${own}approvals:name:port:place-again-taken`);
    const other = await store.create(named("place-again-taken"));

    expect(await store.placeAgain(id, APPROVER)).toMatchObject({
      ok: false,
      reason: "name-taken",
      heldBy: other.id,
    });
    expect((await store.get(id))?.status).toBe("unknown");
  });
});
