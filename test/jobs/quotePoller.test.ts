import type { WebClient } from "@slack/web-api";
import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Jobs, QuoteCallbacks, QuoteContext, QuoteRead } from "../../src/jobs/index.js";
import { httpError, timeoutError } from "../../src/provider/errors.js";
import { type SlackStandin, STANDIN_IDS } from "../../src/standin/index.js";
import { quoteFailureText } from "../../views/edge/edgeQuote.js";
import { waitFor } from "../harness/index.js";
import {
  connect,
  deleteKeys,
  manualClock,
  runPrefix,
  slackClient,
  startStandin,
  startTestJobs,
  threadRoot,
  threadTexts,
} from "./support.js";

const CHANNEL = STANDIN_IDS.general;
const CALL = {
  operation: "getEdgeQuoteResult",
  method: "GET",
  path: "/v2/edge/price/result/{responseId}",
  subject: "the Edge quote",
};

interface Quote {
  price: number;
}

/** A quote source scripted per response id: a list of answers, the last one repeating. */
class FakeQuotes {
  readonly script = new Map<string, Array<QuoteRead<Quote> | Error>>();
  readonly readTimes = new Map<string, number[]>();
  readonly ready: Array<{ result: Quote; ctx: QuoteContext }> = [];
  readonly failed: Array<{ message: string; ctx: QuoteContext }> = [];
  onRead?: () => void;

  reads(id: string): number {
    return this.readTimes.get(id)?.length ?? 0;
  }

  callbacks(): QuoteCallbacks<Quote> {
    return {
      readQuote: async (id) => {
        this.readTimes.set(id, [...(this.readTimes.get(id) ?? []), Date.now()]);
        this.onRead?.();
        const answers = this.script.get(id) ?? [];
        const next = answers.length > 1 ? answers.shift() : answers[0];
        if (!next) throw new Error("unscripted quote");
        if (next instanceof Error) throw next;
        return next;
      },
      onReady: async (result, ctx) => {
        this.ready.push({ result, ctx });
        await ctx.notifier.post({
          scope: ctx.notifyScope,
          key: ctx.notifyKey,
          channel: ctx.channel,
          threadTs: ctx.threadTs,
          text: `Edge quote ready: ${result.price}`,
        });
      },
      onFailed: async (failure, ctx) => {
        // Worded as the Edge adapter words it (the job hands over a kind, not text).
        const message = quoteFailureText(failure);
        this.failed.push({ message, ctx });
        await ctx.notifier.post({
          scope: ctx.notifyScope,
          key: ctx.notifyKey,
          channel: ctx.channel,
          threadTs: ctx.threadTs,
          text: message,
        });
      },
    };
  }
}

describe("Edge quote polling", () => {
  let redis: Redis;
  let standin: SlackStandin;
  let client: WebClient;
  const prefixes: string[] = [];
  const running: Jobs[] = [];

  async function start(quotes: FakeQuotes, now?: () => Date): Promise<Jobs> {
    const prefix = runPrefix("quotes");
    prefixes.push(prefix);
    const jobs = await startTestJobs({
      prefix,
      slack: client.chat,
      quotes: quotes.callbacks(),
      now,
      quoteSettings: { firstDelayMs: 40, maxDelayMs: 160 },
    });
    running.push(jobs);
    return jobs;
  }

  const request = { country: { id: 1, name: "Australia" }, bandwidth: 100, term: 12 };

  beforeAll(async () => {
    redis = connect();
    standin = await startStandin();
    client = slackClient(standin);
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((jobs) => jobs.close(5_000)));
  });

  afterAll(async () => {
    for (const prefix of prefixes) await deleteKeys(redis, prefix);
    await standin.close();
    redis.disconnect();
  });

  it("polls with growing delays until the quote is ready, then hands it over once", async () => {
    const quotes = new FakeQuotes();
    const jobs = await start(quotes);
    const root = await threadRoot(client, CHANNEL, "quote ready");
    const pending: QuoteRead<Quote> = { ready: false };
    quotes.script.set("resp-ready", [
      pending,
      pending,
      pending,
      pending,
      pending,
      { ready: true, result: { price: 321 } },
    ]);
    const first = await jobs.quotePoller.start({
      responseId: "resp-ready",
      channel: CHANNEL,
      threadTs: root,
      userId: STANDIN_IDS.requester,
      request,
    });
    expect(first.started).toBe(true);
    // A second start while it polls is a no-op.
    expect(
      (
        await jobs.quotePoller.start({
          responseId: "resp-ready",
          channel: CHANNEL,
          userId: STANDIN_IDS.requester,
          request,
        })
      ).started,
    ).toBe(false);

    await waitFor(() => quotes.ready.length === 1);
    expect(quotes.ready[0]?.result).toEqual({ price: 321 });
    expect(quotes.ready[0]?.ctx).toMatchObject({
      responseId: "resp-ready",
      polls: 6,
      userId: STANDIN_IDS.requester,
      request,
    });
    const times = quotes.readTimes.get("resp-ready") ?? [];
    const gaps = times.slice(1).map((t, i) => t - (times[i] ?? 0));
    // 40, 80, 160, 160, 160 ms: doubling, then capped.
    expect(gaps).toHaveLength(5);
    expect(gaps[0]).toBeGreaterThanOrEqual(35);
    expect(gaps[1]).toBeGreaterThanOrEqual(75);
    expect(gaps[2]).toBeGreaterThanOrEqual(155);
    expect(gaps[4]).toBeLessThan(1_000);
    await waitFor(() => threadTexts(standin, CHANNEL, root).length === 1);
    expect(threadTexts(standin, CHANNEL, root)).toEqual(["Edge quote ready: 321"]);
    expect(quotes.failed).toEqual([]);
  });

  it.each([
    [400, /external pricing provider is not configured/],
    [404, /external provider has no such quote/],
    [500, /unhandled error/],
  ])("explains a definite %i and stops polling", async (status, explanation) => {
    const quotes = new FakeQuotes();
    const jobs = await start(quotes);
    const id = `resp-${status}`;
    quotes.script.set(id, [
      { ready: false },
      httpError(CALL, status, '{"code":400,"message":"x"}'),
    ]);
    await jobs.quotePoller.start({
      responseId: id,
      channel: CHANNEL,
      userId: "U0REQUEST1",
      request,
    });
    await waitFor(() => quotes.failed.length === 1);
    expect(quotes.failed[0]?.message).toMatch(explanation);
    expect(quotes.failed[0]?.message).toMatch(new RegExp(`HTTP ${status}`));
    expect(quotes.reads(id)).toBe(2);
    await waitFor(
      async () => (await jobs.notifier.status(`quote:${id}`, "outcome"))?.state === "sent",
    );
    expect(quotes.ready).toEqual([]);
  });

  it("keeps polling through a timeout or a 503 of the provider", async () => {
    const quotes = new FakeQuotes();
    const jobs = await start(quotes);
    quotes.script.set("resp-flaky", [
      timeoutError(CALL, 15_000),
      httpError(CALL, 503, ""),
      { ready: true, result: { price: 7 } },
    ]);
    await jobs.quotePoller.start({
      responseId: "resp-flaky",
      channel: CHANNEL,
      userId: "U0REQUEST1",
      request,
    });
    await waitFor(() => quotes.ready.length === 1);
    expect(quotes.ready[0]?.ctx.polls).toBe(3);
    expect(quotes.failed).toEqual([]);
  });

  it("gives up after the timeout with a message", async () => {
    const quotes = new FakeQuotes();
    const clock = manualClock();
    // Every read takes four minutes of the (test's) clock.
    quotes.onRead = () => clock.advance(4 * 60_000);
    const jobs = await start(quotes, clock.now);
    const root = await threadRoot(client, CHANNEL, "quote timeout");
    quotes.script.set("resp-slow", [{ ready: false }]);
    await jobs.quotePoller.start({
      responseId: "resp-slow",
      channel: CHANNEL,
      threadTs: root,
      userId: "U0REQUEST1",
      request,
    });
    await waitFor(() => quotes.failed.length === 1);
    expect(quotes.failed[0]?.message).toMatch(/not ready after 10 minutes/);
    expect(quotes.reads("resp-slow")).toBe(3);
    await waitFor(() => threadTexts(standin, CHANNEL, root).length === 1);
    expect(quotes.ready).toEqual([]);
  });
});
