import { type Job, Queue, Worker } from "bullmq";
import { withRequestId } from "../context.js";
import type { Logger } from "../log.js";
import type { Metrics } from "../metrics.js";
import {
  closeRedis,
  closeWithTimeout,
  createCommandConnection,
  createWorkerConnection,
} from "./connection.js";
import { type DraftReminderCallbacks, DraftReminders } from "./draftReminders.js";
import { errorText } from "./errors.js";
import type { HomePublisher } from "./homeRefresh.js";
import { Notifier, type SlackChatApi } from "./notifier.js";
import { Placement } from "./placement.js";
import type { PlacementCallbacks, StoreForPlacement } from "./placementContract.js";
import { DEFAULT_PREFIX, QUEUE_NAMES } from "./queues.js";
import { type QuoteCallbacks, QuotePoller } from "./quotePoller.js";
import {
  createProviderRateLimiter,
  DEFAULT_PROVIDER_REQUESTS_PER_SECOND,
  type ProviderRateLimiter,
} from "./rateLimiter.js";
import type { TrackingSchedule } from "./schedule.js";
import { Tracker } from "./tracker.js";
import type { AcceptanceReminders } from "./trackerReminders.js";
import type { TrackingObserver } from "./trackerReports.js";
import type { ReadOrder, ReadTarget } from "./trackInput.js";

export {
  isTrackTargetKind,
  TRACK_TARGET_KINDS,
  type TrackTarget,
  type TrackTargetKind,
} from "../domain/statuses.js";
export * from "./draftReminders.js";
export * from "./errors.js";
export * from "./homeRefresh.js";
export * from "./notifier.js";
export * from "./notifierInput.js";
export * from "./orderMessages.js";
export * from "./outbox.js";
export * from "./placement.js";
export * from "./placementContract.js";
export * from "./placementJournal.js";
export * from "./queues.js";
export * from "./quotePoller.js";
export * from "./rateLimiter.js";
export * from "./schedule.js";
export * from "./tracker.js";
export * from "./trackerRecords.js";
export * from "./trackerReminders.js";
export * from "./trackerReports.js";
export * from "./trackInput.js";
export { closeRedis, closeWithTimeout, createCommandConnection, createWorkerConnection };

/**
 * Starts the background side: queues always (any process can enqueue), workers only where
 * their collaborators are given and `workers` is not false. So the HTTP process can run it as a
 * producer only while `npm run worker` processes, or one process can do both; several replicas
 * may share one Redis and prefix.
 */

type WorkerKind = "notify" | "tracking" | "quotes" | "placement" | "drafts" | "maintenance";

export interface WorkerTuning {
  concurrency?: number;
  /** How long a job's lock lasts without renewal (a dead worker's job is handed back after). */
  lockDuration?: number;
  /** How often stalled jobs (locks expired) are looked for. */
  stalledInterval?: number;
  /** Stalls a job survives before it fails; long-lived jobs need many (restarts over weeks). */
  maxStalledCount?: number;
}

const DEFAULT_TUNING: Record<WorkerKind, Required<WorkerTuning>> = {
  notify: { concurrency: 20, lockDuration: 30_000, stalledInterval: 30_000, maxStalledCount: 20 },
  // A tracking job lives for weeks: every restart mid-step is a stall; never let that kill it.
  tracking: {
    concurrency: 10,
    lockDuration: 60_000,
    stalledInterval: 30_000,
    maxStalledCount: 1_000,
  },
  quotes: { concurrency: 10, lockDuration: 60_000, stalledInterval: 30_000, maxStalledCount: 20 },
  // A stalled placement re-run carries its claim on by the placement journal (placement.ts).
  placement: {
    concurrency: 5,
    lockDuration: 120_000,
    stalledInterval: 30_000,
    maxStalledCount: 5,
  },
  drafts: { concurrency: 5, lockDuration: 60_000, stalledInterval: 30_000, maxStalledCount: 20 },
  maintenance: {
    concurrency: 1,
    lockDuration: 120_000,
    stalledInterval: 30_000,
    maxStalledCount: 5,
  },
};

export interface StartJobsOptions<QuoteResult = unknown> {
  redisUrl: string;
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
  /** Edge quote polling. Without it, no quote worker runs here. */
  quotes?: QuoteCallbacks<QuoteResult>;
  /** Placing approved orders. Without it, no placement worker or reconciler runs here. */
  placement?: { store: StoreForPlacement } & PlacementCallbacks;
  /**
   * Edge draft expiry reminders: the provider's clock (the sandbox's in sandbox mode) and the
   * callbacks. Without callbacks, no reminder worker runs here (remembering still queues).
   */
  draftReminders?: { callbacks?: DraftReminderCallbacks; now?: () => Date };
  /** Global provider request rate shared by all replicas; false for none. Default 10/s. */
  providerRateLimit?: { requestsPerSecond: number; marginMs?: number; maxWaitMs?: number } | false;
  /** Jobs processed in parallel per worker kind (shorthand for workerTuning.*.concurrency). */
  concurrency?: Partial<Record<WorkerKind, number>>;
  workerTuning?: Partial<Record<WorkerKind, WorkerTuning>>;
  now?: () => Date;
  random?: () => number;
  notifierSettings?: {
    perChannelIntervalMs?: number;
    markerTtlSeconds?: number;
    maxAttempts?: number;
    /** App Home: at most one publish per person per this window (default 2000 ms). */
    homeDebounceMs?: number;
    retryBaseMs?: number;
    retryMaxMs?: number;
  };
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
  rateLimiter: ProviderRateLimiter | undefined;
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

/**
 * BullMQ logs every job event to a stream of 10,000 entries per queue by default (stored in
 * the queue's meta, read by its scripts), for QueueEvents listeners. Nothing here listens, and
 * with thousands of tracked orders that stream was a sixth of their Redis memory (npm run
 * bench); a short tail stays for debugging.
 */
const EVENTS_KEPT = 100;

export async function startJobs<QuoteResult = unknown>(
  options: StartJobsOptions<QuoteResult>,
): Promise<Jobs<QuoteResult>> {
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const logger = options.logger;
  const metrics = options.metrics;
  const commandRedis = createCommandConnection(options.redisUrl, `${prefix}:jobs:commands`);
  const workerRedis = createWorkerConnection(options.redisUrl, `${prefix}:jobs:workers`);
  commandRedis.on("error", (error) => logger.warn({ err: errorText(error) }, "jobs: Redis error"));
  workerRedis.on("error", (error) => logger.warn({ err: errorText(error) }, "jobs: Redis error"));

  const queueNames: Record<WorkerKind, string> = {
    notify: QUEUE_NAMES.notify,
    tracking: QUEUE_NAMES.tracking,
    quotes: QUEUE_NAMES.quotes,
    placement: QUEUE_NAMES.placement,
    drafts: QUEUE_NAMES.drafts,
    maintenance: QUEUE_NAMES.maintenance,
  };
  const queues = Object.fromEntries(
    (Object.keys(queueNames) as WorkerKind[]).map((kind) => {
      const queue = new Queue(queueNames[kind], {
        connection: commandRedis,
        prefix,
        streams: { events: { maxLen: EVENTS_KEPT } },
      });
      queue.on("error", (error) =>
        logger.warn({ queue: queueNames[kind], err: errorText(error) }, "jobs: queue error"),
      );
      return [kind, queue];
    }),
  ) as Record<WorkerKind, Queue>;

  const notifier = new Notifier({
    redis: commandRedis,
    queue: queues.notify,
    prefix,
    logger,
    metrics,
    slack: options.slack,
    home: options.home,
    ...options.notifierSettings,
  });
  const tracker = new Tracker({
    redis: commandRedis,
    queue: queues.tracking,
    prefix,
    logger,
    metrics,
    notifier,
    observer: options.trackingObserver,
    readTarget: options.readTarget,
    readOrder: options.readOrder,
    now: options.now,
    random: options.random,
    // Who sees a tracked target in App Home: whoever asked to track it.
    onChange: options.home
      ? async (record) => {
          for (const userId of new Set([record.requestedBy, ...record.watchers])) {
            await notifier.refreshHome(userId);
          }
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
  const rateLimiter =
    options.providerRateLimit === false
      ? undefined
      : createProviderRateLimiter({
          redis: commandRedis,
          prefix,
          ...(options.providerRateLimit ?? {
            requestsPerSecond: DEFAULT_PROVIDER_REQUESTS_PER_SECOND,
          }),
        });

  async function runMaintenance(): Promise<MaintenanceReport> {
    const report: MaintenanceReport = {
      trackersRecreated: await tracker.reconcile(),
      drainJobsRecreated: await notifier.reconcile(),
    };
    if (options.placement) report.placement = await placement.reconcile();
    return report;
  }

  const workers: Worker[] = [];
  const startWorker = (
    kind: WorkerKind,
    process: (job: Job, token?: string) => Promise<unknown>,
  ) => {
    const tuning = {
      ...DEFAULT_TUNING[kind],
      ...options.workerTuning?.[kind],
      ...(options.concurrency?.[kind] ? { concurrency: options.concurrency[kind] } : {}),
    };
    const worker = new Worker(
      queueNames[kind],
      (job, token) => withRequestId(`${kind}-${job.id ?? "job"}`, () => process(job, token)),
      { connection: workerRedis, prefix, ...tuning },
    );
    worker.on("error", (error) =>
      logger.warn({ queue: queueNames[kind], err: errorText(error) }, "jobs: worker error"),
    );
    worker.on("failed", (job, error) => {
      metrics?.jobOutcomes.inc({ queue: queueNames[kind], outcome: "error" });
      logger.error(
        {
          queue: queueNames[kind],
          jobId: job?.id,
          attempts: job?.attemptsMade,
          err: error.message,
        },
        "jobs: job failed",
      );
    });
    workers.push(worker);
  };

  async function shutdownAfterFailedStart(): Promise<void> {
    await Promise.all(workers.map((worker) => closeWithTimeout(worker, 2_000)));
    await Promise.all(Object.values(queues).map((queue) => closeWithTimeout(queue, 2_000)));
    await Promise.all([closeRedis(workerRedis, 1_000), closeRedis(commandRedis, 1_000)]);
  }

  if (options.workers !== false) {
    try {
      await startWorkers();
    } catch (error) {
      // E.g. Redis unreachable at start: leave no connections or workers behind.
      await shutdownAfterFailedStart();
      throw error;
    }
  }

  async function startWorkers(): Promise<void> {
    if (options.slack) startWorker("notify", (job, token) => notifier.process(job, token));
    if (options.readTarget || options.readOrder)
      startWorker("tracking", (job, token) => tracker.process(job, token));
    if (options.quotes) startWorker("quotes", (job, token) => quotePoller.process(job, token));
    if (options.placement) startWorker("placement", (job) => placement.processJob(job));
    if (options.draftReminders?.callbacks)
      startWorker("drafts", (job, token) => draftReminders.process(job, token));
    startWorker("maintenance", () => runMaintenance());
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

  async function refreshQueueDepths(): Promise<void> {
    if (!metrics) return;
    for (const kind of Object.keys(queues) as WorkerKind[]) {
      const counts = await queues[kind].getJobCounts("waiting", "delayed", "active", "failed");
      for (const [state, count] of Object.entries(counts)) {
        metrics.queueDepth.set({ queue: queueNames[kind], state }, count);
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
      const started = Date.now();
      const left = () => Math.max(0, timeoutMs - (Date.now() - started));
      // Most of the budget lets active jobs finish; the rest is for dropping connections.
      const graceful = await Promise.all(
        workers.map((worker) => closeWithTimeout(worker, Math.floor(timeoutMs * 0.7))),
      );
      let clean = graceful.every(Boolean);
      if (!clean) {
        logger.warn("jobs: workers did not finish in time; handing their jobs back");
        await Promise.all(
          workers.map((worker, i) =>
            graceful[i] ? true : closeWithTimeout({ close: () => worker.disconnect() }, left() / 3),
          ),
        );
      }
      const queuesClosed = await Promise.all(
        Object.values(queues).map((queue) => closeWithTimeout(queue, left() / 2)),
      );
      clean = clean && queuesClosed.every(Boolean);
      const redisClosed = await Promise.all([
        closeRedis(workerRedis, left() / 2),
        closeRedis(commandRedis, left() / 2),
      ]);
      return { clean: clean && redisClosed.every(Boolean) };
    })();
    return closing;
  }

  return {
    notifier,
    tracker,
    quotePoller,
    placement,
    draftReminders,
    rateLimiter,
    queues,
    runMaintenance,
    refreshQueueDepths,
    close,
  };
}
