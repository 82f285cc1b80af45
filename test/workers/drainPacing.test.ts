import { describe, expect, it } from "vitest";
import { type OutboxItem, parseMarker } from "../../src/jobs/notifier/outbox.js";
import {
  burstWait,
  type PacingSettings,
  paceAfter,
} from "../../src/workers/notifier/drainPacing.js";

const settings: PacingSettings = {
  intervalMs: 1_100,
  homeDebounceMs: 2_000,
  updateIntervalMs: 1_200,
  updateBurst: 4,
  maxAttempts: 3,
  retryBaseMs: 2_000,
  retryMaxMs: 5_000,
};

const item = (op: OutboxItem["op"]): OutboxItem => ({
  sc: "order:1:t1",
  k: "line",
  op,
  ch: "C1",
  text: "hello",
  at: 0,
});

describe("drain pacing", () => {
  it("marks a sent message with its ts and waits the channel's pace", () => {
    expect(paceAfter({ kind: "sent", ts: "1.2" }, item("post"), 2, settings)).toEqual({
      marker: "sent|1.2",
      outcome: "posted",
      failures: 0,
      delayMs: 1_100,
    });
    expect(paceAfter({ kind: "sent", ts: undefined }, item("update"), 0, settings)).toMatchObject({
      marker: "sent|",
      outcome: "updated",
    });
  });

  it("keeps the channel Slack answered with only for a post that asked (a card in a DM)", () => {
    const answer = { kind: "sent" as const, ts: "1.2", channel: "D0REQUEST1" };
    expect(paceAfter(answer, { ...item("post"), kc: 1 }, 0, settings).marker).toBe(
      "sent|1.2|D0REQUEST1",
    );
    // Every other key keeps the form older replicas read.
    expect(paceAfter(answer, item("post"), 0, settings).marker).toBe("sent|1.2");
    expect(
      paceAfter({ kind: "sent", ts: "1.2" }, { ...item("post"), kc: 1 }, 0, settings).marker,
    ).toBe("sent|1.2");
  });

  it("reads both forms of a sent marker back (parseMarker), and the others", () => {
    const sent = (outcome: { ts?: string; channel?: string }, kc?: 1) =>
      parseMarker(
        paceAfter(
          { kind: "sent", ts: outcome.ts, ...outcome },
          { ...item("post"), kc },
          0,
          settings,
        ).marker ?? null,
      );
    expect(sent({ ts: "1.2", channel: "D0REQUEST1" }, 1)).toEqual({
      state: "sent",
      ts: "1.2",
      channel: "D0REQUEST1",
    });
    expect(sent({ ts: "1.2", channel: "D0REQUEST1" })).toEqual({ state: "sent", ts: "1.2" });
    expect(parseMarker("sent|")).toEqual({ state: "sent", ts: undefined });
    expect(parseMarker("queued")).toEqual({ state: "queued" });
    expect(parseMarker("dropped|not_in_channel")).toEqual({
      state: "dropped",
      reason: "not_in_channel",
    });
    expect(parseMarker(null)).toBeNull();
  });

  it("paces a person's Home by the debounce window", () => {
    expect(paceAfter({ kind: "sent", ts: undefined }, item("home"), 0, settings)).toMatchObject({
      outcome: "published",
      delayMs: 2_000,
    });
  });

  it("keeps a rate-limited message at the head for as long as Slack asks, never less than the pace", () => {
    const limited = (retryAfterMs: number) =>
      paceAfter({ kind: "rate-limited", retryAfterMs, detail: "429" }, item("post"), 1, settings);
    expect(limited(30_000)).toMatchObject({
      outcome: "rate_limited",
      failures: 1,
      delayMs: 30_000,
    });
    expect(limited(30_000).marker).toBeUndefined();
    expect(limited(10).delayMs).toBe(1_100);
  });

  it("drops what Slack refuses, with the reason in the marker", () => {
    const pace = paceAfter(
      { kind: "permanent", error: "channel_not_found", detail: "gone" },
      item("post"),
      1,
      settings,
    );
    expect(pace).toMatchObject({
      marker: "dropped|channel_not_found",
      outcome: "dropped",
      failures: 0,
      delayMs: 1_100,
    });
    expect(pace.log?.level).toBe("warn");
  });

  it("backs off on transient failures, doubling to the cap, then gives up", () => {
    const transient = (failuresSoFar: number) =>
      paceAfter({ kind: "transient", detail: "x".repeat(150) }, item("post"), failuresSoFar, {
        ...settings,
        maxAttempts: 4,
      });
    expect(transient(0)).toMatchObject({ outcome: "retry", failures: 1, delayMs: 2_000 });
    expect(transient(0).marker).toBeUndefined();
    expect(transient(1)).toMatchObject({ failures: 2, delayMs: 4_000 });
    expect(transient(2)).toMatchObject({ failures: 3, delayMs: 5_000 });
    const gaveUp = transient(3);
    expect(gaveUp).toMatchObject({ outcome: "failed", failures: 0, delayMs: 1_100 });
    // The marker keeps a bounded reason.
    expect(gaveUp.marker).toBe(`dropped|${"x".repeat(100)}`);
    expect(gaveUp.log?.level).toBe("error");
  });

  it("waits after a burst of kept messages' updates for its share of chat.update's rate", () => {
    const sent = paceAfter({ kind: "sent", ts: "1.2" }, item("render"), 0, settings);
    const dropped = paceAfter(
      { kind: "permanent", error: "message_not_found", detail: "gone" },
      item("render"),
      0,
      settings,
    );
    // 1.2 s for each update of the burst, what Slack refused included.
    expect(burstWait([sent, sent, dropped, sent], settings)).toBe(4 * 1_200);
    expect(burstWait([sent], settings)).toBe(1_200);
    expect(burstWait([], settings)).toBe(0);
  });

  it("waits as long as Slack asks when an update of the burst met a 429, or its backoff", () => {
    const sent = paceAfter({ kind: "sent", ts: "1.2" }, item("render"), 0, settings);
    const limited = (retryAfterMs: number) =>
      paceAfter({ kind: "rate-limited", retryAfterMs, detail: "429" }, item("render"), 0, settings);
    expect(burstWait([sent, limited(30_000)], settings)).toBe(30_000);
    expect(burstWait([sent, sent, limited(10)], settings)).toBe(3 * 1_200);
    const retry = paceAfter({ kind: "transient", detail: "503" }, item("render"), 0, settings);
    expect(burstWait([retry], settings)).toBe(2_000);
  });
});
