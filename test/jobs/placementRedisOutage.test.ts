import { setTimeout as sleep } from "node:timers/promises";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApprovalStore } from "../../src/approvals/store.js";
import { PlacementJournal } from "../../src/orders/placement/journal.js";
import { STANDIN_IDS } from "../../src/standin/index.js";
import { waitFor } from "../harness/index.js";
import { type OwnRedis, startOwnRedis } from "../harness/ownRedis.js";
import { capturingLogger, FakeProvider, ORDER_1 } from "./placementSupport.js";
import { runPrefix, startTestJobs, type TestJobs } from "./support.js";

/** How long Redis stays down after the provider's answer (issue 19 measured 20 s; CI: 2 s). */
const OUTAGE_MS = 2_000;

/**
 * Issue 19, item 1, with a real outage: the provider accepts the order, and Redis is SIGKILLed
 * at that moment, before anything could be written. A Redis of this test's own (append-only
 * file in a temporary directory, so a restart keeps the data) comes back on the same port after
 * OUTAGE_MS. The answer must end recorded on the request, and nothing may be sent twice.
 */
describe("placement through a Redis outage", () => {
  let ownRedis: OwnRedis;
  let storeRedis: Redis;
  let jobs: TestJobs | undefined;

  beforeAll(async () => {
    ownRedis = await startOwnRedis();
    // As the bot's own connection (src/bot.ts): no offline queue, so commands fail fast while
    // Redis is down ("Stream isn't writeable…") instead of waiting in memory.
    storeRedis = new Redis(ownRedis.port, "127.0.0.1", {
      maxRetriesPerRequest: 2,
      enableOfflineQueue: false,
    });
    storeRedis.on("error", () => {});
    await waitFor(() => storeRedis.status === "ready");
  });

  afterAll(async () => {
    await jobs?.close(5_000);
    storeRedis?.disconnect();
    await ownRedis?.stop();
  });

  it("records the provider's answer after Redis comes back, sending once", async () => {
    const prefix = runPrefix("placement-redis-outage");
    const store = new ApprovalStore({ redis: storeRedis, prefix: `${prefix}:approvals:` });
    const provider = new FakeProvider();
    const log = capturingLogger();
    let restarted: Promise<void> | undefined;
    provider.placeBehaviour = async () => {
      await sleep(300); // a slow provider
      // It has accepted the order; Redis dies before anyone hears of it, and comes back later.
      await ownRedis.kill();
      restarted = sleep(OUTAGE_MS).then(() => ownRedis.restart());
      return ORDER_1;
    };
    jobs = await startTestJobs({
      prefix,
      redisUrl: ownRedis.url,
      logger: log.logger,
      placement: { store, ...provider.callbacks() },
    });
    const request = await store.create({
      kind: "port",
      title: "Port order: redis-outage-port",
      summary: [{ label: "Port name", value: "redis-outage-port" }],
      call: {
        operation: "createPortOrder",
        pathParams: {},
        body: [{ portName: "redis-outage-port" }],
      },
      reconcileKey: "redis-outage-port",
      requester: { userId: STANDIN_IDS.requester },
      sandbox: true,
    });
    expect(
      (await store.decide(request.id, { by: STANDIN_IDS.approver, action: "approve" })).ok,
    ).toBe(true);
    await jobs.placement.enqueue(request.id);

    await waitFor(() => restarted !== undefined, { description: "the provider to answer" });
    await restarted;
    const placed = await waitFor(
      async () => {
        const record = await store.get(request.id);
        return record?.status === "placed" ? record : undefined;
      },
      { timeoutMs: 30_000, description: "the request to be recorded as placed" },
    );
    expect(placed.result?.providerId).toBe("order-1");
    expect(provider.placeCalls).toEqual([request.id]);
    // The thread is told after the record is written: wait for it rather than race it.
    await waitFor(() => provider.placed.length > 0, { description: "the placed callback" });
    expect(provider.placed.map((p) => p.result.providerId)).toEqual(["order-1"]);
    const journal = new PlacementJournal({ redis: storeRedis, prefix });
    expect((await journal.read(request.id))?.answer).toEqual({
      outcome: "placed",
      result: ORDER_1,
    });

    const lines = log.lines();
    expect(lines.find((l) => l.msg === "placement: the provider accepted the order")).toMatchObject(
      { level: 30, approvalId: request.id, orderId: "order-1" },
    );
    // The outage did hit the answer's write, which was retried until Redis was back.
    expect(
      lines.find(
        (l) =>
          l.msg ===
          "placement: could not record the provider's answer; retrying until Redis answers",
      ),
    ).toMatchObject({ approvalId: request.id, orderId: "order-1" });
  }, 60_000);
});
