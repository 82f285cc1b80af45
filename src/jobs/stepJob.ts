import { type BackoffOptions, DelayedError, type Job, type JobsOptions, type Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "../log.js";
import type { Metrics } from "../metrics.js";
import type { QueueName } from "./queues.js";

/**
 * The BullMQ mechanics the step jobs here share (the tracker's, the notifier's drainers, the
 * placements): a step that re-delays its own job, what counts as a job that will still run, and
 * the outcome counter. Written once so every queue follows the same rules — in particular the
 * reconcilers' "is this job still alive?", on which re-creating lost jobs depends.
 */

/** What every part of the background side is built with. */
export interface JobPartOptions {
  /** A command connection (not a worker's), for the part's own records. */
  redis: Redis;
  /** The part's queue (QUEUE_NAMES). */
  queue: Queue;
  /** The key prefix shared with the queues (see stateKey). */
  prefix: string;
  logger: Logger;
  metrics?: Pick<Metrics, "jobOutcomes">;
}

/**
 * Ends a step: the job waits in delayed for `ms`, then runs its next step. BullMQ's step-job
 * pattern: the job is moved with its lock token, and DelayedError tells the worker not to
 * complete it.
 */
export async function delayStep(job: Job, token: string | undefined, ms: number): Promise<never> {
  await job.moveToDelayed(Date.now() + ms, token);
  throw new DelayedError();
}

export interface FoundJob {
  job: Job | undefined;
  /** BullMQ's state of the job, or `missing`. */
  state: string;
  /** It will run (again): waiting, delayed, active, prioritised… — not finished, failed or gone. */
  live: boolean;
}

/** A job by id, with whether it is still alive (a reconciler re-creates one that is not). */
export async function findJob(queue: Queue, jobId: string): Promise<FoundJob> {
  const job = await queue.getJob(jobId);
  if (!job) return { job: undefined, state: "missing", live: false };
  const state = await job.getState();
  return { job, state, live: state !== "completed" && state !== "failed" && state !== "unknown" };
}

/** Removes a job that is over (if any), so that its id can be added afresh; never throws. */
export async function discardJob(job: Job | undefined): Promise<void> {
  await job?.remove().catch(() => undefined);
}

/**
 * A reconciler's repair: a job that is gone or over (completed, failed) is re-created by `add`,
 * after what is left of it is removed (its id must be free); a live job is left alone. Says
 * what it found, and whether it re-created the job.
 */
export async function recreateIfLost(
  queue: Queue,
  jobId: string,
  add: () => Promise<unknown>,
): Promise<{ state: string; recreated: boolean }> {
  const { job, state, live } = await findJob(queue, jobId);
  if (live) return { state, recreated: false };
  await discardJob(job);
  await add();
  return { state, recreated: true };
}

/**
 * A step job's options: removed once complete, kept `keepFailedDays` after failing (for a
 * look). Its `attempts` and `backoff` cover only what a step does not handle itself (Redis
 * trouble): each part handles its own failures (provider, Slack) inside the step.
 */
export function stepJobOptions(
  jobId: string,
  retry: { keepFailedDays: number; attempts: number; backoff: BackoffOptions },
): JobsOptions {
  return {
    jobId,
    removeOnComplete: true,
    removeOnFail: { age: retry.keepFailedDays * 24 * 3600 },
    attempts: retry.attempts,
    backoff: retry.backoff,
  };
}

/** Counts a step's outcome in `job_outcomes_total{queue,outcome}`. */
export function outcomeCounter(
  metrics: Pick<Metrics, "jobOutcomes"> | undefined,
  queue: QueueName,
): (outcome: string) => void {
  return (outcome) => metrics?.jobOutcomes.inc({ queue, outcome });
}
