import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/approvals/types.js";
import { ApprovalRecordError } from "../../src/approvals/types.js";
import { describeRefusal } from "../../views/approvals/refusals.js";

const record = (overrides: Partial<ApprovalRequest>): ApprovalRequest => ({
  id: "apr_abcdefghijklmnop",
  kind: "port",
  title: "Port order",
  summary: [],
  call: { operation: "createPortOrder", pathParams: {}, body: [] },
  requester: { userId: "UREQ00001" },
  slack: {},
  sandbox: true,
  status: "pending",
  attempts: 0,
  history: [],
  createdAt: "2025-03-01T10:00:00.000Z",
  updatedAt: "2025-03-01T10:00:00.000Z",
  ...overrides,
});

const decision = {
  by: "UAPPROVER1",
  at: "2025-03-01T10:05:00.000Z",
  action: "approve" as const,
};

describe("describeRefusal", () => {
  it("names who decided and when, as a Slack date token with an ISO fallback", () => {
    const text = describeRefusal({
      ok: false,
      reason: "not-pending",
      id: "apr_abcdefghijklmnop",
      record: record({ status: "executing", decision }),
    });
    expect(text).toBe(
      "Already approved by <@UAPPROVER1> <!date^1740823500^{date_short_pretty} at {time}|2025-03-01T10:05:00.000Z>; the order is being placed now.",
    );
  });

  it("says a request was rejected, cancelled or failed in those words", () => {
    const refusal = (r: ApprovalRequest) =>
      describeRefusal({ ok: false, reason: "not-pending", id: r.id, record: r });
    expect(
      refusal(
        record({ status: "rejected", decision: { ...decision, action: "reject", reason: "no" } }),
      ),
    ).toMatch(/^Already rejected by <@UAPPROVER1>/);
    expect(refusal(record({ status: "cancelled" }))).toMatch(/^The requester cancelled/);
    expect(
      refusal(record({ status: "failed", decision, error: { message: "bad speed" } })),
    ).toMatch(/placing the order failed: bad speed\.$/);
  });

  it("explains the non-state refusals without internals", () => {
    expect(describeRefusal({ ok: false, reason: "not-found", id: "apr_x" })).toMatch(/can't find/);
    const invalid = describeRefusal({
      ok: false,
      reason: "invalid-record",
      id: "apr_x",
      error: new ApprovalRecordError("apr_x", ["core is not JSON"]),
    });
    expect(invalid).not.toContain("core");
    expect(
      describeRefusal({ ok: false, reason: "not-requester", id: "apr_x", record: record({}) }),
    ).toBe("Only the requester (<@UREQ00001>) can withdraw this request.");
  });
});
