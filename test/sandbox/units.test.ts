// The sandbox's clock, order timelines and fault matching, without HTTP.
import { describe, expect, it } from "vitest";
import {
  FaultInjector,
  parseFaultRules,
  SandboxClock,
  SandboxState,
} from "../../src/sandbox/index.js";
import { orderStages } from "../../src/sandbox/timeline.js";
import { frozenClock, START } from "./helpers.js";

const DAY = 86_400_000;

describe("SandboxClock", () => {
  it("follows real time plus what advance() added", () => {
    let real = 1_000_000;
    const clock = new SandboxClock({ realNow: () => real });
    expect(clock.nowMs()).toBe(1_000_000);
    real += 500;
    clock.advance(DAY);
    expect(clock.nowMs()).toBe(1_000_500 + DAY);
    expect(clock.now().toISOString()).toBe(new Date(1_000_500 + DAY).toISOString());
  });

  it("stands still when frozen and refuses to go backwards", () => {
    const clock = frozenClock();
    expect(clock.nowMs()).toBe(START);
    clock.advance(1);
    expect(clock.nowMs()).toBe(START + 1);
    expect(() => clock.advance(-1)).toThrow(RangeError);
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError);
  });
});

describe("port order timelines", () => {
  const dcfOf = (state: SandboxState, kind: "ON_NET" | "OFF_NET") =>
    state.world.dcfs.find((d) => d.kind === kind && d.ready)!;

  it("gives each off-net order a 4 to 6 week LOA wait, the same for the same seed", () => {
    const a = new SandboxState(5, frozenClock());
    const b = new SandboxState(5, frozenClock());
    const waits = (state: SandboxState) =>
      Array.from(
        { length: 200 },
        (_, i) =>
          state.createPortOrder({
            companyId: state.world.company.id,
            dcfId: dcfOf(state, "OFF_NET").id,
            speed: 1000,
            portName: `p${i}`,
            durationUnit: "y",
            paymentType: "invoice",
            isEdgePort: false,
            edgePayload: null,
          }).loaDays,
      );
    const first = waits(a);
    expect(waits(b)).toEqual(first);
    expect(Math.min(...first)).toBeGreaterThanOrEqual(28);
    expect(Math.max(...first)).toBeLessThanOrEqual(42);
    expect(new Set(first).size).toBeGreaterThan(5);
  });

  it("computes status lazily from the clock for many orders", () => {
    const clock = frozenClock();
    const state = new SandboxState(1, clock);
    const dcf = dcfOf(state, "ON_NET");
    for (let i = 0; i < 10_000; i++) {
      state.createPortOrder({
        companyId: state.world.company.id,
        dcfId: dcf.id,
        speed: dcf.speeds[0]!,
        portName: `bulk-${i}`,
        durationUnit: "y",
        paymentType: "invoice",
        isEdgePort: false,
        edgePayload: null,
      });
    }
    const statuses = () =>
      new Set(
        [...state.orders.values()]
          .filter((o) => o.portName.startsWith("bulk-"))
          .map((o) => state.orderState(o).status),
      );
    expect(statuses()).toEqual(new Set(["created"]));
    clock.advance(DAY);
    expect(statuses()).toEqual(new Set(["done"]));
    expect(state.allPorts().filter((p) => p.name.startsWith("bulk-"))).toHaveLength(10_000);
  });

  it("ends every timeline at done with the LOA approved", () => {
    for (const kind of ["ON_NET", "OFF_NET", "EDGE"] as const) {
      const stages = orderStages(kind, 30);
      expect(stages[0]).toEqual({ status: "created", loaStatus: "TODO", afterMs: 0 });
      expect(stages.at(-1)).toMatchObject({ status: "done", loaStatus: "APPROVED" });
      const offsets = stages.map((s) => s.afterMs);
      expect([...offsets].sort((x, y) => x - y)).toEqual(offsets);
    }
  });
});

describe("FaultInjector", () => {
  it("matches globs within and across path segments, with an optional method", () => {
    const faults = new FaultInjector(1, [
      { match: "GET /v2/edge/*", status: 502 },
      { match: "/api/**", status: 503 },
    ]);
    expect(faults.decide("GET", "/v2/edge/countries")?.action).toMatchObject({ status: 502 });
    expect(faults.decide("POST", "/v2/edge/price")).toBeUndefined();
    expect(faults.decide("GET", "/v2/edge/price/search")).toBeUndefined();
    expect(faults.decide("PUT", "/api/company/x/ports/orders")?.action).toMatchObject({
      status: 503,
    });
  });

  it("never fails at rate 0 and always at rate 1", () => {
    const never = new FaultInjector(1, [{ match: "/**", errorRate: 0 }]);
    const always = new FaultInjector(1, [{ match: "/**", errorRate: 1 }]);
    for (let i = 0; i < 50; i++) {
      expect(never.decide("GET", "/x")?.action.kind).toBe("pass");
      expect(always.decide("GET", "/x")?.action).toMatchObject({ kind: "respond", status: 500 });
    }
  });

  it("parses admin rules and names what is wrong", () => {
    expect(parseFaultRules({ match: "/a", hang: true })).toEqual([{ match: "/a", hang: true }]);
    const [rule] = parseFaultRules({ rules: [{ regex: "^GET /a$", times: 2, status: 500 }] });
    expect(rule!.match).toBeInstanceOf(RegExp);
    expect(() => parseFaultRules([{ match: "/a", regex: "b" }])).toThrow(/exactly one of match/);
    expect(() => parseFaultRules([{ regex: "(" }])).toThrow(/not a valid regular expression/);
    expect(() => parseFaultRules([{ match: "/a", errorRate: 1.5 }])).toThrow(/errorRate/);
  });
});
