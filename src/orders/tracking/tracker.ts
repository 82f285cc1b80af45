import { ErrorCode, type Job } from "bullmq";
import { isTrackTargetKind, type TrackTarget } from "../../domain/tracking/statuses.js";
import type { Notifier } from "../../jobs/notifier/notifier.js";
import { jobIdPart, QUEUE_NAMES } from "../../jobs/queues.js";
import { DAY_MS, DEFAULT_SCHEDULE, HOUR_MS, type TrackingSchedule } from "../../jobs/schedule.js";
import {
  discardJob,
  type JobPartOptions,
  outcomeCounter,
  recreateIfLost,
  stepJobOptions,
} from "../../jobs/stepJob.js";
import {
  ordersOnly,
  type ReadOrder,
  type ReadTarget,
  resolveTrackInput,
  type TrackInput,
} from "./input.js";
import {
  F,
  isOrderTarget,
  type RecordUpdates,
  type TrackedOrder,
  TrackerRecords,
  targetOfMember,
} from "./records.js";
import { type AcceptanceReminders, DEFAULT_ACCEPTANCE_REMINDERS } from "./reminders.js";
import { type TrackingObserver, TrackingReporter } from "./reports.js";
import { TrackerStep } from "./step.js";

/**
 * Tracking what was ordered until it ends: a port order, an Edge port order, a port, a layer 2
 * connection or an IO-D service (a "target"). One durable record and ONE long-lived BullMQ job
 * per target.
 *
 * - The record (a small Redis hash, records.ts) is the truth: who asked, where to post,
 *   the last status and LOA status seen, a change counter. `track()` creates it in one script,
 *   or joins the open one: one tracker per target across every replica.
 * - The job is a step job (step.ts): each step reads the target (the reader injected for its kind,
 *   checked by input.ts), posts what changed (reports.ts, reminders.ts),
 *   saves the record, then moves itself to delayed for the next interval (schedule.ts) and
 *   throws DelayedError. Nothing else is queued per target.
 * - Notification keys include the tracker's start time, the change counter and the new status
 *   and LOA status. A step that crashes after posting and before saving runs again with the
 *   same counter, so its messages are de-duplicated by the notifier, never posted twice; a
 *   status that comes back later (A → B → A) has a new counter and is posted.
 * - A lost job (crash between record and job, a failed job) is re-created by `reconcile()`,
 *   which also runs on a schedule: the record, not BullMQ, says what is tracked.
 * - Port and Edge orders keep the layout they had before other kinds were tracked (job
 *   `track-<id>` with data `{orderId}`); other kinds are `track-<kind>-<id>` with data
 *   `{target}`.
 */

export type TrackResult =
  | { tracking: TrackedOrder; joined: false }
  | { tracking: TrackedOrder; joined: true };

export type StopResult =
  | { ok: true; tracking: TrackedOrder }
  | { ok: false; reason: "not-tracked" | "not-allowed" };

export interface TrackerOptions extends JobPartOptions {
  notifier: Pick<Notifier, "post" | "update">;
  /** Told of each status and end of trackers that carry a `ref`; a failure is logged, not retried. */
  observer?: TrackingObserver;
  /** Reads every kind of target; needed only where tracking jobs are processed. */
  readTarget?: ReadTarget;
  /** Reads port and Edge orders where no `readTarget` is given (the older option). */
  readOrder?: ReadOrder;
  now?: () => Date;
  random?: () => number;
  schedule?: TrackingSchedule;
  /** Tracking ends with a message after this many days. Default 60. */
  deadlineDays?: number;
  /** How long an ended record is kept (for list/debugging). Default 7 days. */
  endedRetentionMs?: number;
  /** While a partner has to accept, check at most this often. Default 1 hour. */
  waitingEveryMs?: number;
  /** Reminders to the requester while a partner has not accepted. Default 7 days, weekly, 8. */
  acceptanceReminders?: AcceptanceReminders;
  /**
   * Told when a tracked target's status changed or its tracking ended (App Home refreshes the
   * people who see it). A failure is logged, never fails the step.
   */
  onChange?: (record: TrackedOrder) => Promise<unknown>;
}

/** A port or Edge order's job carries `{orderId}` (as before other kinds); others `{target}`. */
type TrackJobData = { orderId: string } | { target: TrackTarget };

/** The job of a tracked port or Edge order. */
export function trackJobId(orderId: string): string {
  return `track-${jobIdPart(orderId)}`;
}

/** The job of any tracked target. */
export function trackJobIdOf(target: TrackTarget): string {
  return isOrderTarget(target)
    ? trackJobId(target.id)
    : `track-${target.kind}-${jobIdPart(target.id)}`;
}

export class Tracker {
  private readonly records: TrackerRecords;
  private readonly report: TrackingReporter;
  private readonly step: TrackerStep;
  private readonly now: () => Date;
  private readonly count: (outcome: string) => void;

  constructor(private readonly options: TrackerOptions) {
    const deadlineDays = options.deadlineDays ?? 60;
    this.now = options.now ?? (() => new Date());
    this.count = outcomeCounter(options.metrics, QUEUE_NAMES.tracking);
    this.records = new TrackerRecords(
      options.redis,
      options.prefix,
      options.endedRetentionMs ?? 7 * DAY_MS,
    );
    this.report = new TrackingReporter({
      notifier: options.notifier,
      logger: options.logger,
      observer: options.observer,
      onChange: options.onChange,
      deadlineDays,
    });
    this.step = new TrackerStep({
      records: this.records,
      report: this.report,
      logger: options.logger,
      count: this.count,
      readTarget: options.readTarget ?? ordersOnly(options.readOrder),
      now: this.now,
      random: options.random ?? Math.random,
      schedule: options.schedule ?? DEFAULT_SCHEDULE,
      deadlineDays,
      waitingEveryMs: options.waitingEveryMs ?? HOUR_MS,
      acceptanceReminders: options.acceptanceReminders ?? DEFAULT_ACCEPTANCE_REMINDERS,
      follow: (input) => this.track(input),
    });
  }

  /** Starts tracking a target, or joins the tracker already open for it. */
  async track(input: TrackInput): Promise<TrackResult> {
    const { target, kind } = resolveTrackInput(input);
    const startedAt = this.now().getTime();
    const fields: RecordUpdates = {
      [F.orderId]: target.id,
      [F.target]: target.kind,
      [F.company]: input.companyName,
      [F.channel]: input.channel,
      [F.thread]: input.threadTs,
      [F.by]: input.requestedBy,
      [F.kind]: kind,
      [F.started]: String(startedAt),
      [F.state]: "open",
      [F.seq]: "0",
      [F.checks]: "0",
      [F.failures]: "0",
    };
    if (input.statusMessageTs) fields[F.line] = input.statusMessageTs;
    if (input.counterparty) fields[F.counterparty] = input.counterparty;
    if (input.ref) fields[F.ref] = input.ref;
    const created = await this.records.create(target, startedAt, input.requestedBy, fields);
    if (created) {
      await this.addJob(target, 0);
      this.count("started");
      this.options.logger.info(
        { target: target.kind, id: target.id, channel: input.channel },
        "tracker: started",
      );
    } else {
      this.count("joined");
    }
    const tracking = await this.get(target);
    if (!tracking) throw new Error(`tracking record of ${target.kind} ${target.id} vanished`);
    return created ? { tracking, joined: false } : { tracking, joined: true };
  }

  /**
   * The tracker of a target (open or recently ended), or null. A bare id is a port or Edge order
   * first, then a port, a layer 2 connection or an IO-D service (ids are the provider's, unique).
   */
  get(ref: string | TrackTarget): Promise<TrackedOrder | null> {
    return this.records.get(ref);
  }

  /** Every open tracker, oldest first. */
  list(): Promise<TrackedOrder[]> {
    return this.records.list();
  }

  /**
   * Stops a tracker: only its owner or an approver. Says so in the thread.
   * `isApprover` is the caller's policy (APPROVERS, user groups).
   */
  async stop(
    ref: string | TrackTarget,
    by: string,
    options: { isApprover?: (userId: string) => boolean | Promise<boolean> } = {},
  ): Promise<StopResult> {
    const record = await this.get(ref);
    if (!record?.open) return { ok: false, reason: "not-tracked" };
    const allowed = record.requestedBy === by || (await options.isApprover?.(by)) === true;
    if (!allowed) return { ok: false, reason: "not-allowed" };
    const ended = await this.records.end(record, `stopped by ${by}`, {});
    if (!ended) return { ok: false, reason: "not-tracked" };
    await this.report.sayStopped(record, "stopped", this.report.messages.stoppedText(record, by));
    await this.report.observe(record, "stopped", {
      status: record.status,
      ended: { outcome: "stopped", by },
    });
    // An active step finds the record ended and completes on its own.
    await discardJob(await this.options.queue.getJob(trackJobIdOf(record.target)));
    this.count("stopped");
    const after = await this.get(record.target);
    return { ok: true, tracking: after ?? { ...record, open: false } };
  }

  /**
   * Runs the target's next check now (e.g. a "refresh" button, or tests). One script moves the
   * step job from delayed to waiting; it refuses (JobNotInState) a job that is missing or not
   * delayed — waiting or active, it is checking now anyway — and that is answered false.
   */
  async checkNow(ref: string | TrackTarget): Promise<boolean> {
    const target = typeof ref === "string" ? (await this.get(ref))?.target : ref;
    if (!target) return false;
    try {
      await this.options.queue.backend.promote(trackJobIdOf(target));
      return true;
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code === ErrorCode.JobNotInState) return false;
      throw error;
    }
  }

  /** Whether it reads targets here (a reader was given): only then src/workers runs its jobs. */
  get canProcess(): boolean {
    return this.options.readTarget !== undefined || this.options.readOrder !== undefined;
  }

  /**
   * Re-creates the job of every open tracker whose job is missing, completed or failed; drops
   * index entries whose record is gone. Returns how many jobs were re-created.
   */
  async reconcile(): Promise<number> {
    let recreated = 0;
    for (const member of await this.records.openMembers()) {
      const record = await this.get(targetOfMember(member));
      if (!record?.open) {
        await this.records.dropMember(member);
        continue;
      }
      const jobId = trackJobIdOf(record.target);
      const found = await recreateIfLost(this.options.queue, jobId, () =>
        this.addJob(record.target, 0),
      );
      if (!found.recreated) continue;
      recreated += 1;
      this.count("recreated");
      this.options.logger.warn(
        { target: record.target.kind, id: record.target.id, state: found.state },
        "tracker: re-created a lost tracking job",
      );
    }
    return recreated;
  }

  /** The step job's processor (step.ts). */
  async process(job: Job, token: string | undefined): Promise<string> {
    const target = targetOfJob(job.data);
    if (!target) {
      this.options.logger.error({ jobId: job.id }, "tracker: job without a target");
      return "invalid-job";
    }
    return this.step.run(job, token, target);
  }

  private async addJob(target: TrackTarget, delay: number): Promise<void> {
    const data: TrackJobData = isOrderTarget(target)
      ? { orderId: target.id }
      : { target: { kind: target.kind, id: target.id } };
    await this.options.queue.add("track", data, {
      ...stepJobOptions(trackJobIdOf(target), {
        keepFailedDays: 30,
        // Provider errors are handled inside the step; these attempts cover Redis trouble.
        attempts: 100,
        backoff: { type: "fixed", delay: 60_000 },
      }),
      delay,
    });
  }
}

function targetOfJob(data: unknown): TrackTarget | undefined {
  const fields = (typeof data === "object" && data !== null ? data : {}) as {
    orderId?: unknown;
    target?: { kind?: unknown; id?: unknown } | null;
  };
  if (typeof fields.orderId === "string" && fields.orderId !== "") {
    // The order namespace: the record says whether it is a port or an Edge order.
    return { kind: "port-order", id: fields.orderId };
  }
  const target = fields.target;
  if (target && isTrackTargetKind(target.kind) && typeof target.id === "string" && target.id) {
    return { kind: target.kind, id: target.id };
  }
  return undefined;
}
