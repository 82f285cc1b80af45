import type { Job, Queue } from "bullmq";
import type { Logger } from "../log.js";
import type { Metrics } from "../metrics.js";
import { type RedisTopology, singleRedis } from "../redisTopology.js";
import { type DraftReminderCallbacks, DraftReminders } from "./draftReminders.js";
import { errorText } from "./errors.js";
import type { HomePublisher } from "./notifier/homeRefresh.js";
import { Notifier, type SlackChatApi, type SlackFunctionsApi } from "./notifier/notifier.js";
import type { MessageRenderer } from "./notifier/renderedUpdate.js";
import { DEFAULT_PREFIX, QUEUE_NAMES } from "./queues.js";
import { type QuoteCallbacks, QuotePoller } from "./quotes/quotePoller.js";
import type { JobPartOptions } from "./stepJob.js";
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
} from "../domain/tracking/statuses.js";
export { closeRedis, closeWithTimeout } from "./connection.js";

/** Where `startJobs` connects when given neither a topology nor a URL. */
const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379";

export * from "./draftReminders.js";
export * from "./notifier/homeRefresh.js";
export * from "./notifier/notifier.js";
export { NotifierInputError } from "./notifier/notifierInput.js";
export { DEFAULT_MARKER_TTL_SECONDS, type MessageState } from "./notifier/outbox.js";
export type {
  MessageRenderer,
  RenderedMessage,
  RenderedUpdateInput,
} from "./notifier/renderedUpdate.js";
export * from "./queues.js";
export * from "./quotes/quotePoller.js";
export * from "./schedule.js";
export type { JobPartOptions } from "./stepJob.js";
export type { WorkerKind, WorkerTuning } from "./workers.js";

/**
 * Starts the background side: queues always (any process can enqueue), workers only where
 * their collaborators are given and `workers` is not false. So the HTTP process can run it as a
 * producer only while `npm run worker` processes, or one process can do both; several replicas
 * may share one Redis and prefix.
 *
 * The jobs that perform a step of the order lifecycle (placement, tracking) are not built here:
 * they live with the lifecycle (src/orders/placement, src/orders/tracking), which builds them
 * on a queue and the command connection of this layer (`partOptions`) and hands them back to
 * `run`, the worker runner. So nothing here calls up into src/orders.
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
   * Renders and publishes a person's App Home (`views.publish`); with it, `notifier.refreshHome`
   * publishes (a tracked target's change refreshes its audience's Home: src/orders/tracking's
   * `refreshHomes`).
   */
  home?: HomePublisher;
  /**
   * The notifier's render port (renderedUpdate.ts `MessageRenderer`): renders a kept message (a
   * request's approval message or card, `notifier.updateRendered`) from the latest state when
   * its update is sent; src/orders' `requestMessageRenderer`. Given here, when the
   * notifier is built; without it such updates are dropped as `no_renderer`.
   */
  render?: MessageRenderer;
  /** Edge quote polling. Without it, no quote worker runs here. */
  quotes?: QuoteCallbacks<QuoteResult>;
  /**
   * Edge draft expiry reminders: the provider's clock (the sandbox's in sandbox mode) and the
   * callbacks. Without callbacks, no reminder worker runs here (remembering still queues).
   */
  draftReminders?: { callbacks?: DraftReminderCallbacks; now?: () => Date };
  /** Jobs processed in parallel per worker kind (shorthand for workerTuning.*.concurrency). */
  concurrency?: Partial<Record<WorkerKind, number>>;
  workerTuning?: Partial<Record<WorkerKind, WorkerTuning>>;
  now?: () => Date;
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
  quoteSettings?: { timeoutMs?: number; firstDelayMs?: number; maxDelayMs?: number };
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

/** What a part's reconciler counted (e.g. placement's `{ requeued, stuck, retriedLookups }`). */
export type PartReport = Record<string, number>;

/** The notifier's repairs, and each part's run with `run(kind, …)`, by its kind. */
export type MaintenanceReport = { drainJobsRecreated: number } & Partial<
  Record<WorkerKind, PartReport>
>;

/**
 * A part a higher layer builds on this layer's queue (`partOptions`) and hands to `run`: what
 * one job of its queue does, and the reconciler that re-creates what a crash lost.
 */
export interface JobWork {
  /** Without it, no worker: the part only reconciles (e.g. a tracker with no reader here). */
  process?(job: Job, token?: string): Promise<unknown>;
  reconcile?(): Promise<PartReport>;
}

export interface Jobs<QuoteResult = unknown> {
  notifier: Notifier;
  quotePoller: QuotePoller<QuoteResult>;
  draftReminders: DraftReminders;
  queues: Record<WorkerKind, Queue>;
  /** What a part built outside this layer runs on: its queue, the command connection, the prefix. */
  partOptions(kind: WorkerKind): JobPartOptions;
  /**
   * Runs `work` on `kind`'s queue: a worker where this process runs workers (not with
   * `workers: false`), its reconciler with the others (on the schedule, in `runMaintenance`,
   * and once now when `reconcileOnStart`).
   */
  run(kind: WorkerKind, work: JobWork): void;
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
  const quotePoller = new QuotePoller<QuoteResult>({
    queue: queues.quotes,
    logger,
    metrics,
    notifier,
    callbacks: options.quotes,
    now: options.now,
    ...options.quoteSettings,
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

  /** The reconcilers of the parts handed to `run`, by kind. */
  const reconcilers = new Map<WorkerKind, () => Promise<PartReport>>();
  async function runMaintenance(): Promise<MaintenanceReport> {
    const report: MaintenanceReport = { drainJobsRecreated: await notifier.reconcile() };
    for (const [kind, reconcile] of reconcilers) report[kind] = await reconcile();
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
  const workersHere = options.workers !== false;
  const startAWorker = (kind: WorkerKind, process: NonNullable<JobWork["process"]>) => {
    running.workers.push(startWorker(kind, process, settings));
  };

  async function startWorkers(): Promise<void> {
    if (options.slack) startAWorker("notify", (job, token) => notifier.process(job, token));
    if (options.quotes) startAWorker("quotes", (job, token) => quotePoller.process(job, token));
    if (options.draftReminders?.callbacks)
      startAWorker("drafts", (job, token) => draftReminders.process(job, token));
    startAWorker("maintenance", () => runMaintenance());
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

  if (workersHere) {
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

  function partOptions(kind: WorkerKind): JobPartOptions {
    return { redis: commandRedis, queue: queues[kind], prefix, logger, metrics };
  }

  function run(kind: WorkerKind, work: JobWork): void {
    if (work.reconcile) reconcilers.set(kind, () => work.reconcile!());
    if (!workersHere) return;
    if (work.process) startAWorker(kind, work.process.bind(work));
    if (work.reconcile && options.reconcileOnStart !== false) {
      // As at start: catch up at once on what a crash left behind.
      work
        .reconcile()
        .catch((error) =>
          logger.warn({ err: errorText(error), kind }, "jobs: start-up reconcile failed"),
        );
    }
  }

  return {
    notifier,
    quotePoller,
    draftReminders,
    queues,
    partOptions,
    run,
    runMaintenance,
    refreshQueueDepths,
    close,
  };
}
