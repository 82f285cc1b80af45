import type { WebClient } from "@slack/web-api";
import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import { ApprovalStore } from "../../src/approvals/store.js";
import {
  Placement,
  type PlacementCallbacks,
  type PlacementOptions,
  type StoreForPlacement,
} from "../../src/orders/placement/index.js";
import { PlacementJournal } from "../../src/orders/placement/journal.js";
import type { SlackStandin } from "../../src/standin/index.js";
import { waitFor } from "../harness/index.js";
import { APPROVALS_CHANNEL, approvedRequest, FakeProvider } from "./placementSupport.js";
import {
  connect,
  deleteKeys,
  manualClock,
  runPrefix,
  slackClient,
  startStandin,
  startTestJobs,
  type TestJobs,
  testLogger,
  threadTexts,
} from "./support.js";

/**
 * The placement suites' rig: a real Redis and Slack stand-in, and per test a store, journal,
 * scripted provider and manual clock shared by any number of placement replicas, so a test can
 * stage what a crashed (or frozen) replica leaves behind and let another carry on. Call it in a
 * `describe`: it registers the hooks that start and clean up.
 */
export function placementRig(settings: { stuckAfterMs: number; tellLeaseMs?: number }) {
  let redis: Redis;
  let standin: SlackStandin;
  let client: WebClient;
  const prefixes: string[] = [];
  const running: TestJobs[] = [];
  const placementSettings = {
    stuckAfterMs: settings.stuckAfterMs,
    ...(settings.tellLeaseMs ? { tellLeaseMs: settings.tellLeaseMs } : {}),
  };

  beforeAll(async () => {
    redis = connect();
    standin = await startStandin();
    client = slackClient(standin);
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((jobs) => jobs.close(2_000)));
  });

  afterAll(async () => {
    for (const prefix of prefixes) await deleteKeys(redis, prefix);
    await standin.close();
    redis.disconnect();
  });

  function setup() {
    const prefix = runPrefix("placement-journal");
    prefixes.push(prefix);
    const clock = manualClock();
    const store = new ApprovalStore({ redis, prefix: `${prefix}:approvals:`, now: clock.now });
    const journal = new PlacementJournal({ redis, prefix, now: clock.now });
    const provider = new FakeProvider();
    /** A replica running the placement, its store and steps optionally replaced. */
    const replica = async (
      options: { store?: StoreForPlacement; callbacks?: Partial<PlacementCallbacks> } = {},
    ) => {
      const jobs = await startTestJobs({
        prefix,
        slack: client.chat,
        placement: {
          store: options.store ?? store,
          ...provider.callbacks(),
          ...options.callbacks,
        },
        now: clock.now,
        placementSettings,
      });
      running.push(jobs);
      return jobs;
    };
    /** A placement worker called directly (no job), with parts replaced. */
    const worker = (jobs: TestJobs, options: Partial<PlacementOptions> = {}) =>
      new Placement({
        queue: jobs.queues.placement,
        redis,
        prefix,
        logger: testLogger(),
        notifier: jobs.notifier,
        store,
        callbacks: provider.callbacks(),
        now: clock.now,
        ...placementSettings,
        ...options,
      });
    const approved = () => approvedRequest(store, client);
    const history = async (id: string) => (await store.get(id))?.history.map((h) => h.to);
    const thread = (root: string) => threadTexts(standin, APPROVALS_CHANNEL, root);
    const statusIs = (id: string, status: string) =>
      waitFor(async () => (await store.get(id))?.status === status, {
        // A bound, not a pace: it returns as soon as the status is there (a busy machine is slow).
        timeoutMs: 20_000,
        description: `request ${status}`,
      });
    return {
      prefix,
      clock,
      store,
      journal,
      provider,
      replica,
      worker,
      approved,
      history,
      thread,
      statusIs,
    };
  }

  return { setup, diedAt };
}

/** What a worker that died at `point` leaves behind for attempt 1 of `id`. */
export async function diedAt(
  { store, journal }: { store: ApprovalStore; journal: PlacementJournal },
  id: string,
  point: "claimed-unnamed" | "claimed" | "sending",
) {
  const dead = "worker-that-died";
  await journal.intend(id, 1);
  expect((await store.claim(id, dead)).ok).toBe(true);
  if (point === "claimed-unnamed") return;
  expect(await journal.own(id, 1, dead, "")).toBe(true);
  if (point === "claimed") return;
  expect(await journal.startSending(id, 1, dead)).toBe(true);
}
