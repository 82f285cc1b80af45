import { describe, expect, it } from "vitest";
import { replayThroughLimiter } from "../../bench/tracking.js";
import { limiterSpacingMs } from "../../src/provider/rateLimit.js";

// The tracking benchmark's claim "provider requests within the limit at all times" rests on
// this replay of the reads' due moments through the limiter's spacing.
describe("replayThroughLimiter (tracking benchmark)", () => {
  it("sends a burst due at one instant at the limiter's spacing, never more than the limit a second", () => {
    const replay = replayThroughLimiter(new Array(100).fill(1_000_000), 10);
    expect(replay.busiestSecondDue).toBe(100);
    expect(replay.secondsOverLimitDue).toBe(1);
    expect(replay.busiestSecondSent).toBe(10);
    expect(replay.delayed).toBe(99);
    expect(replay.delayMs.max).toBe(Math.round(99 * limiterSpacingMs(10)));
  });

  it("holds nothing back when the reads fall due further apart than the spacing", () => {
    const due = Array.from({ length: 50 }, (_, i) => i * 200);
    const replay = replayThroughLimiter(due, 10);
    expect(replay.delayed).toBe(0);
    expect(replay.busiestSecondSent).toBe(5);
    expect(replay.secondsOverLimitDue).toBe(0);
  });

  it("sorts the due moments first, so the order they were recorded in does not matter", () => {
    const due = [5_000, 0, 2_500, 10_000, 7_500];
    expect(replayThroughLimiter(due, 1)).toEqual(replayThroughLimiter([...due].reverse(), 1));
    expect(replayThroughLimiter(due, 1).delayed).toBe(0);
  });
});
