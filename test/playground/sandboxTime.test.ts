import { afterEach, describe, expect, it } from "vitest";
import type { TrackTarget } from "../../src/domain/tracking/statuses.js";
import type { TrackedOrder } from "../../src/orders/tracking/records.js";
import {
  createPlayground,
  type OpenTrackers,
  type PlaygroundState,
} from "../../src/playground/index.js";
import { SandboxTime } from "../../src/playground/sandboxTime.js";
import { DAY, HOUR, SandboxClock } from "../../src/sandbox/clock.js";
import type { SlackStandin } from "../../src/standin/index.js";
import { STANDIN_IDS } from "../../src/standin/index.js";

const REAL_START = Date.UTC(2026, 0, 5, 9, 0, 0);

function tracked(orderId: string, open = true): TrackedOrder {
  return {
    target: { kind: "port-order", id: orderId },
    orderId,
    companyName: "acme",
    channel: STANDIN_IDS.approvals,
    threadTs: "1700000000.000100",
    requestedBy: STANDIN_IDS.requester,
    kind: "on-net",
    startedAt: new Date(REAL_START),
    open,
    changes: 0,
    checks: 0,
    failures: 0,
    reminders: 0,
    waitReminders: 0,
    watchers: [],
  };
}

function idOf(ref: string | TrackTarget): string {
  return typeof ref === "string" ? ref : ref.id;
}

/**
 * A tracker whose `checkNow` answers from a script per order (true: promoted; false: the job is
 * not delayed right now), recording every call.
 */
function scriptedTracker(
  orders: TrackedOrder[],
  answers: Record<string, boolean[]>,
  ended: Set<string> = new Set(),
): OpenTrackers & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    list: async () => orders.filter((o) => !ended.has(o.orderId)),
    get: async (ref) => {
      const orderId = idOf(ref);
      const order = orders.find((o) => o.orderId === orderId);
      return order ? { ...order, open: !ended.has(orderId) } : null;
    },
    checkNow: async (ref) => {
      const orderId = idOf(ref);
      calls.push(orderId);
      return answers[orderId]?.shift() ?? false;
    },
  };
}

describe("SandboxTime: moving the embedded sandbox's clock", () => {
  it("moves the clock forward and has every open tracker check now", async () => {
    const clock = new SandboxClock({ frozen: true, start: REAL_START });
    const tracker = scriptedTracker([tracked("ord-1"), tracked("ord-2")], {
      "ord-1": [true],
      "ord-2": [true],
    });
    const time = new SandboxTime({ clock, tracker: () => tracker, realNow: () => REAL_START });
    expect(time.status()).toEqual({ now: new Date(REAL_START).toISOString(), aheadMs: 0 });

    const result = await time.advance(DAY + HOUR);
    expect(clock.nowMs()).toBe(REAL_START + DAY + HOUR);
    expect(result).toEqual({
      ok: true,
      now: new Date(REAL_START + DAY + HOUR).toISOString(),
      aheadMs: DAY + HOUR,
      open: 2,
      checked: 2,
    });
    expect(tracker.calls.sort()).toEqual(["ord-1", "ord-2"]);
  });

  it("waits for a tracker in the middle of a check, and gives up on one that ended", async () => {
    const clock = new SandboxClock({ frozen: true, start: REAL_START });
    const ended = new Set<string>();
    const tracker = scriptedTracker(
      [tracked("busy"), tracked("ending")],
      // "busy" is mid-step twice (it may have read before the clock moved), then delayed again.
      { busy: [false, false, true], ending: [] },
      ended,
    );
    const time = new SandboxTime({ clock, tracker: () => tracker });
    const listed = tracker.list;
    tracker.list = async () => {
      const open = await listed();
      // The order reaches its end between the listing and the check.
      ended.add("ending");
      return open;
    };
    const result = await time.advance(HOUR);
    expect(result.open).toBe(2);
    expect(result.checked).toBe(1);
    expect(tracker.calls.filter((id) => id === "busy")).toHaveLength(3);
    expect(tracker.calls.filter((id) => id === "ending")).toHaveLength(1);
  });

  it("sends the Edge draft reminders due on the moved clock, asking after the clock moved", async () => {
    const clock = new SandboxClock({ frozen: true, start: REAL_START });
    const seen: number[] = [];
    const reminders = {
      checkDue: async () => {
        seen.push(clock.nowMs());
        return 1;
      },
    };
    const time = new SandboxTime({
      clock,
      tracker: () => undefined,
      draftReminders: () => reminders,
      realNow: () => REAL_START,
    });
    await time.advance(27 * DAY);
    expect(seen).toEqual([REAL_START + 27 * DAY]);
  });

  it("still moves the clock while the bot (and its tracker) is starting", async () => {
    const clock = new SandboxClock({ frozen: true, start: REAL_START });
    const time = new SandboxTime({ clock, tracker: () => undefined, realNow: () => REAL_START });
    const result = await time.advance(HOUR);
    expect(result).toMatchObject({ open: 0, checked: 0, aheadMs: HOUR });
    expect(clock.nowMs()).toBe(REAL_START + HOUR);
  });
});

describe("the playground API's sandbox time control", () => {
  let standin: SlackStandin | undefined;
  afterEach(async () => {
    await standin?.close();
    standin = undefined;
  });

  async function start(sandbox: boolean, clock: SandboxClock) {
    const playground = createPlayground({ sandbox, sandboxClock: clock });
    standin = await playground.startStandin({ botPort: 0 });
    const base = `${standin.url}/playground/api`;
    playground.connect(
      // The API never reaches the bot for sandbox time: a driver that fails if it does.
      new Proxy({} as Parameters<typeof playground.connect>[0], {
        get: () => {
          throw new Error("the driver is not used here");
        },
      }),
      { tracker: scriptedTracker([tracked("ord-9")], { "ord-9": [true] }, new Set()) },
    );
    return {
      state: async () =>
        (await (
          await fetch(`${base}/state?user=${STANDIN_IDS.requester}`)
        ).json()) as PlaygroundState,
      advance: (body: unknown) =>
        fetch(`${base}/sandbox/advance`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        }),
    };
  }

  it("refuses with a real provider and shows no control, even when given a clock", async () => {
    const clock = new SandboxClock();
    const api = await start(false, clock);
    expect((await api.state()).sandbox).toBe(false);
    expect((await api.state()).sandboxTime).toBeUndefined();
    const response = await api.advance({ user: STANDIN_IDS.requester, ms: DAY });
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: string }).error).toContain("embedded sandbox");
    expect(clock.advancedMs).toBe(0);
  });

  it("moves the sandbox's clock, checks open trackers, and shows how far ahead it is", async () => {
    const clock = new SandboxClock();
    const api = await start(true, clock);
    const before = await api.state();
    expect(before.sandboxTime?.aheadMs).toBe(0);

    for (const bad of [
      { user: STANDIN_IDS.requester, ms: 0 },
      { user: STANDIN_IDS.requester, ms: -DAY },
      { user: STANDIN_IDS.requester, ms: "1 day" },
      { user: STANDIN_IDS.requester, ms: 365 * DAY },
      { user: "U0NOBODY99", ms: DAY },
      { ms: DAY },
    ]) {
      const refused = await api.advance(bad);
      expect(refused.status, JSON.stringify(bad)).toBe(400);
    }
    expect(clock.advancedMs).toBe(0);

    const response = await api.advance({ user: STANDIN_IDS.requester, ms: DAY });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, open: 1, checked: 1 });
    expect(clock.advancedMs).toBe(DAY);
    const after = await api.state();
    expect(after.version).toBeGreaterThan(before.version);
    expect(after.sandboxTime?.aheadMs).toBe(DAY);
  });
});
