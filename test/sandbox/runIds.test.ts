import { describe, expect, it } from "vitest";
import { SandboxClock } from "../../src/sandbox/clock.js";
import { SandboxState } from "../../src/sandbox/state.js";

/**
 * The embedded sandbox starts from its seed on every run while Redis may keep the previous run's
 * records (issue 32, item 7): a run salt keeps the seeded world but never hands out an order id
 * that an earlier run gave.
 */
const clock = () => new SandboxClock({ start: Date.UTC(2025, 0, 6), frozen: true });

function placeOrders(state: SandboxState, count: number): string[] {
  const dcf = state.world.dcfs.find((d) => d.kind === "ON_NET" && d.ready);
  if (!dcf) throw new Error("no on-net data center in the seed");
  return Array.from(
    { length: count },
    (_, i) =>
      state.createPortOrder({
        companyId: state.world.company.id,
        dcfId: dcf.id,
        speed: 1000,
        portName: `run-${i}`,
        durationUnit: "y",
        paymentType: "invoice",
        isEdgePort: false,
        edgePayload: null,
      }).id,
  );
}

describe("sandbox ids across runs", () => {
  it("keeps the seeded world but gives a new run new order ids", () => {
    const first = new SandboxState(42, clock(), "run-a");
    const second = new SandboxState(42, clock(), "run-b");
    expect(second.world.dcfs.map((d) => d.id)).toEqual(first.world.dcfs.map((d) => d.id));
    expect([...second.orders.keys()]).toEqual([...first.orders.keys()]);
    const a = placeOrders(first, 20);
    const b = placeOrders(second, 20);
    expect(new Set(a).size).toBe(20);
    expect(b.filter((id) => a.includes(id))).toEqual([]);
  });

  it("gives the same ids for the same seed and run (and without a run)", () => {
    expect(placeOrders(new SandboxState(7, clock(), "x"), 5)).toEqual(
      placeOrders(new SandboxState(7, clock(), "x"), 5),
    );
    expect(placeOrders(new SandboxState(7, clock()), 5)).toEqual(
      placeOrders(new SandboxState(7, clock()), 5),
    );
  });
});
