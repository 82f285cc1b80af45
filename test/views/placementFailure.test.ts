import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/approvals/index.js";
import { httpError } from "../../src/provider/errors.js";
import { failedThreadText, placementFailureWords } from "../../views/approvals/approvalThread.js";
import { orderFailedRequesterText } from "../../views/approvals/requestCard.js";

/**
 * A failed placement is said once in the thread and in the requester's DM: the provider client's
 * sentence already says who refused what, so nothing says "The provider refused" twice.
 */

const PUT_ORDER = {
  operation: "createPortOrder",
  method: "PUT",
  path: "/api/company/{companyUsername}/ports/orders",
  subject: "the port order",
};

/** The refusal as the client words it for people (the sandbox's 400 knob answers this). */
const refusal = httpError(
  PUT_ORDER,
  400,
  '{"code":400,"message":"unhandled error of the external provider"}',
);

const failed = (error: ApprovalRequest["error"]): ApprovalRequest => ({
  id: "apr_abcdefghijklmnop",
  kind: "port",
  title: "ams-core-9",
  summary: [],
  call: { operation: "createPortOrder", pathParams: {}, body: {} },
  requester: { userId: "U0REQUEST1" },
  slack: {},
  sandbox: true,
  status: "failed",
  attempts: 1,
  history: [],
  createdAt: "2026-11-12T13:05:00.000Z",
  updatedAt: "2026-11-12T13:05:00.000Z",
  ...(error ? { error } : {}),
});

const times = (text: string, words: RegExp) => text.match(new RegExp(words, "gi"))?.length ?? 0;

describe("a failed placement's words", () => {
  const error = { message: refusal.userMessage, httpStatus: 400 };

  it("says the provider's refusal once in the thread", () => {
    const text = failedThreadText(error);
    expect(text).toBe(
      ":x: The provider refused the port order: unhandled error of the external provider.\nNothing was ordered. An approver can fix the cause and press *Retry placing the order*.",
    );
    expect(times(text, /refused/)).toBe(1);
  });

  it("says it once in the requester's DM, in the same words", () => {
    const text = orderFailedRequesterText(failed(error));
    expect(text).toContain(
      "was approved, but the provider refused the port order: unhandled error of the external provider. Nothing was ordered.",
    );
    expect(times(text, /the provider/)).toBe(1);
  });

  it("puts who refused before a bare reason, and a server error is not a refusal", () => {
    expect(placementFailureWords({ message: "Speed 25000 is not offered.", httpStatus: 400 })).toBe(
      "The provider refused the order: Speed 25000 is not offered",
    );
    expect(placementFailureWords({ message: "gateway exploded", httpStatus: 500 })).toBe(
      "The provider could not take the order: gateway exploded",
    );
    expect(orderFailedRequesterText(failed(undefined))).toContain(
      "but the provider refused the order: no reason given. Nothing was ordered.",
    );
    // The client's own sentence for a refused connection stays as it is.
    expect(
      placementFailureWords({
        message:
          "Could not reach the provider (connection refused); nothing was sent — try again in a minute.",
      }),
    ).toBe(
      "Could not reach the provider (connection refused); nothing was sent — try again in a minute",
    );
  });
});
