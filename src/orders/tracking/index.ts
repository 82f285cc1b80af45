import { trackedAudience } from "../../domain/audience.js";
import type { Jobs } from "../../jobs/index.js";
import type { TrackingObserver } from "./reports.js";
import { Tracker, type TrackerOptions } from "./tracker.js";

/**
 * Tracking what was ordered until it ends, one step of the order lifecycle: the tracker's job is
 * built on src/jobs' tracking queue and run by src/workers (its worker and reconciler), while
 * what it says is worded by views/ and what it tells the lifecycle goes straight to its
 * observer — nothing of it is injected into src/jobs. The modules: tracker.ts (the part), step.ts
 * (one step of a job), records.ts, input.ts, reports.ts, reminders.ts, messages.ts (the words' shape).
 */

export * from "./input.js";
export type { LastSeen, TrackerMessages } from "./messages.js";
export { type TrackedOrder, trackedReader } from "./records.js";
export * from "./reminders.js";
export type { TrackingEvent, TrackingObserver } from "./reports.js";
export * from "./tracker.js";

/** What a tracker is built with besides the jobs' queue, connection and notifier. */
export type TrackingOptions = Omit<
  TrackerOptions,
  "redis" | "queue" | "prefix" | "logger" | "metrics" | "notifier" | "observer" | "onChange"
> & {
  /** Told of each status and end of a tracker started with a `ref` (the lifecycle). */
  observer?: TrackingObserver;
  /** A change refreshes the App Home of whoever sees the target (`notifier.refreshHome`). */
  refreshHomes?: boolean;
};

/** The settings tests and operations tune (src/bot.ts's `jobs.trackerSettings`). */
export type TrackerSettings = Pick<
  TrackingOptions,
  "schedule" | "deadlineDays" | "waitingEveryMs" | "acceptanceReminders"
>;

/**
 * Builds the tracker on the jobs' tracking queue; it does not run it. src/workers runs its
 * reconciler where this process runs workers, and its worker there too when it reads targets
 * (`canProcess`: a reader given); anywhere, it tracks, lists and stops.
 */
export function buildTracker(
  jobs: Pick<Jobs, "partOptions" | "notifier">,
  { refreshHomes, ...options }: TrackingOptions,
): Tracker {
  return new Tracker({
    ...jobs.partOptions("tracking"),
    notifier: jobs.notifier,
    ...options,
    // Who sees a tracked target in App Home: the one audience rule (src/domain/audience.ts).
    ...(refreshHomes
      ? {
          onChange: async (record) => {
            for (const userId of trackedAudience(record)) await jobs.notifier.refreshHome(userId);
          },
        }
      : {}),
  });
}
