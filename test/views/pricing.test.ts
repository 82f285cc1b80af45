import type { SectionBlock } from "@slack/types";
import { describe, expect, it } from "vitest";
import { parseCommand } from "../../src/domain/commands.js";
import {
  ACTION_PRICE_PICK_DCF,
  connectionPriceView,
  factorValue,
  parsePricePick,
  portPriceCommand,
  portPriceView,
  priceChoicesView,
} from "../../views/pricing/pricing.js";
import {
  connectionPriceResult,
  dcfBare,
  dcfEdgeFree,
  dcfOffNet,
  dcfOnNet,
  portPriceResult,
} from "./fixtures.js";
import { expectNoRawAngleBrackets, expectWithinSlackLimits, readable } from "./support.js";

const portInput = {
  dcf: { name: "Equinix AM3", username: "equinix-am3" },
  speedMbps: 10000,
  term: { value: 12, unit: "m" },
  includeCrossConnect: true,
};

const connectionInput = {
  srcDcf: { name: "Equinix AM3", username: "equinix-am3" },
  destDcf: { name: "Telehouse North", username: "telehouse-north" },
  bandwidthMbps: 500,
  classOfService: "SILVER",
  term: { value: 12, unit: "m" },
};

describe("portPriceView", () => {
  it("shows the term total, the monthly amounts, the cross connect and the command", () => {
    const reply = portPriceView(portInput, portPriceResult, "USD");
    const text = readable(reply.blocks);
    expect(text).toContain("Port price: Equinix AM3 · 10G · 12 months");
    expect(text).toContain("*Price (total for 12 months)*\n14,814.00 USD");
    expect(text).toContain("*Monthly*\n1,234.50 USD");
    expect(text).toContain("*Pre-authorisation (monthly)*\n1,234.50 USD");
    expect(text).toContain("*Cross connect*\n350.00 USD");
    // Every option of the request is kept, the cross connect included.
    expect(text).toContain("Repeat: `/connect price port equinix-am3 10G 12m xc`");
    // The provider's total is the port's alone: the cross connect is not said to be in it.
    expect(text).toContain("cross connect charged on top of the total");
    // Says plainly that this can be ordered, and how (issue 32, item 20).
    expect(text).toContain("This data center and speed can be ordered: `/connect port order`.");
    expect(text).not.toContain("cross connect included");
    expect(text).toContain("Amounts are in USD");
    expect(text).not.toContain("Amount saved");
    expect(text).not.toMatch(/[$€£]/);
    expect(reply.text).toContain("14,814.00 USD");
    expectWithinSlackLimits(reply.blocks);
  });

  it("shows the cross connect only when present and savings only when there are some", () => {
    const without = readable(
      portPriceView(
        { ...portInput, includeCrossConnect: false },
        { ...portPriceResult, crossConnectAmount: undefined, amountSaved: 100 },
        "USD",
      ).blocks,
    );
    expect(without).not.toContain("Cross connect");
    expect(without).toContain("*Amount saved*\n100.00 USD");
    const zeroSaved = readable(
      portPriceView(portInput, { ...portPriceResult, amountSaved: 0 }, "USD").blocks,
    );
    expect(zeroSaved).not.toContain("Amount saved");
  });

  it("labels every amount with the configured currency code, never a symbol", () => {
    const text = readable(portPriceView(portInput, portPriceResult, "EUR").blocks);
    expect(text).toContain("*Price (total for 12 months)*\n14,814.00 EUR");
    expect(text).toContain("*Monthly*\n1,234.50 EUR");
    expect(text).toContain("Amounts are in EUR");
    expect(text).not.toContain("USD");
    expect(text).not.toMatch(/[$€£]/);
  });

  it("says the cross connect is included only when the total holds it", () => {
    const included = { ...portPriceResult, basicTotalAmount: 14464, price: 14814 };
    expect(readable(portPriceView(portInput, included, "USD").blocks)).toContain(
      "cross connect included in the total",
    );
    const free = { ...portPriceResult, crossConnectAmount: 0 };
    expect(readable(portPriceView(portInput, free, "USD").blocks)).toContain(
      "cross connect free of charge",
    );
  });

  it("survives an empty result", () => {
    const reply = portPriceView(portInput, {}, "USD");
    expect(readable(reply.blocks)).toContain("*Price (total for 12 months)*\n—");
    expectWithinSlackLimits(reply.blocks);
  });

  it("echoes a command the parser reads back to the same request", () => {
    const command = portPriceCommand({
      dcf: { username: "my dcf" },
      speedMbps: 2500,
      term: { value: 1, unit: "y" },
    });
    expect(command).toBe('/connect price port "my dcf" 2.5G 1y');
    expect(portPriceCommand({ ...portInput, term: { value: 1, unit: "y" } })).toBe(
      "/connect price port equinix-am3 10G 1y xc",
    );
    const parsed = parseCommand(command.replace("/connect ", ""));
    expect(parsed).toMatchObject({
      kind: "command",
      name: "price port",
      args: ["my dcf", "2.5G", "1y"],
    });
  });
});

describe("connectionPriceView", () => {
  it("shows the price, the formula, every factor and the region-to-region rate", () => {
    const reply = connectionPriceView(connectionInput, connectionPriceResult, "USD");
    const text = readable(reply.blocks);
    expect(text).toContain("Layer 2 price: Equinix AM3 → Telehouse North");
    expect(text).toContain("*Price (total for 12 months)*\n6,870.00 USD");
    expect(text).toContain("*Monthly*\n572.50 USD");
    expect(text).toContain("*Pre-authorisation (monthly)*\n572.50 USD");
    expect(text).toContain("*Amount saved*\n120.00 USD");
    expect(text).toContain("*Bandwidth*\n500 Mbps");
    expect(text).toContain("*Class of service*\nSILVER");
    expect(text).toContain("`(bandwidthCost*multiplier)*duration/(1-margin)+portFee`");
    expect(text).toContain("*margin*\n25% (0.25)");
    expect(text).toContain("*portFee — port fee*\n150.00 USD");
    expect(text).toContain("*nniFee — NNI fee*\n0.00 USD");
    expect(text).toContain("*bandwidthCost — bandwidth cost*\n350");
    expect(text).toContain("*multiplier — region multiplier*\n×1.2");
    expect(text).toContain("*duration — term length*\n12 (12 months)");
    expect(text).toContain("Europe → United Kingdom · band 1–1,000 Mbps · SILVER · rate 0.7");
    expectWithinSlackLimits(reply.blocks);
  });

  it("shows unknown factors as they came and survives missing parts", () => {
    const reply = connectionPriceView(
      connectionInput,
      {
        ...connectionPriceResult,
        factors: [
          { name: "fuelSurcharge", number: 0.123456 },
          { name: "bandwidthCost", number: 10, ref: { from: { id: "r1" }, price: {} } },
          { number: 5 },
          {},
        ],
      },
      "USD",
    );
    const text = readable(reply.blocks);
    expect(text).toContain("*fuelSurcharge*\n0.1235");
    expect(text).toContain("*unnamed*\n5");
    expect(text).toContain("`r1` → ?");
    expectWithinSlackLimits(reply.blocks);
    expect(text).not.toContain("Ordered connections run for whole months");
    const weeks = readable(
      connectionPriceView(
        { ...connectionInput, term: { value: 6, unit: "w" } },
        connectionPriceResult,
        "USD",
      ).blocks,
    );
    expect(weeks).toContain(
      "*Order this* opens the form with the term for you to choose, not 6 weeks",
    );
    const empty = readable(connectionPriceView(connectionInput, {}, "USD").blocks);
    expect(empty).toContain("no price factors");
    expect(empty).not.toContain("Formula");
  });

  it("formats each kind of factor", () => {
    expect(factorValue({ name: "margin", number: 0.3 }, "USD")).toBe("30% (0.3)");
    expect(factorValue({ name: "multiplier" }, "USD")).toBe("—");
    expect(factorValue({ name: "duration", number: 12 }, "USD", "m")).toBe("12 (12 months)");
    // Priced in weeks, the formula's term is still months (6 weeks is 1.4): never "1.4 weeks".
    expect(factorValue({ name: "duration", number: 1.4 }, "USD", "w")).toBe(
      "1.4 (the term in months)",
    );
    expect(factorValue({ name: "portFee", number: 1200 }, "GBP")).toBe("1,200.00 GBP");
  });
});

describe("priceChoicesView", () => {
  const request = { speedMbps: 10000, term: { value: 12, unit: "m" } };

  it("offers one button per candidate carrying the whole command", () => {
    const reply = priceChoicesView("am", [dcfOnNet, dcfEdgeFree, dcfBare], request);
    const text = readable(reply.blocks);
    expect(text).toContain('Several data centers match "am": pick one');
    expect(text).toContain("*Equinix AM3* · Amsterdam, NL");
    expect(text).toContain(":warning: 10G not offered here");
    const buttons = reply.blocks
      .filter((b): b is SectionBlock => b.type === "section")
      .map((b) => b.accessory)
      .filter((a) => a?.type === "button");
    expect(buttons).toHaveLength(2); // the bare record has no username to price by
    for (const b of buttons) expect(b.action_id).toBe(ACTION_PRICE_PICK_DCF);
    expect(parsePricePick(buttons[0]?.value)).toEqual({
      dcf: "equinix-am3",
      speed: 10000,
      term: { value: 12, unit: "m" },
    });
    expectWithinSlackLimits(reply.blocks);
    expectNoRawAngleBrackets(reply.blocks);
  });

  it("caps a long list of candidates and says how many more match", () => {
    const many = Array.from({ length: 60 }, (_, i) => ({
      ...dcfOffNet,
      id: `d${i}`,
      username: `dcf-${i}`,
    }));
    const reply = priceChoicesView("partner", many, request);
    expectWithinSlackLimits(reply.blocks);
    expect(readable(reply.blocks)).toContain("50 more match");
  });

  it("rejects button values that are not a price pick", () => {
    expect(parsePricePick(undefined)).toBeUndefined();
    expect(parsePricePick("not json")).toBeUndefined();
    expect(
      parsePricePick('{"dcf":"x","speed":"10G","term":{"value":12,"unit":"m"}}'),
    ).toBeUndefined();
    expect(parsePricePick('{"dcf":"x","speed":1000}')).toBeUndefined();
    expect(parsePricePick("null")).toBeUndefined();
  });
});
