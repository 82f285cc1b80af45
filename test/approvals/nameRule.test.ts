// Issue 29: "which names are taken" is one rule (src/approvals/names.ts), and it is the rule the
// store's steps follow: a step into a status that holds its name keeps or takes the name key,
// a step into any other status releases it. So what a form calls taken is what the reservation
// will refuse.
import { describe, expect, it } from "vitest";
import { holdsItsName, NAME_HOLDING_STATUSES, namesHeldIn } from "../../src/approvals/names.js";
import {
  cancelStep,
  claimStep,
  completeStep,
  failStep,
  markFailedStep,
  markUnknownStep,
  placeAgainStep,
  reconcileStep,
  rejectStep,
  retryStep,
} from "../../src/approvals/steps.js";

const at = new Date("2025-03-01T10:00:00Z");
const STEPS = [
  rejectStep("apr_aaaaaaaaaaaaaaaa", { by: "U0APPROVE1", action: "reject", reason: "no" }, at),
  cancelStep("apr_aaaaaaaaaaaaaaaa", "UREQ00001"),
  claimStep("worker-1"),
  completeStep({ providerId: "o1", record: {} }, {}),
  failStep({ message: "refused" }, {}),
  markUnknownStep("timeout", {}),
  reconcileStep({ by: "reconciler", outcome: "placed", result: { record: {} }, note: "found" }),
  reconcileStep({ by: "reconciler", outcome: "failed", note: "not found" }),
  retryStep("U0APPROVE1"),
  placeAgainStep("U0APPROVE1"),
  markFailedStep("U0APPROVE1", "checked"),
];

describe("the one taken-names rule", () => {
  it("holds a name in exactly the statuses the store's steps keep it in", () => {
    for (const step of STEPS) {
      expect(step.name === "release", `${step.from} → ${step.to}`).toBe(!holdsItsName(step.to));
    }
    // Every holding status is reached by some step that keeps the name.
    for (const status of NAME_HOLDING_STATUSES.filter((s) => s !== "pending")) {
      expect(STEPS.some((step) => step.to === status && step.name !== "release")).toBe(true);
    }
  });

  it("reads names by scope, normalized, from holding requests only", () => {
    const names = namesHeldIn("port", [
      { kind: "port", status: "pending", reconcileKey: " Core-1 " },
      { kind: "edge", status: "placed", reconcileKey: "EDGE-1" },
      { kind: "port", status: "failed", reconcileKey: "refused" },
      { kind: "port", status: "cancelled", reconcileKey: "withdrawn" },
      { kind: "port", status: "rejected", reconcileKey: "rejected" },
      { kind: "layer2", status: "pending", reconcileKey: "a-connection" },
      { kind: "port", status: "unknown", reconcileKey: "  " },
    ]);
    expect([...names].sort()).toEqual(["core-1", "edge-1"]);
  });
});
