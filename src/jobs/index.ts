import type { Job, Queue } from "bullmq";
import { trackedAudience } from "../domain/audience.js";
import type { Logger } from "../log.js";
import type { Metrics } from "../metrics.js";
import { type RedisTopology, singleRedis } from "../redisTopology.js";
import { type DraftReminderCallbacks, DraftReminders } from "./draftReminders.js";
import { errorText } from "./errors.js";
import type { HomePublisher } from "./homeRefresh.js";
import { Notifier, type SlackChatApi, type SlackFunctionsApi } from "./notifier.js";
import { Placement } from "./placement.js";
import type { PlacementCallbacks, StoreForPlacement } from "./placementContract.js";
import { DEFAULT_PREFIX, QUEUE_NAMES } from "./queues.js";
import { type QuoteCallbacks, QuotePoller } from "./quotePoller.js";
import type { MessageRenderer } from "./renderedUpdate.js";
import type { TrackingSchedule } from "./schedule.js";
import { Tracker } from "./tracker.js";
import type { TrackerMessages } from "./trackerMessages.js";
import type { AcceptanceReminders } from "./trackerReminders.js";
import type { TrackingObserver } from "./trackerReports.js";
import type { ReadOrder, ReadTarget } from "./trackInput.js";
import {
  closeAfterFailedStart,
  closeAll,
  createQueues,
  QUEUE_OF,
  type Running,
  startWorker,
  type WorkerKind,
  type WorkerSettings,
  type WorkerTuning,
} from "./workers.js";

/**
 * The job layer's one entry point (the composition root's `startJobs`) and its public API:
 * everything a caller may use is exported here; the modules behind it are listed in README.md.
 */

export {
  isTrackTargetKind,
  TRACK_TARGET_KINDS,
  type TrackTarget,
  type TrackTargetKind,
} from "../domain/statuses.js";
export { closeRedis, closeWithTimeout } from "./connection.js";

/** Where `startJobs` connects when given neither a topology nor a URL. */
const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379";

export * from "./draftReminders.js";
export * from "./homeRefresh.js";
export * from "./notifier.js";
export { NotifierInputError } from "./notifierInput.js";
export { DEFAULT_MARKER_TTL_SECONDS, type MessageState } from "./outbox.js";
export * from "./placement.js";
export * from "./placementContract.js";
export * from "./placementJournal.js";
export * from "./queues.js";
export * from "./quotePoller.js";
export type { MessageRenderer, RenderedMessage, RenderedUpdateInput } from "./renderedUpdate.js";
export * from "./schedule.js";
export * from "./tracker.js";
export type { LastSeen, TrackerMessages } from "./trackerMessages.js";
export { type TrackedOrder, trackedReader } from "./trackerRecords.js";
export * from "./trackerReminders.js";
export type { TrackingEvent, TrackingObserver } from "./trackerReports.js";
export {
  type OrderRead,
  type ReadOrder,
  type ReadTarget,
  type TargetRead,
  type TrackInput,
  TrackInputError,
} from "./trackInput.js";
export type { WorkerKind, WorkerTuning } from "./workers.js";

/**
 * Starts the background side: queues always (any process can enqueue), workers only where
 * their collaborators are given and `workers` is not false. So the HTTP process can run it as a
 * producer only while `npm run worker` processes, or one process can do both; several replicas
 * may share one Redis and prefix.
 */

export interface StartJobsOptions<QuoteResult = unknown> {
  /** Where Redis is (src/redisTopology.ts): every connection of the jobs is made on it. */
  topology?: RedisTopology;
  /** Shorthand for a single Redis at this URL (tests, benchmarks); `topology` wins. */
  redisUrl?: string;
  /** Key prefix of every queue and record; tests use a unique one. Default "connect". */
  prefix?: string;
  logger: Logger;
  metrics?: Pick<Metrics, "jobOutcomes" | "queueDepth">;
  /** false: producer only (enqueue, track, list), no workers in this process. Default true. */
  workers?: boolean;
  /**
   * WebClient's `chat` (with `rejectRateLimitedCalls: true` and `retryConfig: {retries: 0}`, so
   * a 429 comes back to the queue). Without it, no notify worker runs here.
   */
  slack?: SlackChatApi;
  /** WebClient's `functions`: ends Workflow Builder steps through the notifier's outbox. */
  functions?: SlackFunctionsApi;
  /**
   * Reads a tracked target (port order, Edge order, port, layer 2 connection, IO-D service) for
   * the tracker: one reader per kind behind one function. Without it (or `readOrder`), no
   * tracking worker runs here.
   */
  readTarget?: ReadTarget;
  /** The older option: reads port and Edge orders only (ignored when `readTarget` is given). */
  readOrder?: ReadOrder;
  /**
   * Renders and publishes a person's App Home (`views.publish`); with it, `notifier.refreshHome`
   * publishes and a tracked target's change refreshes the Home of whoever asked to track it.
   */
  home?: HomePublisher;
  /**
   * The notifier's render port (renderedUpdate.ts `MessageRenderer`): renders a kept message (a
   * request's approval message or card, `notifier.updateRendered`) from the latest state when
   * its update is sent; src/orders' `OrderLifecycle.messageRenderer()`. Given here, when the
   * notifier is built; without it such updates are dropped as `no_renderer`.
   */
  render?: MessageRenderer;
  /** Edge quote polling. Without it, no quote worker runs here. */
  quotes?: QuoteCallbacks<QuoteResult>;
  /** Placing approved orders. Without it, no placement worker or reconciler runs here. */
  placement?: { store: StoreForPlacement } & PlacementCallbacks;
  /**
   * Edge draft expiry reminders: the provider's clock (the sandbox's in sandbox mode) and the
   * callbacks. Without callbacks, no reminder worker runs here (remembering still queues).
   */
  draftReminders?: { callbacks?: DraftReminderCallbacks; now?: () => Date };
  /** Jobs processed in parallel per worker kind (shorthand for workerTuning.*.concurrency). */
  concurrency?: Partial<Record<WorkerKind, number>>;
  workerTuning?: Partial<Record<WorkerKind, WorkerTuning>>;
  now?: () => Date;
  random?: () => number;
  notifierSettings?: {
    perChannelIntervalMs?: number;
    /** Kept messages' updates: on average one per this, all channels together (default 1200). */
    updateIntervalMs?: number;
    /** Kept messages' updates sent back to back before they wait (default 10). */
    updateBurst?: number;
    markerTtlSeconds?: number;
    maxAttempts?: number;
    /** App Home: at most one publish per person per this window (default 2000 ms). */
    homeDebounceMs?: number;
    retryBaseMs?: number;
    retryMaxMs?: number;
  };
  /**
   * How the tracker's messages are worded: views/trackerMessages.ts `trackerMessages` (src/bot.ts
   * and the tests pass it), so src/jobs decides when to speak and never imports views/.
   */
  trackerMessages: TrackerMessages;
  /** Told of each status and end of a tracker started with a `ref` (src/orders' request card). */
  trackingObserver?: TrackingObserver;
  trackerSettings?: {
    schedule?: TrackingSchedule;
    deadlineDays?: number;
    /** While a partner has to accept, check at most this often (default 1 hour). */
    waitingEveryMs?: number;
    acceptanceReminders?: AcceptanceReminders;
  };
  quoteSettings?: { timeoutMs?: number; firstDelayMs?: number; maxDelayMs?: number };
  placementSettings?: { stuckAfterMs?: number; workerId?: string; answerWriteTimeoutMs?: number };
  /**
   * How often the reconcilers run (a BullMQ job scheduler shared by the replicas; the last one
   * started sets the interval). 0 = this process does not schedule them. Default 5 minutes.
   */
  maintenanceEveryMs?: number;
  /** Run the reconcilers once right after start (catch up after a crash). Default true. */
  reconcileOnStart?: boolean;
  /** How often queue depths are sampled into the gauge; 0 = only on refreshQueueDepths(). */
  queueDepthEveryMs?: number;
}

export interface MaintenanceReport {
  trackersRecreated: number;
  drainJobsRecreated: number;
  placement?: { requeued: number; stuck: number; retriedLookups: number };
}

export interface Jobs<QuoteResult = unknown> {
  notifier: Notifier;
  tracker: Tracker;
  quotePoller: QuotePoller<QuoteResult>;
  placement: Placement;
  draftReminders: DraftReminders;
  queues: Record<WorkerKind, Queue>;
  /** Runs every reconciler now (they also run on a schedule where workers run). */
  runMaintenance(): Promise<MaintenanceReport>;
  refreshQueueDepths(): Promise<void>;
  /**
   * Stops taking work, lets active jobs finish for most of `timeoutMs`, then drops the
   * connections (unfinished jobs are handed back when their locks expire). Always resolves
   * within about `timeoutMs`; `clean` says whether everything closed gracefully.
   */
  close(timeoutMs?: number): Promise<{ clean: boolean }>;
}

export async function startJobs<QuoteResult = unknown>(
  options: StartJobsOptions<QuoteResult>,
): Promise<Jobs<QuoteResult>> {
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const logger = options.logger;
  const metrics = options.metrics;
  const topology = options.topology ?? singleRedis(options.redisUrl ?? DEFAULT_REDIS_URL);
  const commandRedis = topology.connect("commands", `${prefix}:jobs:commands`);
  const workerRedis = topology.connect("workers", `${prefix}:jobs:workers`);
  commandRedis.on("error", (error) => logger.warn({ err: errorText(error) }, "jobs: Redis error"));
  workerRedis.on("error", (error) => logger.warn({ err: errorText(error) }, "jobs: Redis error"));
  const queues = createQueues(commandRedis, prefix, logger);
  const running: Running = { workers: [], queues, connections: [workerRedis, commandRedis] };

  const notifier = new Notifier({
    redis: commandRedis,
    queue: queues.notify,
    prefix,
    logger,
    metrics,
    slack: options.slack,
    ...(options.functions ? { functions: options.functions } : {}),
    home: options.home,
    render: options.render,
    ...options.notifierSettings,
  });
  const tracker = new Tracker({
    redis: commandRedis,
    queue: queues.tracking,
    prefix,
    logger,
    metrics,
    notifier,
    messages: options.trackerMessages,
    observer: options.trackingObserver,
    readTarget: options.readTarget,
    readOrder: options.readOrder,
    now: options.now,
    random: options.random,
    // Who sees a tracked target in App Home: the one audience rule (src/domain/audience.ts).
    onChange: options.home
      ? async (record) => {
          for (const userId of trackedAudience(record)) await notifier.refreshHome(userId);
        }
      : undefined,
    ...options.trackerSettings,
  });
  const quotePoller = new QuotePoller<QuoteResult>({
    queue: queues.quotes,
    logger,
    metrics,
    notifier,
    callbacks: options.quotes,
    now: options.now,
    ...options.quoteSettings,
  });
  const placement = new Placement({
    queue: queues.placement,
    redis: commandRedis,
    prefix,
    logger,
    metrics,
    notifier,
    store: options.placement?.store,
    callbacks: options.placement,
    now: options.now,
    ...options.placementSettings,
  });
  const draftReminders = new DraftReminders({
    redis: commandRedis,
    queue: queues.drafts,
    prefix,
    logger,
    metrics,
    notifier,
    callbacks: options.draftReminders?.callbacks,
    now: options.draftReminders?.now,
  });

  async function runMaintenance(): Promise<MaintenanceReport> {
    const report: MaintenanceReport = {
      trackersRecreated: await tracker.reconcile(),
      drainJobsRecreated: await notifier.reconcile(),
    };
    if (options.placement) report.placement = await placement.reconcile();
    return report;
  }

  const settings: WorkerSettings = {
    connection: workerRedis,
    prefix,
    logger,
    metrics,
    workerTuning: options.workerTuning,
    concurrency: options.concurrency,
  };
  const run = (kind: WorkerKind, process: (job: Job, token?: string) => Promise<unknown>) => {
    running.workers.push(startWorker(kind, process, settings));
  };

  async function startWorkers(): Promise<void> {
    if (options.slack) run("notify", (job, token) => notifier.process(job, token));
    if (options.readTarget || options.readOrder)
      run("tracking", (job, token) => tracker.process(job, token));
    if (options.quotes) run("quotes", (job, token) => quotePoller.process(job, token));
    if (options.placement) run("placement", (job) => placement.processJob(job));
    if (options.draftReminders?.callbacks)
      run("drafts", (job, token) => draftReminders.process(job, token));
    run("maintenance", () => runMaintenance());
    const every = options.maintenanceEveryMs ?? 5 * 60_000;
    if (every > 0) {
      await queues.maintenance.upsertJobScheduler(
        "reconcile",
        { every },
        { name: "reconcile", opts: { removeOnComplete: true, removeOnFail: { count: 100 } } },
      );
    }
    if (options.reconcileOnStart !== false) {
      // Catch up at once on what a crash left behind (replicas doing this together is harmless).
      runMaintenance().catch((error) =>
        logger.warn({ err: errorText(error) }, "jobs: start-up reconcile failed"),
      );
    }
  }

  if (options.workers !== false) {
    try {
      await startWorkers();
    } catch (error) {
      // E.g. Redis unreachable at start: leave no connections or workers behind.
      await closeAfterFailedStart(running);
      throw error;
    }
  }

  async function refreshQueueDepths(): Promise<void> {
    if (!metrics) return;
    for (const kind of Object.keys(queues) as WorkerKind[]) {
      const counts = await queues[kind].getJobCounts("waiting", "delayed", "active", "failed");
      for (const [state, count] of Object.entries(counts)) {
        metrics.queueDepth.set({ queue: QUEUE_OF[kind], state }, count);
      }
    }
    metrics.queueDepth.set(
      { queue: QUEUE_NAMES.notify, state: "outbox" },
      await notifier.totalOutboxLength(),
    );
  }

  const depthEvery = options.queueDepthEveryMs ?? 15_000;
  const depthTimer =
    metrics && depthEvery > 0
      ? setInterval(() => {
          refreshQueueDepths().catch((error) =>
            logger.debug({ err: errorText(error) }, "jobs: queue depth sampling failed"),
          );
        }, depthEvery)
      : undefined;
  depthTimer?.unref();

  let closing: Promise<{ clean: boolean }> | undefined;
  function close(timeoutMs = 10_000): Promise<{ clean: boolean }> {
    closing ??= (async () => {
      if (depthTimer) clearInterval(depthTimer);
      return closeAll(running, timeoutMs, logger);
    })();
    return closing;
  }

  return {
    notifier,
    tracker,
    quotePoller,
    placement,
    draftReminders,
    queues,
    runMaintenance,
    refreshQueueDepths,
    close,
  };
}
