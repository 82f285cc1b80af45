/**
 * The words the tracker posts, as a shape only: the tracker decides when to say something and
 * views word it (views/approvals/trackerMessages.ts implements this shape, and the tracker's reports use
 * that implementation: ./reports.ts).
 */

import type { OrderRef, OrderSnapshot } from "../../domain/tracking/trackedOrder.js";

/** A status and LOA status as last seen (a record's, before a change). */
export interface LastSeen {
  status?: string;
  loaStatus?: string;
}

export interface TrackerMessages {
  /** The status line of the message kept current in place (`statusMessageTs`). */
  statusLineText(
    ref: OrderRef,
    snapshot: OrderSnapshot,
    sinceIso: string,
    stoppedEarly?: boolean,
  ): string;
  /** The thread's reply when tracking starts (its first read). */
  trackingStartedText(ref: OrderRef, snapshot: OrderSnapshot): string;
  /** The thread reply for a change of status or LOA status. */
  changeText(ref: OrderRef, previous: LastSeen, next: OrderSnapshot): string;
  /** The final message at a terminal status. */
  finalText(ref: OrderRef, snapshot: OrderSnapshot): string;
  /** Tracking gave up after `days`. */
  deadlineText(ref: OrderRef, days: number, last: LastSeen): string;
  /** The weekly reminder while the LOA waits. */
  reminderText(ref: OrderRef, weeks: number, loaStatus: string, requestedBy: string): string;
  /** The requester's direct message while the other company, cloud or partner has not accepted. */
  acceptanceReminderText(
    ref: OrderRef,
    snapshot: OrderSnapshot,
    days: number,
    thread: { channel: string },
  ): string;
  /** Someone stopped tracking early. */
  stoppedText(ref: OrderRef, by: string): string;
}
