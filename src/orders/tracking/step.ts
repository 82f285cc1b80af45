import type { Job } from "bullmq";
import {
  isTerminalStatus,
  statusEnding,
  statusKey,
  type TrackTarget,
  waitsOnAcceptance,
} from "../../domain/tracking/statuses.js";
import { type OrderSnapshot, portToFollow } from "../../domain/tracking/trackedOrder.js";
import { readProviderFailure } from "../../jobs/quotes/providerFailure.js";
import { DAY_MS, nextCheckDelayMs, type TrackingSchedule } from "../../jobs/schedule.js";
import { delayStep } from "../../jobs/stepJob.js";
import type { Logger } from "../../log.js";
import { type ReadTarget, type TrackInput, toSnapshot } from "./input.js";
import { F, type RecordUpdates, type TrackedOrder, type TrackerRecords } from "./records.js";
import {
  type AcceptanceReminders,
  remindIfLoaWaiting,
  remindWhileAwaitingAcceptance,
} from "./reminders.js";
import { keyPart, type TrackingReporter } from "./reports.js";

/**
 * One step of a tracker's job, the part that decides: read the target, and by what the read
 * says, end (a terminal status, the deadline), report a change, remind, or back off on a failed
 * read; then save the record and delay the job to its next check (schedule.ts). Every message
 * of a step is keyed by the record's counters, so a step repeated after a crash repeats nothing.
 * The job's wiring (ids, data, reconcile) is tracker.ts'.
 */

/** What a step works with: the tracker's parts and settings, resolved by tracker.ts. */
export interface TrackerStepParts {
  records: TrackerRecords;
  report: TrackingReporter;
  logger: Logger;
  count: (outcome: string) => void;
  /** Absent where this process does not read targets (a producer-only instance). */
  readTarget: ReadTarget | undefined;
  now: () => Date;
  random: () => number;
  schedule: TrackingSchedule;
  deadlineDays: number;
  waitingEveryMs: number;
  acceptanceReminders: AcceptanceReminders;
  /** Starts (or joins) a tracker: a finished order's port is followed in the same thread. */
  follow: (input: TrackInput) => Promise<unknown>;
}

export class TrackerStep {
  constructor(private readonly parts: TrackerStepParts) {}

  /** One step of the target's job: read, tell what changed, save, delay to the next check. */
  async run(job: Job, token: string | undefined, target: TrackTarget): Promise<string> {
    const readTarget = this.parts.readTarget;
    if (!readTarget) throw new Error("tracker: no reader configured on this worker");
    const record = await this.parts.records.get(target);
    if (!record?.open) return "not-tracked";

    const now = this.parts.now().getTime();
    const ageMs = now - record.startedAt.getTime();
    // Past the deadline, one last read still reports a terminal status (or the latest one).
    const pastDeadline = ageMs >= this.parts.deadlineDays * DAY_MS;

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
      this.parts.count("read_failed");
      this.parts.logger.warn(
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
    const loaChanged = (record.loaStatus ?? "") !== (read.loaStatus ?? "");
    const changed = !first && (statusChanged || loaChanged);
    const seq = changed ? record.changes + 1 : record.changes;
    const updates: RecordUpdates = {
      [F.failures]: "0",
      [F.checkedAt]: String(now),
      [F.checks]: String(record.checks + 1),
      [F.seq]: String(seq),
    };
    if (first) {
      await this.parts.report.statusLine(record, read, 0);
      await this.parts.report.observe(record, "first", { status: read.status });
      updates[F.changedAt] = String(now);
    } else if (changed) {
      await this.parts.report.say(
        record,
        `change:${seq}:status:${keyPart(read.status)}:loa:${keyPart(read.loaStatus)}`,
        this.parts.report.messages.changeText(record, record, read),
      );
      await this.parts.report.statusLine(record, read, seq);
      await this.parts.report.observe(record, `change:${seq}`, { status: read.status });
      updates[F.changedAt] = String(now);
      this.parts.count("changed");
    } else {
      this.parts.count("unchanged");
    }
    if (first || changed) {
      updates[F.status] = read.status;
      updates[F.loa] = read.loaStatus ?? "";
      if (first || loaChanged) {
        updates[F.loaSince] = String(now);
        updates[F.reminders] = "0";
      }
    } else {
      const reminded = await remindIfLoaWaiting(this.parts.report, record, read, now);
      if (reminded) {
        Object.assign(updates, reminded);
        this.parts.count("reminded");
      }
    }
    // A wait on another company, a cloud or a partner: days, not minutes. It starts when the
    // status first says so; the requester is reminded while it lasts.
    const waiting = waitsOnAcceptance(kind, read.status);
    if (first || statusChanged) {
      updates[F.waitSince] = waiting ? String(now) : "";
      updates[F.waitReminders] = "0";
    } else if (waiting) {
      const plan = this.parts.acceptanceReminders;
      const reminded = await remindWhileAwaitingAcceptance(
        this.parts.report,
        plan,
        record,
        read,
        now,
      );
      if (reminded) {
        Object.assign(updates, reminded);
        this.parts.count("reminded_acceptance");
      }
    }
    if (first || changed) await this.parts.report.changed(record);
    return this.reschedule(job, token, record, ageMs, updates, 0, waiting);
  }

  private async finishAtTerminal(record: TrackedOrder, read: OrderSnapshot): Promise<void> {
    await this.parts.report.statusLine(record, read, "final");
    await this.parts.report.say(
      record,
      `final:${keyPart(read.status)}`,
      this.parts.report.messages.finalText(record, read),
    );
    // A finished order whose port is still to be activated: the port is followed in the same
    // thread. Started before this tracker ends, so a crash in between re-runs this step, whose
    // messages are de-duplicated and whose track() joins the port's open tracker.
    const portId = portToFollow(record, read);
    if (portId) {
      await this.parts.follow({
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
    await this.parts.report.observe(record, `final:${keyPart(read.status)}`, {
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
    await this.parts.records.end(record, statusKey(read.status), {
      [F.status]: read.status,
      [F.loa]: read.loaStatus ?? "",
      [F.checkedAt]: String(this.parts.now().getTime()),
    });
    await this.parts.report.changed(record);
    this.parts.count(`ended_${keyPart(read.status)}`);
    this.parts.logger.info(
      { target: record.target.kind, id: record.target.id, status: read.status },
      "tracker: ended",
    );
  }

  private async finishAtDeadline(record: TrackedOrder): Promise<void> {
    await this.parts.report.sayStopped(
      record,
      "deadline",
      this.parts.report.messages.deadlineText(record, this.parts.deadlineDays, record),
    );
    await this.parts.report.observe(record, "deadline", {
      status: record.status,
      ended: { outcome: "stopped", detail: `not finished after ${this.parts.deadlineDays} days` },
    });
    await this.parts.records.end(record, "deadline", {});
    await this.parts.report.changed(record);
    this.parts.count("deadline");
    this.parts.logger.info(
      { target: record.target.kind, id: record.target.id },
      "tracker: deadline reached",
    );
  }

  /** Saves the step and delays the job to its next check (schedule.ts: by age, failures). */
  private async reschedule(
    job: Job,
    token: string | undefined,
    record: TrackedOrder,
    ageMs: number,
    updates: RecordUpdates,
    failuresOverride?: number,
    waitingOnPeople = false,
  ): Promise<never> {
    const failures = failuresOverride ?? Number(updates[F.failures] ?? record.failures);
    const delay = nextCheckDelayMs({
      ageMs,
      failures,
      random: this.parts.random,
      remainingMs: this.parts.deadlineDays * DAY_MS - ageMs,
      minIntervalMs: waitingOnPeople ? this.parts.waitingEveryMs : undefined,
      schedule: this.parts.schedule,
    });
    updates[F.next] = String(this.parts.now().getTime() + delay);
    await this.parts.records.save(record, updates);
    return delayStep(job, token, delay);
  }
}
