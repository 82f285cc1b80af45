import type { WebClient } from "@slack/web-api";
import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Jobs } from "../../src/jobs/index.js";
import { QUEUE_NAMES } from "../../src/jobs/index.js";
import type { Metrics } from "../../src/metrics.js";
import { type SlackStandin, STANDIN_IDS } from "../../src/standin/index.js";
import { waitFor } from "../harness/index.js";
import {
  BUSY_CHANNELS,
  connect,
  counterValue,
  deleteKeys,
  runPrefix,
  slackClient,
  startStandin,
  startTestJobs,
  testMetrics,
  threadRoot,
  threadTexts,
} from "./support.js";

const CHANNEL = STANDIN_IDS.general;
/** The notification scope of most tests here (one tracked order, say). */
const SCOPE = "order:o-test:t1";

describe("notifier", () => {
  let redis: Redis;
  let standin: SlackStandin;
  let client: WebClient;
  const prefixes: string[] = [];
  const running: Jobs[] = [];

  async function start(
    options: {
      metrics?: Metrics;
      perChannelIntervalMs?: number;
      workers?: boolean;
      prefix?: string;
    } = {},
  ): Promise<Jobs> {
    const prefix = options.prefix ?? runPrefix("notifier");
    if (!prefixes.includes(prefix)) prefixes.push(prefix);
    const jobs = await startTestJobs({
      prefix,
      slack: client.chat,
      metrics: options.metrics,
      workers: options.workers,
      notifierSettings:
        options.perChannelIntervalMs !== undefined
          ? { perChannelIntervalMs: options.perChannelIntervalMs }
          : undefined,
    });
    running.push(jobs);
    return jobs;
  }

  beforeAll(async () => {
    redis = connect();
    standin = await startStandin({});
    client = slackClient(standin);
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((jobs) => jobs.close(5_000)));
    standin.clearFaults();
    standin.setRateLimit({});
  });

  afterAll(async () => {
    for (const prefix of prefixes) await deleteKeys(redis, prefix);
    await standin.close();
    redis.disconnect();
  });

  it("posts a key once, however often and from however many replicas it is queued", async () => {
    const prefix = runPrefix("notifier-dedupe");
    const metrics = testMetrics();
    const [a, b] = [await start({ prefix, metrics }), await start({ prefix, metrics })];
    const root = await threadRoot(client, CHANNEL, "dedupe root");
    const key = "status:processing:loa:TODO";
    const message = {
      scope: "order:o-dedupe:t1",
      key,
      channel: CHANNEL,
      threadTs: root,
      text: "Port order: processing",
    };

    const results = await Promise.all([
      a.notifier.post(message),
      b.notifier.post(message),
      a.notifier.post(message),
      b.notifier.post(message),
    ]);
    expect(results.filter((r) => r.queued)).toHaveLength(1);

    const state = await waitFor(async () => {
      const s = await a.notifier.status(message.scope, key);
      return s?.state === "sent" ? s : undefined;
    });
    expect(threadTexts(standin, CHANNEL, root)).toEqual(["Port order: processing"]);
    // Later (a retried job, a restarted replica) the key is still known as sent.
    expect(await b.notifier.post(message)).toEqual({ queued: false, reason: "duplicate" });
    expect(state).toMatchObject({ state: "sent", ts: standin.thread(CHANNEL, root)[1]?.ts });
    expect(await counterValue(metrics, QUEUE_NAMES.notify, "duplicate")).toBe(4);
    expect(await counterValue(metrics, QUEUE_NAMES.notify, "posted")).toBe(1);
  });

  it("waits out a 429 storm in the queue, losing nothing and keeping the thread's order", async () => {
    const metrics = testMetrics();
    const jobs = await start({ metrics });
    const root = await threadRoot(client, CHANNEL, "storm root");
    standin.clearCalls();
    standin.failNext("chat.postMessage", { count: 3, status: 429, retryAfterSeconds: 1 });

    const texts = ["first", "second", "third", "fourth", "fifth"];
    for (const [i, text] of texts.entries()) {
      await jobs.notifier.post({
        scope: SCOPE,
        key: `storm:${i}`,
        channel: CHANNEL,
        threadTs: root,
        text,
      });
    }
    await waitFor(() => threadTexts(standin, CHANNEL, root).length === texts.length, {
      timeoutMs: 15_000,
      description: "all five replies",
    });
    expect(threadTexts(standin, CHANNEL, root)).toEqual(texts);

    const calls = standin.calls("chat.postMessage");
    // Three refusals, then each message exactly once: the WebClient itself never retried.
    expect(calls.map((c) => c.status)).toEqual([429, 429, 429, 200, 200, 200, 200, 200]);
    // Retry-After (1 s) was honoured between the refusals and the retry.
    for (let i = 1; i <= 3; i += 1) {
      const gap = (calls[i]?.at ?? 0) - (calls[i - 1]?.at ?? 0);
      expect(gap).toBeGreaterThanOrEqual(950);
    }
    expect(await counterValue(metrics, QUEUE_NAMES.notify, "rate_limited")).toBe(3);
    // Counted once the post is recorded as sent, a moment after Slack has the message.
    await expect.poll(() => counterValue(metrics, QUEUE_NAMES.notify, "posted")).toBe(5);
  });

  it("paces each channel at Slack's one message per second, draining channels in parallel", async () => {
    // The stand-in answers 429 when a channel gets more than one message per second.
    standin.setRateLimit({ messagesPerSecondPerChannel: 1 });
    const jobs = await start({ perChannelIntervalMs: 1_100 });
    standin.clearCalls();
    const perChannel = 3;
    const started = Date.now();
    for (let i = 0; i < perChannel; i += 1) {
      for (const channel of BUSY_CHANNELS) {
        await jobs.notifier.post({
          scope: SCOPE,
          key: `pace:${channel}:${i}`,
          channel,
          text: `${channel} #${i}`,
        });
      }
    }
    const total = perChannel * BUSY_CHANNELS.length;
    await waitFor(
      () => standin.calls("chat.postMessage").filter((c) => c.status === 200).length === total,
      { timeoutMs: 20_000, description: `${total} posts` },
    );
    const elapsed = Date.now() - started;
    const calls = standin.calls("chat.postMessage");
    expect(calls.every((c) => c.status === 200)).toBe(true);
    for (const channel of BUSY_CHANNELS) {
      const times = calls.filter((c) => c.args.channel === channel).map((c) => c.at);
      expect(times).toHaveLength(perChannel);
      for (let i = 1; i < times.length; i += 1) {
        expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThanOrEqual(1_000);
      }
      expect(standin.messages(channel).map((m) => m.text)).toEqual(
        Array.from({ length: perChannel }, (_, i) => `${channel} #${i}`),
      );
    }
    // One channel's three messages take ~2.2 s; fifteen paced globally would take ~16 s.
    expect(elapsed).toBeLessThan(8_000);
  });

  it("drops messages Slack will never accept, counts them, and goes on with the channel", async () => {
    const metrics = testMetrics();
    const jobs = await start({ metrics });
    const root = await threadRoot(client, CHANNEL, "drop root");
    standin.failNext("chat.postMessage", { error: "not_in_channel" });

    await jobs.notifier.post({
      scope: SCOPE,
      key: "drop:1",
      channel: CHANNEL,
      threadTs: root,
      text: "refused",
    });
    await jobs.notifier.post({
      scope: SCOPE,
      key: "drop:2",
      channel: CHANNEL,
      threadTs: root,
      text: "accepted",
    });
    await jobs.notifier.post({
      scope: SCOPE,
      key: "drop:3",
      channel: "C0NOSUCHCH",
      text: "nowhere",
    });

    await waitFor(async () => (await jobs.notifier.status(SCOPE, "drop:3"))?.state === "dropped");
    await waitFor(async () => (await jobs.notifier.status(SCOPE, "drop:2"))?.state === "sent");
    expect(await jobs.notifier.status(SCOPE, "drop:1")).toEqual({
      state: "dropped",
      reason: "not_in_channel",
    });
    expect(await jobs.notifier.status(SCOPE, "drop:3")).toEqual({
      state: "dropped",
      reason: "channel_not_found",
    });
    expect(threadTexts(standin, CHANNEL, root)).toEqual(["accepted"]);
    expect(await counterValue(metrics, QUEUE_NAMES.notify, "dropped")).toBe(2);
    // Dropped is final: the same key is not queued again.
    expect(
      (await jobs.notifier.post({ scope: SCOPE, key: "drop:1", channel: CHANNEL, text: "again" }))
        .queued,
    ).toBe(false);
  });

  it("retries a transient Slack failure with backoff and posts once", async () => {
    const metrics = testMetrics();
    const jobs = await start({ metrics });
    const root = await threadRoot(client, CHANNEL, "transient root");
    standin.clearCalls();
    standin.failNext("chat.postMessage", { count: 2, status: 503 });
    await jobs.notifier.post({
      scope: SCOPE,
      key: "transient:1",
      channel: CHANNEL,
      threadTs: root,
      text: "hi",
    });
    await waitFor(async () => (await jobs.notifier.status(SCOPE, "transient:1"))?.state === "sent");
    expect(standin.calls("chat.postMessage").map((c) => c.status)).toEqual([503, 503, 200]);
    expect(threadTexts(standin, CHANNEL, root)).toEqual(["hi"]);
    expect(await counterValue(metrics, QUEUE_NAMES.notify, "retry")).toBe(2);
  });

  it("updates a message by the key it was posted with, after that post", async () => {
    const jobs = await start();
    const root = await threadRoot(client, CHANNEL, "update root");
    await jobs.notifier.post({
      scope: SCOPE,
      key: "line:post",
      channel: CHANNEL,
      threadTs: root,
      text: "status: created",
    });
    await jobs.notifier.update({
      scope: SCOPE,
      key: "line:1",
      channel: CHANNEL,
      messageKey: "line:post",
      text: "status: allocated",
    });
    await waitFor(async () => (await jobs.notifier.status(SCOPE, "line:1"))?.state === "sent");
    const replies = standin.thread(CHANNEL, root).slice(1);
    expect(replies).toHaveLength(1);
    expect(replies[0]?.text).toBe("status: allocated");
    expect(replies[0]?.edited).toBeDefined();

    // And by ts, for a message the Slack layer posted.
    await jobs.notifier.update({
      scope: SCOPE,
      key: "root:1",
      channel: CHANNEL,
      ts: root,
      text: "root edited",
    });
    await waitFor(() => standin.thread(CHANNEL, root)[0]?.text === "root edited");
  });

  it("keeps queued messages across a restart and drains them in order afterwards", async () => {
    const prefix = runPrefix("notifier-restart");
    const root = await threadRoot(client, CHANNEL, "restart root");
    // A producer-only process (e.g. the HTTP side) queues while no worker runs.
    const producer = await start({ prefix, workers: false });
    standin.failNext("chat.postMessage", { status: 429, retryAfterSeconds: 1 });
    const texts = ["one", "two", "three", "four"];
    for (const [i, text] of texts.entries()) {
      await producer.notifier.post({
        scope: SCOPE,
        key: `restart:${i}`,
        channel: CHANNEL,
        threadTs: root,
        text,
      });
    }
    expect(await producer.notifier.outboxLength(CHANNEL)).toBe(4);

    // A worker starts, is rate limited on the first message, and is stopped mid-wait.
    const first = await start({ prefix });
    await standin.waitForCall("chat.postMessage", (c) => c.status === 429);
    await first.close(5_000);
    expect(threadTexts(standin, CHANNEL, root)).toEqual([]);

    // Another replica takes over where it stopped.
    await start({ prefix });
    await waitFor(() => threadTexts(standin, CHANNEL, root).length === 4, { timeoutMs: 10_000 });
    expect(threadTexts(standin, CHANNEL, root)).toEqual(texts);
  });

  it("re-creates a lost drain job in reconcile", async () => {
    const prefix = runPrefix("notifier-reconcile");
    const jobs = await start({ prefix, workers: false });
    const root = await threadRoot(client, CHANNEL, "reconcile root");
    await jobs.notifier.post({
      scope: SCOPE,
      key: "lost:1",
      channel: CHANNEL,
      threadTs: root,
      text: "lost?",
    });
    // Simulate a crash between the enqueue script and the add: the job is gone.
    await jobs.queues.notify.obliterate({ force: true });
    expect(await jobs.queues.notify.getJobCountByTypes("waiting", "delayed", "active")).toBe(0);

    expect(await jobs.notifier.reconcile()).toBe(1);
    expect(await jobs.notifier.reconcile()).toBe(0);
    await start({ prefix });
    await waitFor(() => threadTexts(standin, CHANNEL, root).length === 1);
    expect(threadTexts(standin, CHANNEL, root)).toEqual(["lost?"]);
  });

  it("keeps a scope's markers in one Redis hash that expires after its last message", async () => {
    const prefix = runPrefix("notifier-scope");
    const jobs = await start({ prefix });
    const root = await threadRoot(client, CHANNEL, "scope root");
    const scope = "order:o-scope:t1";
    for (const key of ["line", "change:1", "change:2"]) {
      await jobs.notifier.post({ scope, key, channel: CHANNEL, threadTs: root, text: key });
    }
    // The same key in another scope is another message.
    const other = { scope: "order:o-other:t1", key: "line", channel: CHANNEL, text: "other" };
    expect(await jobs.notifier.post({ ...other, threadTs: root })).toEqual({ queued: true });
    await waitFor(() => threadTexts(standin, CHANNEL, root).length === 4);
    await waitFor(async () => (await jobs.notifier.status(other.scope, "line"))?.state === "sent");

    const markers = await redis.hgetall(`${prefix}:{notifier}:m:${scope}`);
    expect(Object.keys(markers).sort()).toEqual(["change:1", "change:2", "line"]);
    expect(Object.values(markers).every((v) => v.startsWith("sent|"))).toBe(true);
    const ttl = await redis.ttl(`${prefix}:{notifier}:m:${scope}`);
    expect(ttl).toBeGreaterThan(14 * 24 * 3600 - 60);
    expect(ttl).toBeLessThanOrEqual(14 * 24 * 3600);
    // A message may ask for its scope to be kept longer; later ones never shorten that.
    const long = 30 * 24 * 3600;
    await jobs.notifier.post({
      scope,
      key: "long",
      channel: CHANNEL,
      text: "x",
      keepForSeconds: long,
    });
    await jobs.notifier.post({ scope, key: "after", channel: CHANNEL, text: "y" });
    expect(await redis.ttl(`${prefix}:{notifier}:m:${scope}`)).toBeGreaterThan(long - 60);
    await waitFor(async () => (await jobs.notifier.status(scope, "after"))?.state === "sent");
    expect(await redis.ttl(`${prefix}:{notifier}:m:${scope}`)).toBeGreaterThan(long - 60);
    // No key per message any more.
    expect(await redis.keys(`${prefix}:{notifier}:key:*`)).toEqual([]);
    expect(threadTexts(standin, CHANNEL, root)).toEqual(["line", "change:1", "change:2", "other"]);
  });

  it("honours markers and queued messages written before scopes (an upgrade mid-thread)", async () => {
    const prefix = runPrefix("notifier-legacy");
    const root = await threadRoot(client, CHANNEL, "legacy root");
    const scope = "order:o-legacy:t1";
    const legacy = (key: string) => `${prefix}:{notifier}:key:${scope}:${key}`;
    // Before the upgrade: the status line and one change were posted, one more change queued.
    const line = await client.chat.postMessage({ channel: CHANNEL, thread_ts: root, text: "l0" });
    await redis.set(legacy("line"), `sent|${line.ts}`, "EX", 3600);
    await redis.set(legacy("change:1"), `sent|${line.ts}`, "EX", 3600);
    await redis.set(legacy("change:2"), "queued", "EX", 3600);
    const queuedBefore = { k: `${scope}:change:2`, op: "post", ch: CHANNEL, th: root, at: 0 };
    await redis.rpush(
      `${prefix}:{notifier}:outbox:${CHANNEL}`,
      JSON.stringify({ ...queuedBefore, text: "change 2" }),
    );
    await redis.sadd(`${prefix}:{notifier}:channels`, CHANNEL);

    const jobs = await start({ prefix });
    await jobs.notifier.reconcile();
    // A step that runs again after the upgrade does not post its change a second time…
    expect(
      await jobs.notifier.post({ scope, key: "change:1", channel: CHANNEL, text: "again" }),
    ).toEqual({ queued: false, reason: "duplicate" });
    // …and the status line posted before is still found by its key.
    await jobs.notifier.update({
      scope,
      key: "line:1",
      channel: CHANNEL,
      messageKey: "line",
      text: "status: allocated",
    });
    await waitFor(async () => (await jobs.notifier.status(scope, "line:1"))?.state === "sent");
    expect(threadTexts(standin, CHANNEL, root)).toEqual(["status: allocated", "change 2"]);
    // The message queued before the upgrade was marked where its duplicates look for it.
    expect(await redis.get(legacy("change:2"))).toMatch(/^sent\|/);
    expect(await jobs.notifier.status(scope, "change:2")).toMatchObject({ state: "sent" });
  });

  it("refuses bad input with a clear error", async () => {
    const jobs = await start({ workers: false });
    await expect(
      jobs.notifier.post({ scope: SCOPE, key: "", channel: CHANNEL, text: "x" }),
    ).rejects.toThrow(/key/);
    await expect(
      jobs.notifier.post({ scope: SCOPE, key: "k", channel: "#general", text: "x" }),
    ).rejects.toThrow(/channel/);
    await expect(
      jobs.notifier.post({ scope: SCOPE, key: "k", channel: CHANNEL, text: "" }),
    ).rejects.toThrow(/text/);
    for (const keepForSeconds of [0, 1.5, 401 * 24 * 3600]) {
      await expect(
        jobs.notifier.post({ scope: SCOPE, key: "k", channel: CHANNEL, text: "x", keepForSeconds }),
      ).rejects.toThrow(/keepForSeconds/);
    }
    for (const scope of ["", "a\nb", "s".repeat(201)]) {
      await expect(
        jobs.notifier.post({ scope, key: "k", channel: CHANNEL, text: "x" }),
      ).rejects.toThrow(/scope/);
    }
    expect(await jobs.notifier.outboxLength(CHANNEL)).toBe(0);
  });
});
