import type { WebClient } from "@slack/web-api";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { OrderRead, ReadOrder } from "../../src/orders/tracking/index.js";
import { type SlackStandin, STANDIN_IDS } from "../../src/standin/index.js";
import { waitFor } from "../harness/index.js";
import { FakeOrders } from "./orderSource.js";
import {
  connect,
  deleteKeys,
  runPrefix,
  slackClient,
  startStandin,
  startTestJobs,
  type TestJobs,
  threadRoot,
  threadTexts,
} from "./support.js";

const CHANNEL = STANDIN_IDS.approvals;
const STATUSES = ["created", "allocated", "activating", "progressing", "processing"];

describe("two replicas sharing Redis and prefix", () => {
  let redis: Redis;
  let standin: SlackStandin;
  let client: WebClient;
  const prefix = runPrefix("replicas");
  const replicas: TestJobs[] = [];

  beforeAll(async () => {
    redis = connect();
    standin = await startStandin();
    client = slackClient(standin);
  });

  afterAll(async () => {
    await Promise.all(replicas.map((jobs) => jobs.close(5_000)));
    await deleteKeys(redis, prefix);
    await standin.close();
    redis.disconnect();
  });

  it("posts each change of each order exactly once while both poll", async () => {
    const orders = new FakeOrders();
    const readsBy = [0, 0];
    const reader =
      (replica: number): ReadOrder =>
      (company, orderId): Promise<OrderRead> => {
        readsBy[replica] = (readsBy[replica] ?? 0) + 1;
        return orders.read(company, orderId);
      };
    for (const replica of [0, 1]) {
      replicas.push(
        await startTestJobs({
          prefix,
          slack: client.chat,
          readOrder: reader(replica),
          trackerSettings: {
            schedule: {
              steps: [{ untilAgeMs: Number.POSITIVE_INFINITY, everyMs: 40 }],
              jitter: 0.1,
              maxBackoffMs: 500,
            },
          },
        }),
      );
    }
    const [a, b] = replicas as [TestJobs, TestJobs];
    const ids = ["po-rep-1", "po-rep-2", "po-rep-3"];
    const roots = new Map<string, string>();
    for (const id of ids) {
      orders.set(id, { status: "created", loaStatus: "TODO" });
      const root = await threadRoot(client, CHANNEL, `Replicas ${id}`);
      roots.set(id, root);
      // Both replicas are asked to track (e.g. two people click Track): one tracker each.
      const input = {
        orderId: id,
        companyName: "acme",
        channel: CHANNEL,
        threadTs: root,
        requestedBy: STANDIN_IDS.requester,
      };
      await Promise.all([a.tracker.track(input), b.tracker.track(input)]);
    }
    const rootOf = (id: string) => roots.get(id) ?? "";
    for (const id of ids) {
      await waitFor(() => threadTexts(standin, CHANNEL, rootOf(id)).length === 1);
    }

    for (const status of STATUSES.slice(1)) {
      for (const id of ids) orders.set(id, { status, loaStatus: "TODO" });
      for (const id of ids) {
        await waitFor(
          () => threadTexts(standin, CHANNEL, rootOf(id)).some((t) => t.includes(`*${status}*.`)),
          { description: `${id} → ${status}`, timeoutMs: 10_000 },
        );
      }
      // Let both replicas read the unchanged status a few more times.
      const before = readsBy[0]! + readsBy[1]!;
      await waitFor(() => readsBy[0]! + readsBy[1]! >= before + 12);
    }

    for (const id of ids) {
      const replies = threadTexts(standin, CHANNEL, rootOf(id)).slice(1);
      expect(replies).toHaveLength(STATUSES.length - 1);
      STATUSES.slice(1).forEach((status, i) => {
        expect(replies[i]).toContain(`→ *${status}*`);
      });
    }
    expect(await a.tracker.list()).toHaveLength(ids.length);
    // Both replicas did the work (one job per order, taken by whichever was free).
    expect(readsBy[0]).toBeGreaterThan(0);
    expect(readsBy[1]).toBeGreaterThan(0);
  });
});
