import { describe, expect, it } from "vitest";
import { levelResult, type RoundResult, roundSize } from "../../bench/ack.js";

// The ack benchmark sends each level in rounds that alternate between the bot and the bare
// app; its figures are these rounds split and pooled.
describe("ack benchmark rounds", () => {
  it("splits a level's requests into rounds that add up to it and differ by at most one", () => {
    for (const [count, rounds] of [
      [2000, 5],
      [7, 3],
      [5, 5],
      [1, 1],
    ] as const) {
      const sizes = Array.from({ length: rounds }, (_, r) => roundSize(count, rounds, r));
      expect(sizes.reduce((s, n) => s + n, 0)).toBe(count);
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
    }
  });

  it("pools every round's latencies, keeps each round's p99 and adds up counts and CPU", () => {
    const stats = (latencies: number[], extra: Partial<RoundResult> = {}): RoundResult => ({
      requests: latencies.length,
      latencies,
      openingLatencies: [],
      non200: 0,
      busy: 0,
      seconds: 1,
      cpuMsLoad: latencies.length,
      peakRss: 100 * 2 ** 20,
      ...extra,
    });
    // One slow round: its own p99 is slow, but pooled its 100 slow requests are the slowest 1 %
    // of 10,000, above the pooled p99 and at the max.
    const quiet = Array.from({ length: 4_950 }, () => 1);
    const slow = [
      ...Array.from({ length: 4_950 }, () => 1),
      ...Array.from({ length: 100 }, () => 50),
    ];
    const level = levelResult("bot", 16, [
      stats(quiet, {
        non200: 1,
        followUps: { response_url: 4_950, total: 4_950 },
        answeredSeconds: 2,
        cpuMsUntilAnswered: 9_900,
      }),
      stats(slow, {
        busy: 3,
        peakRss: 120 * 2 ** 20,
        followUps: { response_url: 5_047, total: 5_047 },
        answeredSeconds: 3,
        cpuMsUntilAnswered: 10_100,
      }),
    ]);
    expect(level.requests).toBe(10_000);
    expect(level.rounds).toBe(2);
    expect(level.latencyMs.count).toBe(10_000);
    expect(level.latencyMs.p50).toBe(1);
    expect(level.latencyMs.p99).toBe(1);
    expect(level.latencyMs.max).toBe(50);
    expect(level.roundP99Ms).toEqual([1, 50]);
    expect(level.non200).toBe(1);
    expect(level.refusedBusy).toBe(3);
    expect(level.requestsPerSecond).toBe(5_000);
    expect(level.cpuMsPerRequest).toBe(1);
    expect(level.cpuMsPerRequestUntilAnswered).toBe(2);
    expect(level.followUps).toEqual({ response_url: 9_997, total: 9_997 });
    expect(level.answeredSeconds).toBe(5);
    expect(level.peakRssMiB).toBe(120);
  });

  it("keeps each round's opening requests out of the stream's latencies, and shows them apart", () => {
    const round = (latencies: number[], opening: number[]): RoundResult => ({
      requests: latencies.length,
      latencies,
      openingLatencies: opening,
      non200: 0,
      busy: 0,
      seconds: 1,
      // Every request sent costs 1 ms of CPU, the opening ones too.
      cpuMsLoad: latencies.length + opening.length,
      peakRss: 2 ** 20,
    });
    const steady = Array.from({ length: 200 }, () => 2);
    const level = levelResult("bare", 4, [
      round(steady, [90, 3, 3, 3]),
      round(steady, [3, 120, 3, 3]),
    ]);
    expect(level.requests).toBe(400);
    expect(level.latencyMs.count).toBe(400);
    expect(level.latencyMs.max).toBe(2);
    expect(level.roundP99Ms).toEqual([2, 2]);
    expect(level.openingPerRound).toBe(4);
    expect(level.openingMs.count).toBe(8);
    expect(level.openingMs.p50).toBe(3);
    expect(level.openingMs.max).toBe(120);
    expect(level.requestsPerSecond).toBe(200);
    expect(level.cpuMsPerRequest).toBe(1);
  });

  it("leaves the follow-up figures out for the bare app, which has none", () => {
    const level = levelResult("bare", 1, [
      {
        requests: 2,
        latencies: [1, 2],
        openingLatencies: [],
        non200: 0,
        busy: 0,
        seconds: 1,
        cpuMsLoad: 1,
        peakRss: 2 ** 20,
      },
    ]);
    expect(level.followUps).toBeUndefined();
    expect(level.answeredSeconds).toBeUndefined();
    expect(level.cpuMsPerRequestUntilAnswered).toBeUndefined();
  });
});
