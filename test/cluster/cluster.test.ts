import { WebClient } from "@slack/web-api";
import { Cluster, Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NameReservedError } from "../../src/approvals/names.js";
import { literalPattern, scanKeys } from "../../src/redis/keys.js";
import { layoutKeys } from "../../src/redis/layout/migrate.js";
import { LAYOUT_VERSION } from "../../src/redis/layout/migrations.js";
import { submitForApproval } from "../../src/slack/kit/index.js";
import { loadLayoutV0, requestsOfLayoutV0 } from "../fixtures/layout-v0/load.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { type OwnCluster, startOwnCluster } from "../harness/ownCluster.js";
import { portOrderRequest } from "../harness/portOrders.js";
import { deleteKeysMatching } from "../harness/redisKeys.js";
import { clusterSeeds } from "../harness/redisTopology.js";

/**
 * The bot on a Redis Cluster of three masters: the suite's own under `npm run test:cluster`
 * (vitest.cluster.config.ts, which also runs the end-to-end flows there), or one this file starts
 * in the ordinary run. What the flows cannot see: where the keys went.
 */

let own: OwnCluster | undefined;
let seeds: string;
let cluster: Redis;
let shared: Redis;

beforeAll(async () => {
  const provided = clusterSeeds();
  if (!provided) own = await startOwnCluster({ masters: 3 });
  seeds = provided ?? own!.seeds;
  const nodes = seeds.split(",").map((seed) => {
    const [host, port] = seed.split(":");
    return { host: host!, port: Number(port) };
  });
  cluster = new Cluster(nodes) as unknown as Redis;
  shared = new Redis("redis://127.0.0.1:6379");
}, 60_000);
afterAll(async () => {
  cluster?.disconnect();
  shared?.disconnect();
  await own?.stop();
});

/** Every key under `prefix` on the cluster, with the master holding it. */
async function keysByNode(prefix: string): Promise<Map<string, string[]>> {
  const byNode = new Map<string, string[]>();
  for (const node of (cluster as unknown as Cluster).nodes("master")) {
    const found: string[] = [];
    for await (const batch of node.scanStream({ match: `${literalPattern(prefix)}*` }))
      found.push(...(batch as string[]));
    byNode.set(`${node.options.host}:${node.options.port}`, found);
  }
  return byNode;
}

async function sharedKeys(prefix: string): Promise<string[]> {
  const found: string[] = [];
  for await (const batch of scanKeys(shared, `${literalPattern(prefix)}*`)) found.push(...batch);
  return found;
}

describe("a port order on a three-master cluster", () => {
  let env: TestBot;
  beforeAll(async () => {
    env = await startTestBot({ env: { REDIS_CLUSTER_NODES: seeds } });
  });
  afterAll(async () => {
    await env?.close();
    await deleteKeysMatching(cluster, `${literalPattern(env.redisPrefix)}*`);
  });

  it("is approved by a signed click and placed once; every key is tagged and the keys spread", async () => {
    const services = env.bot.services;
    const { companyUsername } = await services.identity();
    const dcf = (await services.provider.listDcfs()).find(
      (d) => (d.dataCenterFacility?.speeds?.length ?? 0) > 0 && d.username,
    )!;
    const outcome = await submitForApproval({
      services,
      client: new WebClient(env.standin.botToken, { slackApiUrl: env.standin.apiUrl }),
      submission: portOrderRequest({
        portName: "cluster-port-1",
        companyUsername,
        dataCenterFacility: dcf.username!,
        speed: String(dcf.dataCenterFacility!.speeds![0]),
      }),
    });
    if (!outcome.ok) throw new Error(outcome.message);
    const request = await env.standin.waitForMessage(STANDIN_IDS.approvals, (m) =>
      m.text.includes("cluster-port-1"),
    );
    await Promise.all(
      Array.from({ length: 6 }, () =>
        env.slack.clickButton({
          userId: STANDIN_IDS.approver,
          message: request,
          actionId: "approval_approve",
        }),
      ),
    );
    await env.standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => m.thread_ts === request.ts && m.text.includes("Ordered"),
      { timeoutMs: 20_000 },
    );
    const summary = (await (
      await fetch(`${env.bot.sandbox!.url}/__sandbox/requests?summary=1`)
    ).json()) as { byOperation: Record<string, number> };
    expect(summary.byOperation.createPortOrder).toBe(1);
    expect((await services.approvals.store.get(outcome.approval.id))?.status).toBe("placed");

    const byNode = await keysByNode(env.redisPrefix);
    const all = [...byNode.values()].flat();
    expect(all.length).toBeGreaterThan(20);
    expect(all.filter((key) => !/\{[^}]+\}/.test(key))).toEqual([]);
    // The approvals, the jobs' areas and each queue have their own tags: spread over the masters.
    expect([...byNode.values()].filter((keys) => keys.length > 0).length).toBeGreaterThanOrEqual(2);
    expect(await cluster.get(layoutKeys(env.redisPrefix).version)).toBe(String(LAYOUT_VERSION));
    // It used the cluster, not the shared Redis.
    expect(await sharedKeys(env.redisPrefix)).toEqual([]);
  });
});

describe("a layout 0 store on a cluster", () => {
  it("is migrated across hash slots and read by the current code", async () => {
    const prefix = `test:cluster-v0-${Date.now()}`;
    const requests = requestsOfLayoutV0();
    await loadLayoutV0(cluster, prefix);
    const env = await startTestBot({ env: { REDIS_CLUSTER_NODES: seeds }, redisPrefix: prefix });
    try {
      const store = env.bot.services.approvals.store;
      const pending = requests.get("fixture-pending")!;
      expect((await store.listPending()).map((r) => r.id)).toEqual([pending.id]);
      expect((await store.get(requests.get("fixture-placed")!.id))?.status).toBe("placed");
      const { companyUsername } = await env.bot.services.identity();
      const refused = await store
        .create({
          ...portOrderRequest({
            portName: "fixture-pending",
            companyUsername,
            dataCenterFacility: "dcf-x",
            speed: "1000",
          }),
          sandbox: true,
        })
        .catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(NameReservedError);
      const keys = [...(await keysByNode(prefix)).values()].flat();
      expect(keys.filter((key) => !/\{[^}]+\}/.test(key))).toEqual([]);
    } finally {
      await env.close();
      await deleteKeysMatching(cluster, `${literalPattern(prefix)}*`);
    }
    expect([...(await keysByNode(prefix)).values()].flat()).toEqual([]);
  });
});
