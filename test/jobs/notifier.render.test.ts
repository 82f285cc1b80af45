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

  async function start(): Promise<Jobs> {
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
      notifierSettings: { perChannelIntervalMs: 20 },
    });
    running.push(jobs);
    return jobs;
  }

  async function postedMessage(): Promise<string> {
    const posted = (await slackClient(standin).chat.postMessage({
      channel: CHANNEL,
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
    rendered = [];
    state = "pending";
    onRender = async () => {};
  });
  afterAll(async () => {
    for (const prefix of prefixes) await deleteKeys(redis, prefix);
    await standin.close();
    redis.disconnect();
  });

  it("renders from the state at send time: updates queued behind a backlog show the latest", async () => {
    const jobs = await start();
    const ts = await postedMessage();
    // A backlog in the channel (thread lines of other requests), then a change and its update,
    // then more changes while the update waits: one update waits, and it shows the last state.
    for (let i = 0; i < 5; i += 1) {
      await jobs.notifier.post({
        scope: "other",
        key: `line:${i}`,
        channel: CHANNEL,
        text: `${i}`,
      });
    }
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
    await waitFor(() => textOf(ts) === "message:x is placed" || undefined, {
      description: "the message showing the latest state",
    });
    expect(rendered).toEqual(["message:x=placed"]);
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
