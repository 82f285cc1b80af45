import { trackerMessages } from "../../../views/approvals/trackerMessages.js";
import { statusKey, type TrackTarget } from "../../domain/tracking/statuses.js";
import type { OrderSnapshot } from "../../domain/tracking/trackedOrder.js";
import { errorText } from "../../jobs/errors.js";
import type { Notifier } from "../../jobs/notifier/notifier.js";
import { DEFAULT_MARKER_TTL_SECONDS } from "../../jobs/notifier/outbox.js";
import { DAY_MS } from "../../jobs/schedule.js";
import type { Logger } from "../../log.js";
import type { TrackerMessages } from "./messages.js";
import { isOrderTarget, type TrackedOrder } from "./records.js";

/**
 * Whom a tracker tells, and how each is told once: its thread (through the notifier, keys
 * scoped to the tracker's start), the message the caller asked to keep current, the observer
 * (src/orders: the request card) and the App Home of whoever sees the target (`onChange`).
 * Every key and event key is derived from the record and the step, so a step repeated after a
 * crash tells nobody twice. When something is said is the tracker's; how, the views' words
 * (views/approvals/trackerMessages.ts, shaped by ./messages.ts).
 */

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
  /**
   * Set when tracking ended: how. `stopped` covers a person's stop (`by`: their Slack user id,
   * worded as a mention by the views, never shown raw) and the deadline (`detail`).
   */
  ended?: { outcome: "done" | "failed" | "cancelled" | "stopped"; detail?: string; by?: string };
}

/** Told of every status and end of a tracker started with a `ref` (the lifecycle: the card). */
export type TrackingObserver = (event: TrackingEvent) => Promise<void>;

export interface TrackingReporterOptions {
  notifier: Pick<Notifier, "post" | "update">;
  logger: Logger;
  /** Told of each status and end of trackers that carry a `ref`; a failure is logged, not retried. */
  observer?: TrackingObserver;
  /** Told when a status changed or tracking ended; a failure is logged, never fails the step. */
  onChange?: (record: TrackedOrder) => Promise<unknown>;
  /** The tracking deadline: the messages' markers are kept that long and 14 days more. */
  deadlineDays: number;
}

export class TrackingReporter {
  /** The words of every message (the step and the reminders word theirs with these too). */
  readonly messages: TrackerMessages = trackerMessages;

  constructor(private readonly options: TrackingReporterOptions) {}

  /** Posts in the tracker's thread, once per key. */
  async say(record: TrackedOrder, key: string, text: string): Promise<void> {
    await this.options.notifier.post({
      ...this.notifyAs(record),
      key,
      channel: record.channel,
      threadTs: record.threadTs,
      text,
    });
  }

  /** A direct message to whoever asked to track it, once per key. */
  async tellRequester(record: TrackedOrder, key: string, text: string): Promise<void> {
    await this.options.notifier.post({
      ...this.notifyAs(record),
      key,
      channel: record.requestedBy,
      text,
    });
  }

  /**
   * The end of a tracker before a terminal status (a person's stop, the deadline): a
   * kept-current status line no longer says "tracking since", then the thread is told.
   */
  async sayStopped(record: TrackedOrder, key: string, text: string): Promise<void> {
    if (record.status !== undefined) {
      await this.statusLine(
        record,
        { status: record.status, loaStatus: record.loaStatus },
        "stopped",
      );
    }
    await this.say(record, key, text);
  }

  /**
   * The status at the first read and at each change. The tracker's own reply is posted once, at
   * the first read, and never edited: a thread reads top to bottom, so each change is a new reply
   * below it (changeText) rather than an edit above later messages. Only a message the caller
   * asked to keep current (`statusMessageTs`, e.g. the thread's root) is updated in place.
   */
  async statusLine(
    record: TrackedOrder,
    read: OrderSnapshot,
    seq: number | "final" | "stopped",
  ): Promise<void> {
    if (record.statusMessageTs) {
      await this.options.notifier.update({
        ...this.notifyAs(record),
        key: `line:${seq}`,
        channel: record.channel,
        ts: record.statusMessageTs,
        text: this.messages.statusLineText(
          record,
          read,
          record.startedAt.toISOString(),
          seq === "stopped",
        ),
      });
    } else if (seq === 0) {
      await this.say(record, "line", this.messages.trackingStartedText(record, read));
    }
  }

  /** Tells the observer (trackers with a `ref` only); its failure never fails the step. */
  async observe(
    record: TrackedOrder,
    step: string,
    event: Pick<TrackingEvent, "status" | "ended">,
  ): Promise<void> {
    const { observer, logger } = this.options;
    if (!observer || !record.ref) return;
    try {
      await observer({
        ref: record.ref,
        target: record.target,
        eventKey: `${this.notifyAs(record).scope}:${step}`,
        ...event,
      });
    } catch (error) {
      logger.error(
        { target: record.target.kind, id: record.target.id, err: errorText(error) },
        "tracker: the observer failed",
      );
    }
  }

  /** A status changed or tracking ended: App Home refreshes the people who see it. */
  async changed(record: TrackedOrder): Promise<void> {
    const { onChange, logger } = this.options;
    if (!onChange) return;
    await onChange(record).catch((error: unknown) =>
      logger.warn({ err: errorText(error), id: record.target.id }, "tracker: onChange failed"),
    );
  }

  /**
   * This tracker's notifications: scoped to its start, so a later re-track posts afresh. Their
   * markers (the status line's ts among them) are kept until the deadline and the notifier's
   * default (14 days) more: a target can be quiet for longer than that default, and its status
   * line must still be found when it changes.
   */
  private notifyAs(record: TrackedOrder): { scope: string; keepForSeconds: number } {
    const owner = isOrderTarget(record.target) ? "order" : record.target.kind;
    return {
      scope: `${owner}:${record.target.id}:t${record.startedAt.getTime()}`,
      keepForSeconds:
        Math.ceil((this.options.deadlineDays * DAY_MS) / 1000) + DEFAULT_MARKER_TTL_SECONDS,
    };
  }
}

/** A status as part of a notification key: bounded, no separators. */
export function keyPart(value: string | undefined): string {
  if (!value) return "-";
  return (
    statusKey(value)
      .replace(/[^a-z0-9_.-]/g, "_")
      .slice(0, 40) || "-"
  );
}
