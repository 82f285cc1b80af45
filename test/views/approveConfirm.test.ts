import type { KnownBlock } from "@slack/types";
import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/approvals/index.js";
import { approveConfirmation } from "../../src/domain/approveConfirm.js";
import { readRequest } from "../../src/orders/readModel.js";
import { committedSpend } from "../../src/orders/spend/committed.js";
import { ACTION_APPROVE, approvalMessageView } from "../../views/approvals/approvals.js";
import { homeView } from "../../views/home/home.js";

/** Issue 32, item 4: Approve asks "Place this order for 14,400.00 USD?" from APPROVE_CONFIRM_FROM. */

const request: ApprovalRequest = {
  id: "apr_abcdefghijklmnop",
  kind: "port",
  title: "ams-core-9",
  summary: [{ label: "Port name", value: "ams-core-9" }],
  call: { operation: "createPortOrder", pathParams: { companyUsername: "acme" }, body: {} },
  price: {
    monthly: 1200,
    total: 14400,
    termMonths: 12,
    text: "1,200.00 USD a month",
    currency: "USD",
  },
  requester: { userId: "U0REQUEST1", channelId: "C0GENERAL1" },
  slack: { approvalChannel: "C0APPROVALS", approvalTs: "1700000000.000100" },
  sandbox: false,
  status: "pending",
  attempts: 0,
  history: [],
  createdAt: "2026-11-12T13:05:00.000Z",
  updatedAt: "2026-11-12T13:05:00.000Z",
};

type ButtonLike = {
  action_id?: string;
  confirm?: { title: { text: string }; text: { text: string }; confirm: { text: string } };
};

function approveIn(blocks: readonly KnownBlock[]): ButtonLike | undefined {
  for (const block of blocks) {
    if (block.type !== "actions") continue;
    const found = (block.elements as ButtonLike[]).find((e) => e.action_id === ACTION_APPROVE);
    if (found) return found;
  }
  return undefined;
}

describe("Approve's confirmation", () => {
  it("asks for the total from 1,000 a month by default, on the approval message", () => {
    const approve = approveIn(approvalMessageView(readRequest(request)).blocks);
    expect(approve?.confirm?.text.text).toMatch(/^Place this order for 14,400\.00 USD\?/);
    expect(approve?.confirm?.text.text).toContain("1,200.00 USD a month for 12 months");
    expect(approve?.confirm?.confirm.text).toBe("Approve");
  });

  it("explains the total so that it adds up: a month's amount times the term, nothing left out", () => {
    const approve = approveIn(approvalMessageView(readRequest(request)).blocks);
    expect(approve?.confirm?.text.text).toBe(
      "Place this order for 14,400.00 USD? That is 1,200.00 USD a month for 12 months. *ams-core-9* is ordered from the provider once the approvals it needs are in.",
    );
  });

  it("names the one-off charge (an Edge offer's non-recurring price) as part of the total", () => {
    const edge: ApprovalRequest = {
      ...request,
      kind: "edge",
      title: "edge-berlin-1",
      price: {
        monthly: 1146.24,
        total: 15254.88,
        oneOff: 1500,
        termMonths: 12,
        text: "1,146.24 USD per month + 1,500.00 USD one-off (15,254.88 USD over the term)",
        currency: "USD",
      },
    };
    const approve = approveIn(approvalMessageView(readRequest(edge)).blocks);
    expect(approve?.confirm?.text.text).toBe(
      "Place this order for 15,254.88 USD? That is 1,146.24 USD a month for 12 months, plus 1,500.00 USD once. *edge-berlin-1* is ordered from the provider once the approvals it needs are in.",
    );
    // With no total recorded, the one-off is part of the total the confirmation asks for.
    const { total: _total, ...noTotal } = edge.price!;
    expect(approveConfirmation(noTotal)).toEqual({
      monthly: 1146.24,
      oneOff: 1500,
      termMonths: 12,
      total: 15254.88,
    });
    expect(readRequest({ ...edge, price: noTotal }).money.total).toBe(15254.88);
  });

  it("a record older than its one-off says the rest of the total as such, never leaves it out", () => {
    const { oneOff: _oneOff, ...before } = {
      monthly: 1146.24,
      total: 15254.88,
      oneOff: 1500,
      termMonths: 12,
      text: "1,146.24 USD per month + 1,500.00 USD one-off (15,254.88 USD over the term)",
      currency: "USD",
    };
    const approve = approveIn(
      approvalMessageView(readRequest({ ...request, price: before })).blocks,
    );
    expect(approve?.confirm?.text.text).toContain(
      "That is 1,146.24 USD a month for 12 months, plus 1,500.00 USD in other charges.",
    );
    // A cent a month of rounding in the monthly amount is no other charge.
    expect(
      approveConfirmation({ monthly: 572.5, total: 6870.06, termMonths: 12 }, 0),
    ).not.toHaveProperty("rest");
  });

  it("approves at once below the threshold, and follows APPROVE_CONFIRM_FROM", () => {
    const small = { ...request, price: { ...request.price!, monthly: 999.99, total: 11999.88 } };
    expect(approveIn(approvalMessageView(readRequest(small)).blocks)?.confirm).toBeUndefined();
    expect(
      approveIn(approvalMessageView(readRequest(request), { approveConfirmFrom: 5000 }).blocks)
        ?.confirm,
    ).toBeUndefined();
    expect(
      approveIn(approvalMessageView(readRequest(small), { approveConfirmFrom: 0 }).blocks)?.confirm,
    ).toBeDefined();
  });

  it("asks when the price is unknown; a total alone is compared with the threshold", () => {
    expect(approveConfirmation(undefined)).toEqual({});
    expect(approveConfirmation({ total: 500 })).toBeUndefined();
    expect(approveConfirmation({ total: 5000 })).toEqual({ total: 5000 });
    expect(approveConfirmation({ monthly: 1000, termMonths: 3 })).toEqual({
      monthly: 1000,
      termMonths: 3,
      total: 3000,
    });
  });

  it("App Home's Approve asks the same", () => {
    const spend = committedSpend([]);
    const view = homeView({
      userId: "U0APPROVE1",
      sandbox: false,
      now: new Date("2026-11-15T13:05:00.000Z"),
      waiting: [readRequest(request)],
      mine: { records: [], page: 0, hasNext: false, total: 0 },
      tracked: [],
      spend: { team: spend, mine: spend },
    });
    expect(approveIn(view.blocks as KnownBlock[])?.confirm?.text.text).toMatch(
      /^Place this order for 14,400\.00 USD\?/,
    );
  });
});
