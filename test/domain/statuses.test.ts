import { describe, expect, it } from "vitest";
import { isLoaSettled, isLoaWaiting, nextLoaStep } from "../../src/domain/tracking/loa.js";
import {
  isKnownStatus,
  isTerminalStatus,
  knownStatusKeys,
  statusEnding,
  statusKey,
  statusWaitsOn,
  TRACK_TARGET_KINDS,
  waitsOnAcceptance,
} from "../../src/domain/tracking/statuses.js";
import { nothingLeftToFollow } from "../../src/domain/tracking/trackedOrder.js";
import type { PortOrderRead } from "../../src/provider/api.js";
import { isTerminalOrderStatus as providerSaysTerminal } from "../../src/provider/normalize.js";
import { finalText, statusLineText } from "../../views/approvals/trackerMessages.js";

// The status and LOA rules have one home; every user of them gives the same answer for every
// value, known or not.

const LOA_VALUES = [
  "TODO",
  "PENDING",
  "RECEIVED",
  "APPROVED",
  "done",
  "Complete",
  "completed",
  "uploaded",
  "accepted",
  "not required",
  "NOT_REQUIRED",
  "n/a",
  "NA",
  "AWAITING_PARTNER",
  "",
];

describe("status rules", () => {
  it("ends port and Edge orders at done, error and cancelled, whatever the letter case", () => {
    for (const kind of ["port-order", "edge-order"] as const) {
      expect(knownStatusKeys(kind).filter((s) => isTerminalStatus(kind, s))).toEqual([
        "done",
        "error",
        "cancelled",
      ]);
      expect(statusEnding(kind, " DONE ")).toBe("success");
    }
  });

  it("ends a layer 2 or IO-D at ACTIVE (success), DENIED or ERROR (failed), and removal", () => {
    for (const kind of ["layer2", "iod"] as const) {
      expect(statusEnding(kind, "ACTIVE")).toBe("success");
      expect(statusEnding(kind, "DENIED")).toBe("failed");
      expect(statusEnding(kind, "ERROR")).toBe("failed");
      for (const s of ["CANCELLED", "DISABLED", "DELETED"]) {
        expect(statusEnding(kind, s)).toBe("cancelled");
      }
      for (const s of ["CREATING", "PENDING", "PENDING_ACCEPTANCE", "ACCEPTED", "MANUAL"]) {
        expect(isTerminalStatus(kind, s)).toBe(false);
      }
    }
  });

  it("says who a pending connection waits on, in either spelling of PENDING ACCEPTANCE", () => {
    expect(statusWaitsOn("layer2", "PENDING")).toBe("other-company");
    expect(statusWaitsOn("layer2", "PENDING_ACCEPTANCE")).toBe("partner");
    expect(statusWaitsOn("layer2", "pending acceptance")).toBe("partner");
    expect(statusKey("Pending-Acceptance")).toBe("pending_acceptance");
    expect(waitsOnAcceptance("layer2", "ACCEPTED")).toBe(false);
    expect(statusWaitsOn("port", "READY")).toBe("customer");
  });

  it("neither ends nor waits on an unknown value, for any kind", () => {
    for (const kind of TRACK_TARGET_KINDS) {
      for (const value of ["WEIRD_NEW_STATE", "", "  "]) {
        expect(isKnownStatus(kind, value)).toBe(false);
        expect(isTerminalStatus(kind, value)).toBe(false);
        expect(statusWaitsOn(kind, value)).toBeUndefined();
      }
    }
  });

  it("the tracker, the provider helpers and /connect order agree on every port order status", () => {
    expect(finalText({ orderId: "o", kind: "on-net" }, { status: "DONE" })).toContain("is done");
    for (const status of [...knownStatusKeys("port-order"), "DONE", "Cancelled", "weird", ""]) {
      const terminal = isTerminalStatus("port-order", status);
      // The tracker's status line says "tracking ended" exactly for these.
      const line = statusLineText({ orderId: "o", kind: "on-net" }, { status }, "2026-01-01");
      expect(line.includes("tracking ended")).toBe(terminal);
      expect(providerSaysTerminal(status)).toBe(terminal);
      const didNotGoThrough = terminal && statusEnding("port-order", status) !== "success";
      const step = nextLoaStep({ id: "o", status, loaStatus: "TODO" } as PortOrderRead);
      expect(step === "None — the order did not go through.").toBe(didNotGoThrough);
    }
  });

  it("the tracker's LOA reminders and /connect order's LOA step agree on every LOA value", () => {
    for (const loaStatus of LOA_VALUES) {
      const settled = isLoaSettled(loaStatus);
      expect(isLoaWaiting(loaStatus)).toBe(loaStatus.trim() !== "" && !settled);
      const step = nextLoaStep({ id: "o", status: "processing", loaStatus } as PortOrderRead);
      expect(step === "None — the LOA step is complete.").toBe(settled);
    }
    expect(LOA_VALUES.filter(isLoaSettled)).toEqual([
      "RECEIVED",
      "APPROVED",
      "done",
      "Complete",
      "completed",
      "uploaded",
      "accepted",
      "not required",
      "NOT_REQUIRED",
      "n/a",
      "NA",
    ]);
  });
});

describe("nothingLeftToFollow (the Track button of an order that ended)", () => {
  it("is true for an order that ended with no port on its way, false while something is ahead", () => {
    expect(nothingLeftToFollow({ status: "cancelled" })).toBe(true);
    expect(nothingLeftToFollow({ status: "done", port: { id: "p-1", status: "ACTIVE" } })).toBe(
      true,
    );
    // Done, its port not live yet: the tracker follows the port.
    expect(nothingLeftToFollow({ status: "done", port: { id: "p-1", status: "CONFIGURED" } })).toBe(
      false,
    );
    expect(nothingLeftToFollow({ status: "created" })).toBe(false);
  });
});
