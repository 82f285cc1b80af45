import type { InputBlock, KnownBlock, ModalView } from "@slack/types";
import { describe, expect, it } from "vitest";
import { dcfRef } from "../../src/domain/catalog/dcfs.js";
import { CLASSES_OF_SERVICE } from "../../src/domain/catalog/requestFacts.js";
import {
  readConnectionPriceForm,
  readPortPriceForm,
} from "../../src/slack/features/pricing/readForms.js";
import { viewProblems } from "../../src/standin/index.js";
import { inputLabels } from "../../src/standin/modals/elements.js";
import { createLocalModalSession, fillModal } from "../../src/standin/modals/modal.js";
import type { ViewOutput } from "../../src/standin/types.js";
import type { DcfSuggestions } from "../../src/usecases/shared/dcfDirectory.js";
import { LIMITS } from "../../views/blocks.js";
import { DCF_HINT_PREFIX, dcfOption, dcfSuggestionOptions } from "../../views/dcfOptions.js";
import {
  connectionPriceModal,
  encodeMetadata,
  incompleteCommandNote,
  L2_PRICE_ACTIONS,
  L2_PRICE_BLOCKS,
  PORT_PRICE_ACTIONS,
  PORT_PRICE_BLOCKS,
  PRICE_L2_VIEW,
  PRICE_PORT_NOTE_BLOCK,
  PRICE_PORT_VIEW,
  parseMetadata,
  portPriceModal,
} from "../../views/pricing/pricingModals.js";
import {
  noDcfMatchReply,
  portArgsProblemReply,
  speedNotOfferedReply,
  withNarrowedNote,
} from "../../views/pricing/pricingReplies.js";
import { dcfEdgeFree, dcfOffNet, dcfOnNet } from "./fixtures.js";
import { expectNoRawAngleBrackets, expectWithinSlackLimits, readable } from "./support.js";

function inputBlock(view: ModalView, blockId: string): InputBlock | undefined {
  return view.blocks.find((b): b is InputBlock => b.type === "input" && b.block_id === blockId);
}

/** The modal as Slack stores it (ids, hash, empty state), for the stand-in's filling helpers. */
function asOutput(view: ModalView): ViewOutput {
  return {
    ...view,
    id: "V0TEST",
    team_id: "T0TEST",
    app_id: "A0TEST",
    bot_id: "B0TEST",
    hash: "1",
    state: { values: {} },
  } as unknown as ViewOutput;
}

function optionValues(block: InputBlock | undefined): string[] {
  const element = block?.element as { options?: Array<{ value?: string }> } | undefined;
  return (element?.options ?? []).map((o) => o.value ?? "");
}

function contextText(view: ModalView): string {
  return readable(view.blocks.filter((b) => b.type !== "input") as KnownBlock[]);
}

describe("portPriceModal", () => {
  it("asks for the data center first, with Slack's limits met", () => {
    const view = portPriceModal({ metadata: { channelId: "C0GENERAL1" } });
    expect(view.callback_id).toBe(PRICE_PORT_VIEW);
    expect(view.title.text.length).toBeLessThanOrEqual(24);
    expect(viewProblems(view, "modal")).toEqual([]);
    expect(inputLabels(asOutput(view).blocks)).toEqual([
      "Data center",
      "Term",
      "Include cross connect",
    ]);
    const dcf = inputBlock(view, PORT_PRICE_BLOCKS.dcf);
    expect(dcf?.dispatch_action).toBe(true);
    expect(dcf?.element).toMatchObject({
      type: "external_select",
      action_id: PORT_PRICE_ACTIONS.dcf,
      min_query_length: 2,
    });
    expect(contextText(view)).toContain("Pick a data center first");
    expect(parseMetadata(view.private_metadata)).toEqual({ channelId: "C0GENERAL1" });
    // The two terms the provider prices, 1 year preselected; the cross connect optional.
    expect(optionValues(inputBlock(view, PORT_PRICE_BLOCKS.term))).toEqual(["1y", "1m"]);
    expect(inputBlock(view, PORT_PRICE_BLOCKS.term)?.element).toMatchObject({
      initial_option: { value: "1y" },
    });
    expect(inputBlock(view, PORT_PRICE_BLOCKS.includeCrossConnect)?.optional).toBe(true);
  });

  it("offers only the chosen DCF's speeds, and preselects a speed it offers", () => {
    const view = portPriceModal({
      metadata: {},
      chosen: { dcf: dcfOnNet },
      speedMbps: 10000,
      term: { durationUnit: "m" },
      includeCrossConnect: true,
    });
    expect(viewProblems(view, "modal")).toEqual([]);
    const speed = inputBlock(view, PORT_PRICE_BLOCKS.speed);
    expect(speed?.label.text).toBe("Speed");
    expect(optionValues(speed)).toEqual(["1000", "10000", "100000"]);
    expect(speed?.element).toMatchObject({
      action_id: PORT_PRICE_ACTIONS.speed,
      initial_option: { value: "10000", text: { text: "10G" } },
    });
    expect(inputBlock(view, PORT_PRICE_BLOCKS.dcf)?.element).toMatchObject({
      initial_option: { value: dcfRef(dcfOnNet) },
    });
    expect(inputBlock(view, PORT_PRICE_BLOCKS.term)?.element).toMatchObject({
      initial_option: { value: "1m" },
    });
    expect(inputBlock(view, PORT_PRICE_BLOCKS.includeCrossConnect)?.element).toMatchObject({
      initial_options: [{ value: "xc" }],
    });

    const other = portPriceModal({ metadata: {}, chosen: { dcf: dcfEdgeFree }, speedMbps: 10000 });
    const otherSpeed = inputBlock(other, PORT_PRICE_BLOCKS.speed);
    expect(optionValues(otherSpeed)).toEqual(["100", "1000", "2500"]);
    expect(otherSpeed?.element).not.toHaveProperty("initial_option");
  });

  it("warns about a DCF that is not ready or lists no speeds, and about a failed look-up", () => {
    const notReady = portPriceModal({ metadata: {}, chosen: { dcf: dcfOffNet } });
    expect(contextText(notReady)).toContain("not ready for orders yet");
    expect(optionValues(inputBlock(notReady, PORT_PRICE_BLOCKS.speed))).toEqual(["1000", "10000"]);

    const noSpeeds = portPriceModal({
      metadata: {},
      chosen: { dcf: { ...dcfOnNet, dataCenterFacility: { speeds: ["fast"] } } },
    });
    expect(inputBlock(noSpeeds, PORT_PRICE_BLOCKS.speed)).toBeUndefined();
    expect(contextText(noSpeeds)).toContain("lists no valid speeds");

    const failed = portPriceModal({ metadata: {}, chosen: { problem: "Couldn't load <it>" } });
    expect(contextText(failed)).toContain("Couldn't load &lt;it&gt;");
    expect(viewProblems(failed, "modal")).toEqual([]);
  });

  it("shows what the inline command said, in a block it can find again", () => {
    const note = incompleteCommandNote("price port ironbridge 10G", ["term"]);
    expect(note).toBe("`/connect price port ironbridge 10G` has no term: choose it here.");
    expect(incompleteCommandNote("price port AMS", ["speed", "term"])).toContain(
      "has no speed and term: choose them here",
    );
    const view = portPriceModal({ metadata: {}, note });
    expect(view.blocks[0]).toMatchObject({ type: "section", block_id: PRICE_PORT_NOTE_BLOCK });
  });

  it("is filled by label and read back by the listener's reader with the same ids", async () => {
    const view = portPriceModal({ metadata: {}, chosen: { dcf: dcfOnNet } });
    const session = createLocalModalSession(asOutput(view), {
      suggest: async () => [dcfOption(dcfOnNet)],
    });
    const values = await fillModal(session, {
      "Data center": { query: "AMS" },
      Speed: "100G",
      Term: "Month to month",
      "Include cross connect": ["xc"],
    });
    expect(readPortPriceForm(values)).toEqual({
      dcf: dcfRef(dcfOnNet),
      speed: "100000",
      term: "1m",
      includeCrossConnect: true,
    });
  });
});

describe("connectionPriceModal", () => {
  it("has the labels a person expects, the classes of service and m/w units", () => {
    const view = connectionPriceModal({ channelId: "C0GENERAL1" });
    expect(view.callback_id).toBe(PRICE_L2_VIEW);
    expect(view.title.text.length).toBeLessThanOrEqual(24);
    expect(viewProblems(view, "modal")).toEqual([]);
    expect(inputLabels(asOutput(view).blocks)).toEqual([
      "Source data center",
      "Destination data center",
      "Bandwidth",
      "Class of service",
      "Duration",
      "Duration unit",
    ]);
    expect(optionValues(inputBlock(view, L2_PRICE_BLOCKS.classOfService))).toEqual([
      ...CLASSES_OF_SERVICE,
    ]);
    expect(optionValues(inputBlock(view, L2_PRICE_BLOCKS.durationUnit))).toEqual(["m", "w"]);
    expect(inputBlock(view, L2_PRICE_BLOCKS.bandwidth)?.element).toMatchObject({
      type: "number_input",
      is_decimal_allowed: false,
    });
    // Slack's client would check a min/max alone, before any other problem is answered.
    expect(inputBlock(view, L2_PRICE_BLOCKS.bandwidth)?.element).not.toHaveProperty("min_value");
  });

  it("is filled by label and read back with the same ids", async () => {
    const view = connectionPriceModal({});
    const session = createLocalModalSession(asOutput(view), {
      suggest: async (blockId) => [
        dcfOption(blockId === L2_PRICE_BLOCKS.srcDcf ? dcfOnNet : dcfEdgeFree),
      ],
    });
    const values = await fillModal(session, {
      "Source data center": { query: "AMS" },
      "Destination data center": { query: "edge" },
      Bandwidth: "750",
      "Class of service": "BRONZE",
      Duration: "6",
      "Duration unit": "Weeks",
    });
    expect(readConnectionPriceForm(values)).toEqual({
      srcDcf: dcfRef(dcfOnNet),
      destDcf: dcfRef(dcfEdgeFree),
      bandwidth: "750",
      classOfService: "BRONZE",
      duration: "6",
      durationUnit: "w",
    });
    expect(L2_PRICE_ACTIONS.srcDcf).not.toBe(L2_PRICE_ACTIONS.destDcf);
  });
});

describe("metadata", () => {
  it("round-trips the channel and speed and ignores anything else", () => {
    expect(parseMetadata(encodeMetadata({ channelId: "C0GENERAL1", speedMbps: 1000 }))).toEqual({
      channelId: "C0GENERAL1",
      speedMbps: 1000,
    });
    for (const junk of [undefined, "", "{", "[]", '{"c":"<#x>","s":-1}', "x".repeat(4000)])
      expect(parseMetadata(junk)).toEqual({});
  });
});

describe("data center options", () => {
  it("shows name and city, with airport codes, speeds and tags below, in plain text", () => {
    const onNet = dcfOption(dcfOnNet);
    expect(onNet.text.text).toBe("Equinix AM3 · Amsterdam, NL");
    expect(onNet.value).toBe(dcfRef(dcfOnNet));
    expect(onNet.description?.text).toBe("AMS · 1G, 10G, 100G · cross-connect bundling");

    const offNet = dcfOption(dcfOffNet);
    expect(offNet.description?.text).toBe("1G, 10G · off-net · not ready");

    const edge = dcfOption(dcfEdgeFree);
    expect(edge.text.text).toBe("Edge & Co <Amsterdam> 2");
    expect(edge.description?.text).toContain("free cross connect");
    expect(edge.description?.text).toContain("SHINY_NEW_TAG");

    const long = dcfOption({ ...dcfOnNet, name: "N".repeat(200) });
    expect(long.text.text.length).toBeLessThanOrEqual(LIMITS.optionText);
    expect(long.text.text).toMatch(/… · Amsterdam, NL$/);
  });

  it("answers with one hint option when there is nothing to pick", () => {
    const cases: Array<[DcfSuggestions, string]> = [
      [{ kind: "too-short" }, "Type at least 2 letters"],
      [{ kind: "timeout" }, "slow to answer"],
      [{ kind: "failed", message: "The provider is down" }, "Search failed: The provider is down"],
      [{ kind: "found", dcfs: [] }, 'No data center matches "zz"'],
    ];
    for (const [suggestions, text] of cases) {
      const options = dcfSuggestionOptions(suggestions, " zz ");
      expect(options).toHaveLength(1);
      expect(options[0]?.text.text).toContain(text);
      expect(options[0]?.value?.startsWith(DCF_HINT_PREFIX)).toBe(true);
    }
  });

  it("offers at most 100 data centers", () => {
    const many = Array.from({ length: 130 }, (_, i) => ({ ...dcfOnNet, id: `id${i}` }));
    const options = dcfSuggestionOptions({ kind: "found", dcfs: many }, "eq");
    expect(options).toHaveLength(100);
    expect(options[0]?.value).toBe("id0|equinix-am3");
  });
});

describe("inline answers that are not a price", () => {
  it("says nothing matched, escaping what was typed", () => {
    const reply = noDcfMatchReply("<atlantis>");
    expect(reply.problem).toBe(true);
    expect(reply.text).toContain('No data center matches "&lt;atlantis&gt;"');
    expectNoRawAngleBrackets(reply.blocks);
  });

  it("lists the valid speeds and a command that works", () => {
    const reply = speedNotOfferedReply(dcfOnNet, 400000, [1000, 10000, 100000], {
      value: 12,
      unit: "m",
    });
    expect(reply.text).toContain("*Equinix AM3* (`equinix-am3`) doesn't offer 400G ports");
    expect(reply.text).toContain("Valid speeds there: 1G, 10G, 100G");
    expect(reply.text).toContain("`/connect price port equinix-am3 10G 12m`");
    expectWithinSlackLimits(reply.blocks);
  });

  it("explains the terms the provider prices and what a speed looks like", () => {
    expect(portArgsProblemReply({ kind: "term", text: "36m", value: 36, unit: "m" }).text).toBe(
      ":warning: The provider prices a port for a 1-year term (`1y` or `12m`) or month to month (`1m`); there is no 36-month term. Price `1y` and ask the provider about longer commitments.",
    );
    expect(portArgsProblemReply({ kind: "term", text: "5q" }).text).toContain(
      'Couldn\'t read "5q" as a term',
    );
    expect(portArgsProblemReply({ kind: "speed", text: "10X" }).text).toContain(
      'Couldn\'t read "10X" as a speed. Use e.g. `10G`',
    );
    expect(portArgsProblemReply({ kind: "dcf-too-long", length: 500 }).text).toContain(
      "500 characters",
    );
  });

  it("notes why one data center was picked among several, under the header", () => {
    const reply = withNarrowedNote(
      { text: "t", blocks: [{ type: "header", text: { type: "plain_text", text: "h" } }] },
      "AMS",
      3,
      100000,
    );
    expect(reply.blocks[0]?.type).toBe("header");
    expect(readable(reply.blocks)).toContain(
      'Only this one of the 3 data centers matching "AMS" can price 100G.',
    );
  });
});
