import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { Jobs } from "../../src/jobs/index.js";
import { NotifierInputError } from "../../src/jobs/index.js";
import { type SlackStandin, STANDIN_IDS } from "../../src/standin/index.js";
import { waitFor } from "../harness/index.js";
import {
  connect,
  deleteKeys,
  runPrefix,
  slackClient,
  startStandin,
  startTestJobs,
} from "./support.js";

/**
 * A kept message (a request's approval message, its card) is updated through the notifier with
 * no view in the outbox: the injected renderer renders it from the state when the update is sent,
 * one waiting update per message, and a change while one is being sent queues the next. So the
 * last update anyone sees shows the latest state, whoever changed it and whatever waited before.
 */
describe("notifier: updates rendered when they are sent", () => {
  const CHANNEL = STANDIN_IDS.approvals;
  let redis: Redis;
  let standin: SlackStandin;
  const prefixes: string[] = [];
  const running: Jobs[] = [];
  /** The app's state; the renderer reads it when the notifier sends. */
  let state = "pending";
  let rendered: string[] = [];
  let onRender: () => Promise<void> = async () => {};

  async function start(
    settings: {
      perChannelIntervalMs?: number;
      updateIntervalMs?: number;
      updateBurst?: number;
    } = {},
  ): Promise<Jobs> {
    const prefix = runPrefix("notifier-render");
    prefixes.push(prefix);
    const jobs = await startTestJobs({
      prefix,
      slack: slackClient(standin).chat,
      render: async (ref) => {
        rendered.push(`${ref}=${state}`);
        const shown = state;
        await onRender();
        return { text: `${ref} is ${shown}`, blocks: [] };
      },
      notifierSettings: { perChannelIntervalMs: 20, ...settings },
    });
    running.push(jobs);
    return jobs;
  }

  async function postedMessage(channel: string = CHANNEL): Promise<string> {
    const posted = (await slackClient(standin).chat.postMessage({
      channel,
      text: "first post",
    })) as { ts?: string };
    if (!posted.ts) throw new Error("no ts");
    return posted.ts;
  }

  const textOf = (ts: string) => standin.messages(CHANNEL).find((m) => m.ts === ts)?.text;

  beforeAll(async () => {
    redis = connect();
    standin = await startStandin({});
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((jobs) => jobs.close(5_000)));
    standin.clearFaults();
    rendered = [];
    state = "pending";
    onRender = async () => {};
  });
  afterAll(async () => {
    for (const prefix of prefixes) await deleteKeys(redis, prefix);
    await standin.close();
    redis.disconnect();
  });

  it("renders from the state at send time: an update that waits shows the latest", async () => {
    const jobs = await start();
    const ts = await postedMessage();
    // Another message's update is being rendered (held until released), then a change and its
    // update, then more changes while the update waits: one update waits, and it shows the last.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let rendering: () => void = () => undefined;
    const blockerRendering = new Promise<void>((resolve) => {
      rendering = resolve;
    });
    onRender = async () => {
      if (!rendered.at(-1)?.startsWith("message:blocker")) return;
      rendering();
      await held;
    };
    await jobs.notifier.updateRendered({
      scope: "approval:blocker",
      key: "message:render",
      channel: CHANNEL,
      ts: await postedMessage(),
      ref: "message:blocker",
    });
    await blockerRendering;
    const input = {
      scope: "approval:x",
      key: "message:render",
      channel: CHANNEL,
      ts,
      ref: "message:x",
    };
    state = "approved";
    expect(await jobs.notifier.updateRendered(input)).toEqual({ queued: true });
    state = "placed";
    expect(await jobs.notifier.updateRendered(input)).toEqual({
      queued: false,
      reason: "duplicate",
    });
    release();
    await waitFor(() => textOf(ts) === "message:x is placed" || undefined, {
      description: "the message showing the latest state",
    });
    expect(rendered).toEqual(["message:blocker=pending", "message:x=placed"]);
  });

  it("sends an update ahead of the thread lines queued before it in the same channel", async () => {
    // Slack's real pace for thread lines (one a second per channel): a burst of twenty replies
    // queued ahead would hold a message's update back for twenty seconds in the channel's line.
    const jobs = await start({ perChannelIntervalMs: 1_100 });
    const ts = await postedMessage();
    const lines = 20;
    for (let i = 0; i < lines; i += 1) {
      await jobs.notifier.post({
        scope: "approval:burst",
        key: `line:${i}`,
        channel: CHANNEL,
        threadTs: ts,
        text: `line ${i}`,
      });
    }
    standin.clearCalls();
    state = "placed";
    await jobs.notifier.updateRendered({
      scope: "approval:burst",
      key: "message:render",
      channel: CHANNEL,
      ts,
      ref: "message:burst",
    });
    await standin.waitForCall("chat.update", undefined, { timeoutMs: 10_000 });
    // Counted, not timed: when the update went out, at most two of the twenty lines had (the
    // first may have been in flight as the update was queued).
    const calls = standin.calls().filter((c) => c.method.startsWith("chat."));
    const updateAt = calls.findIndex((c) => c.method === "chat.update");
    expect(
      calls.slice(0, updateAt).filter((c) => c.method === "chat.postMessage").length,
    ).toBeLessThanOrEqual(2);
    expect(textOf(ts)).toBe("message:burst is placed");
    // The thread's lines are still drained in their order, each once (the lines' outbox is
    // untouched by the update's).
    await jobs.close(5_000);
    const posted = standin.calls("chat.postMessage").map((c) => c.args.text);
    expect(posted).toEqual(Array.from({ length: posted.length }, (_, i) => `line ${i}`));
  });

  it("paces updates by chat.update's rate: bursts, then the burst's share of the interval", async () => {
    const [intervalMs, burst, messages] = [300, 2, 5];
    const jobs = await start({ updateIntervalMs: intervalMs, updateBurst: burst });
    const stamps: string[] = [];
    for (let i = 0; i < messages; i += 1) stamps.push(await postedMessage());
    standin.clearCalls();
    state = "placed";
    for (const [i, ts] of stamps.entries()) {
      await jobs.notifier.updateRendered({
        scope: `approval:paced${i}`,
        key: "message:render",
        channel: i % 2 === 0 ? CHANNEL : STANDIN_IDS.general,
        ts,
        ref: `message:paced${i}`,
      });
    }
    await waitFor(() => standin.callCount("chat.update") === messages || undefined, {
      timeoutMs: 15_000,
      description: `${messages} updates`,
    });
    const times = standin.calls("chat.update").map((c) => c.at);
    // Each message once, whatever its channel: one outbox for the workspace's updates.
    expect(new Set(standin.calls("chat.update").map((c) => c.args.ts)).size).toBe(messages);
    // Never more than a burst within a burst's share of the interval, all channels together.
    for (let i = burst; i < times.length; i += 1) {
      expect((times[i] ?? 0) - (times[i - burst] ?? 0)).toBeGreaterThanOrEqual(
        burst * intervalMs - 20,
      );
    }
  });

  it("sends two waiting updates of one message in separate bursts, never together", async () => {
    const intervalMs = 300;
    const jobs = await start({ updateIntervalMs: intervalMs });
    const ts = await postedMessage();
    standin.clearCalls();
    state = "approved";
    // Two keys naming one message (as after a crash between an update's send and its removal).
    for (const key of ["message:render", "message:render:again"]) {
      await jobs.notifier.updateRendered({
        scope: "approval:twice",
        key,
        channel: CHANNEL,
        ts,
        ref: "message:twice",
      });
    }
    await waitFor(() => standin.callCount("chat.update") === 2 || undefined, {
      timeoutMs: 10_000,
      description: "both updates",
    });
    const [first, second] = standin.calls("chat.update").map((c) => c.at);
    // The second went in the next burst, after the first burst's wait: never in flight together.
    expect((second ?? 0) - (first ?? 0)).toBeGreaterThanOrEqual(intervalMs - 20);
  });

  it("waits out a 429 on an update for as long as Slack asks, then sends it once", async () => {
    const jobs = await start();
    const ts = await postedMessage();
    standin.clearCalls();
    standin.failNext("chat.update", { count: 1, status: 429, retryAfterSeconds: 1 });
    state = "approved";
    await jobs.notifier.updateRendered({
      scope: "approval:limited",
      key: "message:render",
      channel: CHANNEL,
      ts,
      ref: "message:limited",
    });
    await waitFor(() => textOf(ts) === "message:limited is approved" || undefined, {
      timeoutMs: 10_000,
      description: "the update after Retry-After",
    });
    const calls = standin.calls("chat.update");
    expect(calls.map((c) => c.status)).toEqual([429, 200]);
    expect((calls[1]?.at ?? 0) - (calls[0]?.at ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it("queues the next update when the state changes while one is being rendered and sent", async () => {
    const jobs = await start();
    const ts = await postedMessage();
    const input = {
      scope: "approval:y",
      key: "message:render",
      channel: CHANNEL,
      ts,
      ref: "message:y",
    };
    let changed = false;
    onRender = async () => {
      if (changed) return;
      changed = true;
      // The change lands after the render read the state: its own update must follow.
      state = "done";
      expect(await jobs.notifier.updateRendered(input)).toEqual({ queued: true });
    };
    state = "placed";
    await jobs.notifier.updateRendered(input);
    await waitFor(() => textOf(ts) === "message:y is done" || undefined, {
      description: "the message showing the state that changed during the first update",
    });
    expect(rendered).toEqual(["message:y=placed", "message:y=done"]);
  });

  it("refuses a malformed rendered update before queueing it", async () => {
    const jobs = await start();
    await expect(
      jobs.notifier.updateRendered({
        scope: "approval:z",
        key: "message:render",
        channel: CHANNEL,
        ts: "not-a-ts",
        ref: "message:z",
      }),
    ).rejects.toBeInstanceOf(NotifierInputError);
    await expect(
      jobs.notifier.updateRendered({
        scope: "approval:z",
        key: "message:render",
        channel: CHANNEL,
        ts: "1700000000.000100",
        ref: "no ref here",
      }),
    ).rejects.toBeInstanceOf(NotifierInputError);
  });
});
