import { DelayedError, ErrorCode, type Job, type Queue } from "bullmq";
import type { Redis } from "ioredis";
import { loaReminderDue } from "../domain/loa.js";
import {
  isTerminalStatus,
  isTrackTargetKind,
  statusEnding,
  statusKey,
  TRACK_TARGET_KINDS,
  type TrackTarget,
  type TrackTargetKind,
  waitsOnAcceptance,
} from "../domain/statuses.js";
import type { Logger } from "../log.js";
import type { Metrics } from "../metrics.js";
import { DEFAULT_MARKER_TTL_SECONDS, errorText, type Notifier } from "./notifier.js";
import {
  acceptanceReminderText,
  changeText,
  deadlineText,
  finalText,
  type OrderKind,
  type OrderSnapshot,
  type PortSummary,
  portToFollow,
  reminderText,
  statusLineText,
  stoppedText,
  trackingStartedText,
} from "./orderMessages.js";
import { readProviderFailure } from "./providerFailure.js";
import { defineScript, jobIdPart, QUEUE_NAMES, stateKey } from "./queues.js";
import {
  DAY_MS,
  DEFAULT_SCHEDULE,
  HOUR_MS,
  nextCheckDelayMs,
  type TrackingSchedule,
  WEEK_MS,
} from "./schedule.js";

export type { TrackTarget, TrackTargetKind };

/**
 * Tracking what was ordered until it ends: a port order, an Edge port order, a port, a layer 2
 * connection or an IO-D service (a "target"). One durable record and ONE long-lived BullMQ job
 * per target.
 *
 * - The record (a small Redis hash) is the truth: who asked, where to post, the last status
 *   and LOA status seen, a change counter. `track()` creates it in one script, or joins the
 *   open one: one tracker per target across every replica.
 * - The job is a step job: each step reads the target (the reader injected for its kind), posts
 *   what changed, saves the record, then moves itself to delayed for the next interval
 *   (schedule.ts) and throws DelayedError. Nothing else is queued per target.
 * - Notification keys include the tracker's start time, the change counter and the new status
 *   and LOA status. A step that crashes after posting and before saving runs again with the
 *   same counter, so its messages are de-duplicated by the notifier, never posted twice; a
 *   status that comes back later (A → B → A) has a new counter and is posted.
 * - A lost job (crash between record and job, a failed job) is re-created by `reconcile()`,
 *   which also runs on a schedule: the record, not BullMQ, says what is tracked.
 * - Port and Edge orders keep the layout they had before other kinds were tracked (record
 *   `tracker:order:<id>`, job `track-<id>` with data `{orderId}`, index member `<id>`), so
 *   records and jobs written by an older version are read as they are. Other kinds are
 *   `tracker:<kind>:<id>`, `track-<kind>-<id>` with data `{target}`, member `<kind>|<id>`.
 */

/** What a reader answers for a target, normalised (raw: the provider's record, for logs). */
export interface TargetRead {
  status: string;
  loaStatus?: string;
  /** Who a waiting status waits on, when the provider's record says (e.g. a company name). */
  waitingOn?: string;
  port?: PortSummary;
  /** A short line worth showing when it ends (e.g. an ERROR's reason). */
  details?: string;
  raw?: unknown;
}

/** A port order as read for tracking (the older name of a target read). */
export type OrderRead = TargetRead;

/** Reads a port order (GET /api/company/{companyName}/ports/orders/{orderId}). */
export type ReadOrder = (companyName: string, orderId: string) => Promise<OrderRead>;

/** Reads any tracked target; throws when it cannot (the step backs off and tries again). */
export type ReadTarget = (target: TrackTarget, companyName: string) => Promise<TargetRead>;

export interface TrackInput {
  /** What to follow. Without it, `orderId` names a port order (or an Edge one with kind edge). */
  target?: TrackTarget;
  orderId?: string;
  companyName: string;
  channel: string;
  threadTs: string;
  /** A message to keep up to date with the status; without one, the tracker posts its own. */
  statusMessageTs?: string;
  /** The Slack user who asked (the owner: may stop it; gets the partner reminders). */
  requestedBy: string;
  /** A port order's LOA flavour (on-net, off-net, edge); ignored for other targets. */
  kind?: OrderKind;
  /** The company a layer 2 connection waits on (its destCompany), named while it waits. */
  counterparty?: string;
  /** The caller's own reference (an approval request's id), handed back to the observer. */
  ref?: string;
}

export interface TrackedOrder {
  target: TrackTarget;
  /** The tracked id (the target's id; named for the port orders it first served). */
  orderId: string;
  companyName: string;
  channel: string;
  threadTs: string;
  statusMessageTs?: string;
  requestedBy: string;
  /** A port order's LOA flavour; "on-net" for other targets, where it means nothing. */
  kind: OrderKind;
  counterparty?: string;
  ref?: string;
  startedAt: Date;
  open: boolean;
  status?: string;
  loaStatus?: string;
  changes: number;
  checks: number;
  failures: number;
  lastError?: string;
  lastCheckAt?: Date;
  lastChangeAt?: Date;
  nextCheckAt?: Date;
  /** Since when the LOA status has had its current value. */
  loaSince?: Date;
  /** Weekly LOA reminders posted for the current LOA status. */
  reminders: number;
  /** Since when the status has waited on another company, a cloud or a partner to accept. */
  waitingSince?: Date;
  /** Reminders sent to the requester during that wait. */
  waitReminders: number;
  /** Others who asked to track the same target (joined). */
  watchers: string[];
  endReason?: string;
}

export type TrackResult =
  | { tracking: TrackedOrder; joined: false }
  | { tracking: TrackedOrder; joined: true };

export type StopResult =
  | { ok: true; tracking: TrackedOrder }
  | { ok: false; reason: "not-tracked" | "not-allowed" };

/**
 * What a tracker reports to its observer after it told the thread: a status (the first one
 * read, or a change) or its end. `eventKey` is unique per event and the same when a step is
 * repeated after a crash, so the observer can say each once.
 */
export interface TrackingEvent {
  ref: string;
  target: TrackTarget;
  eventKey: string;
  status?: string;
  /** Set when tracking ended: how. `stopped` covers a person's stop and the deadline. */
  ended?: { outcome: "done" | "failed" | "cancelled" | "stopped"; detail?: string };
}

/** Told of every status and end of a tracker started with a `ref` (src/orders: the card). */
export type TrackingObserver = (event: TrackingEvent) => Promise<void>;

export class TrackInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TrackInputError";
  }
}

export interface TrackerOptions {
  redis: Redis;
  /** The tracking queue (QUEUE_NAMES.tracking). */
  queue: Queue;
  prefix: string;
  logger: Logger;
  metrics?: Pick<Metrics, "jobOutcomes">;
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

export interface AcceptanceReminders {
  firstAfterMs: number;
  everyMs: number;
  max: number;
}

/**
 * A partner's acceptance takes days: the requester is reminded once it has waited a week
 * (PARTNER_REMINDER_AFTER_DAYS), then weekly — 8 reminders reach the tracker's 60-day deadline.
 */
export const DEFAULT_ACCEPTANCE_REMINDERS: AcceptanceReminders = {
  firstAfterMs: 7 * DAY_MS,
  everyMs: WEEK_MS,
  max: 8,
};

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const CHANNEL_PATTERN = /^[A-Za-z0-9]{1,40}$/;
const TS_PATTERN = /^\d{1,12}(\.\d{1,9})?$/;
const USER_PATTERN = /^[UWB][A-Z0-9]{2,40}$/;
const KINDS: readonly OrderKind[] = ["on-net", "off-net", "edge"];

/** Record field names (a hash: each is a few bytes in Redis' listpack encoding). */
const F = {
  orderId: "id",
  company: "company",
  channel: "channel",
  thread: "thread",
  line: "line",
  by: "by",
  kind: "kind",
  started: "started",
  state: "state",
  status: "status",
  loa: "loa",
  seq: "seq",
  checks: "checks",
  checkedAt: "checked",
  changedAt: "changed",
  loaSince: "loaSince",
  reminders: "reminders",
  failures: "failures",
  error: "error",
  next: "next",
  watchers: "watchers",
  endReason: "endReason",
  target: "tk",
  counterparty: "cp",
  ref: "ref",
  waitSince: "wsince",
  waitReminders: "wrem",
} as const;

/** KEYS: record, open index. ARGV: index member, startedMs, watcher, field/value pairs… */
const TRACK = `
if redis.call('HGET', KEYS[1], 'state') == 'open' then
  local w = redis.call('HGET', KEYS[1], 'watchers') or ''
  local owner = redis.call('HGET', KEYS[1], 'by') or ''
  if ARGV[3] ~= '' and ARGV[3] ~= owner and #w < 400
     and not string.find(',' .. w .. ',', ',' .. ARGV[3] .. ',', 1, true) then
    if w == '' then w = ARGV[3] else w = w .. ',' .. ARGV[3] end
    redis.call('HSET', KEYS[1], 'watchers', w)
  end
  return 0
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
return 1
`;

/** KEYS: record. ARGV: started, field/value pairs… Saves only while this tracker is open. */
const SAVE = `
if redis.call('HGET', KEYS[1], 'state') ~= 'open' then return 0 end
if redis.call('HGET', KEYS[1], 'started') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
return 1
`;

/** KEYS: record, open index. ARGV: index member, started, ttlMs, field/value pairs… */
const END = `
if redis.call('HGET', KEYS[1], 'state') ~= 'open' then return 0 end
if redis.call('HGET', KEYS[1], 'started') ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'state', 'ended', unpack(ARGV, 4))
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`;

/** A port or Edge order's job carries `{orderId}` (as before other kinds); others `{target}`. */
type TrackJobData = { orderId: string } | { target: TrackTarget };

/** The job of a tracked port or Edge order. */
export function trackJobId(orderId: string): string {
  return `track-${jobIdPart(orderId)}`;
}

/** Port and Edge orders share one namespace: both are port orders at the provider. */
function isOrderTarget(target: TrackTarget): boolean {
  return target.kind === "port-order" || target.kind === "edge-order";
}

/** The job of any tracked target. */
export function trackJobIdOf(target: TrackTarget): string {
  return isOrderTarget(target)
    ? trackJobId(target.id)
    : `track-${target.kind}-${jobIdPart(target.id)}`;
}

/** The open index's member: the bare id for orders (older records), `<kind>|<id>` otherwise. */
function indexMember(target: TrackTarget): string {
  return isOrderTarget(target) ? target.id : `${target.kind}|${target.id}`;
}

function targetOfMember(member: string): TrackTarget {
  const bar = member.indexOf("|");
  const kind = bar > 0 ? member.slice(0, bar) : "";
  return isTrackTargetKind(kind)
    ? { kind, id: member.slice(bar + 1) }
    : { kind: "port-order", id: member };
}

/** Where a bare id is looked for: the order namespace first, then the other kinds. */
const LOOKUP_ORDER: readonly TrackTargetKind[] = ["port-order", "port", "layer2", "iod"];

export class Tracker {
  private readonly redis: Redis;
  private readonly queue: Queue;
  private readonly prefix: string;
  private readonly logger: Logger;
  private readonly metrics?: Pick<Metrics, "jobOutcomes">;
  private readonly notifier: Pick<Notifier, "post" | "update">;
  private readonly observer?: TrackingObserver;
  private readonly readTarget?: ReadTarget;
  private readonly now: () => Date;
  private readonly random: () => number;
  private readonly schedule: TrackingSchedule;
  private readonly deadlineDays: number;
  private readonly endedRetentionMs: number;
  private readonly waitingEveryMs: number;
  private readonly acceptanceReminders: AcceptanceReminders;
  private readonly onChange?: (record: TrackedOrder) => Promise<unknown>;
  private readonly scripts: {
    track: ReturnType<typeof defineScript>;
    save: ReturnType<typeof defineScript>;
    end: ReturnType<typeof defineScript>;
  };

  constructor(options: TrackerOptions) {
    this.redis = options.redis;
    this.queue = options.queue;
    this.prefix = options.prefix;
    this.logger = options.logger;
    this.metrics = options.metrics;
    this.notifier = options.notifier;
    this.observer = options.observer;
    this.readTarget = options.readTarget ?? ordersOnly(options.readOrder);
    this.now = options.now ?? (() => new Date());
    this.random = options.random ?? Math.random;
    this.schedule = options.schedule ?? DEFAULT_SCHEDULE;
    this.deadlineDays = options.deadlineDays ?? 60;
    this.endedRetentionMs = options.endedRetentionMs ?? 7 * DAY_MS;
    this.waitingEveryMs = options.waitingEveryMs ?? HOUR_MS;
    this.acceptanceReminders = options.acceptanceReminders ?? DEFAULT_ACCEPTANCE_REMINDERS;
    this.onChange = options.onChange;
    this.scripts = {
      track: defineScript(this.redis, "jobsTrackerTrackV1", TRACK, 2),
      save: defineScript(this.redis, "jobsTrackerSaveV1", SAVE, 1),
      end: defineScript(this.redis, "jobsTrackerEndV1", END, 2),
    };
  }

  /** Starts tracking a target, or joins the tracker already open for it. */
  async track(input: TrackInput): Promise<TrackResult> {
    const { target, kind } = resolveTrackInput(input);
    const startedAt = this.now().getTime();
    const fields: Record<string, string> = {
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
    const created = await this.scripts.track(
      [this.recordKey(target), this.indexKey()],
      [indexMember(target), startedAt, input.requestedBy, ...Object.entries(fields).flat()],
    );
    if (created === 1) {
      await this.addJob(target, 0);
      this.count("started");
      this.logger.info(
        { target: target.kind, id: target.id, channel: input.channel },
        "tracker: started",
      );
    } else {
      this.count("joined");
    }
    const tracking = await this.get(target);
    if (!tracking) throw new Error(`tracking record of ${target.kind} ${target.id} vanished`);
    return created === 1 ? { tracking, joined: false } : { tracking, joined: true };
  }

  /**
   * The tracker of a target (open or recently ended), or null. A bare id is a port or Edge order
   * first, then a port, a layer 2 connection or an IO-D service (ids are the provider's, unique).
   */
  async get(ref: string | TrackTarget): Promise<TrackedOrder | null> {
    if (typeof ref !== "string") return parseRecord(await this.redis.hgetall(this.recordKey(ref)));
    const pipeline = this.redis.pipeline();
    for (const kind of LOOKUP_ORDER) pipeline.hgetall(this.recordKey({ kind, id: ref }));
    for (const [, hash] of (await pipeline.exec()) ?? []) {
      const record = parseRecord(hash as Record<string, string>);
      if (record) return record;
    }
    return null;
  }

  /** Every open tracker, oldest first. */
  async list(): Promise<TrackedOrder[]> {
    const members = await this.redis.zrange(this.indexKey(), "0", "-1");
    if (members.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const member of members) pipeline.hgetall(this.recordKey(targetOfMember(member)));
    const results = (await pipeline.exec()) ?? [];
    const out: TrackedOrder[] = [];
    for (const [, hash] of results) {
      const record = parseRecord(hash as Record<string, string>);
      if (record?.open) out.push(record);
    }
    return out;
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
    const ended = await this.end(record, `stopped by ${by}`, {});
    if (!ended) return { ok: false, reason: "not-tracked" };
    // A kept-current status line no longer says "tracking since".
    if (record.status !== undefined) {
      await this.showStatusLine(
        record,
        { status: record.status, loaStatus: record.loaStatus },
        "stopped",
      );
    }
    await this.notifier.post({
      ...this.notifyAs(record),
      key: "stopped",
      channel: record.channel,
      threadTs: record.threadTs,
      text: stoppedText(record, by),
    });
    await this.observe(record, "stopped", {
      status: record.status,
      ended: { outcome: "stopped", detail: `stopped by ${by}` },
    });
    const job = await this.queue.getJob(trackJobIdOf(record.target));
    // An active step finds the record ended and completes on its own.
    await job?.remove().catch(() => undefined);
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
      await this.queue.backend.promote(trackJobIdOf(target));
      return true;
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code === ErrorCode.JobNotInState) return false;
      throw error;
    }
  }

  /**
   * Re-creates the job of every open tracker whose job is missing, completed or failed; drops
   * index entries whose record is gone. Returns how many jobs were re-created.
   */
  async reconcile(): Promise<number> {
    let recreated = 0;
    const members = await this.redis.zrange(this.indexKey(), "0", "-1");
    for (const member of members) {
      const record = await this.get(targetOfMember(member));
      if (!record?.open) {
        await this.redis.zrem(this.indexKey(), member);
        continue;
      }
      const job = await this.queue.getJob(trackJobIdOf(record.target));
      const state = job ? await job.getState() : "missing";
      if (
        state === "missing" ||
        state === "completed" ||
        state === "failed" ||
        state === "unknown"
      ) {
        if (job) await job.remove().catch(() => undefined);
        await this.addJob(record.target, 0);
        recreated += 1;
        this.count("recreated");
        this.logger.warn(
          { target: record.target.kind, id: record.target.id, state },
          "tracker: re-created a lost tracking job",
        );
      }
    }
    return recreated;
  }

  /** The step job's processor. */
  async process(job: Job, token: string | undefined): Promise<string> {
    const target = targetOfJob(job.data);
    if (!target) {
      this.logger.error({ jobId: job.id }, "tracker: job without a target");
      return "invalid-job";
    }
    const readTarget = this.readTarget;
    if (!readTarget) throw new Error("tracker: no reader configured on this worker");
    const record = await this.get(target);
    if (!record?.open) return "not-tracked";

    const now = this.now().getTime();
    const ageMs = now - record.startedAt.getTime();
    // Past the deadline, one last read still reports a terminal status (or the latest one).
    const pastDeadline = ageMs >= this.deadlineDays * DAY_MS;

    let read: OrderSnapshot;
    try {
      read = toSnapshot(await readTarget(record.target, record.companyName));
    } catch (error) {
      if (pastDeadline) {
        await this.finishAtDeadline(record);
        return "deadline";
      }
      const failure = readProviderFailure(error);
      const failures = record.failures + 1;
      this.count("read_failed");
      this.logger.warn(
        {
          target: record.target.kind,
          id: record.target.id,
          failures,
          httpStatus: failure.httpStatus,
          err: failure.detail,
        },
        "tracker: reading the target failed; backing off",
      );
      return this.reschedule(job, token, record, ageMs, {
        [F.failures]: String(failures),
        [F.error]: failure.userMessage.slice(0, 300),
        [F.checkedAt]: String(now),
        [F.checks]: String(record.checks + 1),
      });
    }

    const kind = record.target.kind;
    if (isTerminalStatus(kind, read.status)) {
      await this.finishAtTerminal(record, read);
      return `ended:${statusKey(read.status)}`;
    }
    if (pastDeadline) {
      await this.finishAtDeadline({ ...record, status: read.status, loaStatus: read.loaStatus });
      return "deadline";
    }

    const first = record.status === undefined;
    const statusChanged = statusKey(record.status) !== statusKey(read.status);
    const changed =
      !first && (statusChanged || (record.loaStatus ?? "") !== (read.loaStatus ?? ""));
    const seq = changed ? record.changes + 1 : record.changes;
    const updates: Record<string, string> = {
      [F.failures]: "0",
      [F.checkedAt]: String(now),
      [F.checks]: String(record.checks + 1),
      [F.seq]: String(seq),
    };
    if (first) {
      await this.showStatusLine(record, read, 0);
      await this.observe(record, "first", { status: read.status });
      updates[F.changedAt] = String(now);
    } else if (changed) {
      await this.notifier.post({
        ...this.notifyAs(record),
        key: `change:${seq}:status:${keyPart(read.status)}:loa:${keyPart(read.loaStatus)}`,
        channel: record.channel,
        threadTs: record.threadTs,
        text: changeText(record, record, read),
      });
      await this.showStatusLine(record, read, seq);
      await this.observe(record, `change:${seq}`, { status: read.status });
      updates[F.changedAt] = String(now);
      this.count("changed");
    } else {
      this.count("unchanged");
    }
    if (first || changed) {
      updates[F.status] = read.status;
      updates[F.loa] = read.loaStatus ?? "";
      if (first || (record.loaStatus ?? "") !== (read.loaStatus ?? "")) {
        updates[F.loaSince] = String(now);
        updates[F.reminders] = "0";
      }
    } else {
      await this.remindIfLoaWaiting(record, read, now, updates);
    }
    // A wait on another company, a cloud or a partner: days, not minutes. It starts when the
    // status first says so; the requester is reminded while it lasts.
    const waiting = waitsOnAcceptance(kind, read.status);
    if (first || statusChanged) {
      updates[F.waitSince] = waiting ? String(now) : "";
      updates[F.waitReminders] = "0";
    } else if (waiting) {
      await this.remindWhileAwaitingAcceptance(record, read, now, updates);
    }
    if (first || changed) await this.changed(record);
    return this.reschedule(job, token, record, ageMs, updates, 0, waiting);
  }

  private async remindIfLoaWaiting(
    record: TrackedOrder,
    read: OrderSnapshot,
    now: number,
    updates: Record<string, string>,
  ): Promise<void> {
    if (!loaReminderDue(record.target.kind, read.status, read.loaStatus) || !read.loaStatus) return;
    const since = (record.loaSince ?? record.startedAt).getTime();
    const sent = record.reminders;
    const weeks = Math.floor((now - since) / WEEK_MS);
    if (weeks < 1 || weeks <= sent) return;
    await this.notifier.post({
      ...this.notifyAs(record),
      key: `loa-reminder:${since}:${weeks}`,
      channel: record.channel,
      threadTs: record.threadTs,
      text: reminderText(record, weeks, read.loaStatus, record.requestedBy),
    });
    updates[F.reminders] = String(weeks);
    this.count("reminded");
  }

  /**
   * A direct message to the requester (through the notifier, so it is sent once) after
   * `firstAfterMs` of waiting, then every `everyMs`, at most `max` times. Only the latest one
   * due is sent: a tracker that was down for weeks does not send a burst.
   */
  private async remindWhileAwaitingAcceptance(
    record: TrackedOrder,
    read: OrderSnapshot,
    now: number,
    updates: Record<string, string>,
  ): Promise<void> {
    const plan = this.acceptanceReminders;
    const since = (record.waitingSince ?? record.lastChangeAt ?? record.startedAt).getTime();
    const waited = now - since;
    if (waited < plan.firstAfterMs) return;
    const due = Math.min(plan.max, 1 + Math.floor((waited - plan.firstAfterMs) / plan.everyMs));
    if (due <= record.waitReminders) return;
    await this.notifier.post({
      ...this.notifyAs(record),
      key: `accept-reminder:${since}:${due}`,
      channel: record.requestedBy,
      text: acceptanceReminderText(record, read, Math.floor(waited / DAY_MS), record),
    });
    if (record.waitingSince === undefined) updates[F.waitSince] = String(since);
    updates[F.waitReminders] = String(due);
    this.count("reminded_acceptance");
  }

  /**
   * The status at the first read and at each change. The tracker's own reply is posted once, at
   * the first read, and never edited: a thread reads top to bottom, so each change is a new reply
   * below it (changeText) rather than an edit above later messages. Only a message the caller
   * asked to keep current (`statusMessageTs`, e.g. the thread's root) is updated in place.
   */
  private async showStatusLine(
    record: TrackedOrder,
    read: OrderSnapshot,
    seq: number | "final" | "stopped",
  ): Promise<void> {
    if (record.statusMessageTs) {
      await this.notifier.update({
        ...this.notifyAs(record),
        key: `line:${seq}`,
        channel: record.channel,
        ts: record.statusMessageTs,
        text: statusLineText(record, read, record.startedAt.toISOString(), seq === "stopped"),
      });
    } else if (seq === 0) {
      await this.notifier.post({
        ...this.notifyAs(record),
        key: "line",
        channel: record.channel,
        threadTs: record.threadTs,
        text: trackingStartedText(record, read),
      });
    }
  }

  private async finishAtTerminal(record: TrackedOrder, read: OrderSnapshot): Promise<void> {
    await this.showStatusLine(record, read, "final");
    await this.notifier.post({
      ...this.notifyAs(record),
      key: `final:${keyPart(read.status)}`,
      channel: record.channel,
      threadTs: record.threadTs,
      text: finalText(record, read),
    });
    // A finished order whose port is still to be activated: the port is followed in the same
    // thread. Started before this tracker ends, so a crash in between re-runs this step, whose
    // messages are de-duplicated and whose track() joins the port's open tracker.
    const portId = portToFollow(record, read);
    if (portId) {
      await this.track({
        target: { kind: "port", id: portId },
        companyName: record.companyName,
        channel: record.channel,
        threadTs: record.threadTs,
        requestedBy: record.requestedBy,
        ...(record.ref ? { ref: record.ref } : {}),
      });
    }
    // An order done whose port is followed next has not ended for the person who asked.
    const ending = statusEnding(record.target.kind, read.status);
    await this.observe(record, `final:${keyPart(read.status)}`, {
      status: read.status,
      ...(portId || !ending
        ? {}
        : {
            ended: {
              outcome: ending === "success" ? "done" : ending,
              ...(read.details ? { detail: read.details } : {}),
            },
          }),
    });
    await this.end(record, statusKey(read.status), {
      [F.status]: read.status,
      [F.loa]: read.loaStatus ?? "",
      [F.checkedAt]: String(this.now().getTime()),
    });
    await this.changed(record);
    this.count(`ended_${keyPart(read.status)}`);
    this.logger.info(
      { target: record.target.kind, id: record.target.id, status: read.status },
      "tracker: ended",
    );
  }

  private async finishAtDeadline(record: TrackedOrder): Promise<void> {
    if (record.status !== undefined) {
      await this.showStatusLine(
        record,
        { status: record.status, loaStatus: record.loaStatus },
        "stopped",
      );
    }
    await this.notifier.post({
      ...this.notifyAs(record),
      key: "deadline",
      channel: record.channel,
      threadTs: record.threadTs,
      text: deadlineText(record, this.deadlineDays, record),
    });
    await this.observe(record, "deadline", {
      status: record.status,
      ended: { outcome: "stopped", detail: `not finished after ${this.deadlineDays} days` },
    });
    await this.end(record, "deadline", {});
    await this.changed(record);
    this.count("deadline");
    this.logger.info(
      { target: record.target.kind, id: record.target.id },
      "tracker: deadline reached",
    );
  }

  private async changed(record: TrackedOrder): Promise<void> {
    if (!this.onChange) return;
    await this.onChange(record).catch((error: unknown) =>
      this.logger.warn({ err: errorText(error), id: record.target.id }, "tracker: onChange failed"),
    );
  }

  private async end(
    record: TrackedOrder,
    reason: string,
    fields: Record<string, string>,
  ): Promise<boolean> {
    const result = await this.scripts.end(
      [this.recordKey(record.target), this.indexKey()],
      [
        indexMember(record.target),
        String(record.startedAt.getTime()),
        this.endedRetentionMs,
        F.endReason,
        reason,
        ...Object.entries(fields).flat(),
      ],
    );
    return result === 1;
  }

  private async reschedule(
    job: Job,
    token: string | undefined,
    record: TrackedOrder,
    ageMs: number,
    updates: Record<string, string>,
    failuresOverride?: number,
    waitingOnPeople = false,
  ): Promise<never> {
    const failures = failuresOverride ?? Number(updates[F.failures] ?? record.failures);
    const delay = nextCheckDelayMs({
      ageMs,
      failures,
      random: this.random,
      remainingMs: this.deadlineDays * DAY_MS - ageMs,
      minIntervalMs: waitingOnPeople ? this.waitingEveryMs : undefined,
      schedule: this.schedule,
    });
    updates[F.next] = String(this.now().getTime() + delay);
    await this.scripts.save(
      [this.recordKey(record.target)],
      [String(record.startedAt.getTime()), ...Object.entries(updates).flat()],
    );
    await job.moveToDelayed(Date.now() + delay, token);
    throw new DelayedError();
  }

  private async addJob(target: TrackTarget, delay: number): Promise<void> {
    const data: TrackJobData = isOrderTarget(target)
      ? { orderId: target.id }
      : { target: { kind: target.kind, id: target.id } };
    await this.queue.add("track", data, {
      jobId: trackJobIdOf(target),
      delay,
      removeOnComplete: true,
      removeOnFail: { age: 30 * 24 * 3600 },
      // Provider errors are handled inside the step; these attempts cover Redis trouble.
      attempts: 100,
      backoff: { type: "fixed", delay: 60_000 },
    });
  }

  /**
   * This tracker's notifications: scoped to its start, so a later re-track posts afresh. Their
   * markers (the status line's ts among them) are kept until the deadline and the notifier's
   * default (14 days) more: a target can be quiet for longer than that default, and its status
   * line must still be found when it changes.
   */
  /** Tells the observer (trackers with a `ref` only); its failure never fails the step. */
  private async observe(
    record: TrackedOrder,
    step: string,
    event: Pick<TrackingEvent, "status" | "ended">,
  ): Promise<void> {
    if (!this.observer || !record.ref) return;
    try {
      await this.observer({
        ref: record.ref,
        target: record.target,
        eventKey: `${this.notifyAs(record).scope}:${step}`,
        ...event,
      });
    } catch (error) {
      this.logger.error(
        { target: record.target.kind, id: record.target.id, err: errorText(error) },
        "tracker: the observer failed",
      );
    }
  }

  private notifyAs(record: TrackedOrder): { scope: string; keepForSeconds: number } {
    const owner = isOrderTarget(record.target) ? "order" : record.target.kind;
    return {
      scope: `${owner}:${record.target.id}:t${record.startedAt.getTime()}`,
      keepForSeconds: Math.ceil((this.deadlineDays * DAY_MS) / 1000) + DEFAULT_MARKER_TTL_SECONDS,
    };
  }

  private recordKey(target: TrackTarget): string {
    const area = isOrderTarget(target) ? "order" : target.kind;
    return stateKey(this.prefix, "tracker", area, target.id);
  }

  private indexKey(): string {
    return stateKey(this.prefix, "tracker", "open");
  }

  private count(outcome: string): void {
    this.metrics?.jobOutcomes.inc({ queue: QUEUE_NAMES.tracking, outcome });
  }
}

/** The older `readOrder` option: it reads port and Edge orders, and nothing else. */
function ordersOnly(readOrder: ReadOrder | undefined): ReadTarget | undefined {
  if (!readOrder) return undefined;
  return (target, companyName) => {
    if (!isOrderTarget(target)) {
      return Promise.reject(new Error(`no reader for ${target.kind} targets on this worker`));
    }
    return readOrder(companyName, target.id);
  };
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

/** The target and LOA flavour of a track() call; refuses bad input with a clear message. */
function resolveTrackInput(input: TrackInput): { target: TrackTarget; kind: OrderKind } {
  if (input.target !== undefined && input.orderId !== undefined) {
    throw new TrackInputError("give either target or orderId, not both");
  }
  let target: TrackTarget;
  if (input.target !== undefined) {
    const given = input.target as Partial<TrackTarget> | null;
    if (!isTrackTargetKind(given?.kind)) {
      throw new TrackInputError(`target.kind must be one of ${TRACK_TARGET_KINDS.join(", ")}`);
    }
    if (!ID_PATTERN.test(given?.id ?? "")) {
      throw new TrackInputError("target.id must be 1–128 letters, digits, '.', '_', ':' or '-'");
    }
    target = { kind: given.kind, id: given.id as string };
  } else {
    if (!ID_PATTERN.test(input.orderId ?? "")) {
      throw new TrackInputError("orderId must be 1–128 letters, digits, '.', '_', ':' or '-'");
    }
    target = { kind: input.kind === "edge" ? "edge-order" : "port-order", id: input.orderId! };
  }
  if (typeof input.companyName !== "string" || input.companyName.trim() === "") {
    throw new TrackInputError("companyName is required");
  }
  if (input.companyName.length > 200) throw new TrackInputError("companyName is too long");
  if (!CHANNEL_PATTERN.test(input.channel ?? "")) {
    throw new TrackInputError("channel must be a Slack channel ID");
  }
  if (!TS_PATTERN.test(input.threadTs ?? "")) {
    throw new TrackInputError("threadTs must be a Slack message ts");
  }
  if (input.statusMessageTs !== undefined && !TS_PATTERN.test(input.statusMessageTs)) {
    throw new TrackInputError("statusMessageTs must be a Slack message ts");
  }
  if (!USER_PATTERN.test(input.requestedBy ?? "")) {
    throw new TrackInputError("requestedBy must be a Slack user ID");
  }
  if (input.kind !== undefined && !KINDS.includes(input.kind)) {
    throw new TrackInputError(`kind must be one of ${KINDS.join(", ")}`);
  }
  if (
    input.counterparty !== undefined &&
    (typeof input.counterparty !== "string" || input.counterparty.length > 200)
  ) {
    throw new TrackInputError("counterparty must be a company name of at most 200 characters");
  }
  if (input.ref !== undefined && !ID_PATTERN.test(input.ref)) {
    throw new TrackInputError("ref must be an id (letters, digits, ._:-; at most 128)");
  }
  if (target.kind === "port-order" && input.kind === "edge") {
    throw new TrackInputError("an Edge order is tracked as an edge-order target");
  }
  return { target, kind: loaFlavour(target, input.kind) };
}

/** The LOA wording of a port order; Edge orders have their own; other targets have no LOA. */
function loaFlavour(target: TrackTarget, kind: OrderKind | undefined): OrderKind {
  if (target.kind === "edge-order") return "edge";
  if (target.kind === "port-order") return kind ?? "on-net";
  return "on-net";
}

/** A reader's answer, checked: a read without a status is a failed read, never a crash. */
function toSnapshot(read: TargetRead): OrderSnapshot {
  if (typeof read !== "object" || read === null || typeof read.status !== "string") {
    throw new Error("the read has no status");
  }
  const status = read.status.trim() === "" ? "unknown" : read.status.trim();
  return {
    status,
    loaStatus: text(read.loaStatus),
    waitingOn: text(read.waitingOn),
    details: text(read.details),
    port: typeof read.port === "object" && read.port !== null ? read.port : undefined,
  };
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}

/** A status as part of a notification key: bounded, no separators. */
function keyPart(value: string | undefined): string {
  if (!value) return "-";
  return (
    statusKey(value)
      .replace(/[^a-z0-9_.-]/g, "_")
      .slice(0, 40) || "-"
  );
}

function num(value: string | undefined): number | undefined {
  if (value === undefined || value === "") return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

function date(value: string | undefined): Date | undefined {
  const n = num(value);
  return n === undefined ? undefined : new Date(n);
}

/**
 * A record as written by this version or an older one: records from before other kinds were
 * tracked have no target field and are port orders, or Edge orders when their kind says edge.
 */
function parseRecord(hash: Record<string, string> | null | undefined): TrackedOrder | null {
  const id = hash?.[F.orderId];
  if (!hash || !id || !hash[F.started]) return null;
  const kind = KINDS.includes(hash[F.kind] as OrderKind) ? (hash[F.kind] as OrderKind) : "on-net";
  const stored = hash[F.target];
  const targetKind: TrackTargetKind = isTrackTargetKind(stored)
    ? stored
    : kind === "edge"
      ? "edge-order"
      : "port-order";
  return {
    target: { kind: targetKind, id },
    orderId: id,
    companyName: hash[F.company] ?? "",
    channel: hash[F.channel] ?? "",
    threadTs: hash[F.thread] ?? "",
    statusMessageTs: hash[F.line] || undefined,
    requestedBy: hash[F.by] ?? "",
    kind,
    counterparty: hash[F.counterparty] || undefined,
    ref: hash[F.ref] || undefined,
    startedAt: new Date(num(hash[F.started]) ?? 0),
    open: hash[F.state] === "open",
    status: hash[F.status] || undefined,
    loaStatus: hash[F.loa] || undefined,
    changes: num(hash[F.seq]) ?? 0,
    checks: num(hash[F.checks]) ?? 0,
    failures: num(hash[F.failures]) ?? 0,
    lastError: hash[F.error] || undefined,
    lastCheckAt: date(hash[F.checkedAt]),
    lastChangeAt: date(hash[F.changedAt]),
    nextCheckAt: date(hash[F.next]),
    loaSince: date(hash[F.loaSince]),
    reminders: num(hash[F.reminders]) ?? 0,
    waitingSince: date(hash[F.waitSince]),
    waitReminders: num(hash[F.waitReminders]) ?? 0,
    watchers: (hash[F.watchers] ?? "").split(",").filter((w) => w !== ""),
    endReason: hash[F.endReason] || undefined,
  };
}
