import type { KnownBlock, ModalView } from "@slack/types";
import { describe, expect, it } from "vitest";
import { dcfRef } from "../../src/domain/catalog/dcfs.js";
import { viewProblems } from "../../src/standin/webApi/blockKit.js";
import { loaPathOf, type PortOrderPreview } from "../../src/usecases/portOrder/form.js";
import { SANDBOX_LABEL } from "../../views/blocks.js";
import {
  encodePortOrderMetadata,
  PORT_ORDER_ACTIONS,
  PORT_ORDER_BLOCKS,
  PORT_ORDER_LOA_BLOCK,
  PORT_ORDER_PRICE_BLOCK,
  PORT_ORDER_VIEW,
  parsePortOrderMetadata,
  portOrderModal,
} from "../../views/portOrder/portOrderModal.js";
import { dcfBare, dcfEdgeFree, dcfOffNet, dcfOnNet } from "./fixtures.js";
import { mrkdwnTexts, readable } from "./support.js";

type Block = Record<string, unknown> & { type: string; block_id?: string };

function blocks(view: ModalView): Block[] {
  return view.blocks as unknown as Block[];
}

/** A modal's blocks are all known blocks here (the helpers take messages' type). */
function known(view: ModalView): KnownBlock[] {
  return view.blocks as KnownBlock[];
}

function byId(view: ModalView, id: string): Block | undefined {
  return blocks(view).find((b) => b.block_id === id);
}

function labels(view: ModalView): string[] {
  return blocks(view)
    .filter((b) => b.type === "input")
    .map((b) => (b.label as { text: string }).text);
}

function element(view: ModalView, blockId: string): Record<string, unknown> {
  return byId(view, blockId)?.element as Record<string, unknown>;
}

function optionValues(view: ModalView, blockId: string): string[] {
  return (element(view, blockId).options as Array<{ value: string }>).map((o) => o.value);
}

function text(view: ModalView, blockId: string): string {
  const block = byId(view, blockId);
  return block ? readable([block as unknown as KnownBlock]) : "";
}

const metadata = { channelId: "C0GENERAL1" };

function withDcf(dcf: typeof dcfOnNet, extra: Partial<PortOrderPreview> = {}): PortOrderPreview {
  return { chosen: { dcf }, loa: loaPathOf(dcf), ...extra };
}

describe("portOrderModal", () => {
  it("asks for data center, term and port name, and is a modal Slack accepts", () => {
    const view = portOrderModal({ metadata, sandbox: false, currency: "USD" });
    expect(viewProblems(view, "modal")).toEqual([]);
    expect(view.callback_id).toBe(PORT_ORDER_VIEW);
    expect(view.title.text).toBe("Order a port");
    expect(view.title.text.length).toBeLessThanOrEqual(24);
    expect(labels(view)).toEqual(["Data center", "Term", "Port name"]);
    expect(parsePortOrderMetadata(view.private_metadata)).toEqual(metadata);

    const dcf = element(view, PORT_ORDER_BLOCKS.dcf);
    expect(dcf.type).toBe("external_select");
    expect(dcf.action_id).toBe(PORT_ORDER_ACTIONS.dcf);
    expect(dcf.min_query_length).toBe(2);
    // Changes to data center, speed and term reach the app, which updates the modal.
    expect(byId(view, PORT_ORDER_BLOCKS.dcf)?.dispatch_action).toBe(true);
    expect(byId(view, PORT_ORDER_BLOCKS.term)?.dispatch_action).toBe(true);

    const name = element(view, PORT_ORDER_BLOCKS.portName);
    expect(name).toMatchObject({ type: "plain_text_input", max_length: 100, min_length: 1 });
    expect(text(view, PORT_ORDER_PRICE_BLOCK)).toContain(
      "Choose a data center, speed and term to see the price",
    );
    expect(readable(known(view))).not.toContain("Sandbox");
    expect(readable(known(view))).toContain("invoice");
  });

  it("offers the two terms a port order can express, 1 year first and preselected", () => {
    const view = portOrderModal({ metadata, sandbox: false, currency: "USD" });
    const term = element(view, PORT_ORDER_BLOCKS.term) as {
      options: Array<{ text: { text: string }; value: string }>;
      initial_option?: { value: string };
    };
    expect(term.options.map((o) => [o.text.text, o.value])).toEqual([
      ["1 year (12 months)", "1y"],
      ["Month to month", "1m"],
    ]);
    expect(term.initial_option?.value).toBe("1y");
    const monthly = portOrderModal({
      metadata,
      sandbox: false,
      currency: "USD",
      preview: { term: { value: 1, unit: "m", durationUnit: "m" } },
    });
    expect(
      (element(monthly, PORT_ORDER_BLOCKS.term).initial_option as { value: string }).value,
    ).toBe("1m");
  });

  it("labels sandbox mode", () => {
    const view = portOrderModal({ metadata, sandbox: true, currency: "USD" });
    expect(mrkdwnTexts(known(view))).toContain(SANDBOX_LABEL);
  });

  it("has no Speed input until a data center is chosen, then only that DCF's speeds", () => {
    expect(
      byId(portOrderModal({ metadata, sandbox: false, currency: "USD" }), PORT_ORDER_BLOCKS.speed),
    ).toBe(undefined);
    const onNet = portOrderModal({
      metadata,
      sandbox: false,
      currency: "USD",
      preview: withDcf(dcfOnNet),
    });
    expect(viewProblems(onNet, "modal")).toEqual([]);
    expect(labels(onNet)).toEqual(["Data center", "Speed", "Term", "Port name"]);
    expect(optionValues(onNet, PORT_ORDER_BLOCKS.speed)).toEqual(["1000", "10000", "100000"]);
    expect(byId(onNet, PORT_ORDER_BLOCKS.speed)?.dispatch_action).toBe(true);
    // The chosen DCF stays selected, in the same option form the search offers.
    expect((element(onNet, PORT_ORDER_BLOCKS.dcf).initial_option as { value: string }).value).toBe(
      dcfRef(dcfOnNet),
    );

    // Speeds given as objects or strings are read alike; the chosen one is preselected.
    const offNet = portOrderModal({
      metadata,
      sandbox: false,
      currency: "USD",
      preview: withDcf(dcfOffNet, { speedMbps: 10000 }),
    });
    expect(optionValues(offNet, PORT_ORDER_BLOCKS.speed)).toEqual(["1000", "10000"]);
    expect(
      (element(offNet, PORT_ORDER_BLOCKS.speed).initial_option as { value: string }).value,
    ).toBe("10000");
    const edge = portOrderModal({
      metadata,
      sandbox: false,
      currency: "USD",
      preview: withDcf(dcfEdgeFree),
    });
    expect(optionValues(edge, PORT_ORDER_BLOCKS.speed)).toEqual(["100", "1000", "2500"]);
  });

  it("names the chosen DCF with its place and tags in words, and its LOA path", () => {
    const onNet = portOrderModal({
      metadata,
      sandbox: false,
      currency: "USD",
      preview: withDcf(dcfOnNet),
    });
    const all = readable(known(onNet));
    expect(all).toContain("Equinix AM3");
    expect(all).toContain("Amsterdam, NL");
    expect(text(onNet, PORT_ORDER_LOA_BLOCK)).toContain("upload the LOA in reply");
    expect(text(onNet, PORT_ORDER_LOA_BLOCK)).toContain("about 24 hours");

    const offNet = portOrderModal({
      metadata,
      sandbox: false,
      currency: "USD",
      preview: withDcf(dcfOffNet),
    });
    expect(readable(known(offNet))).toContain("off-net");
    expect(readable(known(offNet))).toContain("not ready for orders yet");
    expect(readable(known(onNet))).not.toContain("not ready");
    expect(text(offNet, PORT_ORDER_LOA_BLOCK)).toContain("4–6 weeks");
    expect(text(offNet, PORT_ORDER_LOA_BLOCK)).toContain("partner");

    const edge = portOrderModal({
      metadata,
      sandbox: false,
      currency: "USD",
      preview: withDcf(dcfEdgeFree),
    });
    const edgeText = readable(known(edge));
    expect(edgeText).toContain("Edge");
    expect(edgeText).toContain("free cross connect");
    // Provider text is escaped wherever it is mrkdwn.
    for (const t of mrkdwnTexts(known(edge))) expect(t).not.toContain("<Amsterdam>");
    expect(edgeText).toContain("&lt;Amsterdam&gt;");
  });

  it("says why when the DCF cannot be used, with no Speed input", () => {
    const problem = portOrderModal({
      metadata,
      sandbox: false,
      currency: "USD",
      preview: { chosen: { problem: "That data center is no longer listed; pick another" } },
    });
    expect(byId(problem, PORT_ORDER_BLOCKS.speed)).toBeUndefined();
    expect(readable(known(problem))).toContain("no longer listed");

    const bare = portOrderModal({
      metadata,
      sandbox: false,
      currency: "USD",
      preview: withDcf(dcfBare),
    });
    expect(viewProblems(bare, "modal")).toEqual([]);
    expect(byId(bare, PORT_ORDER_BLOCKS.speed)).toBeUndefined();
    expect(readable(known(bare))).toContain("lists no valid speeds");
  });

  it("shows the live price for what is chosen, or why there is none", () => {
    const priced = portOrderModal({
      metadata,
      sandbox: false,
      currency: "USD",
      preview: withDcf(dcfOnNet, {
        speedMbps: 10000,
        term: { value: 1, unit: "y", durationUnit: "y" },
        price: {
          kind: "priced",
          speedMbps: 10000,
          term: { value: 1, unit: "y", durationUnit: "y" },
          result: { price: 14400, basicMonthlyAmount: 1200 },
        },
      }),
    });
    const price = text(priced, PORT_ORDER_PRICE_BLOCK);
    expect(price).toContain("Price (total for 1 year)");
    expect(price).not.toContain("(12 months))");
    expect(price).toContain("14,400.00");
    expect(price).toContain("1,200.00");
    expect(price).toContain("10G");
    // Price and LOA path together.
    expect(text(priced, PORT_ORDER_LOA_BLOCK)).toContain("24 hours");

    const month = portOrderModal({
      metadata,
      sandbox: false,
      currency: "USD",
      preview: withDcf(dcfOnNet, {
        price: {
          kind: "priced",
          speedMbps: 1000,
          term: { value: 1, unit: "m", durationUnit: "m" },
          result: { price: 900 },
        },
      }),
    });
    expect(text(month, PORT_ORDER_PRICE_BLOCK)).toContain("Price (one month)");
    expect(text(month, PORT_ORDER_PRICE_BLOCK)).toContain("900.00");

    const failed = portOrderModal({
      metadata,
      sandbox: false,
      currency: "USD",
      preview: withDcf(dcfOnNet, {
        price: { kind: "unavailable", message: "The provider could not price <this> port" },
      }),
    });
    expect(text(failed, PORT_ORDER_PRICE_BLOCK)).toContain("could not price &lt;this&gt; port");
  });
});

describe("port order metadata", () => {
  it("round-trips the channel and reads anything else as empty", () => {
    expect(parsePortOrderMetadata(encodePortOrderMetadata({ channelId: "C123ABC" }))).toEqual({
      channelId: "C123ABC",
    });
    expect(parsePortOrderMetadata(encodePortOrderMetadata({}))).toEqual({});
    for (const junk of [undefined, 42, "", "not json", "null", '{"c":"<@U1>"}', "x".repeat(4000)]) {
      expect(parsePortOrderMetadata(junk)).toEqual({});
    }
  });
});
