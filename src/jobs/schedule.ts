/**
 * When to look at a tracked port order next. Pure: the tracker passes the order's age, its
 * consecutive failures and a random number.
 *
 * Orders move fast right after they are placed (an administrator of the provider approves, the
 * port is allocated), then wait on people and partners: an on-net LOA takes about a day, an
 * off-net one 4–6 weeks. So: often in the first hour, then less and less, hourly for the weeks
 * of an LOA wait. ±10 % jitter spreads thousands of trackers started together (e.g. by a
 * restart) so they do not poll the provider in lockstep.
 */

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;
export const WEEK_MS = 7 * DAY_MS;

export interface ScheduleStep {
  /** This step applies while the order is younger than this. */
  untilAgeMs: number;
  everyMs: number;
}

export interface TrackingSchedule {
  /** Ascending by untilAgeMs; the last step applies beyond it too. */
  steps: readonly ScheduleStep[];
  /** Fraction, e.g. 0.1 for ±10 %. */
  jitter: number;
  /** After failures the interval doubles per failure, up to this (never below the base). */
  maxBackoffMs: number;
}

export const DEFAULT_SCHEDULE: TrackingSchedule = {
  steps: [
    { untilAgeMs: HOUR_MS, everyMs: 2 * MINUTE_MS },
    { untilAgeMs: DAY_MS, everyMs: 10 * MINUTE_MS },
    { untilAgeMs: WEEK_MS, everyMs: 30 * MINUTE_MS },
    { untilAgeMs: Number.POSITIVE_INFINITY, everyMs: HOUR_MS },
  ],
  jitter: 0.1,
  maxBackoffMs: HOUR_MS,
};

/** The interval for an order of this age, before jitter and backoff. */
export function baseIntervalMs(
  ageMs: number,
  schedule: TrackingSchedule = DEFAULT_SCHEDULE,
): number {
  const age = Math.max(0, ageMs);
  for (const step of schedule.steps) {
    if (age < step.untilAgeMs) return step.everyMs;
  }
  const last = schedule.steps[schedule.steps.length - 1];
  if (!last) throw new RangeError("a schedule needs at least one step");
  return last.everyMs;
}

/** Doubles per consecutive failure, capped at maxBackoffMs (or the base, if that is larger). */
export function backoffIntervalMs(
  baseMs: number,
  failures: number,
  schedule: TrackingSchedule = DEFAULT_SCHEDULE,
): number {
  if (failures <= 0) return baseMs;
  const cap = Math.max(schedule.maxBackoffMs, baseMs);
  // 2 ** failures overflows to Infinity for silly counts; Math.min handles that.
  return Math.min(baseMs * 2 ** Math.min(failures, 60), cap);
}

export interface NextCheckInput {
  ageMs: number;
  failures?: number;
  /** A number in [0, 1); 0.5 means no jitter. */
  random?: () => number;
  /** Time left before the tracking deadline: the next check never goes past it. */
  remainingMs?: number;
  /** The interval is at least this (e.g. while waiting days on a partner: poll slowly). */
  minIntervalMs?: number;
  schedule?: TrackingSchedule;
}

/** Milliseconds until the next check (jitter and backoff applied; at least 1 ms). */
export function nextCheckDelayMs(input: NextCheckInput): number {
  const schedule = input.schedule ?? DEFAULT_SCHEDULE;
  const base = Math.max(baseIntervalMs(input.ageMs, schedule), input.minIntervalMs ?? 0);
  const interval = backoffIntervalMs(base, input.failures ?? 0, schedule);
  const r = Math.min(Math.max((input.random ?? Math.random)(), 0), 1);
  const jittered = interval * (1 + schedule.jitter * (2 * r - 1));
  const bounded =
    input.remainingMs === undefined ? jittered : Math.min(jittered, Math.max(input.remainingMs, 0));
  return Math.max(Math.round(bounded), 1);
}
