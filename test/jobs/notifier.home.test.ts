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
 * App Home refreshes through the notifier: at most one waiting refresh per person, rendered
 * when it is sent (so it shows every change before it), at most one publish per person per
 * window; a change during a publish queues the next one.
 */
describe("notifier: App Home refreshes", () => {
  const WINDOW_MS = 300;
  let redis: Redis;
  let standin: SlackStandin;
  const prefixes: string[] = [];
  const running: Jobs[] = [];
  /** What the app's state says; the publisher renders it at send time. */
  let state = 0;
  let published: { userId: string; state: number; at: number }[] = [];
  let onPublish: () => Promise<void> = async () => {};

  async function start(windowMs = WINDOW_MS): Promise<Jobs> {
    const prefix = runPrefix("notifier-home");
    prefixes.push(prefix);
    const jobs = await startTestJobs({
      prefix,
      slack: slackClient(standin).chat,
      home: async (userId) => {
        published.push({ userId, state, at: Date.now() });
        await onPublish();
        return { ok: true };
      },
      notifierSettings: {
        perChannelIntervalMs: 20,
        updateIntervalMs: 20,
        homeDebounceMs: windowMs,
      },
    });
    running.push(jobs);
    return jobs;
  }

  beforeAll(async () => {
    redis = connect();
    standin = await startStandin({});
  });
  afterEach(async () => {
    await Promise.all(running.splice(0).map((jobs) => jobs.close(5_000)));
    published = [];
    onPublish = async () => {};
  });
  afterAll(async () => {
    for (const prefix of prefixes) await deleteKeys(redis, prefix);
    await standin.close();
    redis.disconnect();
  });

  it("coalesces a burst into one publish that shows its last change, per person", async () => {
    // A window the burst's 100 Redis round trips fit in even on a loaded machine: the burst
    // must all land before the first publish for "one publish per person" to be the question.
    const BURST_WINDOW_MS = 2_000;
    const jobs = await start(BURST_WINDOW_MS);
    const outcomes = [];
    for (let change = 1; change <= 50; change += 1) {
      state = change;
      outcomes.push(await jobs.notifier.refreshHome(STANDIN_IDS.requester));
      outcomes.push(await jobs.notifier.refreshHome(STANDIN_IDS.approver));
    }
    expect(outcomes.filter((o) => o.queued)).toHaveLength(2);
    await waitFor(() => published.length === 2 || undefined, { timeoutMs: 10_000 });
    expect(published.map((p) => p.userId).sort()).toEqual(
      [STANDIN_IDS.approver, STANDIN_IDS.requester].sort(),
    );
    expect(published.every((p) => p.state === 50)).toBe(true);
  });

  it("queues the next refresh for a change during a publish, sent a window later", async () => {
    const jobs = await start();
    let duringPublish: Promise<unknown> | undefined;
    onPublish = async () => {
      if (duringPublish) return;
      state = 2;
      duringPublish = jobs.notifier.refreshHome(STANDIN_IDS.requester);
    };
    state = 1;
    await jobs.notifier.refreshHome(STANDIN_IDS.requester);
    await waitFor(() => published.length === 2 || undefined, { timeoutMs: 5_000 });
    expect(await duringPublish).toEqual({ queued: true });
    expect(published.map((p) => p.state)).toEqual([1, 2]);
    expect(published[1]!.at - published[0]!.at).toBeGreaterThanOrEqual(WINDOW_MS - 30);
  });

  it("refuses what is not a Slack user id", async () => {
    const jobs = await start();
    await expect(jobs.notifier.refreshHome("C0GENERAL1")).rejects.toBeInstanceOf(
      NotifierInputError,
    );
    await expect(jobs.notifier.refreshHome("U0X\nY")).rejects.toBeInstanceOf(NotifierInputError);
  });
});
