import { loaReminderDue } from "../../domain/tracking/loa.js";
import type { OrderSnapshot } from "../../domain/tracking/trackedOrder.js";
import { DAY_MS, WEEK_MS } from "../../jobs/schedule.js";
import { F, type RecordUpdates, type TrackedOrder } from "./records.js";
import type { TrackingReporter } from "./reports.js";

/**
 * The reminders of a tracker whose target waits on people: the weekly LOA reminder in the
 * thread, and the requester's direct message while another company, a cloud or a partner has
 * not accepted. Each is due from the record's counters (how many were sent since when), is
 * keyed by that, and returns the counters to save with the step — so a repeated step never
 * reminds twice, and a tracker back from a long outage sends only the latest one due.
 */

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

/**
 * The weekly LOA reminder in the thread, while the LOA step waits (src/domain/tracking/loa.ts). Returns
 * the record's updates when one was sent, else undefined.
 */
export async function remindIfLoaWaiting(
  report: TrackingReporter,
  record: TrackedOrder,
  read: OrderSnapshot,
  now: number,
): Promise<RecordUpdates | undefined> {
  if (!loaReminderDue(record.target.kind, read.status, read.loaStatus) || !read.loaStatus) {
    return undefined;
  }
  const since = (record.loaSince ?? record.startedAt).getTime();
  const weeks = Math.floor((now - since) / WEEK_MS);
  if (weeks < 1 || weeks <= record.reminders) return undefined;
  await report.say(
    record,
    `loa-reminder:${since}:${weeks}`,
    report.messages.reminderText(record, weeks, read.loaStatus, record.requestedBy),
  );
  return { [F.reminders]: String(weeks) };
}

/**
 * A direct message to the requester (through the notifier, so it is sent once) after
 * `firstAfterMs` of waiting, then every `everyMs`, at most `max` times. Only the latest one
 * due is sent: a tracker that was down for weeks does not send a burst. Returns the record's
 * updates when one was sent, else undefined.
 */
export async function remindWhileAwaitingAcceptance(
  report: TrackingReporter,
  plan: AcceptanceReminders,
  record: TrackedOrder,
  read: OrderSnapshot,
  now: number,
): Promise<RecordUpdates | undefined> {
  const since = (record.waitingSince ?? record.lastChangeAt ?? record.startedAt).getTime();
  const waited = now - since;
  if (waited < plan.firstAfterMs) return undefined;
  const due = Math.min(plan.max, 1 + Math.floor((waited - plan.firstAfterMs) / plan.everyMs));
  if (due <= record.waitReminders) return undefined;
  await report.tellRequester(
    record,
    `accept-reminder:${since}:${due}`,
    report.messages.acceptanceReminderText(record, read, Math.floor(waited / DAY_MS), record),
  );
  return {
    ...(record.waitingSince === undefined ? { [F.waitSince]: String(since) } : {}),
    [F.waitReminders]: String(due),
  };
}
