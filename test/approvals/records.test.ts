import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApprovalStore } from "../../src/approvals/store.js";
import { ApprovalInputError, ApprovalRecordError } from "../../src/approvals/types.js";
import {
  connect,
  deleteKeys,
  newStore,
  portOrderInput,
  runPrefix,
  tickingClock,
} from "./support.js";

let redis: Redis;
const prefix = runPrefix("approvals-records");
const DAY_MS = 24 * 60 * 60 * 1000;

beforeAll(() => {
  redis = connect();
});

afterAll(async () => {
  await deleteKeys(redis, prefix);
  await redis.quit();
});

describe("creating and reading requests", () => {
  it("creates a pending request with a short URL-safe id and reads it back unchanged", async () => {
    const { store } = newStore(redis, prefix, {
      now: () => new Date("2025-03-01T10:00:00.000Z"),
    });
    const input = portOrderInput({
      slack: { approvalChannel: "C0APPROVALS" },
    });
    const created = await store.create(input);

    expect(created.id).toMatch(/^apr_[a-z2-7]{16}$/);
    expect(created).toMatchObject({
      status: "pending",
      attempts: 0,
      history: [],
      createdAt: "2025-03-01T10:00:00.000Z",
      updatedAt: "2025-03-01T10:00:00.000Z",
      slack: { approvalChannel: "C0APPROVALS" },
      kind: "port",
      sandbox: true,
      reconcileKey: input.reconcileKey,
    });
    expect(await store.get(created.id)).toEqual(created);
    const other = await store.create(portOrderInput());
    expect(other.id).not.toBe(created.id);
  });

  it("keeps the provider call body exactly (empty arrays, large numbers, nesting)", async () => {
    const { store } = newStore(redis, prefix);
    const body = {
      list: [],
      empty: {},
      big: 9007199254740991,
      fraction: 0.1,
      nested: [{ a: [[]], b: null, c: 'ü/"\n' }],
    };
    const created = await store.create(
      portOrderInput({ call: { operation: "createPortOrder", pathParams: { x: "1" }, body } }),
    );
    await store.decide(created.id, { by: "UAPPROVER1", action: "approve" });
    const claimed = await store.claim(created.id, "worker-a");

    // What the worker gets back from its claim is what will be sent to the provider.
    expect(claimed.ok && claimed.record.call).toEqual({
      operation: "createPortOrder",
      pathParams: { x: "1" },
      body,
    });
    expect(JSON.stringify(claimed.ok && claimed.record.call.body)).toBe(JSON.stringify(body));
  });

  it("refuses input it must not store, with a typed error", async () => {
    const { store } = newStore(redis, prefix);
    await expect(store.create(portOrderInput({ title: "two\nlines" }))).rejects.toBeInstanceOf(
      ApprovalInputError,
    );
    await expect(
      store.create(portOrderInput({ requester: { userId: "not-a-user" } })),
    ).rejects.toBeInstanceOf(ApprovalInputError);
    await expect(
      store.create(
        portOrderInput({
          call: { operation: "createPortOrder", pathParams: {}, body: "x".repeat(40_000) },
        }),
      ),
    ).rejects.toThrow(/larger than/);
    const { id } = await store.create(portOrderInput());
    await expect(store.decide(id, { by: "<!channel>", action: "approve" })).rejects.toBeInstanceOf(
      ApprovalInputError,
    );
    expect((await store.get(id))?.status).toBe("pending");
    expect(await store.list()).toHaveLength(1);
  });

  it("merges Slack references without changing the state or updatedAt", async () => {
    const clock = tickingClock();
    const { store } = newStore(redis, prefix, { now: clock.now });
    const created = await store.create(portOrderInput({ slack: { requesterChannel: "D0REQ" } }));

    const merged = await store.mergeSlackRefs(created.id, {
      approvalChannel: "C0APPROVALS",
      approvalTs: "1740823200.000100",
    });
    expect(merged?.slack).toEqual({
      requesterChannel: "D0REQ",
      approvalChannel: "C0APPROVALS",
      approvalTs: "1740823200.000100",
    });
    expect(merged?.updatedAt).toBe(created.updatedAt);
    expect(merged?.history).toEqual([]);

    const again = await store.mergeSlackRefs(created.id, {
      approvalTs: "1740823300.000200",
      statusMessageTs: "1740823400.000300",
    });
    expect(again?.slack).toMatchObject({
      approvalTs: "1740823300.000200",
      statusMessageTs: "1740823400.000300",
      requesterChannel: "D0REQ",
    });

    expect(await store.mergeSlackRefs("apr_aaaaaaaaaaaaaaaa", { approvalTs: "1" })).toBeNull();
    await expect(
      store.mergeSlackRefs(created.id, { "bad key": "x" } as Record<string, string>),
    ).rejects.toBeInstanceOf(ApprovalInputError);
  });

  it("keeps an approval message's place once: the first of two concurrent writers wins", async () => {
    const { store } = newStore(redis, prefix);
    const created = await store.create(portOrderInput());
    const place = (ts: string) =>
      store.keepApprovalMessage(created.id, { approvalChannel: "C0APPROVALS", approvalTs: ts });
    const [one, two] = await Promise.all([place("1740823200.000100"), place("1740823200.000200")]);
    const kept = one?.slack.approvalTs;
    expect(["1740823200.000100", "1740823200.000200"]).toContain(kept);
    expect(two?.slack.approvalTs).toBe(kept);
    expect((await place("1740823200.000300"))?.slack.approvalTs).toBe(kept);
    expect((await store.get(created.id))?.slack.approvalTs).toBe(kept);
    expect(
      await store.keepApprovalMessage("apr_aaaaaaaaaaaaaaaa", {
        approvalChannel: "C0A",
        approvalTs: "1.1",
      }),
    ).toBeNull();
  });

  it("keeps a request card's place once: the form's late card and the reconciler's, first wins", async () => {
    const { store } = newStore(redis, prefix);
    const created = await store.create(portOrderInput());
    const card = (cardChannel: string, cardTs: string) =>
      store.keepCard(created.id, { cardChannel, cardTs });
    const [one, two] = await Promise.all([
      card("C0GENERAL1", "1740823200.000100"),
      card("D0REQUEST1", "1740823200.000200"),
    ]);
    const kept = one?.slack;
    expect(["1740823200.000100", "1740823200.000200"]).toContain(kept?.cardTs);
    expect(two?.slack).toMatchObject({ cardChannel: kept?.cardChannel, cardTs: kept?.cardTs });
    expect((await store.get(created.id))?.slack.cardTs).toBe(kept?.cardTs);
  });

  it("caps a huge provider record in a result but keeps its id and status", async () => {
    const { store } = newStore(redis, prefix);
    const { id } = await store.create(portOrderInput());
    await store.decide(id, { by: "UAPPROVER1", action: "approve" });
    await store.claim(id, "worker-a");
    const result = await store.complete(id, {
      providerId: "po-1",
      status: "CREATED",
      record: { blob: "x".repeat(20_000) },
    });
    expect(result.ok && result.record.result).toMatchObject({
      providerId: "po-1",
      status: "CREATED",
      record: { omitted: expect.stringContaining("larger than") },
    });
  });
});

describe("retention", () => {
  it("refuses a retention under 90 days", () => {
    expect(() => new ApprovalStore({ redis, prefix, retentionDays: 30 })).toThrow(RangeError);
  });

  it("sets the record's TTL to the retention and renews it on every step", async () => {
    const { store, prefix: own } = newStore(redis, prefix, { retentionDays: 100 });
    const { id } = await store.create(portOrderInput());
    const key = `${own}approval:${id}`;
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(100 * DAY_MS - 60_000);
    expect(ttl).toBeLessThanOrEqual(100 * DAY_MS);

    await redis.pexpire(key, 60_000);
    await store.decide(id, { by: "UAPPROVER1", action: "approve" });
    expect(await redis.pttl(key)).toBeGreaterThan(100 * DAY_MS - 60_000);

    await redis.pexpire(key, 60_000);
    await store.mergeSlackRefs(id, { approvalTs: "1.2" });
    expect(await redis.pttl(key)).toBeGreaterThan(100 * DAY_MS - 60_000);

    const { store: store90, prefix: own90 } = newStore(redis, prefix, { retentionDays: 90 });
    const short = await store90.create(portOrderInput());
    const ttl90 = await redis.pttl(`${own90}approval:${short.id}`);
    expect(ttl90).toBeGreaterThan(90 * DAY_MS - 60_000);
    expect(ttl90).toBeLessThanOrEqual(90 * DAY_MS);
  });

  it("trims expired ids from every index", async () => {
    const clock = tickingClock();
    const { store, prefix: own } = newStore(redis, prefix, { now: clock.now, retentionDays: 90 });
    const old = await store.create(portOrderInput());
    const oldApproved = await store.create(portOrderInput());
    await store.decide(oldApproved.id, { by: "UAPPROVER1", action: "approve" });

    clock.advance(91 * DAY_MS);
    // Redis has expired them by now (the TTL is real time, so expire them by hand here).
    await redis.del(`${own}approval:${old.id}`, `${own}approval:${oldApproved.id}`);
    const fresh = await store.create(portOrderInput());

    const members = async (name: string) => redis.zrange(`${own}approvals:${name}`, "0", "-1");
    expect(await members("created")).toEqual([fresh.id]);
    expect(await members("expires")).toEqual([fresh.id]);
    expect(await members("status:pending")).toEqual([fresh.id]);
    expect(await members("status:approved")).toEqual([]);
  });

  it("skips ids whose record has expired but is still indexed", async () => {
    const { store, prefix: own } = newStore(redis, prefix);
    const gone = await store.create(portOrderInput());
    const kept = await store.create(portOrderInput());
    await redis.del(`${own}approval:${gone.id}`);
    expect((await store.list()).map((r) => r.id)).toEqual([kept.id]);
    expect((await store.listPending()).map((r) => r.id)).toEqual([kept.id]);
    expect(await store.get(gone.id)).toBeNull();
    expect(await store.decide(gone.id, { by: "UAPPROVER1", action: "approve" })).toMatchObject({
      ok: false,
      reason: "not-found",
    });
  });

  it("keeps a placed port order record small", async () => {
    const { store, prefix: own } = newStore(redis, prefix);
    const { id, reconcileKey } = await store.create(portOrderInput());
    await store.mergeSlackRefs(id, {
      approvalChannel: "C0APPROVALS",
      approvalTs: "1740823200.000100",
      requesterChannel: "D0REQ0001",
      requesterTs: "1740823201.000200",
    });
    await store.decide(id, { by: "UAPPROVER1", action: "approve" });
    await store.claim(id, "replica-a:worker-1");
    await store.complete(id, {
      providerId: "0b4c5d6e-1f20-4a3b-9c8d-7e6f5a4b3c2d",
      status: "CREATED",
      record: {
        technicalServiceUid: "0b4c5d6e-1f20-4a3b-9c8d-7e6f5a4b3c2d",
        orderUid: "a1b2c3d4-e5f6-4a3b-9c8d-7e6f5a4b3c2d",
        productName: "syd-core-01",
        provisioningStatus: "DEPLOYABLE",
      },
    });
    // SAMPLES 0 counts every field: the default (5) extrapolates from the first fields in the
    // hash's order, which follows the Redis process's random hash seed (4,896 B against an
    // exact 2,864 B on one Redis, so the test failed or passed with the server it ran on).
    const bytes = await redis.memory("USAGE", `${own}approval:${id}`, "SAMPLES", 0);
    // Kept for 100 days: a few KB each is thousands of orders per 10 MB.
    expect(bytes).toBeLessThan(4096);
    // The name stays reserved as long as the record is kept: one small string key.
    const nameBytes = await redis.memory(
      "USAGE",
      `${own}approvals:name:port:${reconcileKey}`,
      "SAMPLES",
      0,
    );
    expect(nameBytes).toBeGreaterThan(0);
    expect(nameBytes).toBeLessThan(256);
  });
});

describe("listing", () => {
  it("lists newest first with since, status and limit filters; pending oldest first", async () => {
    const clock = tickingClock();
    const { store } = newStore(redis, prefix, { now: clock.now });
    const r1 = await store.create(portOrderInput({ title: "first" }));
    clock.advance(60_000);
    const r2 = await store.create(portOrderInput({ title: "second" }));
    clock.advance(60_000);
    const r3 = await store.create(portOrderInput({ title: "third" }));
    await store.decide(r2.id, { by: "UAPPROVER1", action: "approve" });

    const ids = (records: { id: string }[]) => records.map((r) => r.id);
    expect(ids(await store.list())).toEqual([r3.id, r2.id, r1.id]);
    expect(ids(await store.list({ limit: 2 }))).toEqual([r3.id, r2.id]);
    expect(ids(await store.list({ since: new Date(r2.createdAt) }))).toEqual([r3.id, r2.id]);
    expect(ids(await store.list({ status: "approved" }))).toEqual([r2.id]);
    expect(ids(await store.list({ status: "pending", since: new Date(r2.createdAt) }))).toEqual([
      r3.id,
    ]);
    expect(ids(await store.list({ status: "rejected" }))).toEqual([]);
    expect(ids(await store.listPending())).toEqual([r1.id, r3.id]);
    expect(ids(await store.findByStatus("pending"))).toEqual([r1.id, r3.id]);
    expect(ids(await store.findByStatus("approved"))).toEqual([r2.id]);
    // The approved request keeps its place in time (indexes are by creation time).
    await store.claim(r2.id, "w");
    expect(ids(await store.list())).toEqual([r3.id, r2.id, r1.id]);
  });
});

describe("corrupted and old records", () => {
  it("gives a typed error for get, a typed refusal for steps, and skips them in lists", async () => {
    const invalid: ApprovalRecordError[] = [];
    const { store, prefix: own } = newStore(redis, prefix, {
      onInvalidRecord: (error) => invalid.push(error),
    });
    const broken = await store.create(portOrderInput());
    const fine = await store.create(portOrderInput());
    await redis.hset(`${own}approval:${broken.id}`, "core", "{not json");

    const error = await store.get(broken.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApprovalRecordError);
    expect(error).toMatchObject({ id: broken.id, problems: ["core is not JSON"] });

    const refused = await store.decide(broken.id, { by: "UAPPROVER1", action: "approve" });
    expect(refused).toMatchObject({ ok: false, reason: "invalid-record", id: broken.id });
    expect(await redis.hget(`${own}approval:${broken.id}`, "status")).toBe("pending");

    expect((await store.listPending()).map((r) => r.id)).toEqual([fine.id]);
    expect(invalid.map((e) => e.id)).toEqual([broken.id]);
  });

  it("rejects a record of another layout version or with values outside the schema", async () => {
    const { store, prefix: own } = newStore(redis, prefix);
    const old = await store.create(portOrderInput());
    await redis.hset(`${own}approval:${old.id}`, "v", "0");
    await expect(store.get(old.id)).rejects.toMatchObject({
      name: "ApprovalRecordError",
      problems: [expect.stringContaining("layout version")],
    });

    const odd = await store.create(portOrderInput());
    await redis.hset(`${own}approval:${odd.id}`, "status", "teleported", "attempts", "-1");
    const error = await store.get(odd.id).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApprovalRecordError);
    expect((error as ApprovalRecordError).problems.join(" ")).toMatch(/status/);
    expect((error as ApprovalRecordError).problems.join(" ")).toMatch(/attempts/);

    const badHistory = await store.create(portOrderInput());
    await redis.hset(`${own}approval:${badHistory.id}`, "history", '{"at":"x"}\nnot json');
    await expect(store.get(badHistory.id)).rejects.toBeInstanceOf(ApprovalRecordError);
  });
});
