import { describe, expect, it } from "vitest";
import type { ApprovalRequest, ApprovalStatus } from "../../src/approvals/index.js";
import { committedSpend } from "../../src/orders/spend.js";

/** The one sum of committed spend (App Home, /connect spend): placed requests only, by kind. */

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
      withoutMonthly: 1,
      withoutTotal: 2,
    });
    expect(team.byKind.port).toMatchObject({ orders: 2, monthly: 150.5, total: 1806 });
    expect(team.byKind.layer2).toMatchObject({
      orders: 1,
      monthly: 300,
      total: 0,
      withoutTotal: 1,
    });
    expect(team.byKind.iod).toMatchObject({ orders: 1, monthly: 0, withoutMonthly: 1 });
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
});
