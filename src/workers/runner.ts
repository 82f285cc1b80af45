import { type Job, Worker } from "bullmq";
import type { Redis } from "ioredis";
import { withRequestId } from "../context.js";
import {
  closeWithTimeout,
  errorText,
  QUEUE_OF,
  queuePrefix,
  type WorkerKind,
} from "../jobs/index.js";
import type { Logger } from "../log.js";
import type { Metrics } from "../metrics.js";

/**
 * How a job is run: a BullMQ worker per kind of work where this process processes it (on
 * src/jobs' queues and worker connection), each kind's lock and stall settings, and their
 * bounded shutdown. What a job does is its part's (the notifier's drain, the tracker, the
 * placement…); here only how it is run.
 */

export interface WorkerTuning {
  concurrency?: number;
  /** How long a job's lock lasts without renewal (a dead worker's job is handed back after). */
  lockDuration?: number;
  /** How often stalled jobs (locks expired) are looked for. */
  stalledInterval?: number;
  /** Stalls a job survives before it fails; long-lived jobs need many (restarts over weeks). */
  maxStalledCount?: number;
}

/**
 * A dead worker's job is handed back by the first stall check after its lock expired: at most
 * `lockDuration + stalledInterval` after the worker's last sign of life (plus whatever a loaded
 * machine delays the timers) (BullMQ renews a live
 * job's lock every `lockDuration / 2`, and a check marks the active jobs it will hand back at
 * the next one, unless their lock is renewed meanwhile). For a placement and for the outbox that
 * tells its approvers that is 20 + 5 = 25 s, which leaves the rest of issue 31's minute for the
 * approvals channel's paced backlog (1 message a second) to reach the news. The price: a worker
 * cut off from Redis (or with its event loop blocked) for over 20 s has its placement taken
 * over, which the placement journal makes safe (a look-up, never a second order).
 */
export const RECOVERY_TUNING = { lockDuration: 20_000, stalledInterval: 5_000 } as const;

const DEFAULT_TUNING: Record<WorkerKind, Required<WorkerTuning>> = {
  notify: { concurrency: 20, ...RECOVERY_TUNING, maxStalledCount: 20 },
  // A tracking job lives for weeks: every restart mid-step is a stall; never let that kill it.
  tracking: {
    concurrency: 10,
    lockDuration: 60_000,
    stalledInterval: 30_000,
    maxStalledCount: 1_000,
  },
  quotes: { concurrency: 10, lockDuration: 60_000, stalledInterval: 30_000, maxStalledCount: 20 },
  // A stalled placement re-run carries its claim on by the placement journal (placement.ts).
  placement: { concurrency: 5, ...RECOVERY_TUNING, maxStalledCount: 5 },
  drafts: { concurrency: 5, lockDuration: 60_000, stalledInterval: 30_000, maxStalledCount: 20 },
  maintenance: {
    concurrency: 1,
    lockDuration: 120_000,
    stalledInterval: 30_000,
    maxStalledCount: 5,
  },
};

export interface WorkerSettings {
  /** A worker connection (`maxRetriesPerRequest: null`). */
  connection: Redis;
  prefix: string;
  logger: Logger;
  metrics?: Pick<Metrics, "jobOutcomes">;
  workerTuning?: Partial<Record<WorkerKind, WorkerTuning>>;
  /** Shorthand for workerTuning.*.concurrency. */
  concurrency?: Partial<Record<WorkerKind, number>>;
}

/** A worker of one kind: each job runs under its own request id; failures are logged, counted. */
export function startWorker(
  kind: WorkerKind,
  process: (job: Job, token?: string) => Promise<unknown>,
  settings: WorkerSettings,
): Worker {
  const { connection, prefix, logger, metrics } = settings;
  const queue = QUEUE_OF[kind];
  const tuning = {
    ...DEFAULT_TUNING[kind],
    ...settings.workerTuning?.[kind],
    ...(settings.concurrency?.[kind] ? { concurrency: settings.concurrency[kind] } : {}),
  };
  const worker = new Worker(
    queue,
    (job, token) => withRequestId(`${kind}-${job.id ?? "job"}`, () => process(job, token)),
    { connection, prefix: queuePrefix(prefix, queue), ...tuning },
  );
  worker.on("error", (error) =>
    logger.warn({ queue, err: errorText(error) }, "jobs: worker error"),
  );
  worker.on("failed", (job, error) => {
    metrics?.jobOutcomes.inc({ queue, outcome: "error" });
    logger.error(
      { queue, jobId: job?.id, attempts: job?.attemptsMade, err: error.message },
      "jobs: job failed",
    );
  });
  return worker;
}

/**
 * Stops taking work and lets active jobs finish for 7/8 of `timeoutMs`, then drops the
 * workers that did not (their unfinished jobs are handed back when their locks expire). Always
 * resolves within about `timeoutMs`; the queues and connections are src/jobs' to close after.
 */
export async function closeWorkers(
  workers: Worker[],
  timeoutMs: number,
  logger: Logger,
): Promise<{ clean: boolean }> {
  const started = Date.now();
  const left = () => Math.max(0, timeoutMs - (Date.now() - started));
  // Most of the budget lets active jobs finish; the rest is for dropping the workers' sockets.
  const graceful = await Promise.all(
    workers.map((worker) => closeWithTimeout(worker, Math.floor(timeoutMs * 0.875))),
  );
  const clean = graceful.every(Boolean);
  if (!clean) {
    logger.warn("workers: did not finish in time; handing their jobs back");
    await Promise.all(
      workers.map((worker, i) =>
        graceful[i] ? true : closeWithTimeout({ close: () => worker.disconnect() }, left()),
      ),
    );
  }
  return { clean };
}
