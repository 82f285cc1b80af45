import { randomUUID } from "node:crypto";
import { request } from "node:http";
import { HTTPModuleFunctions } from "@slack/bolt";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type RunningSlackApp, startSlackApp } from "../../src/slack/app.js";
import { commandHandlers } from "../../src/slack/commandTable.js";
import { createConnectRouter } from "../../src/slack/connect.js";
import { SIGNATURE_WINDOW_SECONDS } from "../../src/slack/requestGuard.js";
import {
  FORM_CONTENT_TYPE,
  type SlackStandin,
  STANDIN_IDS,
  signSlackRequest,
  startSlackStandin,
} from "../../src/standin/index.js";
import { writeReliabilityResult } from "../faults/reliabilityResults.js";
import { freePort, waitFor } from "../harness/index.js";
import { deleteKeysMatching } from "../harness/redisKeys.js";
import { routerServices } from "../slack/support.js";

/**
 * The checks in front of Bolt (src/slack/requestGuard.ts), over real HTTP with the router's
 * `/connect help` behind them: body limit, then signature with a timestamp window both ways,
 * then replay refusal shared by replicas through a real Redis, and only then parsing. Two
 * replicas share the run's key prefix; the guard's clock is moved instead of waiting 5 minutes.
 */
describe("Slack request guard: limit, verify, refuse replays, then parse", () => {
  const MiB = 1024 * 1024;
  const signingSecret = `guard-${randomUUID()}`;
  const keyPrefix = `test:guard:${randomUUID().slice(0, 8)}`;
  /** Added to the guard's clock (both replicas), to stand 5 minutes later without waiting. */
  let clockOffsetMs = 0;
  let standin: SlackStandin;
  let redis: Redis;
  let replicaA: RunningSlackApp;
  let replicaB: RunningSlackApp;
  const services = routerServices();
  const refused: Record<string, number> = {};
  const parse = vi.spyOn(HTTPModuleFunctions, "parseHTTPRequestBody");

  async function startReplica(redisClient: Redis): Promise<RunningSlackApp> {
    return startSlackApp({
      slack: { mode: "http", botToken: standin.botToken, signingSecret, apiUrl: standin.apiUrl },
      port: 0,
      logger: services.logger,
      metrics: services.metrics,
      health: async () => ({ ok: true, checks: {} }),
      register: (app) => {
        createConnectRouter(commandHandlers(services), services).register(app);
        app.options(/.*/, async ({ ack }) => ack({ options: [] }));
      },
      requestGuard: {
        redis: { client: redisClient, keyPrefix },
        now: () => Date.now() + clockOffsetMs,
      },
    });
  }

  beforeAll(async () => {
    standin = await startSlackStandin();
    redis = new Redis("redis://127.0.0.1:6379", { maxRetriesPerRequest: 1 });
    replicaA = await startReplica(redis);
    replicaB = await startReplica(redis);
  });
  afterAll(async () => {
    const total = Object.values(refused).reduce((a, b) => a + b, 0);
    writeReliabilityResult({
      suite: "request-guard",
      checks:
        "oversized bodies refused with 413 and unsigned ones with 401 before any parsing; timestamps more than 5 minutes away either way, and signatures already seen by any replica, refused with 401; Slack's re-signed retries accepted",
      figures: { refusedRequests: total, ...refused },
    });
    parse.mockRestore();
    await replicaA?.stop();
    await replicaB?.stop();
    await standin?.close();
    await deleteKeysMatching(redis, `${keyPrefix}:*`);
    redis.disconnect();
  });

  const events = (app: RunningSlackApp) => `http://127.0.0.1:${app.port}/slack/events`;
  const nowSeconds = () => Math.floor(Date.now() / 1000);

  /** `/connect help` as Slack posts it, with a response URL and trigger of its own. */
  function helpBody(): string {
    const workspace = standin.workspace;
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
      response_url: workspace.createResponseUrl({
        channel: STANDIN_IDS.general,
        userId: STANDIN_IDS.requester,
      }),
      trigger_id: workspace.issueTrigger(STANDIN_IDS.requester),
    }).toString();
  }

  function signed(body: string, timestamp = nowSeconds()): Record<string, string> {
    return { ...signSlackRequest({ signingSecret, body, timestamp }) };
  }

  async function post(
    app: RunningSlackApp,
    body: string | Buffer,
    headers: Record<string, string>,
  ): Promise<number> {
    const response = await fetch(events(app), { method: "POST", headers, body });
    await response.arrayBuffer();
    return response.status;
  }

  const helpReplies = () =>
    standin.calls("response_url").filter((c) => JSON.stringify(c.args).includes("Commands")).length;

  async function refusals(reason: string): Promise<number> {
    const data = await services.metrics.slackRequestsRefused.get();
    return data.values.find((v) => v.labels.reason === reason)?.value ?? 0;
  }

  /**
   * Sends a request that must be refused with `status` for `reason`: nothing parsed it unless
   * its signature checked out, and no command ran (a correctly signed help sent after it is the only one answered).
   */
  async function expectRefused(
    name: string,
    status: number,
    reason: string,
    send: () => Promise<number>,
  ): Promise<void> {
    const parsed = parse.mock.calls.length;
    const replies = helpReplies();
    const before = await refusals(reason);
    expect(await send(), name).toBe(status);
    // A replay's body is Slack's (its signature checked out): the guard reads its type (options
    // requests are not refused as replays), and only then refuses it; Bolt never parses it.
    const parsesOfAnAuthenticBody = reason === "replayed" ? 1 : 0;
    expect(parse.mock.calls.length, `${name}: parsed`).toBe(parsed + parsesOfAnAuthenticBody);
    expect(await refusals(reason), `${name}: refused as ${reason}`).toBe(before + 1);
    refused[name] = (refused[name] ?? 0) + 1;
    const control = helpBody();
    expect(await post(replicaA, control, signed(control))).toBe(200);
    await waitFor(() => helpReplies() >= replies + 1, { description: "the control's reply" });
    expect(helpReplies(), `${name}: commands run`).toBe(replies + 1);
  }

  it("accepts a correctly signed request, and parses it only then (the control case)", async () => {
    const replies = helpReplies();
    const parsed = parse.mock.calls.length;
    const body = helpBody();
    expect(await post(replicaA, body, signed(body))).toBe(200);
    await waitFor(() => helpReplies() > replies, { description: "the help reply" });
    expect(parse.mock.calls.length).toBeGreaterThan(parsed);
  });

  it("refuses a correctly signed request dated more than 5 minutes ahead", async () => {
    for (const [name, ahead] of [
      ["future.6min", 6 * 60],
      ["future.1day", 86_400],
      ["future.10years", 10 * 365 * 86_400],
    ] as const) {
      const body = helpBody();
      await expectRefused(name, 401, "future", () =>
        post(replicaA, body, signed(body, nowSeconds() + ahead)),
      );
    }
    // Inside the window the other way round, a clock a little ahead of ours is fine.
    const replies = helpReplies();
    const body = helpBody();
    expect(await post(replicaA, body, signed(body, nowSeconds() + 4 * 60))).toBe(200);
    await waitFor(() => helpReplies() > replies, {
      description: "the reply to a request 4 min ahead",
    });
  });

  it("runs an identical signed request once, whichever replica it is replayed to", async () => {
    const body = helpBody();
    const headers = signed(body);
    const replies = helpReplies();
    expect(await post(replicaA, body, headers)).toBe(200);
    await waitFor(() => helpReplies() > replies, { description: "the original's reply" });
    for (let i = 0; i < 4; i++) {
      await expectRefused("replayed.sameReplica", 401, "replayed", () =>
        post(replicaA, body, headers),
      );
    }
    await expectRefused("replayed.otherReplica", 401, "replayed", () =>
      post(replicaB, body, headers),
    );
    // Slack's retry header does not make an old signature new.
    await expectRefused("replayed.withRetryHeader", 401, "replayed", () =>
      post(replicaB, body, { ...headers, "x-slack-retry-num": "1" }),
    );
  });

  it("answers an options request sent twice identically (Slack repeats a typed query as is)", async () => {
    const body = `payload=${encodeURIComponent(
      JSON.stringify({
        type: "block_suggestion",
        user: { id: STANDIN_IDS.requester, name: "requester", team_id: STANDIN_IDS.team },
        team: { id: STANDIN_IDS.team, domain: "standin" },
        api_app_id: STANDIN_IDS.app,
        token: "standin-verification-token",
        action_id: "dcf_search",
        block_id: "dcf",
        value: "Amsterdam",
        container: { type: "view", view_id: "V0GUARD1" },
      }),
    )}`;
    const headers = signed(body);
    const replayed = await refusals("replayed");
    for (const app of [replicaA, replicaA, replicaB]) {
      expect(await post(app, body, headers)).toBe(200);
    }
    expect(await refusals("replayed")).toBe(replayed);
  });

  it("refuses a signed request replayed after 5 minutes by the window (its key gone or not)", async () => {
    const body = helpBody();
    const headers = signed(body);
    expect(await post(replicaA, body, headers)).toBe(200);
    // As if Redis had already forgotten it: only the window stands in the way.
    await deleteKeysMatching(redis, `${keyPrefix}:slack:seen:*`);
    clockOffsetMs = (SIGNATURE_WINDOW_SECONDS + 1) * 1000;
    try {
      const replies = helpReplies();
      const before = await refusals("replayed");
      for (const app of [replicaA, replicaB]) {
        const parsed = parse.mock.calls.length;
        const stale = await refusals("stale");
        expect(await post(app, body, headers)).toBe(401);
        expect(await refusals("stale")).toBe(stale + 1);
        expect(parse.mock.calls.length).toBe(parsed);
        refused.replayedAfter5min = (refused.replayedAfter5min ?? 0) + 1;
      }
      expect(await refusals("replayed")).toBe(before);
      expect(helpReplies()).toBe(replies);
    } finally {
      clockOffsetMs = 0;
    }
  });

  it("accepts Slack's retry: signed anew, with x-slack-retry-num", async () => {
    const driver = standin.connectApp({ url: events(replicaB), signingSecret });
    const body = helpBody();
    const replies = helpReplies();
    expect((await driver.transport.postRaw(body)).status).toBe(200);
    for (const num of [1, 2, 3]) {
      const retry = await driver.transport.postRaw(body, {
        retry: { num, reason: "http_timeout" },
      });
      expect(retry.status, `retry ${num}`).toBe(200);
    }
    // Each delivery reached the app (de-duplicating work is the listeners' business).
    await waitFor(() => helpReplies() >= replies + 4, { description: "four deliveries answered" });
  });

  it("refuses unsigned and wrongly signed bodies before parsing them", async () => {
    const interaction = `payload=${encodeURIComponent(JSON.stringify({ type: "block_actions", pad: "x".repeat(900_000) }))}`;
    await expectRefused("unsigned.form900KB", 401, "unsigned", () =>
      post(replicaA, interaction, { "content-type": FORM_CONTENT_TYPE }),
    );
    await expectRefused("unsigned.json", 401, "unsigned", () =>
      post(replicaA, JSON.stringify({ type: "event_callback" }), {
        "content-type": "application/json",
      }),
    );
    await expectRefused("badSignature.form900KB", 401, "bad_signature", () =>
      post(replicaA, interaction, {
        ...signSlackRequest({ signingSecret: "not-the-secret", body: interaction }),
      }),
    );
    await expectRefused("badTimestamp", 401, "unsigned", () =>
      post(replicaA, interaction, { ...signed(interaction), "x-slack-request-timestamp": "soon" }),
    );
  });

  it("refuses a body over the limit with 413 before parsing it, signed or not", async () => {
    const big = Buffer.alloc(Math.round(3.9 * MiB), "a");
    big.write("payload=");
    await expectRefused("oversized.unsigned", 413, "too_large", () =>
      post(replicaA, big, { "content-type": FORM_CONTENT_TYPE }),
    );
    await expectRefused("oversized.signed", 413, "too_large", () =>
      post(replicaA, big, signed(big.toString())),
    );
    const justOver = Buffer.alloc(MiB + 1, "a");
    await expectRefused("oversized.byOneByte", 413, "too_large", () =>
      post(replicaA, justOver, signed(justOver.toString())),
    );
  });

  it("answers without waiting for the rest of a body it refuses", async () => {
    /** Sends the headers and `sent` bytes, never ends the request, and waits for an answer. */
    const answerBeforeTheBodyEnds = (headers: Record<string, string>, sent: number) =>
      new Promise<number>((resolve, reject) => {
        const req = request(events(replicaA), {
          method: "POST",
          headers: { "content-type": FORM_CONTENT_TYPE, ...headers },
        });
        req.on("response", (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        });
        req.on("error", reject);
        if (sent > 0) req.write(Buffer.alloc(sent, "a"));
        else req.flushHeaders();
      });
    const length = (bytes: number) => ({ "content-length": String(bytes) });
    // A declared length over the limit, or headers that cannot be a signed request: nothing of
    // the body need be sent for the answer to come.
    await expectRefused("oversized.declaredNothingSent", 413, "too_large", () =>
      answerBeforeTheBodyEnds(length(100 * MiB), 0),
    );
    await expectRefused("unsigned.declaredNothingSent", 401, "unsigned", () =>
      answerBeforeTheBodyEnds(length(900_000), 0),
    );
    const old = signed("x", nowSeconds() - SIGNATURE_WINDOW_SECONDS - 60);
    await expectRefused("stale.declaredNothingSent", 401, "stale", () =>
      answerBeforeTheBodyEnds({ ...old, ...length(900_000) }, 0),
    );
    // Without a length: one byte past the limit, the request left open; only the limit can
    // have ended it.
    await expectRefused("oversized.chunkedLeftOpen", 413, "too_large", () =>
      answerBeforeTheBodyEnds(signed("x"), MiB + 1),
    );
  });

  it("still answers 400 to a signed body that is not a JSON object, and keeps answering", async () => {
    for (const payload of ["null", "5", '"x"']) {
      const body = `payload=${encodeURIComponent(payload)}`;
      const before = await refusals("not_an_object");
      expect(await post(replicaA, body, signed(body)), payload).toBe(400);
      expect(await refusals("not_an_object")).toBe(before + 1);
      refused.notAnObject = (refused.notAnObject ?? 0) + 1;
    }
    const replies = helpReplies();
    const body = helpBody();
    expect(await post(replicaA, body, signed(body))).toBe(200);
    await waitFor(() => helpReplies() > replies, { description: "the help reply" });
  });

  it("answers Slack's unsigned SSL check with 200 and runs nothing", async () => {
    const parsed = parse.mock.calls.length;
    const calls = standin.calls().length;
    expect(
      await post(replicaA, "ssl_check=1&token=legacy-token", { "content-type": FORM_CONTENT_TYPE }),
    ).toBe(200);
    expect(parse.mock.calls.length).toBe(parsed);
    expect(standin.calls().length).toBe(calls);
  });

  it("remembers signatures in the process while Redis does not answer", async () => {
    const deadRedis = new Redis(await freePort(), "127.0.0.1", {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    deadRedis.on("error", () => {});
    const alone = await startReplica(deadRedis);
    try {
      const body = helpBody();
      const headers = signed(body);
      const replies = helpReplies();
      expect(await post(alone, body, headers)).toBe(200);
      await waitFor(() => helpReplies() > replies, { description: "the reply without Redis" });
      await expectRefused("replayed.redisDown", 401, "replayed", () => post(alone, body, headers));
    } finally {
      await alone.stop();
      deadRedis.disconnect();
    }
  });

  it("counted every refusal", () => {
    expect(refused).toEqual({
      "future.6min": 1,
      "future.1day": 1,
      "future.10years": 1,
      "replayed.sameReplica": 4,
      "replayed.otherReplica": 1,
      "replayed.withRetryHeader": 1,
      replayedAfter5min: 2,
      "unsigned.form900KB": 1,
      "unsigned.json": 1,
      "badSignature.form900KB": 1,
      badTimestamp: 1,
      "oversized.unsigned": 1,
      "oversized.signed": 1,
      "oversized.byOneByte": 1,
      "oversized.declaredNothingSent": 1,
      "unsigned.declaredNothingSent": 1,
      "stale.declaredNothingSent": 1,
      "oversized.chunkedLeftOpen": 1,
      notAnObject: 3,
      "replayed.redisDown": 1,
    });
  });
});
