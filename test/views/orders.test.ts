import type { ActionsBlock } from "@slack/types";
import { describe, expect, it } from "vitest";
import { loaKind, nextLoaStep } from "../../src/domain/tracking/loa.js";
import { ACTION_ORDER_TRACK, portOrderView } from "../../views/lookups/orders.js";
import {
  dcfOnNet,
  NOW,
  orderBare,
  orderCancelled,
  orderCreatedOnNet,
  orderDone,
  orderNoDcf,
  orderOffNet,
  TZ,
} from "./fixtures.js";
import { expectNoRawAngleBrackets, expectWithinSlackLimits, readable } from "./support.js";

function trackButton(reply: ReturnType<typeof portOrderView>) {
  const block = reply.blocks.find((b): b is ActionsBlock => b.type === "actions");
  return block?.elements.find((e) => e.type === "button" && e.action_id === ACTION_ORDER_TRACK);
}

describe("portOrderView", () => {
  it("names an Edge order as an Edge port order, as every other surface does", () => {
    const reply = portOrderView({ ...orderCreatedOnNet, isEdgePort: true }, TZ, NOW);
    expect(readable(reply.blocks)).toContain("Edge port order ams-core-2");
    expect(reply.text).toMatch(/^Edge port order ams-core-2:/);
    expect(readable(portOrderView(orderCreatedOnNet, TZ, NOW).blocks)).not.toContain(
      "Edge port order",
    );
  });

  it("shows a new on-net order with who placed it, when, and the LOA step", () => {
    const reply = portOrderView(orderCreatedOnNet, TZ, NOW);
    const text = readable(reply.blocks);
    expect(text).toContain("Port order ams-core-2");
    expect(text).toContain(
      ":hourglass_flowing_sand: created — waiting for the provider's administrator to approve the order",
    );
    expect(text).toContain(`*Order ID*\n\`${orderCreatedOnNet.id}\``);
    expect(text).toContain("*Port name*\nams-core-2");
    // The provider's placeholder is said in words.
    expect(text).toContain("*LOA status*\nnot issued yet");
    expect(text).toContain("*Created*\nby jdoe, 3 days ago (12 Nov 2026, 14:05 CET)");
    expect(text).toContain("*Data center*\nEquinix AM3 `equinix-am3`");
    expect(text).toContain("*Speed*\n10G");
    expect(text).toContain("*Metro*\nAmsterdam (AMS)");
    expect(text).toContain("*Edge port*\nNo");
    expect(text).toContain("*Cancelled*\nNo");
    expect(text).toContain("upload the LOA in reply to it");
    expect(text).toContain("about 24 hours");
    expect(text).not.toContain("New port");
    expect(trackButton(reply)).toMatchObject({
      value: orderCreatedOnNet.id,
      action_id: "order_track",
    });
    expectWithinSlackLimits(reply.blocks);
  });

  it("words Created and Last updated on one clock, the one it is given (issue 32, item 13)", () => {
    // The sandbox's clock a day ahead of real time: both are relative to it, so an order made
    // a day earlier and changed an hour ago reads so, whatever the real time is.
    const sandboxNow = new Date("2026-11-29T10:00:00Z");
    const order = {
      ...orderCreatedOnNet,
      createdAt: "2026-11-28T10:00:00.000Z",
      updatedAt: "2026-11-29T09:00:00.000Z",
    };
    const text = readable(portOrderView(order, TZ, sandboxNow).blocks);
    expect(text).toMatch(/\*Created\*\nby jdoe, 1 day ago \(28 Nov/);
    expect(text).toMatch(/Last updated about 1 hour ago \(29 Nov/);
  });

  it("gives the off-net LOA wait, detected from the DCF's tags", () => {
    expect(loaKind(orderOffNet)).toBe("off-net");
    const text = readable(portOrderView(orderOffNet, TZ, NOW).blocks);
    expect(text).toContain("4–6 weeks");
    expect(text).toContain("partner");
    expect(text).toContain("*Metro*\n`"); // metro not embedded: its id
  });

  it("treats Edge ports as off-net and says the DCF kind is unknown without its tags", () => {
    expect(loaKind({ ...orderNoDcf, isEdgePort: true })).toBe("off-net");
    expect(loaKind(orderNoDcf)).toBe("unknown");
    expect(nextLoaStep(orderNoDcf)).toMatch(
      /^It depends on the data center, whose kind the order does not say\. On-net: .* Provider-supplied LOA: .* Off-net \(extended\): 4–6 weeks/,
    );
    expect(
      loaKind({
        ...orderCreatedOnNet,
        dataCenterFacility: { ...dcfOnNet, tags: ["PROVIDER_LOA"] },
      }),
    ).toBe("provider-supplied");
    expect(
      nextLoaStep({
        ...orderCreatedOnNet,
        dataCenterFacility: { ...dcfOnNet, tags: ["PROVIDER_LOA"] },
      }),
    ).toContain("it uploads the LOA to the port");
  });

  it("shows unknown statuses verbatim and survives missing fields", () => {
    const reply = portOrderView(orderNoDcf, TZ, NOW);
    const text = readable(reply.blocks);
    expect(text).toContain("AWAITING_SOMETHING_NEW");
    expect(text).toContain("*LOA status*\nIN_REVIEW");
    expect(text).toContain("*Next LOA step:* It depends on the data center");
    const bare = portOrderView(orderBare, undefined, NOW);
    expect(readable(bare.blocks)).toContain(`Port order ${orderBare.id}`);
    expect(trackButton(bare)).toMatchObject({ value: orderBare.id });
    expectWithinSlackLimits(bare.blocks);
  });

  it("shows the new port of a done order; the epoch in cancelledAt is not a cancellation", () => {
    const reply = portOrderView(orderDone, TZ, NOW);
    const text = readable(reply.blocks);
    expect(text).toContain(":white_check_mark: done — the port is provisioned");
    expect(text).toContain(
      ":tada: *New port:* *ams-core-2* · 10G · :large_green_circle: ACTIVE · ID `5f2a9c0e1b3d4a5f6e7d8caa`",
    );
    expect(text).toContain("/connect port 5f2a9c0e1b3d4a5f6e7d8caa");
    expect(text).toContain("*Cancelled*\nNo");
    expect(text).toContain("the LOA step is complete");
    expect(text).not.toContain("1970");
  });

  it("shows who cancelled and when, and no LOA step", () => {
    const text = readable(portOrderView(orderCancelled, TZ, NOW).blocks);
    expect(text).toContain(":no_entry_sign: cancelled");
    expect(text).toContain("*Cancelled*\nYes by admin, 1 day ago (14 Nov 2026, 11:00 CET)");
    expect(text).toContain("*Next LOA step:* None — the order did not go through.");
  });

  it("escapes provider text", () => {
    const reply = portOrderView(
      { ...orderCreatedOnNet, portName: "<!channel> port", message: "Use <https://evil|this>" },
      TZ,
      NOW,
    );
    expectNoRawAngleBrackets(reply.blocks);
    expect(readable(reply.blocks)).toContain("&lt;!channel&gt; port");
  });
});
