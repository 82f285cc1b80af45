import type { InputBlock, ModalView } from "@slack/types";
import { describe, expect, it } from "vitest";
import { readOffer } from "../../src/provider/edgeResponses.js";
import { readEdgeQuoteForm } from "../../src/slack/features/edge/formValues.js";
import { inputLabels } from "../../src/standin/modals/elements.js";
import { createLocalModalSession, fillModal } from "../../src/standin/modals/modal.js";
import type { ViewOutput } from "../../src/standin/types.js";
import { viewProblems } from "../../src/standin/webApi/blockKit.js";
import {
  type EdgeCatalogue,
  readBandwidths,
  readCountries,
  readTerms,
} from "../../src/usecases/edge/catalogue.js";
import type { EdgeOrderSource } from "../../src/usecases/edge/order.js";
import { checkEdgeQuoteForm, quoteRef } from "../../src/usecases/edge/quote.js";
import {
  EDGE_ORDER_BLOCKS,
  EDGE_QUOTE_BLOCKS,
  EDGE_QUOTE_INPUTS,
  EDGE_QUOTE_VIEW,
  edgeDiscountModal,
  edgeLoadingModal,
  edgeProblemModal,
  edgeQuoteModal,
  encodeEdgeMetadata,
  parseEdgeMetadata,
  renameDraftModal,
} from "../../views/edge/edgeModals.js";
import { edgeOrderModal } from "../../views/edge/edgeOrderModal.js";

const SG = { id: "sg1", name: "Singapore", code: "SG", postCodeRequired: true };
const DE = { id: "de1", name: "Germany", code: "DE", postCodeRequired: false };

const catalogue: EdgeCatalogue = {
  countries: readCountries([SG, DE]),
  bandwidths: readBandwidths([100, 1000]),
  terms: readTerms([12, 24]),
};

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

function block(view: ModalView, blockId: string): InputBlock | undefined {
  return view.blocks.find((b) => b.block_id === blockId) as InputBlock | undefined;
}

function expectValid(view: ModalView): void {
  expect(viewProblems(view, "modal")).toEqual([]);
  expect(view.title.text.length).toBeLessThanOrEqual(24);
}

describe("edgeQuoteModal", () => {
  it("asks for country, bandwidth, term and address from the provider's lists", () => {
    const view = edgeQuoteModal({ catalogue, metadata: { channelId: "C0GENERAL1" } });
    expectValid(view);
    expect(view.callback_id).toBe(EDGE_QUOTE_VIEW);
    expect(view.title.text).toBe("Edge port quote");
    expect(inputLabels(view.blocks as never)).toEqual([
      "Country",
      "Bandwidth",
      "Contract term",
      "Address",
    ]);
    const country = block(view, EDGE_QUOTE_BLOCKS.country);
    expect(country?.dispatch_action).toBe(true);
    const options = (country!.element as { options: Array<{ text: { text: string } }> }).options;
    expect(options.map((o) => o.text.text)).toEqual(["Germany", "Singapore"]);
    expect(parseEdgeMetadata(view.private_metadata)).toEqual({ channelId: "C0GENERAL1" });
  });

  it("adds Post code for Singapore (required), with the chosen country kept", () => {
    const singapore = catalogue.countries.find((c) => c.name === "Singapore")!;
    const view = edgeQuoteModal({ catalogue, metadata: {}, country: singapore });
    expectValid(view);
    const postCode = block(view, EDGE_QUOTE_BLOCKS.postCode);
    expect(postCode?.label.text).toBe("Post code");
    expect(postCode?.optional).toBeUndefined();
    expect(postCode?.hint?.text).toContain("6 digits");
    const country = block(view, EDGE_QUOTE_BLOCKS.country)?.element as {
      initial_option?: { value: string };
    };
    expect(country.initial_option?.value).toBe(singapore.key);
    const germany = catalogue.countries.find((c) => c.name === "Germany")!;
    expect(
      block(
        edgeQuoteModal({ catalogue, metadata: {}, country: germany }),
        EDGE_QUOTE_BLOCKS.postCode,
      ),
    ).toBeUndefined();
  });

  it("searches countries as the person types when there are more than Slack's 100 options", () => {
    const many = readCountries(
      Array.from({ length: 150 }, (_, i) => ({ id: `c${i}`, name: `Land ${i}` })),
    );
    const view = edgeQuoteModal({ catalogue: { ...catalogue, countries: many }, metadata: {} });
    expectValid(view);
    expect(block(view, EDGE_QUOTE_BLOCKS.country)?.element.type).toBe("external_select");
  });

  it("falls back to a number and a unit when the bandwidth and term lists were unreadable", () => {
    const view = edgeQuoteModal({
      catalogue: { ...catalogue, bandwidths: [], terms: [] },
      metadata: {},
    });
    expectValid(view);
    expect(inputLabels(view.blocks as never)).toEqual([
      "Country",
      "Bandwidth",
      "Bandwidth unit",
      "Contract term",
      "Contract term unit",
      "Address",
    ]);
    expect(block(view, EDGE_QUOTE_BLOCKS.bandwidth)?.element.type).toBe("number_input");
  });

  it("explains instead of showing a form when no country is offered", () => {
    const view = edgeQuoteModal({ catalogue: { ...catalogue, countries: [] }, metadata: {} });
    expectValid(view);
    expect(view.submit).toBeUndefined();
    expect(JSON.stringify(view.blocks)).toContain("no countries");
  });

  it("fills like a person, and the form reads back to the quotation request", async () => {
    const singapore = catalogue.countries.find((c) => c.name === "Singapore")!;
    const session = createLocalModalSession(
      asOutput(edgeQuoteModal({ catalogue, metadata: {}, country: singapore })),
    );
    const values = await fillModal(session, {
      Country: "Singapore",
      Bandwidth: "1 Gbps",
      "Contract term": "24 months",
      Address: "1 Raffles Place",
      "Post code": "048616",
    });
    const check = checkEdgeQuoteForm(catalogue, readEdgeQuoteForm(values));
    expect(check.ok && check.request).toEqual({
      country: SG,
      bandwidth: "1",
      bandwidthUnit: "Gbps",
      "contract-term": "24",
      contractTermUnit: "month",
      "formatted-address": "1 Raffles Place",
      postCode: "048616",
    });
  });

  it("reads a typed bandwidth and term with their units", async () => {
    const open = { ...catalogue, bandwidths: [], terms: [] };
    const session = createLocalModalSession(
      asOutput(edgeQuoteModal({ catalogue: open, metadata: {} })),
    );
    const values = await fillModal(session, {
      Country: "Germany",
      Bandwidth: "2.5",
      "Bandwidth unit": "Gbps",
      "Contract term": "2",
      "Contract term unit": "Years",
      Address: "Berlin",
    });
    const form = readEdgeQuoteForm(values);
    expect(form).toMatchObject({ bandwidth: "2.5|Gbps", term: "2|year" });
    expect(checkEdgeQuoteForm(open, form).ok).toBe(true);
    expect(values[EDGE_QUOTE_BLOCKS.country]?.[EDGE_QUOTE_INPUTS.country]).toBeDefined();
  });
});

describe("private_metadata", () => {
  it("round-trips and drops anything malformed", () => {
    const ref = quoteRef("r1", {
      country: DE,
      bandwidth: "1",
      bandwidthUnit: "Gbps",
      "contract-term": "12",
      contractTermUnit: "month",
      "formatted-address": "Berlin",
    });
    const metadata = { channelId: "C0GENERAL1", threadTs: "1700000000.000100", ref, draftId: "d1" };
    expect(parseEdgeMetadata(encodeEdgeMetadata(metadata))).toEqual(metadata);
    expect(parseEdgeMetadata("not json")).toEqual({});
    expect(
      parseEdgeMetadata(JSON.stringify({ c: "<script>", th: "x", d: "a b", q: "{}" })),
    ).toEqual({});
    expect(parseEdgeMetadata(undefined)).toEqual({});
    expect(parseEdgeMetadata("x".repeat(5000))).toEqual({});
  });
});

describe("edgeOrderModal", () => {
  const request = {
    country: DE,
    bandwidth: "1",
    bandwidthUnit: "Gbps" as const,
    "contract-term": "12",
    contractTermUnit: "month",
    "formatted-address": "Unter den Linden 1, Berlin",
  };
  const offers = [
    readOffer(
      { quoteKey: "k1", vendor: { name: "Pricey" }, monthlyPrice: 300, nonRecurringPrice: 50 },
      0,
    ),
    readOffer(
      { quoteKey: "k2", vendor: { name: "Cheap" }, monthlyPrice: 200, leadTimeDays: 30 },
      1,
    ),
  ];
  const source: EdgeOrderSource = { request, responseId: "r1", offers };

  it("shows each offer with its price, preselects the cheapest and asks for a port name", () => {
    const view = edgeOrderModal({ currency: "USD", source, metadata: {}, speedMbps: 1000 });
    expectValid(view);
    expect(view.submit?.text).toBe("Request approval");
    expect(inputLabels(view.blocks as never)).toEqual(["Offer", "Port name"]);
    const offer = block(view, EDGE_ORDER_BLOCKS.offer)?.element as {
      type: string;
      options: Array<{ text: { text: string }; value: string }>;
      initial_option?: { value: string };
    };
    expect(offer.type).toBe("radio_buttons");
    expect(offer.options.map((o) => o.text.text)).toEqual([
      "Pricey — 300.00 USD per month",
      "Cheap — 200.00 USD per month",
    ]);
    expect(offer.initial_option?.value).toBe("k2");
    const text = JSON.stringify(view.blocks);
    expect(text).toContain("1000 Mbps");
    expect(text).toContain("invoice");
  });

  it("says it comes from a draft, and uses a select for more than 10 offers", () => {
    const many = Array.from({ length: 12 }, (_, i) =>
      readOffer({ quoteKey: `k${i}`, monthlyPrice: 100 + i }, i),
    );
    const view = edgeOrderModal({
      currency: "USD",
      source: { ...source, offers: many, draft: { id: "d1", name: "Berlin draft" } },
      metadata: { draftId: "d1" },
    });
    expectValid(view);
    expect(block(view, EDGE_ORDER_BLOCKS.offer)?.element.type).toBe("static_select");
    expect(JSON.stringify(view.blocks)).toContain("Berlin draft");
    expect(parseEdgeMetadata(view.private_metadata).draftId).toBe("d1");
  });

  it("explains a quote without offers", () => {
    const view = edgeOrderModal({
      currency: "USD",
      source: { ...source, offers: [] },
      metadata: {},
    });
    expectValid(view);
    expect(view.submit).toBeUndefined();
  });
});

describe("small modals", () => {
  it("asks for a discount code, renames a draft with its name filled in, and explains problems", () => {
    for (const view of [
      edgeDiscountModal({ channelId: "C0GENERAL1" }),
      renameDraftModal({ draft: { id: "d1", name: "Old name" }, metadata: {} }),
      edgeLoadingModal("Order an Edge port", "Reading the quote…"),
      edgeProblemModal("Order an Edge port", "Gone <b>"),
    ]) {
      expectValid(view);
    }
    const rename = renameDraftModal({ draft: { id: "d1", name: "Old name" }, metadata: {} });
    expect(JSON.stringify(rename.blocks)).toContain('"initial_value":"Old name"');
    expect(parseEdgeMetadata(rename.private_metadata).draftId).toBe("d1");
    expect(JSON.stringify(edgeProblemModal("x", "Gone <b>").blocks)).toContain("Gone &lt;b&gt;");
  });
});
