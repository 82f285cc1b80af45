import { randomUUID } from "node:crypto";
import { WebClient } from "@slack/web-api";
import { Redis } from "ioredis";
import {
  type DraftReminderCallbacks,
  type Jobs,
  type QuoteCallbacks,
  type SlackChatApi,
  type SlackFunctionsApi,
  type StartJobsOptions,
  startJobs,
} from "../../src/jobs/index.js";
import { createLogger, type Logger } from "../../src/log.js";
import { createMetrics, type Metrics } from "../../src/metrics.js";
import type { AppHomePublisher } from "../../src/orders/appHome.js";
import type { MessageRenderer } from "../../src/orders/index.js";
import {
  buildPlacement,
  type Placement,
  type PlacementCallbacks,
  type PlacementSettings,
  type StoreForPlacement,
} from "../../src/orders/placement/index.js";
import {
  buildTracker,
  type Tracker,
  type TrackerSettings,
  type TrackingObserver,
  type TrackingOptions,
} from "../../src/orders/tracking/index.js";
import {
  defaultWorkspaceSeed,
  makeChannel,
  type SlackStandin,
  startSlackStandin,
} from "../../src/standin/index.js";
import {
  type MaintenanceReport,
  maintenanceOf,
  startWorkers,
  type WorkerOptions,
  type WorkerParts,
} from "../../src/workers/index.js";
import { deleteKeysMatching } from "../harness/redisKeys.js";

export const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** A unique BullMQ/key prefix for one test file's run; everything under it is deleted after. */
export function runPrefix(name: string): string {
  return `test:jobs-${name}:${randomUUID().slice(0, 8)}`;
}

export function connect(): Redis {
  return new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
}

export function deleteKeys(redis: Redis, prefix: string): Promise<number> {
  return deleteKeysMatching(redis, `${prefix}:*`);
}

/** Quiet unless TEST_LOG_LEVEL is set (e.g. TEST_LOG_LEVEL=debug to see the jobs' log). */
export function testLogger(): Logger {
  return createLogger({ level: process.env.TEST_LOG_LEVEL ?? "silent" });
}

export function testMetrics(): Metrics {
  return createMetrics({ defaultMetrics: false });
}

export async function counterValue(
  metrics: Metrics,
  queue: string,
  outcome: string,
): Promise<number> {
  const data = await metrics.jobOutcomes.get();
  return (
    data.values.find((v) => v.labels.queue === queue && v.labels.outcome === outcome)?.value ?? 0
  );
}

/** Extra channels in the stand-in's workspace (the default has a general and an approvals one). */
export const BUSY_CHANNELS = ["C0BUSY0001", "C0BUSY0002", "C0BUSY0003", "C0BUSY0004", "C0BUSY0005"];

export async function startStandin(
  options: { messagesPerSecondPerChannel?: number } = {},
): Promise<SlackStandin> {
  const seed = defaultWorkspaceSeed();
  seed.channels.push(...BUSY_CHANNELS.map((id, i) => makeChannel(id, `busy-${i + 1}`)));
  return startSlackStandin({
    seed,
    ...(options.messagesPerSecondPerChannel
      ? { rateLimit: { messagesPerSecondPerChannel: options.messagesPerSecondPerChannel } }
      : {}),
  });
}

/**
 * A WebClient as the composition root must build it for the notifier: a 429 is rejected at once
 * (the queue waits, not the client) and the client never retries.
 */
export function slackClient(standin: SlackStandin): WebClient {
  return new WebClient(standin.botToken, {
    slackApiUrl: standin.apiUrl,
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
  });
}

/** A thread root posted straight to the stand-in (as the Slack layer would have). */
export async function threadRoot(
  client: WebClient,
  channel: string,
  text: string,
): Promise<string> {
  const result = await client.chat.postMessage({ channel, text });
  if (!result.ts) throw new Error("the stand-in gave no ts");
  return result.ts;
}

/** A clock a test moves by hand. */
export function manualClock(startIso = "2025-03-01T10:00:00.000Z"): {
  now: () => Date;
  advance: (ms: number) => void;
  set: (iso: string) => void;
} {
  let t = Date.parse(startIso);
  return {
    now: () => new Date(t),
    advance: (ms) => {
      t += ms;
    },
    set: (iso) => {
      t = Date.parse(iso);
    },
  };
}

/** Worker settings that let tests see stalls and restarts in seconds, not minutes. */
export const FAST_TUNING: WorkerOptions["workerTuning"] = {
  notify: { lockDuration: 5_000, stalledInterval: 1_000 },
  tracking: { lockDuration: 5_000, stalledInterval: 1_000 },
  quotes: { lockDuration: 5_000, stalledInterval: 1_000 },
  placement: { lockDuration: 5_000, stalledInterval: 1_000 },
  maintenance: { lockDuration: 5_000, stalledInterval: 1_000 },
};

/**
 * What the tests start besides src/jobs' options: the lifecycle's tracker and placement job
 * (src/orders/tracking, src/orders/placement), built on the jobs' queues as src/bot.ts builds
 * them, and src/workers' workers that run them, with the options they had when startJobs built
 * and ran them all.
 */
export interface TestPartsOptions extends WorkerOptions {
  readTarget?: TrackingOptions["readTarget"];
  readOrder?: TrackingOptions["readOrder"];
  trackingObserver?: TrackingObserver;
  trackerSettings?: TrackerSettings;
  random?: () => number;
  /** Placing approved orders: without it, no placement worker or reconciler runs. */
  placement?: { store: StoreForPlacement } & PlacementCallbacks;
  placementSettings?: PlacementSettings;
  /** false: producer only (enqueue, track, list), no workers started. Default true. */
  workers?: boolean;
  /** The notifier's drain (src/workers/notifier): without `slack`, no notify worker runs. */
  slack?: SlackChatApi;
  functions?: SlackFunctionsApi;
  /** App Home: the drain publishes with it, and a tracked target's change refreshes Homes. */
  home?: AppHomePublisher;
  render?: MessageRenderer;
}

/** The Edge polls' callbacks, given to the workers (they were startJobs' options). */
export interface TestEdgeOptions<Q> {
  /** Edge quote polling: without it, no quote worker runs. */
  quotes?: QuoteCallbacks<Q>;
  /** Edge draft reminders: the provider's clock, and the callbacks (no worker without them). */
  draftReminders?: { callbacks?: DraftReminderCallbacks; now?: () => Date };
}

export type TestJobs = Jobs & {
  tracker: Tracker;
  placement: Placement;
  runMaintenance(): Promise<MaintenanceReport>;
};

/** The tracker and the placement job on `jobs`' queues, as src/bot.ts builds them. */
function buildParts(
  jobs: Jobs,
  options: TestPartsOptions & { now?: () => Date },
): { tracker: Tracker; placement: Placement } {
  const { store, ...callbacks } = options.placement ?? {};
  const tracker = buildTracker(jobs, {
    ...(options.readTarget ? { readTarget: options.readTarget } : {}),
    ...(options.readOrder ? { readOrder: options.readOrder } : {}),
    ...(options.trackingObserver ? { observer: options.trackingObserver } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.random ? { random: options.random } : {}),
    refreshHomes: options.home !== undefined,
    ...options.trackerSettings,
  });
  const placement = buildPlacement(jobs, {
    ...(options.placement ? { store, callbacks: callbacks as PlacementCallbacks } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...options.placementSettings,
  });
  return { tracker, placement };
}

/**
 * startJobs for tests: the given prefix, quiet logs, fast notifier, no background samplers; then
 * the lifecycle's parts on its queues and, unless `workers: false`, src/workers' workers running
 * them (`close` closes the workers, then the jobs, as src/bot.ts's stops do).
 */
export async function startTestJobs<Q = unknown>(
  options: Partial<StartJobsOptions> & TestPartsOptions & TestEdgeOptions<Q> & { prefix: string },
): Promise<TestJobs> {
  const {
    readTarget,
    readOrder,
    trackingObserver,
    trackerSettings,
    random,
    placement,
    placementSettings,
    workers: workersHere,
    slack,
    functions,
    home,
    render,
    concurrency,
    workerTuning,
    maintenanceEveryMs,
    reconcileOnStart,
    quotes,
    draftReminders,
    ...jobOptions
  } = options;
  const jobs = await startJobs({
    redisUrl: REDIS_URL,
    logger: testLogger(),
    queueDepthEveryMs: 0,
    ...jobOptions,
    ...(draftReminders?.now ? { draftReminders: { now: draftReminders.now } } : {}),
    notifierSettings: {
      perChannelIntervalMs: 30,
      updateIntervalMs: 30,
      retryBaseMs: 50,
      ...options.notifierSettings,
    },
  });
  const parts = buildParts(jobs, options);
  const workerParts: WorkerParts = {
    ...(slack ? { notify: { slack, functions, home, render } } : {}),
    ...parts,
    // The test's own quote type: the worker hands the callbacks what readQuote read.
    ...(quotes ? { quotes: quotes as QuoteCallbacks<unknown> } : {}),
    ...(draftReminders?.callbacks ? { draftReminders: draftReminders.callbacks } : {}),
  };
  const workers =
    workersHere === false
      ? undefined
      : await startWorkers(jobs, workerParts, {
          workerTuning: workerTuning ?? FAST_TUNING,
          concurrency,
          // Tests run the reconcilers themselves (runMaintenance): their counts are deterministic.
          maintenanceEveryMs: maintenanceEveryMs ?? 0,
          reconcileOnStart: reconcileOnStart ?? false,
        }).catch(async (error: unknown) => {
          await jobs.close(2_000);
          throw error;
        });
  const closeJobs = jobs.close;
  return Object.assign(jobs, parts, {
    runMaintenance: workers?.runMaintenance ?? maintenanceOf(jobs, workerParts),
    // One budget, as src/bot.ts splits it: most for the workers' jobs to finish, then the rest.
    close: async (timeoutMs = 10_000) => {
      const workersMs = Math.floor(timeoutMs * 0.8);
      const stopped = (await workers?.close(workersMs)) ?? { clean: true };
      const closed = await closeJobs(timeoutMs - workersMs);
      return { clean: stopped.clean && closed.clean };
    },
  });
}

/** Texts of the replies in a thread (the root excluded), in order. */
export function threadTexts(standin: SlackStandin, channel: string, threadTs: string): string[] {
  return standin
    .thread(channel, threadTs)
    .filter((m) => m.ts !== threadTs)
    .map((m) => m.text);
}
