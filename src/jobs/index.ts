import type { Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "../log.js";
import type { Metrics } from "../metrics.js";
import { type RedisTopology, singleRedis } from "../redis/topology.js";
import { DraftReminders } from "./draftReminders.js";
import { errorText } from "./errors.js";
import { closeQueues, createQueues, QUEUE_OF, type Running, type WorkerKind } from "./jobQueues.js";
import { Notifier, type NotifierSettings } from "./notifier/notifier.js";
import { DEFAULT_PREFIX, QUEUE_NAMES } from "./queues.js";
import { QuotePoller } from "./quotes/quotePoller.js";
import type { JobPartOptions } from "./stepJob.js";

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
export { errorText } from "./errors.js";
export { QUEUE_OF, type WorkerKind } from "./jobQueues.js";
export * from "./notifier/homeRefresh.js";
export * from "./notifier/notifier.js";
export { NotifierInputError } from "./notifier/notifierInput.js";
export {
  DEFAULT_MARKER_TTL_SECONDS,
  KEPT_UPDATES_OUTBOX,
  type MessageState,
  Outbox,
  type OutboxItem,
  parseItem,
} from "./notifier/outbox.js";
export type { RenderedUpdateInput } from "./notifier/renderedUpdate.js";
export * from "./queues.js";
export { type ProviderFailure, readProviderFailure } from "./quotes/providerFailure.js";
export * from "./quotes/quotePoller.js";
export * from "./schedule.js";
export { delayStep, type JobPartOptions, outcomeCounter } from "./stepJob.js";

/**
 * Starts the background side's infrastructure: the queues and the producers on them (the
 * notifier's outbox, the quote poller, the draft reminders), in any process (every process can
 * enqueue). Nothing here runs a job: the BullMQ workers are src/workers' (a worker is a front
 * door, like a Slack listener), started where this process runs workers, on the queues and the
 * worker connection given here (`workerSettings`). Several replicas may share one Redis and prefix.
 *
 * The jobs that perform a step of the order lifecycle (placement, tracking) are not built here:
 * they live with the lifecycle (src/orders/placement, src/orders/tracking), which builds them on
 * a queue and the command connection of this layer (`partOptions`); src/workers runs them. So
 * nothing here calls up into src/orders, nor a function a higher layer handed it.
 */

export interface StartJobsOptions {
  /** Where Redis is (src/redis/topology.ts): every connection of the jobs is made on it. */
  topology?: RedisTopology;
  /** Shorthand for a single Redis at this URL (tests, benchmarks); `topology` wins. */
  redisUrl?: string;
  /** Key prefix of every queue and record; tests use a unique one. Default "connect". */
  prefix?: string;
  logger: Logger;
  metrics?: Pick<Metrics, "jobOutcomes" | "queueDepth">;
  /** Edge draft expiry reminders: the provider's clock (the sandbox's in sandbox mode). */
  draftReminders?: { now?: () => Date };
  now?: () => Date;
  /** The notifier's tuning: its producer's and its drain's (src/workers/notifier). */
  notifierSettings?: NotifierSettings;
  quoteSettings?: { timeoutMs?: number; firstDelayMs?: number; maxDelayMs?: number };
  /** How often queue depths are sampled into the gauge; 0 = only on refreshQueueDepths(). */
  queueDepthEveryMs?: number;
}

/** What src/workers' workers run on: the worker connection (`maxRetriesPerRequest: null`). */
export interface WorkerConnection {
  connection: Redis;
  prefix: string;
  logger: Logger;
  metrics?: Pick<Metrics, "jobOutcomes">;
}

export interface Jobs {
  notifier: Notifier;
  quotePoller: QuotePoller;
  draftReminders: DraftReminders;
  queues: Record<WorkerKind, Queue>;
  /** What a part built outside this layer runs on: its queue, the command connection, the prefix. */
  partOptions(kind: WorkerKind): JobPartOptions;
  /** Where src/workers starts its BullMQ workers: the worker connection, the prefix. */
  workerConnection(): WorkerConnection;
  refreshQueueDepths(): Promise<void>;
  /**
   * Closes the queues and the connections; always resolves within about `timeoutMs`. Workers on
   * them (src/workers) are closed first by whoever started them.
   */
  close(timeoutMs?: number): Promise<{ clean: boolean }>;
}

export async function startJobs(options: StartJobsOptions): Promise<Jobs> {
  const prefix = options.prefix ?? DEFAULT_PREFIX;
  const logger = options.logger;
  const metrics = options.metrics;
  const topology = options.topology ?? singleRedis(options.redisUrl ?? DEFAULT_REDIS_URL);
  const commandRedis = topology.connect("commands", `${prefix}:jobs:commands`);
  const workerRedis = topology.connect("workers", `${prefix}:jobs:workers`);
  commandRedis.on("error", (error) => logger.warn({ err: errorText(error) }, "jobs: Redis error"));
  workerRedis.on("error", (error) => logger.warn({ err: errorText(error) }, "jobs: Redis error"));
  const queues = createQueues(commandRedis, prefix, logger);
  const running: Running = { queues, connections: [workerRedis, commandRedis] };

  const notifier = new Notifier({
    redis: commandRedis,
    queue: queues.notify,
    prefix,
    logger,
    metrics,
    ...options.notifierSettings,
  });
  const quotePoller = new QuotePoller({
    queue: queues.quotes,
    metrics,
    notifier,
    now: options.now,
    ...options.quoteSettings,
  });
  const draftReminders = new DraftReminders({
    redis: commandRedis,
    queue: queues.drafts,
    prefix,
    logger,
    metrics,
    now: options.draftReminders?.now,
  });

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
      return closeQueues(running, timeoutMs);
    })();
    return closing;
  }

  function partOptions(kind: WorkerKind): JobPartOptions {
    return { redis: commandRedis, queue: queues[kind], prefix, logger, metrics };
  }

  function workerConnection(): WorkerConnection {
    return { connection: workerRedis, prefix, logger, metrics };
  }

  return {
    notifier,
    quotePoller,
    draftReminders,
    queues,
    partOptions,
    workerConnection,
    refreshQueueDepths,
    close,
  };
}
