import { describe, expect, it } from "vitest";
import type { ApprovalRequest, ApprovalStatus } from "../../../src/approvals/index.js";
import type { OrderProgress } from "../../../src/orders/progress.js";
import { readRequest } from "../../../src/orders/readModel.js";
import { committedSpend as sumOf } from "../../../src/orders/spend/committed.js";

/** The one sum of committed spend (App Home, /connect spend): placed requests only, by kind. */

/** The sum over the read model of `records` (as App Home and /connect spend read them). */
const committedSpend = (
  records: readonly ApprovalRequest[],
  options: Parameters<typeof sumOf>[1] = {},
  progress: ReadonlyMap<string, OrderProgress> = new Map(),
) =>
  sumOf(
    records.map((r) => readRequest(r, { progress: progress.get(r.id) })),
    options,
  );

let n = 0;
function request(
  status: ApprovalStatus,
  kind: ApprovalRequest["kind"],
  price: ApprovalRequest["price"],
  requester = "U0REQUEST1",
): ApprovalRequest {
  n += 1;
  return {
    id: `apr_${String(n).padStart(16, "a")}`,
    kind,
    title: `order ${n}`,
    summary: [],
    call: { operation: "createPortOrder", pathParams: {}, body: {} },
    price,
    requester: { userId: requester },
    slack: {},
    sandbox: true,
    status,
    attempts: 1,
    history: [],
    createdAt: "2026-11-01T00:00:00.000Z",
    updatedAt: "2026-11-01T00:00:00.000Z",
  };
}

describe("committedSpend", () => {
  const records = [
    request("placed", "port", { monthly: 100, total: 1200, text: "" }),
    request("placed", "port", { monthly: 50.5, total: 606, text: "" }, "U0OTHER01"),
    request("placed", "layer2", { monthly: 300, text: "" }),
    request("placed", "iod", undefined),
    // Not committed: never ordered, or not (yet) known to be.
    ...(
      ["pending", "approved", "executing", "unknown", "failed", "rejected", "cancelled"] as const
    ).map((status) => request(status, "port", { monthly: 1_000_000, total: 1_000_000, text: "" })),
  ];

  it("adds up placed requests only, overall and by kind, and counts the unpriced", () => {
    const team = committedSpend(records);
    expect(team).toMatchObject({
      orders: 4,
      monthly: 450.5,
      total: 1806,
      payAsYouGo: 1,
      withoutMonthly: 0,
      withoutTotal: 1,
    });
    expect(team.byKind.port).toMatchObject({ orders: 2, monthly: 150.5, total: 1806 });
    expect(team.byKind.layer2).toMatchObject({
      orders: 1,
      monthly: 300,
      total: 0,
      withoutTotal: 1,
    });
    // IO-D is pay as you go: an order, never an amount of 0.00.
    expect(team.byKind.iod).toMatchObject({ orders: 1, payAsYouGo: 1, withoutMonthly: 0 });
    expect(team.byKind.edge.orders).toBe(0);
  });

  it("narrows to one requester", () => {
    const mine = committedSpend(records, { requester: "U0OTHER01" });
    expect(mine).toMatchObject({ orders: 1, monthly: 50.5, total: 606 });
    expect(mine.byKind.port.orders).toBe(1);
    expect(committedSpend([], { requester: "U0OTHER01" }).orders).toBe(0);
  });

  it("counts an order while its term runs, as the spend ledger does", () => {
    const placedOn = (at: string, termMonths?: number) => ({
      ...request("placed", "port", {
        monthly: 10,
        text: "",
        ...(termMonths !== undefined ? { termMonths } : {}),
      }),
      history: [{ at, actor: "worker", from: "executing" as const, to: "placed" as const }],
    });
    const monthly = placedOn("2026-09-15T00:00:00.000Z", 1);
    const yearly = placedOn("2026-09-15T00:00:00.000Z", 12);
    const noTerm = placedOn("2026-09-15T00:00:00.000Z");
    const later = placedOn("2026-12-01T00:00:00.000Z", 12);
    const at = new Date("2026-11-26T00:00:00.000Z");
    const team = committedSpend([monthly, yearly, noTerm, later], { at });
    // The month-to-month order's term ended on Oct 15; the December one is not placed yet.
    expect(team).toMatchObject({ orders: 2, monthly: 20 });
    expect(committedSpend([monthly], { at: new Date("2026-10-01T00:00:00.000Z") }).orders).toBe(1);
  });

  it("ends an IO-D service's term by its days, and leaves out what the provider cancelled", () => {
    const placedOn = (at: string, overrides: Partial<ApprovalRequest>) => ({
      ...request("placed", "iod", undefined),
      history: [{ at, actor: "worker", from: "executing" as const, to: "placed" as const }],
      ...overrides,
    });
    const at = new Date("2026-11-26T00:00:00.000Z");
    // 30 days from Sep 15: ended in October. 365 days: still running.
    const short = placedOn("2026-09-15T00:00:00.000Z", {
      price: { text: "payg", termDays: 30 },
    });
    const long = placedOn("2026-09-15T00:00:00.000Z", {
      call: {
        operation: "createGiaService",
        pathParams: {},
        body: { duration: { quantity: 365, unit: "d" } },
      },
    });
    expect(committedSpend([short, long], { at })).toMatchObject({ orders: 1, payAsYouGo: 1 });
    const port = {
      ...placedOn("2026-09-15T00:00:00.000Z", { kind: "port" as const }),
      price: { monthly: 10, text: "" },
    };
    const cancelled = new Map([[port.id, { status: "CANCELLED", outcome: "cancelled" as const }]]);
    expect(committedSpend([port], { at }).orders).toBe(1);
    expect(committedSpend([port], { at }, cancelled).orders).toBe(0);
  });
});
