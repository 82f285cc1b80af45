import { DelayedError, ErrorCode, type Job, type Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "../log.js";
import type { Metrics } from "../metrics.js";
import { DEFAULT_MARKER_TTL_SECONDS, type Notifier } from "./notifier.js";
import {
  changeText,
  deadlineText,
  finalText,
  isLoaWaiting,
  isTerminalOrderStatus,
  normalizeStatus,
  type OrderKind,
  type OrderSnapshot,
  type PortSummary,
  reminderText,
  statusLineText,
  stoppedText,
} from "./orderMessages.js";
import { readProviderFailure } from "./providerFailure.js";
import { defineScript, jobIdPart, QUEUE_NAMES, stateKey } from "./queues.js";
import {
  DAY_MS,
  DEFAULT_SCHEDULE,
  nextCheckDelayMs,
  type TrackingSchedule,
  WEEK_MS,
} from "./schedule.js";

/**
 * Port order tracking: one durable record and ONE long-lived BullMQ job per order id.
 *
 * - The record (a small Redis hash) is the truth: who asked, where to post, the last status
 *   and LOA status seen, a change counter. `track()` creates it in one script, or joins the
 *   open one: one tracker per order id across every replica.
 * - The job (`track-<orderId>`, data `{orderId}`) is a step job: each step reads the order,
 *   posts what changed, saves the record, then moves itself to delayed for the next interval
 *   (schedule.ts) and throws DelayedError. Nothing else is queued per order.
 * - Notification keys include the tracker's start time, the change counter and the new status
 *   and LOA status. A step that crashes after posting and before saving runs again with the
 *   same counter, so its messages are de-duplicated by the notifier, never posted twice; a
 *   status that comes back later (A → B → A) has a new counter and is posted.
 * - A lost job (crash between record and job, a failed job) is re-created by `reconcile()`,
 *   which also runs on a schedule: the record, not BullMQ, says what is tracked.
 */

export interface OrderRead {
  status: string;
  loaStatus?: string;
  port?: PortSummary;
  /** The provider's record, unused here (kept for the caller's logs). */
  raw?: unknown;
}

/** Reads a port order (GET /api/company/{companyName}/ports/orders/{orderId}). */
export type ReadOrder = (companyName: string, orderId: string) => Promise<OrderRead>;

export interface TrackInput {
  orderId: string;
  companyName: string;
  channel: string;
  threadTs: string;
  /** A message to keep up to date with the status; without one, the tracker posts its own. */
  statusMessageTs?: string;
  /** The Slack user who asked (the owner: may stop it). */
  requestedBy: string;
  kind?: OrderKind;
}

export interface TrackedOrder {
  orderId: string;
  companyName: string;
  channel: string;
  threadTs: string;
  statusMessageTs?: string;
  requestedBy: string;
  kind: OrderKind;
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
  /** Others who asked to track the same order (joined). */
  watchers: string[];
  endReason?: string;
}

export type TrackResult =
  | { tracking: TrackedOrder; joined: false }
  | { tracking: TrackedOrder; joined: true };

export type StopResult =
  | { ok: true; tracking: TrackedOrder }
  | { ok: false; reason: "not-tracked" | "not-allowed" };

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
  /** Needed only where tracking jobs are processed. */
  readOrder?: ReadOrder;
  now?: () => Date;
  random?: () => number;
  schedule?: TrackingSchedule;
  /** Tracking ends with a message after this many days. Default 60. */
  deadlineDays?: number;
  /** How long an ended record is kept (for list/debugging). Default 7 days. */
  endedRetentionMs?: number;
}

const ORDER_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
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
} as const;

/** KEYS: record, open index. ARGV: orderId, startedMs, watcher, field/value pairs… */
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

/** KEYS: record, open index. ARGV: orderId, started, ttlMs, field/value pairs… */
const END = `
if redis.call('HGET', KEYS[1], 'state') ~= 'open' then return 0 end
if redis.call('HGET', KEYS[1], 'started') ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'state', 'ended', unpack(ARGV, 4))
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`;

interface TrackJobData {
  orderId: string;
}

export function trackJobId(orderId: string): string {
  return `track-${jobIdPart(orderId)}`;
}

export class Tracker {
  private readonly redis: Redis;
  private readonly queue: Queue;
  private readonly prefix: string;
  private readonly logger: Logger;
  private readonly metrics?: Pick<Metrics, "jobOutcomes">;
  private readonly notifier: Pick<Notifier, "post" | "update">;
  private readonly readOrder?: ReadOrder;
  private readonly now: () => Date;
  private readonly random: () => number;
  private readonly schedule: TrackingSchedule;
  private readonly deadlineDays: number;
  private readonly endedRetentionMs: number;
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
    this.readOrder = options.readOrder;
    this.now = options.now ?? (() => new Date());
    this.random = options.random ?? Math.random;
    this.schedule = options.schedule ?? DEFAULT_SCHEDULE;
    this.deadlineDays = options.deadlineDays ?? 60;
    this.endedRetentionMs = options.endedRetentionMs ?? 7 * DAY_MS;
    this.scripts = {
      track: defineScript(this.redis, "jobsTrackerTrackV1", TRACK, 2),
      save: defineScript(this.redis, "jobsTrackerSaveV1", SAVE, 1),
      end: defineScript(this.redis, "jobsTrackerEndV1", END, 2),
    };
  }

  /** Starts tracking an order, or joins the tracker already open for it. */
  async track(input: TrackInput): Promise<TrackResult> {
    validateTrackInput(input);
    const startedAt = this.now().getTime();
    const fields: Record<string, string> = {
      [F.orderId]: input.orderId,
      [F.company]: input.companyName,
      [F.channel]: input.channel,
      [F.thread]: input.threadTs,
      [F.by]: input.requestedBy,
      [F.kind]: input.kind ?? "on-net",
      [F.started]: String(startedAt),
      [F.state]: "open",
      [F.seq]: "0",
      [F.checks]: "0",
      [F.failures]: "0",
    };
    if (input.statusMessageTs) fields[F.line] = input.statusMessageTs;
    const created = await this.scripts.track(
      [this.recordKey(input.orderId), this.indexKey()],
      [input.orderId, startedAt, input.requestedBy, ...Object.entries(fields).flat()],
    );
    if (created === 1) {
      await this.addJob(input.orderId, 0);
      this.count("started");
      this.logger.info({ orderId: input.orderId, channel: input.channel }, "tracker: started");
    } else {
      this.count("joined");
    }
    const tracking = await this.get(input.orderId);
    if (!tracking) throw new Error(`tracking record of ${input.orderId} vanished`);
    return created === 1 ? { tracking, joined: false } : { tracking, joined: true };
  }

  /** The tracker of an order (open or recently ended), or null. */
  async get(orderId: string): Promise<TrackedOrder | null> {
    const hash = await this.redis.hgetall(this.recordKey(orderId));
    return parseRecord(hash);
  }

  /** Every open tracker, oldest first. */
  async list(): Promise<TrackedOrder[]> {
    const ids = await this.redis.zrange(this.indexKey(), "0", "-1");
    if (ids.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hgetall(this.recordKey(id));
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
    orderId: string,
    by: string,
    options: { isApprover?: (userId: string) => boolean | Promise<boolean> } = {},
  ): Promise<StopResult> {
    const record = await this.get(orderId);
    if (!record?.open) return { ok: false, reason: "not-tracked" };
    const allowed = record.requestedBy === by || (await options.isApprover?.(by)) === true;
    if (!allowed) return { ok: false, reason: "not-allowed" };
    const ended = await this.end(record, `stopped by ${by}`, {});
    if (!ended) return { ok: false, reason: "not-tracked" };
    await this.notifier.post({
      ...this.notifyAs(record),
      key: "stopped",
      channel: record.channel,
      threadTs: record.threadTs,
      text: stoppedText(record, by),
    });
    const job = await this.queue.getJob(trackJobId(orderId));
    // An active step finds the record ended and completes on its own.
    await job?.remove().catch(() => undefined);
    this.count("stopped");
    const after = await this.get(orderId);
    return { ok: true, tracking: after ?? { ...record, open: false } };
  }

  /**
   * Runs the order's next check now (e.g. a "refresh" button, or tests). One script moves the
   * step job from delayed to waiting; it refuses (JobNotInState) a job that is missing or not
   * delayed — waiting or active, it is checking now anyway — and that is answered false.
   */
  async checkNow(orderId: string): Promise<boolean> {
    try {
      await this.queue.backend.promote(trackJobId(orderId));
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
    const ids = await this.redis.zrange(this.indexKey(), "0", "-1");
    for (const orderId of ids) {
      const record = await this.get(orderId);
      if (!record?.open) {
        await this.redis.zrem(this.indexKey(), orderId);
        continue;
      }
      const job = await this.queue.getJob(trackJobId(orderId));
      const state = job ? await job.getState() : "missing";
      if (
        state === "missing" ||
        state === "completed" ||
        state === "failed" ||
        state === "unknown"
      ) {
        if (job) await job.remove().catch(() => undefined);
        await this.addJob(orderId, 0);
        recreated += 1;
        this.count("recreated");
        this.logger.warn({ orderId, state }, "tracker: re-created a lost tracking job");
      }
    }
    return recreated;
  }

  /** The step job's processor. */
  async process(job: Job, token: string | undefined): Promise<string> {
    const data = job.data as Partial<TrackJobData> | undefined;
    const orderId = typeof data?.orderId === "string" ? data.orderId : undefined;
    if (!orderId) {
      this.logger.error({ jobId: job.id }, "tracker: job without an order id");
      return "invalid-job";
    }
    const readOrder = this.readOrder;
    if (!readOrder) throw new Error("tracker: no readOrder configured on this worker");
    const record = await this.get(orderId);
    if (!record?.open) return "not-tracked";

    const now = this.now().getTime();
    const ageMs = now - record.startedAt.getTime();
    // Past the deadline, one last read still reports a terminal status (or the latest one).
    const pastDeadline = ageMs >= this.deadlineDays * DAY_MS;

    let read: OrderSnapshot;
    try {
      read = toSnapshot(await readOrder(record.companyName, orderId));
    } catch (error) {
      if (pastDeadline) {
        await this.finishAtDeadline(record);
        return "deadline";
      }
      const failure = readProviderFailure(error);
      const failures = record.failures + 1;
      this.count("read_failed");
      this.logger.warn(
        { orderId, failures, httpStatus: failure.httpStatus, err: failure.detail },
        "tracker: reading the order failed; backing off",
      );
      return this.reschedule(job, token, record, ageMs, {
        [F.failures]: String(failures),
        [F.error]: failure.userMessage.slice(0, 300),
        [F.checkedAt]: String(now),
        [F.checks]: String(record.checks + 1),
      });
    }

    if (isTerminalOrderStatus(read.status)) {
      await this.finishAtTerminal(record, read);
      return `ended:${normalizeStatus(read.status)}`;
    }
    if (pastDeadline) {
      await this.finishAtDeadline({ ...record, status: read.status, loaStatus: read.loaStatus });
      return "deadline";
    }

    const first = record.status === undefined;
    const changed =
      !first &&
      (normalizeStatus(record.status) !== normalizeStatus(read.status) ||
        (record.loaStatus ?? "") !== (read.loaStatus ?? ""));
    const seq = changed ? record.changes + 1 : record.changes;
    const updates: Record<string, string> = {
      [F.failures]: "0",
      [F.checkedAt]: String(now),
      [F.checks]: String(record.checks + 1),
      [F.seq]: String(seq),
    };
    if (first) {
      await this.showStatusLine(record, read, 0);
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
    return this.reschedule(job, token, record, ageMs, updates, 0);
  }

  private async remindIfLoaWaiting(
    record: TrackedOrder,
    read: OrderSnapshot,
    now: number,
    updates: Record<string, string>,
  ): Promise<void> {
    if (!isLoaWaiting(read.loaStatus) || !read.loaStatus) return;
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

  private async showStatusLine(
    record: TrackedOrder,
    read: OrderSnapshot,
    seq: number | "final",
  ): Promise<void> {
    const text = statusLineText(record, read, record.startedAt.toISOString());
    const lineKey = "line";
    if (record.statusMessageTs) {
      await this.notifier.update({
        ...this.notifyAs(record),
        key: `line:${seq}`,
        channel: record.channel,
        ts: record.statusMessageTs,
        text,
      });
    } else if (seq === 0) {
      // No status message was given: the first read posts one into the thread.
      await this.notifier.post({
        ...this.notifyAs(record),
        key: lineKey,
        channel: record.channel,
        threadTs: record.threadTs,
        text,
      });
    } else {
      await this.notifier.update({
        ...this.notifyAs(record),
        key: `line:${seq}`,
        channel: record.channel,
        messageKey: lineKey,
        text,
      });
    }
  }

  private async finishAtTerminal(record: TrackedOrder, read: OrderSnapshot): Promise<void> {
    if (record.status !== undefined || record.statusMessageTs) {
      await this.showStatusLine(record, read, "final");
    }
    await this.notifier.post({
      ...this.notifyAs(record),
      key: `final:${keyPart(read.status)}`,
      channel: record.channel,
      threadTs: record.threadTs,
      text: finalText(record, read),
    });
    await this.end(record, normalizeStatus(read.status), {
      [F.status]: read.status,
      [F.loa]: read.loaStatus ?? "",
      [F.checkedAt]: String(this.now().getTime()),
    });
    this.count(`ended_${normalizeStatus(read.status)}`);
    this.logger.info({ orderId: record.orderId, status: read.status }, "tracker: order ended");
  }

  private async finishAtDeadline(record: TrackedOrder): Promise<void> {
    await this.notifier.post({
      ...this.notifyAs(record),
      key: "deadline",
      channel: record.channel,
      threadTs: record.threadTs,
      text: deadlineText(record, this.deadlineDays, record),
    });
    await this.end(record, "deadline", {});
    this.count("deadline");
    this.logger.info({ orderId: record.orderId }, "tracker: deadline reached");
  }

  private async end(
    record: TrackedOrder,
    reason: string,
    fields: Record<string, string>,
  ): Promise<boolean> {
    const result = await this.scripts.end(
      [this.recordKey(record.orderId), this.indexKey()],
      [
        record.orderId,
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
  ): Promise<never> {
    const failures = failuresOverride ?? Number(updates[F.failures] ?? record.failures);
    const delay = nextCheckDelayMs({
      ageMs,
      failures,
      random: this.random,
      remainingMs: this.deadlineDays * DAY_MS - ageMs,
      schedule: this.schedule,
    });
    updates[F.next] = String(this.now().getTime() + delay);
    await this.scripts.save(
      [this.recordKey(record.orderId)],
      [String(record.startedAt.getTime()), ...Object.entries(updates).flat()],
    );
    await job.moveToDelayed(Date.now() + delay, token);
    throw new DelayedError();
  }

  private async addJob(orderId: string, delay: number): Promise<void> {
    await this.queue.add("track", { orderId } satisfies TrackJobData, {
      jobId: trackJobId(orderId),
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
   * default (14 days) more: an order can be quiet for longer than that default, and its status
   * line must still be found when it changes.
   */
  private notifyAs(record: TrackedOrder): { scope: string; keepForSeconds: number } {
    return {
      scope: `order:${record.orderId}:t${record.startedAt.getTime()}`,
      keepForSeconds: Math.ceil((this.deadlineDays * DAY_MS) / 1000) + DEFAULT_MARKER_TTL_SECONDS,
    };
  }

  private recordKey(orderId: string): string {
    return stateKey(this.prefix, "tracker", "order", orderId);
  }

  private indexKey(): string {
    return stateKey(this.prefix, "tracker", "open");
  }

  private count(outcome: string): void {
    this.metrics?.jobOutcomes.inc({ queue: QUEUE_NAMES.tracking, outcome });
  }
}

function validateTrackInput(input: TrackInput): void {
  if (!ORDER_ID_PATTERN.test(input.orderId ?? "")) {
    throw new TrackInputError("orderId must be 1–128 letters, digits, '.', '_', ':' or '-'");
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
}

function toSnapshot(read: OrderRead): OrderSnapshot {
  if (typeof read !== "object" || read === null || typeof read.status !== "string") {
    throw new Error("the order read has no status");
  }
  const status = read.status.trim() === "" ? "unknown" : read.status.trim();
  const loaStatus =
    typeof read.loaStatus === "string" && read.loaStatus.trim() !== ""
      ? read.loaStatus.trim()
      : undefined;
  return { status, loaStatus, port: read.port };
}

/** A status as part of a notification key: bounded, no separators. */
function keyPart(value: string | undefined): string {
  if (!value) return "-";
  return (
    normalizeStatus(value)
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

function parseRecord(hash: Record<string, string> | null | undefined): TrackedOrder | null {
  const orderId = hash?.[F.orderId];
  if (!hash || !orderId || !hash[F.started]) return null;
  const kind = KINDS.includes(hash[F.kind] as OrderKind) ? (hash[F.kind] as OrderKind) : "on-net";
  return {
    orderId,
    companyName: hash[F.company] ?? "",
    channel: hash[F.channel] ?? "",
    threadTs: hash[F.thread] ?? "",
    statusMessageTs: hash[F.line] || undefined,
    requestedBy: hash[F.by] ?? "",
    kind,
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
    watchers: (hash[F.watchers] ?? "").split(",").filter((w) => w !== ""),
    endReason: hash[F.endReason] || undefined,
  };
}
