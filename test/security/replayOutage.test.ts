import { createHash, randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { type RunningSlackApp, startSlackApp } from "../../src/slack/app.js";
import { commandHandlers } from "../../src/slack/commandTable.js";
import { createConnectRouter } from "../../src/slack/connect.js";
import type { RedisSeenSignatures } from "../../src/slack/replayGuard.js";
import {
  type SlackStandin,
  STANDIN_IDS,
  signSlackRequest,
  startSlackStandin,
} from "../../src/standin/index.js";
import {
  type FinishedTask,
  verdictOf,
  writeReliabilityResult,
} from "../faults/reliabilityResults.js";
import { type OwnRedis, startOwnRedis, waitFor } from "../harness/index.js";
import { routerServices } from "../slack/support.js";

/**
 * Issue 31: the replay guard holds through a Redis outage. Replicas (real HTTP servers, the
 * request guard in front of Bolt, `/connect help` behind it) share a redis-server of this
 * test's own, connected as the bot connects (no offline queue: commands fail at once while
 * Redis is down). Redis is SIGKILLed and restarted from its append-only file. Every replay —
 * before, during and after the outage, to the replica that accepted it or another — must be
 * refused (401) and run nothing; Slack's re-signed retries must still run.
 */
describe("replays are refused through a Redis outage, by every replica", () => {
  const signingSecret = `outage-${randomUUID()}`;
  const keyPrefix = `test:replay-outage:${randomUUID().slice(0, 8)}`;
  let standin: SlackStandin;
  let redis: OwnRedis;
  const replicas: RunningSlackApp[] = [];
  const clients: Redis[] = [];
  const services = routerServices();
  const refused: Record<string, number> = {};
  /** The test as it finished, for the verdict written with the figures. */
  const finished: FinishedTask[] = [];

  /** A replica as src/bot.ts builds one: its own Redis connection, no offline queue. */
  async function startReplica(): Promise<RunningSlackApp> {
    const client = new Redis(redis.url, {
      lazyConnect: true,
      maxRetriesPerRequest: 2,
      enableOfflineQueue: false,
      retryStrategy: () => 100,
    });
    client.on("error", () => undefined);
    clients.push(client);
    await client.connect();
    const replica = await startSlackApp({
      slack: { mode: "http", botToken: standin.botToken, signingSecret, apiUrl: standin.apiUrl },
      port: 0,
      logger: services.logger,
      metrics: services.metrics,
      health: async () => ({ ok: true, checks: {} }),
      register: (app) => createConnectRouter(commandHandlers(services), services).register(app),
      requestGuard: { redis: { client, keyPrefix } },
    });
    replicas.push(replica);
    return replica;
  }

  beforeAll(async () => {
    standin = await startSlackStandin();
    redis = await startOwnRedis();
  });

  afterAll(async () => {
    writeReliabilityResult({
      verdict: verdictOf(finished),
      suite: "replay-outage",
      checks:
        "signed requests replayed byte for byte before, during and after a Redis outage (Redis SIGKILLed, restarted from its append-only file), to the replica that accepted them and to others, including one started after the outage: each refused with 401 and run once; Slack's re-signed retries run",
      figures: {
        refusedRequests: Object.values(refused).reduce((a, b) => a + b, 0),
        ...refused,
      },
    });
    for (const replica of replicas) await replica.stop();
    for (const client of clients) client.disconnect();
    await standin?.close();
    await redis?.stop();
  });

  const nowSeconds = () => Math.floor(Date.now() / 1000);

  /** `/connect help` as Slack posts it; each has its own trigger id, so each body is unique. */
  function helpBody(): string {
    return new URLSearchParams({
      token: "standin-verification-token",
      team_id: STANDIN_IDS.team,
      team_domain: "standin",
      channel_id: STANDIN_IDS.general,
      channel_name: "general",
      user_id: STANDIN_IDS.requester,
      user_name: "requester",
      command: "/connect",
      text: "help",
      api_app_id: STANDIN_IDS.app,
      response_url: standin.workspace.createResponseUrl({
        channel: STANDIN_IDS.general,
        userId: STANDIN_IDS.requester,
      }),
      trigger_id: standin.workspace.issueTrigger(STANDIN_IDS.requester),
    }).toString();
  }

  interface Signed {
    body: string;
    headers: Record<string, string>;
    /** The help replies this request's response URL received: how often it ran. */
    runs(): number;
  }

  function signedHelp(): Signed {
    const body = helpBody();
    const responseUrl = new URLSearchParams(body).get("response_url") ?? "";
    const id = new URL(responseUrl).pathname.split("/").pop();
    return {
      body,
      headers: { ...signSlackRequest({ signingSecret, body, timestamp: nowSeconds() }) },
      runs: () =>
        standin
          .responses()
          .filter((r) => r.responseUrlId === id && JSON.stringify(r.body).includes("Commands"))
          .length,
    };
  }

  async function post(
    replica: RunningSlackApp,
    request: Signed,
    extra: Record<string, string> = {},
  ) {
    const response = await fetch(`http://127.0.0.1:${replica.port}/slack/events`, {
      method: "POST",
      headers: { ...request.headers, ...extra },
      body: request.body,
    });
    await response.arrayBuffer();
    return response.status;
  }

  /** Sends a request that must run: 200, and its reply arrives. */
  async function expectRuns(name: string, replica: RunningSlackApp, request: Signed) {
    const before = request.runs();
    expect(await post(replica, request), name).toBe(200);
    await waitFor(() => request.runs() > before, { description: `${name} to run` });
  }

  /** Sends a replay that must be refused: 401, and a request sent after it runs first. */
  async function expectRefused(name: string, replica: RunningSlackApp, request: Signed) {
    const runs = request.runs();
    expect(await post(replica, request), name).toBe(401);
    // Had the replay run, its reply would come before that of a request sent after it.
    await expectRuns(`${name} (control)`, replica, signedHelp());
    expect(request.runs(), `${name}: ran again`).toBe(runs);
    refused[name] = (refused[name] ?? 0) + 1;
  }

  const seenKey = (request: Signed) =>
    `${keyPrefix}:slack:seen:${createHash("sha256")
      .update(request.headers["x-slack-signature"] ?? "")
      .digest("hex")}`;

  const remembers = (replica: RunningSlackApp, request: Signed) =>
    (replica.seenSignatures as RedisSeenSignatures).remembers(
      request.headers["x-slack-signature"] ?? "",
    );

  it("refuses each replay before, during and after the outage, on every replica; Slack's retries run", async () => {
    onTestFinished(({ task }) => {
      finished.push(task);
    });
    const a = await startReplica();
    const b = await startReplica();
    const probe = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    probe.on("error", () => undefined);
    clients.push(probe);

    // Accepted while Redis is up, by A; B hears of it (the replicas' feed), without seeing it.
    const before = signedHelp();
    await expectRuns("accepted before", a, before);
    await waitFor(() => remembers(b, before), { description: "B to hear of A's signature" });
    await expectRefused("before.sameReplica", a, before);

    await redis.kill();
    // Replayed during the outage: neither replica can ask Redis; both remember.
    await expectRefused("before.duringOutage.sameReplica", a, before);
    await expectRefused("before.duringOutage.otherReplica", b, before);
    // Accepted during the outage, by A alone; replayed to A at once.
    const during = signedHelp();
    await expectRuns("accepted during the outage", a, during);
    await expectRefused("during.duringOutage.sameReplica", a, during);

    await redis.restart();
    // A writes what it accepted offline to Redis as soon as Redis answers again.
    await probe.connect();
    await waitFor(async () => (await probe.exists(seenKey(during))) === 1, {
      timeoutMs: 15_000,
      description: "A to write the signature it accepted offline to Redis",
    });
    const late = await startReplica(); // was not running at all until now
    for (const [name, replica] of [
      ["sameReplica", a],
      ["otherReplica", b],
      ["newReplica", late],
    ] as const) {
      await expectRefused(`before.afterOutage.${name}`, replica, before);
      await expectRefused(`during.afterOutage.${name}`, replica, during);
    }

    // Slack's retry of the same event: signed anew (new timestamp), numbered. It runs.
    const retry: Signed = {
      ...during,
      headers: {
        ...signSlackRequest({ signingSecret, body: during.body, timestamp: nowSeconds() + 1 }),
      },
    };
    const runs = during.runs();
    expect(
      await post(b, retry, { "x-slack-retry-num": "1", "x-slack-retry-reason": "http_timeout" }),
    ).toBe(200);
    await waitFor(() => during.runs() > runs, { description: "Slack's retry to run" });
    await expectRefused("retry.replayed", a, retry);

    // The replica that was not running through either acceptance read them into its memory
    // when it started (the sorted set): it refuses them through a second outage too.
    await waitFor(() => remembers(late, before) && remembers(late, during), {
      description: "the new replica to read what the others had seen",
    });
    await redis.kill();
    await expectRefused("before.secondOutage.newReplica", late, before);
    await expectRefused("during.secondOutage.newReplica", late, during);

    expect(before.runs()).toBe(1);
    expect(during.runs()).toBe(2); // the original and Slack's own retry
  }, 60_000);
});
