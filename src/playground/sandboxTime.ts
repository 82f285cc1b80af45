import type { DraftReminders } from "../jobs/draftReminders.js";
import type { Tracker } from "../orders/tracking/tracker.js";
import type { Clock } from "../sandbox/clock.js";

/**
 * "Advance sandbox time" on the playground page. The embedded sandbox's clock follows real time,
 * so an on-net port order is done only after about 24 hours; a person trying the playground moves
 * the clock forward instead, and every open tracker reads its order at once, so the thread fills
 * while they watch rather than at the tracker's next scheduled check (minutes to an hour away).
 * Only ever built for the embedded sandbox: a real provider's clock is not ours to move.
 */

/** The largest single step: a week is the page's largest button; off-net LOAs take 4–6 weeks. */
export const MAX_ADVANCE_MS = 90 * 24 * 3_600_000;

/** How long to wait for a tracker that is mid-check to be back in its delayed state. */
const CHECK_SETTLE_MS = 3_000;
const CHECK_RETRY_MS = 100;

export type OpenTrackers = Pick<Tracker, "list" | "get" | "checkNow">;
export type DueReminders = Pick<DraftReminders, "checkDue">;

export interface SandboxTimeOptions {
  clock: Pick<Clock, "advance" | "nowMs">;
  /** The bot's order tracker; undefined while the bot is still starting. */
  tracker: () => OpenTrackers | undefined;
  /** Edge draft reminders (27 and 29 days after a draft was saved, on the sandbox's clock). */
  draftReminders?: () => DueReminders | undefined;
  /** Real time (tests may inject one). */
  realNow?: () => number;
}

export interface SandboxTimeStatus {
  /** Sandbox "now", ISO 8601. */
  now: string;
  /** How far the sandbox is ahead of real time, to the minute. */
  aheadMs: number;
}

export interface AdvanceResult extends SandboxTimeStatus {
  ok: true;
  /** Open trackers asked to check their order now. */
  open: number;
  /** Of those, how many were moved to check at once (the others were checking already or ended). */
  checked: number;
}

export class SandboxTime {
  private readonly realNow: () => number;

  constructor(private readonly options: SandboxTimeOptions) {
    this.realNow = options.realNow ?? Date.now;
  }

  status(): SandboxTimeStatus {
    const nowMs = this.options.clock.nowMs();
    const ahead = Math.max(0, nowMs - this.realNow());
    // To the nearest minute: real time ticks between the two reads.
    return { now: new Date(nowMs).toISOString(), aheadMs: Math.round(ahead / 60_000) * 60_000 };
  }

  async advance(ms: number): Promise<AdvanceResult> {
    this.options.clock.advance(ms);
    await this.options.draftReminders?.()?.checkDue();
    return { ok: true, ...this.status(), ...(await this.checkOpenOrders()) };
  }

  /**
   * Every open tracker reads its order now: after the clock moved, or after the sandbox changed
   * an order behind the bot's back (a partner's answer from the page's fault knobs).
   */
  async checkOpenOrders(): Promise<{ open: number; checked: number }> {
    const tracker = this.options.tracker();
    const open = tracker ? await tracker.list() : [];
    const results = tracker
      ? await Promise.all(open.map((record) => this.checkSoon(tracker, record.orderId)))
      : [];
    return { open: open.length, checked: results.filter(Boolean).length };
  }

  /**
   * `checkNow` promotes only a delayed job. A tracker whose step is running (or about to) may
   * have read the order before the clock moved; once that step puts its job back to wait, it is
   * promoted, so the read after the move always happens. Bounded: an ended tracker or a stuck
   * job gives up after a few seconds.
   */
  private async checkSoon(tracker: OpenTrackers, orderId: string): Promise<boolean> {
    const deadline = this.realNow() + CHECK_SETTLE_MS;
    for (;;) {
      if (await tracker.checkNow(orderId)) return true;
      if (this.realNow() >= deadline || !(await tracker.get(orderId))?.open) return false;
      await new Promise((resolve) => setTimeout(resolve, CHECK_RETRY_MS));
    }
  }
}
