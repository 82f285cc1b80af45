import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TransitionResult } from "../../src/approvals/results.js";
import type { ApprovalStore } from "../../src/approvals/store.js";
import { APPROVAL_STATUSES, type ApprovalStatus } from "../../src/approvals/types.js";
import { MARKED_FAILED_REASON } from "../../src/domain/markedFailed.js";
import {
  connect,
  deleteKeys,
  newStore,
  portOrderInput,
  runPrefix,
  tickingClock,
} from "./support.js";

/**
 * Every step of the state machine from every status: the allowed ones move the request and
 * record it; all others are refused with a typed result and change nothing.
 */

const REQUESTER = "UREQ00001";
const APPROVER = "UAPPROVER1";

type Step = {
  name: string;
  from: ApprovalStatus;
  to: ApprovalStatus;
  actor: string;
  run: (store: ApprovalStore, id: string) => Promise<TransitionResult>;
};

const STEPS: Step[] = [
  {
    name: "approve",
    from: "pending",
    to: "approved",
    actor: APPROVER,
    run: (s, id) => s.decide(id, { by: APPROVER, action: "approve" }),
  },
  {
    name: "reject",
    from: "pending",
    to: "rejected",
    actor: APPROVER,
    run: (s, id) => s.decide(id, { by: APPROVER, action: "reject", reason: "too expensive" }),
  },
  {
    name: "cancel",
    from: "pending",
    to: "cancelled",
    actor: REQUESTER,
    run: (s, id) => s.cancel(id, REQUESTER),
  },
  {
    name: "claim",
    from: "approved",
    to: "executing",
    actor: "worker-a",
    run: (s, id) => s.claim(id, "worker-a"),
  },
  {
    name: "complete",
    from: "executing",
    to: "placed",
    actor: "worker-a",
    run: (s, id) =>
      s.complete(id, { providerId: "po-123", status: "CREATED", record: { uid: "po-123" } }),
  },
  {
    name: "fail",
    from: "executing",
    to: "failed",
    actor: "worker-a",
    run: (s, id) => s.fail(id, { message: "speed not available", httpStatus: 400 }),
  },
  {
    name: "markUnknown",
    from: "executing",
    to: "unknown",
    actor: "worker-a",
    run: (s, id) => s.markUnknown(id, "timeout after sending"),
  },
  {
    name: "reconcile placed",
    from: "unknown",
    to: "placed",
    actor: "reconciler",
    run: (s, id) =>
      s.reconcile(id, {
        by: "reconciler",
        outcome: "placed",
        result: { providerId: "po-123", record: { uid: "po-123" } },
        note: "found port syd-core-01 at the provider",
      }),
  },
  {
    name: "reconcile failed",
    from: "unknown",
    to: "failed",
    actor: "UAPPROVER1",
    run: (s, id) =>
      s.reconcile(id, {
        by: "UAPPROVER1",
        outcome: "failed",
        note: "checked the portal: no such order",
      }),
  },
  {
    name: "placeAgain",
    from: "unknown",
    to: "approved",
    actor: APPROVER,
    run: (s, id) => s.placeAgain(id, APPROVER),
  },
  {
    name: "markFailed",
    from: "unknown",
    to: "failed",
    actor: APPROVER,
    run: (s, id) => s.markFailed(id, APPROVER, "checked the portal: no such order"),
  },
  {
    name: "retry",
    from: "failed",
    to: "approved",
    actor: APPROVER,
    run: (s, id) => s.retry(id, APPROVER),
  },
];

const stepNamed = (name: string): Step => {
  const step = STEPS.find((s) => s.name === name);
  if (!step) throw new Error(`no step ${name}`);
  return step;
};

/** Steps that bring a new request to each status. */
const PATHS: Record<ApprovalStatus, string[]> = {
  pending: [],
  approved: ["approve"],
  rejected: ["reject"],
  cancelled: ["cancel"],
  executing: ["approve", "claim"],
  placed: ["approve", "claim", "complete"],
  failed: ["approve", "claim", "fail"],
  unknown: ["approve", "claim", "markUnknown"],
};

let redis: Redis;
const prefix = runPrefix("approvals-transitions");

beforeAll(() => {
  redis = connect();
});

afterAll(async () => {
  await deleteKeys(redis, prefix);
  await redis.quit();
});

function mustMove(result: TransitionResult): void {
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
}

async function requestIn(store: ApprovalStore, status: ApprovalStatus): Promise<string> {
  const created = await store.create(portOrderInput({ requester: { userId: REQUESTER } }));
  for (const name of PATHS[status]) {
    const result = await stepNamed(name).run(store, created.id);
    if (!result.ok) throw new Error(`setting up ${status}: ${name} refused (${result.reason})`);
  }
  const record = await store.get(created.id);
  expect(record?.status).toBe(status);
  return created.id;
}

const cases = STEPS.flatMap((step) =>
  APPROVAL_STATUSES.map((status) => ({ step, status, allowed: step.from === status })),
);

describe("approval state machine", () => {
  it("covers every status as a start of some allowed step and every step from every status", () => {
    expect(cases).toHaveLength(STEPS.length * APPROVAL_STATUSES.length);
    const startStates = new Set(STEPS.map((s) => s.from));
    // Terminal statuses have no way out; everything else does.
    expect([...startStates].sort()).toEqual(
      ["approved", "executing", "failed", "pending", "unknown"].sort(),
    );
  });

  it.each(cases.filter((c) => c.allowed).map((c) => [c.step.name, c.status, c.step.to, c.step]))(
    "%s from %s → %s",
    async (_name, status, to, step) => {
      const clock = tickingClock();
      const { store } = newStore(redis, prefix, { now: clock.now });
      const id = await requestIn(store, status as ApprovalStatus);
      const before = await store.get(id);
      const result = await (step as Step).run(store, id);

      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.record.status).toBe(to);
      const last = result.record.history.at(-1);
      expect(last).toMatchObject({ from: status, to, actor: (step as Step).actor });
      expect(result.record.history).toHaveLength((before?.history.length ?? 0) + 1);
      expect(result.record.updatedAt > (before?.updatedAt ?? "")).toBe(true);
      expect(last?.at).toBe(result.record.updatedAt);
      // The same state is what a later read sees (the write happened, not just the reply).
      expect(await store.get(id)).toEqual(result.record);
      // The status indexes moved with it.
      expect((await store.findByStatus(to as ApprovalStatus)).map((r) => r.id)).toContain(id);
      expect((await store.findByStatus(status as ApprovalStatus)).map((r) => r.id)).not.toContain(
        id,
      );
    },
  );

  it.each(
    cases
      .filter((c) => !c.allowed)
      .map((c) => [c.step.name, c.status, `not-${c.step.from}`, c.step]),
  )("%s from %s is refused (%s) and changes nothing", async (_name, status, reason, step) => {
    const { store } = newStore(redis, prefix, { now: tickingClock().now });
    const id = await requestIn(store, status as ApprovalStatus);
    const before = await store.get(id);
    const result = await (step as Step).run(store, id);

    expect(result).toMatchObject({ ok: false, reason, id });
    if (result.ok || !("record" in result)) throw new Error("expected a refusal with a record");
    expect(result.record).toEqual(before);
    expect(await store.get(id)).toEqual(before);
  });
});

describe("step details", () => {
  it("records the decision, attempts, result and errors along the way", async () => {
    const { store } = newStore(redis, prefix, { now: tickingClock().now });
    const { id } = await store.create(portOrderInput());

    const approved = await store.decide(id, { by: APPROVER, action: "approve" });
    expect(approved.ok && approved.record.decision).toMatchObject({
      by: APPROVER,
      action: "approve",
    });

    const claimed = await store.claim(id, "worker-a");
    expect(claimed.ok && claimed.record).toMatchObject({ attempts: 1, claimedBy: "worker-a" });

    const failed = await store.fail(id, { message: "503 from provider", httpStatus: 503 });
    expect(failed.ok && failed.record.error).toEqual({
      message: "503 from provider",
      httpStatus: 503,
    });
    expect(failed.ok && failed.record.history.at(-1)?.note).toBe("503 from provider");

    const retried = await store.retry(id, APPROVER, "provider is back");
    expect(retried.ok && retried.record.error).toBeUndefined();
    expect(retried.ok && retried.record.history.at(-1)?.note).toBe(
      "provider is back (retry after: 503 from provider)",
    );
    // The original decision stands; the retry is in the history.
    expect(retried.ok && retried.record.decision?.by).toBe(APPROVER);

    const second = await store.claim(id, "worker-b");
    expect(second.ok && second.record).toMatchObject({ attempts: 2, claimedBy: "worker-b" });

    const placed = await store.complete(id, {
      providerId: "po-9",
      status: "CREATED",
      record: { uid: "po-9", tags: [] },
    });
    expect(placed.ok && placed.record.result).toEqual({
      providerId: "po-9",
      status: "CREATED",
      record: { uid: "po-9", tags: [] },
    });
    expect(placed.ok && placed.record.history.map((h) => `${h.from}>${h.to}:${h.actor}`)).toEqual([
      `pending>approved:${APPROVER}`,
      "approved>executing:worker-a",
      "executing>failed:worker-a",
      `failed>approved:${APPROVER}`,
      "approved>executing:worker-b",
      "executing>placed:worker-b",
    ]);
  });

  it("places again after an unknown outcome, keeping the unknown note in the history", async () => {
    const { store } = newStore(redis, prefix, { now: tickingClock().now });
    const id = await requestIn(store, "unknown");

    const again = await store.placeAgain(id, APPROVER);
    expect(again.ok && again.record).toMatchObject({ status: "approved", attempts: 1 });
    expect(again.ok && again.record.error).toBeUndefined();
    expect(again.ok && again.record.history.at(-1)).toMatchObject({
      actor: APPROVER,
      from: "unknown",
      to: "approved",
      note: "place again after: timeout after sending",
    });
    // A worker may claim it again: the new attempt is counted.
    const claimed = await store.claim(id, "worker-b");
    expect(claimed.ok && claimed.record.attempts).toBe(2);
  });

  it("marks an unknown outcome failed: the reason as plain text, who in the history", async () => {
    const { store } = newStore(redis, prefix, { now: tickingClock().now });
    const id = await requestIn(store, "unknown");

    const failed = await store.markFailed(id, APPROVER, "  no order in the portal ");
    // No mention inside stored text: a view would show it escaped; it names the actor itself.
    expect(failed.ok && failed.record.error).toEqual({ message: "no order in the portal" });
    expect(failed.ok && failed.record.history.at(-1)).toMatchObject({
      actor: APPROVER,
      from: "unknown",
      to: "failed",
      note: "no order in the portal",
    });

    const quiet = await store.markFailed(await requestIn(store, "unknown"), APPROVER, " ");
    expect(quiet.ok && quiet.record.error?.message).toBe(MARKED_FAILED_REASON);
  });

  it("refuses to retry a request marked as failed, changing nothing; retries a refused one", async () => {
    const { store } = newStore(redis, prefix, { now: tickingClock().now });
    const marked = await requestIn(store, "unknown");
    expect((await store.markFailed(marked, APPROVER, MARKED_FAILED_REASON)).ok).toBe(true);
    const before = await store.get(marked);

    const refused = await store.retry(marked, APPROVER);
    expect(refused).toMatchObject({ ok: false, reason: "marked-failed", id: marked });
    expect(await store.get(marked)).toEqual(before);

    // The provider refused it (a worker's executing → failed): a person may retry.
    const refusedByProvider = await requestIn(store, "failed");
    expect(await store.retry(refusedByProvider, APPROVER)).toMatchObject({
      ok: true,
      record: { status: "approved" },
    });
  });

  it("refuses a retry judged on a record that was placed again and marked failed since", async () => {
    const { store } = newStore(redis, prefix, { now: tickingClock().now });
    const id = await requestIn(store, "failed");
    const seenByTheRetry = await store.get(id);
    // Between the retry's read and its write: retried, sent, unknown, marked failed.
    mustMove(await store.retry(id, APPROVER));
    mustMove(await store.claim(id, "worker-b"));
    mustMove(await store.markUnknown(id, "timeout after sending"));
    mustMove(await store.markFailed(id, APPROVER, MARKED_FAILED_REASON));
    const now = await store.get(id);

    const stale = Object.create(store) as ApprovalStore;
    let reads = 0;
    stale.get = async (readId) => (reads++ === 0 ? seenByTheRetry : store.get(readId));
    expect(await stale.retry(id, APPROVER)).toMatchObject({ ok: false, reason: "stale-attempt" });
    expect(reads).toBe(1);
    expect(await store.get(id)).toEqual(now);
  });

  it("requires a reason to reject", async () => {
    const { store } = newStore(redis, prefix);
    const { id } = await store.create(portOrderInput());
    const result = await store.decide(id, { by: APPROVER, action: "reject", reason: "   " });
    expect(result).toMatchObject({ ok: false, reason: "reason-required" });
    expect((await store.get(id))?.status).toBe("pending");

    const rejected = await store.decide(id, {
      by: APPROVER,
      action: "reject",
      reason: "no budget",
    });
    expect(rejected.ok && rejected.record.decision).toMatchObject({
      action: "reject",
      reason: "no budget",
    });
    expect(rejected.ok && rejected.record.history.at(-1)?.note).toBe("no budget");
  });

  it("lets only the requester cancel", async () => {
    const { store } = newStore(redis, prefix);
    const { id } = await store.create(portOrderInput({ requester: { userId: REQUESTER } }));
    expect(await store.cancel(id, "USOMEONE1")).toMatchObject({
      ok: false,
      reason: "not-requester",
    });
    expect(await store.cancel(id, REQUESTER)).toMatchObject({
      ok: true,
      record: { status: "cancelled" },
    });
  });

  it("refuses a stalled worker's completion after a retry gave the claim to another", async () => {
    const { store } = newStore(redis, prefix);
    const { id } = await store.create(portOrderInput());
    await store.decide(id, { by: APPROVER, action: "approve" });
    const first = await store.claim(id, "worker-a");
    if (!first.ok) throw new Error("claim refused");
    await store.fail(id, { message: "refused" }, { attempt: first.record.attempts });
    await store.retry(id, APPROVER);
    const second = await store.claim(id, "worker-b");
    if (!second.ok) throw new Error("claim refused");

    const stale = await store.complete(
      id,
      { providerId: "po-1", record: {} },
      { attempt: first.record.attempts },
    );
    expect(stale).toMatchObject({ ok: false, reason: "stale-attempt" });
    expect((await store.get(id))?.status).toBe("executing");

    const current = await store.complete(
      id,
      { providerId: "po-2", record: {} },
      { attempt: second.record.attempts },
    );
    expect(current).toMatchObject({ ok: true, record: { status: "placed", attempts: 2 } });
  });

  it("answers not-found for ids that do not exist or are malformed", async () => {
    const { store } = newStore(redis, prefix);
    expect(await store.decide("apr_aaaaaaaaaaaaaaaa", { by: APPROVER, action: "approve" })).toEqual(
      { ok: false, reason: "not-found", id: "apr_aaaaaaaaaaaaaaaa" },
    );
    expect(await store.claim("../../etc", "w")).toMatchObject({ ok: false, reason: "not-found" });
    expect(await store.get("apr_*")).toBeNull();
  });
});

describe("a secret in the provider call (the IO-D BGP key)", () => {
  const SECRET = "S3cretKey!99";
  const withSecret = () =>
    portOrderInput({
      requester: { userId: REQUESTER },
      call: {
        operation: "createInternetOnDemand",
        pathParams: {},
        body: {
          serviceName: "iod-1",
          routing: "DYNAMIC",
          bgpKey: SECRET,
          duration: { quantity: 30 },
        },
      },
    });

  /** Whether any value stored under the test's prefix holds the secret (every key type read). */
  async function storedAnywhere(): Promise<boolean> {
    const keys = await redis.keys(`${prefix}*`);
    for (const key of keys) {
      const type = await redis.type(key);
      const values =
        type === "hash"
          ? Object.values(await redis.hgetall(key))
          : type === "string"
            ? [(await redis.get(key)) ?? ""]
            : type === "zset"
              ? await redis.zrange(key, "0", "-1")
              : type === "set"
                ? await redis.smembers(key)
                : type === "list"
                  ? await redis.lrange(key, 0, -1)
                  : [];
      if (values.some((v) => v.includes(SECRET))) return true;
    }
    return false;
  }

  it.each([
    ["rejected", ["reject"]],
    ["cancelled", ["cancel"]],
    ["placed", ["approve", "claim", "complete"]],
  ] as const)(
    "is dropped from the record once it is %s (never sent again)",
    async (status, steps) => {
      const { store } = newStore(redis, prefix, { now: tickingClock().now });
      const { id } = await store.create(withSecret());
      expect(await storedAnywhere()).toBe(true);
      for (const name of steps) expect((await stepNamed(name).run(store, id)).ok).toBe(true);
      const record = await store.get(id);
      expect(record?.status).toBe(status);
      expect(await storedAnywhere()).toBe(false);
      // The rest of the call is kept: the term the spend reads, the name a look-up finds.
      expect(record?.call.body).toEqual({
        serviceName: "iod-1",
        routing: "DYNAMIC",
        duration: { quantity: 30 },
      });
    },
  );

  it("is kept while the call may be sent again (failed: Retry sends the same call)", async () => {
    // A prefix of its own: the record keeps the secret, which the search above must not see.
    const { store } = newStore(redis, `${prefix}kept:`, { now: tickingClock().now });
    const { id } = await store.create(withSecret());
    for (const name of ["approve", "claim", "fail"]) {
      expect((await stepNamed(name).run(store, id)).ok).toBe(true);
    }
    expect((await store.get(id))?.call.body).toMatchObject({ bgpKey: SECRET });
    const retried = await store.retry(id, APPROVER);
    expect(retried.ok && retried.record.call.body).toMatchObject({ bgpKey: SECRET });
  });
});
