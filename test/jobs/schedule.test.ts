import { describe, expect, it } from "vitest";
import {
  backoffIntervalMs,
  baseIntervalMs,
  DAY_MS,
  DEFAULT_SCHEDULE,
  HOUR_MS,
  MINUTE_MS,
  nextCheckDelayMs,
  WEEK_MS,
} from "../../src/jobs/schedule.js";

describe("tracking schedule", () => {
  it("polls often at first and less as the order ages", () => {
    expect(baseIntervalMs(0)).toBe(2 * MINUTE_MS);
    expect(baseIntervalMs(59 * MINUTE_MS)).toBe(2 * MINUTE_MS);
    expect(baseIntervalMs(HOUR_MS)).toBe(10 * MINUTE_MS);
    expect(baseIntervalMs(DAY_MS - 1)).toBe(10 * MINUTE_MS);
    expect(baseIntervalMs(DAY_MS)).toBe(30 * MINUTE_MS);
    expect(baseIntervalMs(WEEK_MS - 1)).toBe(30 * MINUTE_MS);
    expect(baseIntervalMs(WEEK_MS)).toBe(HOUR_MS);
    // Through the 4–6 weeks of an off-net LOA and beyond.
    expect(baseIntervalMs(6 * WEEK_MS)).toBe(HOUR_MS);
    expect(baseIntervalMs(-5)).toBe(2 * MINUTE_MS);
  });

  it("jitters by at most ±10 %", () => {
    const age = 2 * DAY_MS; // base 30 min
    expect(nextCheckDelayMs({ ageMs: age, random: () => 0.5 })).toBe(30 * MINUTE_MS);
    expect(nextCheckDelayMs({ ageMs: age, random: () => 0 })).toBe(27 * MINUTE_MS);
    expect(nextCheckDelayMs({ ageMs: age, random: () => 0.999999 })).toBeCloseTo(
      33 * MINUTE_MS,
      -2,
    );
    for (let i = 0; i < 1000; i += 1) {
      const delay = nextCheckDelayMs({ ageMs: age });
      expect(delay).toBeGreaterThanOrEqual(27 * MINUTE_MS);
      expect(delay).toBeLessThanOrEqual(33 * MINUTE_MS);
    }
    // A broken random source cannot push the delay outside the band.
    expect(nextCheckDelayMs({ ageMs: age, random: () => 7 })).toBe(33 * MINUTE_MS);
    expect(nextCheckDelayMs({ ageMs: age, random: () => -1 })).toBe(27 * MINUTE_MS);
  });

  it("backs off after failures by doubling, up to an hour", () => {
    expect(backoffIntervalMs(2 * MINUTE_MS, 0)).toBe(2 * MINUTE_MS);
    expect(backoffIntervalMs(2 * MINUTE_MS, 1)).toBe(4 * MINUTE_MS);
    expect(backoffIntervalMs(2 * MINUTE_MS, 2)).toBe(8 * MINUTE_MS);
    expect(backoffIntervalMs(2 * MINUTE_MS, 5)).toBe(HOUR_MS);
    expect(backoffIntervalMs(2 * MINUTE_MS, 500)).toBe(HOUR_MS);
    // Already hourly: failures do not make it slower than the cap.
    expect(backoffIntervalMs(HOUR_MS, 3)).toBe(HOUR_MS);
    expect(nextCheckDelayMs({ ageMs: 0, failures: 3, random: () => 0.5 })).toBe(16 * MINUTE_MS);
  });

  it("never schedules past the tracking deadline", () => {
    expect(
      nextCheckDelayMs({ ageMs: 8 * WEEK_MS, remainingMs: 5 * MINUTE_MS, random: () => 0.5 }),
    ).toBe(5 * MINUTE_MS);
    expect(nextCheckDelayMs({ ageMs: 8 * WEEK_MS, remainingMs: -10, random: () => 0.5 })).toBe(1);
  });

  it("takes a custom schedule (tests and benchmarks)", () => {
    const schedule = { ...DEFAULT_SCHEDULE, steps: [{ untilAgeMs: Infinity, everyMs: 100 }] };
    expect(nextCheckDelayMs({ ageMs: 10 * WEEK_MS, schedule, random: () => 0.5 })).toBe(100);
  });
});
