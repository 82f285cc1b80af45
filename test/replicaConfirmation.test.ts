import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApprovalStore } from "../src/approvals/store.js";
import { JournalNotReplicatedError, PlacementJournal } from "../src/orders/placement/journal.js";
import { confirmedWrite, readConnectedReplicas } from "../src/replicaConfirmation.js";
import { expectStorageUnavailable, portOrderInput } from "./approvals/support.js";
import { type OwnRedis, startOwnRedis } from "./harness/ownRedis.js";
import { waitFor } from "./harness/waitFor.js";

/**
 * Acked means kept through a failover (issue 31): a decision, a name reservation and the
 * placement journal's `sending`/`answered` are confirmed on a replica (WAIT) when the master has
 * one; without replicas nothing changes. A master and a replica of the test's own; the replica is
 * made deaf for a moment with DEBUG SLEEP (it then acknowledges nothing), as a lagging or
 * partitioned replica would be.
 */

let alone: OwnRedis;
let master: OwnRedis;
let replica: OwnRedis;
const clients: Redis[] = [];
const client = (port: number) => {
  const redis = new Redis(port, "127.0.0.1", { maxRetriesPerRequest: 1 });
  clients.push(redis);
  return redis;
};

beforeAll(async () => {
  alone = await startOwnRedis();
  // No 5-second pause before the first copy to the replica (Redis 7's diskless default).
  master = await startOwnRedis({ args: ["--repl-diskless-sync-delay", "0"] });
  replica = await startOwnRedis({
    args: ["--replicaof", "127.0.0.1", String(master.port), "--enable-debug-command", "yes"],
  });
  const probe = client(master.port);
  await waitFor(async () => readConnectedReplicas(await probe.info("replication")) === 1, {
    timeoutMs: 10_000,
    description: "the replica online",
  });
}, 30_000);

afterAll(async () => {
  for (const redis of clients) redis.disconnect();
  await Promise.all([alone?.stop(), master?.stop(), replica?.stop()]);
});

/**
 * Makes the replica process nothing (replication included) for `ms`; resolves once it sleeps,
 * with a promise of its waking (each test awaits it, so the next starts with a replica in step).
 */
async function replicaDeafFor(ms: number): Promise<{ awake: Promise<unknown> }> {
  const sleeper = client(replica.port);
  await sleeper.ping();
  const awake = sleeper.call("DEBUG", "SLEEP", String(ms / 1000)).catch(() => undefined);
  // The command has left; give the server a moment to be inside it.
  await new Promise((resolve) => setTimeout(resolve, 50));
  return { awake };
}

describe("confirmedWrite", () => {
  it("without replicas confirms at once and sends no WAIT", async () => {
    const redis = client(alone.port);
    const started = Date.now();
    const write = await confirmedWrite(redis, () => redis.set("k", "v"), 5_000);
    expect(write).toEqual({ value: "OK", confirmed: true, replicas: 0 });
    // A WAIT 1 5000 would have blocked for 5 s with no replica to answer it.
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it("with a replica in step, confirms once it holds the write", async () => {
    const redis = client(master.port);
    const write = await confirmedWrite(redis, () => redis.set("held", "yes"), 2_000);
    expect(write).toEqual({ value: "OK", confirmed: true, replicas: 1 });
    expect(await client(replica.port).get("held")).toBe("yes");
  });

  it("with a replica that acknowledges nothing, says unconfirmed after the timeout", async () => {
    const redis = client(master.port);
    await confirmedWrite(redis, () => redis.ping());
    const { awake } = await replicaDeafFor(1_500);
    const write = await confirmedWrite(redis, () => redis.set("late", "1"), 300);
    expect(write).toMatchObject({ value: "OK", confirmed: false });
    await awake;
  });
});

describe("the writes a person or the provider relies on", () => {
  it("an approval the replica did not confirm is refused as not recorded (storage unavailable)", async () => {
    const redis = client(master.port);
    const store = new ApprovalStore({ redis, prefix: "confirm:approvals:", replicaWaitMs: 300 });
    const request = await store.create(portOrderInput());
    const { awake } = await replicaDeafFor(1_500);
    await expectStorageUnavailable(
      store.decide(request.id, { action: "approve", by: "U0APPROVER" }),
    );
    await awake;
    const again = await store.decide(request.id, { action: "approve", by: "U0APPROVER" });
    // The first write did reach the master, which survived: the second click says so.
    expect(again).toMatchObject({ ok: false, reason: "not-pending" });
    expect((await store.get(request.id))?.status).toBe("approved");
  });

  it("an unconfirmed `sending` is moved back to `claimed` and nothing may be sent", async () => {
    const redis = client(master.port);
    const journal = new PlacementJournal({ redis, prefix: "confirm:jobs", replicaWaitMs: 300 });
    await journal.intend("a1", 1);
    expect(await journal.own("a1", 1, "w1", "")).toBe(true);
    const { awake } = await replicaDeafFor(1_500);
    await expect(journal.startSending("a1", 1, "w1")).rejects.toBeInstanceOf(
      JournalNotReplicatedError,
    );
    expect(await journal.read("a1")).toMatchObject({ state: "claimed", owner: "w1" });
    // The sender's retry, once a replica answers: confirmed, so the request may leave.
    await awake;
    expect(await journal.startSending("a1", 1, "w1")).toBe(true);
    expect(await journal.read("a1")).toMatchObject({ state: "sending", owner: "w1" });
    expect(await client(replica.port).hget(journal.key("a1"), "state")).toBe("sending");
  });

  it("an unconfirmed answer throws, to be written again until a replica holds it", async () => {
    const redis = client(master.port);
    const journal = new PlacementJournal({ redis, prefix: "confirm:jobs", replicaWaitMs: 300 });
    await journal.intend("a2", 1);
    await journal.own("a2", 1, "w1", "");
    expect(await journal.startSending("a2", 1, "w1")).toBe(true);
    const answer = {
      outcome: "placed" as const,
      result: { providerId: "order-1", status: "CREATED", record: { orderId: "order-1" } },
    };
    const { awake } = await replicaDeafFor(1_500);
    await expect(journal.recordAnswer("a2", 1, answer)).rejects.toBeInstanceOf(
      JournalNotReplicatedError,
    );
    await awake;
    expect(await journal.recordAnswer("a2", 1, answer)).toBe("recorded");
    expect(await client(replica.port).hget(journal.key("a2"), "state")).toBe("answered");
  });
});
