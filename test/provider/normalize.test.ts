import { describe, expect, it } from "vitest";
import { speedMbps } from "../../src/domain/catalog/requestFacts.js";
import * as normalize from "../../src/provider/normalize.js";
import {
  displayStatus,
  isKnownOrderStatus,
  isTerminalOrderStatus,
  knownOrderStatuses,
  nullIfEpoch,
} from "../../src/provider/normalize.js";

describe("nullIfEpoch", () => {
  it.each<[string | number | null | undefined, string | number | null]>([
    ["1970-01-01T00:00:00.000Z", null],
    ["1970-01-01T00:00:00Z", null],
    ["1970-01-01T00:00:00.000+00:00", null],
    [0, null],
    ["0", null],
    [null, null],
    [undefined, null],
    ["", null],
    ["2024-03-05T10:11:12.000Z", "2024-03-05T10:11:12.000Z"],
    [1_709_633_472_000, 1_709_633_472_000],
    // Not a timestamp we can read: kept as it came rather than hidden.
    ["not a date", "not a date"],
  ])("%j → %j", (input, expected) => {
    expect(nullIfEpoch(input)).toBe(expected);
  });

  it("keeps a moment just after the epoch", () => {
    expect(nullIfEpoch("1970-01-01T00:00:00.001Z")).toBe("1970-01-01T00:00:00.001Z");
  });
});

describe("speedMbps", () => {
  it("is the domain's one reader, which the request rules use: the provider has no second one", () => {
    expect(normalize).not.toHaveProperty("speedMbps");
    expect(normalize).not.toHaveProperty("dcfSpeedsMbps");
  });

  it.each<[unknown, number | undefined]>([
    [10000, 10000],
    ["10000", 10000],
    [{ value: 1000, name: "1000 Mbps" }, 1000],
    [{ name: "100 Mbps" }, 100],
    ["10G", 10000],
    [null, undefined],
    ["fast", undefined],
  ])("%j → %j", (input, expected) => {
    expect(speedMbps(input)).toBe(expected);
  });
});

describe("order statuses", () => {
  it("knows the documented port order statuses", () => {
    expect([...knownOrderStatuses]).toEqual([
      "created",
      "allocated",
      "activating",
      "progressing",
      "processing",
      "done",
      "error",
      "cancelled",
    ]);
  });

  it.each(["done", "error", "cancelled", "DONE", " Cancelled "])("%j is terminal", (status) => {
    expect(isTerminalOrderStatus(status)).toBe(true);
  });

  it.each([
    "created",
    "allocated",
    "activating",
    "progressing",
    "processing",
    "AWAITING_LOA",
    "",
    null,
    undefined,
  ])("%j is not terminal", (status) => {
    expect(isTerminalOrderStatus(status)).toBe(false);
  });

  it("tells known from unknown statuses without rejecting the unknown", () => {
    expect(isKnownOrderStatus("Processing")).toBe(true);
    expect(isKnownOrderStatus("AWAITING_LOA")).toBe(false);
    expect(displayStatus("AWAITING_LOA")).toBe("AWAITING_LOA");
    expect(displayStatus(" created ")).toBe("created");
    expect(displayStatus(undefined)).toBe("unknown");
    expect(displayStatus({})).toBe("unknown");
  });
});
