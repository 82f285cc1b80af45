import { describe, expect, it } from "vitest";
import {
  ACTION_ORDER_THIS_PORT,
  encodeLayer2OrderThis,
  encodePortOrderThis,
  parseLayer2OrderThis,
  parsePortOrderThis,
  withOrderThisButton,
} from "../../views/orderThis.js";

describe("Order this", () => {
  it("round-trips what was priced through the button's value", () => {
    const pick = { dcf: "abc|ironbridge-iad1", speedMbps: 10000, term: "1y" };
    expect(parsePortOrderThis(encodePortOrderThis(pick))).toEqual(pick);
  });

  it.each([
    undefined,
    "",
    "not json",
    "{}",
    JSON.stringify({ d: "x", s: -1, t: "1y" }),
    JSON.stringify({ d: "x", s: 1.5, t: "1y" }),
    JSON.stringify({ d: 1, s: 1000, t: "1y" }),
    JSON.stringify({ d: "x".repeat(3000), s: 1000, t: "1y" }),
  ])("refuses a forged value %j", (value) => {
    expect(parsePortOrderThis(value)).toBeUndefined();
  });

  it("round-trips a layer 2 price and refuses a forged one", () => {
    const pick = {
      srcDcfId: "a",
      destDcfId: "b",
      bandwidthMbps: 500,
      classOfService: "GOLD",
      duration: { value: 6, unit: "m" },
    };
    expect(parseLayer2OrderThis(encodeLayer2OrderThis(pick))).toEqual(pick);
    expect(
      parseLayer2OrderThis(encodeLayer2OrderThis({ ...pick, bandwidthMbps: 0 })),
    ).toBeUndefined();
    expect(parseLayer2OrderThis("{}")).toBeUndefined();
    expect(parseLayer2OrderThis(42)).toBeUndefined();
  });

  it("adds a primary Order this button after the answer's blocks", () => {
    const reply = withOrderThisButton(
      { text: "t", blocks: [{ type: "divider" }] },
      ACTION_ORDER_THIS_PORT,
      "v",
    );
    expect(reply.blocks).toHaveLength(2);
    expect(reply.blocks[1]).toMatchObject({
      type: "actions",
      elements: [{ action_id: ACTION_ORDER_THIS_PORT, value: "v", style: "primary" }],
    });
  });
});
