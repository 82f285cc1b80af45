import { describe, expect, it } from "vitest";
import {
  cheapestOffer,
  offerPriceText,
  offersTenGigEnquiry,
  otherOfferFields,
  requestTermMonths,
  tenGigabitRequest,
  termCost,
} from "../../src/domain/catalog/edge.js";
import { DeadlineExceededError } from "../../src/domain/errors.js";
import type { DraftOrder, EdgePage, ProviderApi } from "../../src/provider/api.js";
import { quoteStatus, readOffer, readQuoteResult } from "../../src/provider/edgeResponses.js";
import {
  countryKey,
  type EdgeCatalogue,
  EdgeCatalogueCache,
  matchCountries,
  readBandwidths,
  readCountries,
  readTerms,
} from "../../src/usecases/edge/catalogue.js";
import {
  checkDraftName,
  draftBody,
  draftSavedBy,
  renameBody,
} from "../../src/usecases/edge/drafts.js";
import {
  buildEdgeOrder,
  type EdgeOrderSource,
  sourceFromDraft,
  takenPortNames,
} from "../../src/usecases/edge/order.js";
import {
  checkDiscountCode,
  checkEdgeQuoteForm,
  readStoredRequest,
  refreshCountry,
} from "../../src/usecases/edge/quote.js";
import { scanErrorWords } from "../support/plainWords.js";

// The sandbox's list shapes (the spec shows none): the module must read these and others.
const SG = {
  id: "sg1",
  name: "Singapore",
  code: "SG",
  currency: "SGD",
  postCodeRequired: true,
};
const DE = { id: "de1", name: "Germany", code: "DE", currency: "EUR", postCodeRequired: false };

function catalogue(overrides: Partial<EdgeCatalogue> = {}): EdgeCatalogue {
  return {
    countries: readCountries([SG, DE]),
    bandwidths: readBandwidths([
      { value: 100, unit: "Mbps", mbps: 100, label: "100 Mbps" },
      { value: 1, unit: "Gbps", mbps: 1000, label: "1 Gbps" },
    ]),
    terms: readTerms([{ value: 12, unit: "month", label: "12 months" }]),
    ...overrides,
  };
}

const form = {
  country: "de1",
  bandwidth: "1|Gbps",
  term: "12|month",
  address: "Unter den Linden 1, Berlin",
};

describe("the Edge lists (shapes not shown by the spec)", () => {
  it("reads countries of any shape, with a name-ish label and the post code rule", () => {
    const countries = readCountries([
      SG,
      { countryName: "France", iso: "FR" },
      "Brazil",
      { code: "NZ" },
      { displayName: "Nowhere", postcodeRequired: true },
      42,
      null,
      SG,
    ]);
    expect(countries.map((c) => c.name)).toEqual([
      "Brazil",
      "France",
      "Nowhere",
      "NZ",
      "Singapore",
    ]);
    const byName = Object.fromEntries(countries.map((c) => [c.name, c]));
    expect(byName.Singapore?.postCodeRequired).toBe(true);
    expect(byName.Nowhere?.postCodeRequired).toBe(true);
    expect(byName.France?.postCodeRequired).toBe(false);
    // The list's own element is what the request sends.
    expect(byName.Singapore?.country).toBe(SG);
    expect(byName.Brazil?.country).toEqual({ name: "Brazil" });
    // A country without an id-ish field still has a stable key.
    const key = byName.France!.key;
    expect(countryKey({ countryName: "France", iso: "FR" })).toBe(key);
    expect(key.length).toBeLessThanOrEqual(150);
  });

  it("recognises Singapore by its code or name even without a flag", () => {
    const [sg] = readCountries([{ iso2: "sg", label: "Republic of Singapore" }]);
    expect(sg?.postCodeRequired).toBe(true);
  });

  it("reads bandwidths as numbers, text or objects, in Mbps order, without duplicates", () => {
    const bandwidths = readBandwidths([
      { value: 1, unit: "Gbps" },
      100,
      "10G",
      { bandwidth: 500, bandwidthUnit: "Mbps" },
      { mbps: 200 },
      { label: "2 Gbps" },
      { value: 1000, unit: "Mbps" },
      "fast",
      { value: -1 },
    ]);
    expect(bandwidths.map((b) => [b.key, b.mbps])).toEqual([
      ["100|Mbps", 100],
      ["200|Mbps", 200],
      ["500|Mbps", 500],
      ["1|Gbps", 1000],
      ["2|Gbps", 2000],
      ["10|Gbps", 10000],
    ]);
    expect(bandwidths[3]?.label).toBe("1 Gbps");
  });

  it("reads contract terms in months or years, shortest first", () => {
    const terms = readTerms([
      { value: 24, unit: "month" },
      12,
      "1 year",
      { months: 36 },
      { term: 6, termUnit: "month" },
      "forever",
    ]);
    expect(terms.map((t) => t.key)).toEqual([
      "6|month",
      "12|month",
      "1|year",
      "24|month",
      "36|month",
    ]);
    expect(terms[0]?.label).toBe("6 months");
  });

  it("finds countries by what is typed", () => {
    const countries = readCountries([SG, DE]);
    expect(matchCountries(countries, "ger").map((c) => c.name)).toEqual(["Germany"]);
    expect(matchCountries(countries, "")).toHaveLength(2);
  });
});

describe("checkEdgeQuoteForm", () => {
  it("says every problem in a network engineer's words: no API field paths, no rule numbers", async () => {
    for (const lists of [catalogue(), catalogue({ bandwidths: [], terms: [] })]) {
      const { messages, leaks } = await scanErrorWords({ ...form, postCode: "" }, async (f) => {
        const check = checkEdgeQuoteForm(lists, f);
        return check.ok ? undefined : check.errors;
      });
      expect(leaks).toEqual({});
      expect(messages.length).toBeGreaterThanOrEqual(5);
    }
  });

  it("builds the quotation request from offered choices", () => {
    const check = checkEdgeQuoteForm(catalogue(), form);
    expect(check).toMatchObject({ ok: true, bandwidthMbps: 1000 });
    if (!check.ok) return;
    expect(check.request).toEqual({
      country: DE,
      bandwidth: "1",
      bandwidthUnit: "Gbps",
      "contract-term": "12",
      contractTermUnit: "month",
      "formatted-address": "Unter den Linden 1, Berlin",
    });
  });

  it("refuses a contract term longer than ten years, offered or typed, and takes ten years", () => {
    const offered = catalogue({ terms: readTerms([{ value: 15, unit: "year" }, 120]) });
    const typed = catalogue({ bandwidths: [], terms: [] });
    for (const [lists, term] of [
      [offered, "15|year"],
      [typed, "121|month"],
      [typed, "11|year"],
    ] as const) {
      const check = checkEdgeQuoteForm(lists, { ...form, term });
      expect(check).toEqual({
        ok: false,
        errors: { term: "Contract term must be at most 120 months (10 years)" },
      });
    }
    expect(checkEdgeQuoteForm(offered, { ...form, term: "120|month" }).ok).toBe(true);
    expect(checkEdgeQuoteForm(typed, { ...form, term: "10|year" }).ok).toBe(true);
  });

  it("refuses values that are not offered, whatever the client sent", () => {
    const check = checkEdgeQuoteForm(catalogue(), {
      country: "xx",
      bandwidth: "3|Gbps",
      term: { evil: true },
      address: "Somewhere",
    });
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.errors.country).toContain("Choose one of the countries");
    expect(check.errors.bandwidth).toContain("offered bandwidths");
    expect(check.errors.term).toContain("offered contract terms");
  });

  it("refuses a missing, multi-line, huge or emoji address", () => {
    for (const [address, message] of [
      [undefined, "Enter the site's address"],
      ["  ", "Enter the site's address"],
      ["line 1\nline 2", "line breaks"],
      ["x".repeat(5000), "at most 300"],
      [{ toString: "x" }, "must be text"],
      ["🏠🏢🌍", "without emoji"],
      ["Dam 1 🏠, Amsterdam", "without emoji"],
      ["--- ,,, ...", "in words and numbers"],
    ] as const) {
      const check = checkEdgeQuoteForm(catalogue(), { ...form, address });
      expect(check.ok).toBe(false);
      if (!check.ok) expect(check.errors.address).toContain(message);
    }
  });

  it("requires a 6-digit post code for Singapore, and none elsewhere", () => {
    const missing = checkEdgeQuoteForm(catalogue(), { ...form, country: "sg1", postCode: "" });
    expect(missing.ok).toBe(false);
    if (!missing.ok)
      expect(missing.errors.postCode).toContain("required for an address in Singapore");

    const short = checkEdgeQuoteForm(catalogue(), { ...form, country: "sg1", postCode: "12" });
    expect(short.ok).toBe(false);
    if (!short.ok) expect(short.errors.postCode).toContain("6 digits");

    const good = checkEdgeQuoteForm(catalogue(), { ...form, country: "sg1", postCode: " 048616 " });
    expect(good.ok && good.request.postCode).toBe("048616");

    const elsewhere = checkEdgeQuoteForm(catalogue(), { ...form, postCode: "" });
    expect(elsewhere.ok && "postCode" in elsewhere.request).toBe(false);
  });

  it("takes a typed bandwidth and term when the provider's lists were unreadable", () => {
    const open = catalogue({ bandwidths: [], terms: [] });
    const check = checkEdgeQuoteForm(open, { ...form, bandwidth: "150|Mbps", term: "18|month" });
    expect(check.ok && [check.request.bandwidth, check.request["contract-term"]]).toEqual([
      "150",
      "18",
    ]);
    const bad = checkEdgeQuoteForm(open, { ...form, bandwidth: "abc|Mbps", term: "0|month" });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.errors.bandwidth).toContain("as a number");
      expect(bad.errors.term).toContain("whole number");
    }
  });
});

describe("stored requests", () => {
  it("reads a request back from a payload that carries more, and refuses a broken one", () => {
    const request = readStoredRequest({
      country: DE,
      bandwidth: "1",
      bandwidthUnit: "Gbps",
      "contract-term": "12",
      contractTermUnit: "month",
      "formatted-address": "Berlin",
      offers: [],
      draftOrderId: "d1",
    });
    expect(request).toEqual({
      country: DE,
      bandwidth: "1",
      bandwidthUnit: "Gbps",
      "contract-term": "12",
      contractTermUnit: "month",
      "formatted-address": "Berlin",
    });
    expect(readStoredRequest({ country: DE })).toBeUndefined();
    expect(readStoredRequest("nope")).toBeUndefined();
  });

  it("refreshes the country object from today's list, and asks for 10 Gbps", () => {
    const stale = { country: { id: "de1", name: "Old name" } } as never;
    const request = { ...(stale as object), bandwidth: "1", bandwidthUnit: "Gbps" } as never;
    expect(refreshCountry(catalogue(), request)).toMatchObject({ country: DE });
    expect(tenGigabitRequest(request)).toMatchObject({ bandwidth: "10", bandwidthUnit: "Gbps" });
  });
});

describe("quote results", () => {
  it("tells pending, ready and failed apart", () => {
    expect(quoteStatus({ status: "PENDING", data: [] })).toBe("pending");
    expect(quoteStatus({ status: "IN_PROGRESS" })).toBe("pending");
    expect(quoteStatus({ status: "COMPLETED", data: [] })).toBe("ready");
    expect(quoteStatus({ status: "failed" })).toBe("failed");
    expect(quoteStatus({ data: [{ monthlyPrice: 1 }] })).toBe("ready");
    expect(quoteStatus({ data: [] })).toBe("pending");
    expect(quoteStatus(null)).toBe("pending");
    expect(quoteStatus("COMPLETED")).toBe("pending");
  });

  it("reads the sandbox's offers and unknown shapes alike", () => {
    const sandboxItem = {
      quoteKey: "k1",
      vendor: { name: "Northwind Fiber" },
      product: "Edge Ethernet Access",
      monthlyPrice: 1170,
      nonRecurringPrice: 500,
      totalContractPrice: 14540,
      term: { value: 12, unit: "month" },
      bandwidth: { value: 1000, unit: "Mbps" },
      leadTimeDays: 30,
      discountCode: "NETSAVE10",
      originalMonthlyPrice: 1300,
    };
    expect(readOffer(sandboxItem, 0)).toMatchObject({
      key: "k1",
      vendor: "Northwind Fiber",
      monthly: 1170,
      nonRecurring: 500,
      total: 14540,
      originalMonthly: 1300,
      term: "12 months",
      bandwidth: "1000 Mbps",
      leadTimeDays: 30,
      raw: sandboxItem,
    });
    const odd = readOffer({ supplier: "Acme", mrc: "99.5", nrc: 10, region: "APAC" }, 2);
    expect(odd).toMatchObject({ key: "#3", vendor: "Acme", monthly: 99.5, nonRecurring: 10 });
    expect(otherOfferFields(odd)).toEqual([["region", "APAC"]]);
    expect(readOffer("text", 0).raw).toEqual({ value: "text" });
  });

  it("keeps the quote key, address and discount, and picks the cheapest offer", () => {
    const quote = readQuoteResult(
      "r1",
      {
        status: "COMPLETED",
        "formatted-address": "Berlin",
        data: [
          { quoteKey: "a", monthlyPrice: 300 },
          { quoteKey: "b", monthlyPrice: 200 },
        ],
      },
      "EDGE25",
    );
    expect(quote).toMatchObject({
      responseId: "r1",
      status: "ready",
      providerStatus: "COMPLETED",
      formattedAddress: "Berlin",
      discountCode: "EDGE25",
    });
    expect(cheapestOffer(quote.offers, 12)?.key).toBe("b");
    expect(readQuoteResult("r2", "garbage").offers).toEqual([]);
  });

  it("means cheapest over the term: a low monthly price with a large one-off charge loses", () => {
    const offers = [
      readOffer({ quoteKey: "low-monthly", monthlyPrice: 900, nonRecurringPrice: 5000 }, 0),
      readOffer({ quoteKey: "low-total", monthlyPrice: 1000, nonRecurringPrice: 500 }, 1),
    ];
    // 12 months: 900 × 12 + 5,000 = 15,800 against 1,000 × 12 + 500 = 12,500.
    expect(termCost(offers[0]!, 12)).toBe(15_800);
    expect(cheapestOffer(offers, 12)?.key).toBe("low-total");
    // Over 60 months the monthly saving outweighs the one-off charge.
    expect(cheapestOffer(offers, 60)?.key).toBe("low-monthly");
    // The provider's own total wins over the computed one.
    expect(termCost(readOffer({ monthlyPrice: 1, totalContractPrice: 99 }, 0), 12)).toBe(99);
    expect(requestTermMonths({ ...REQUEST, "contract-term": "2", contractTermUnit: "year" })).toBe(
      24,
    );
  });

  it("labels every amount with the offer's own currency, else the configured one", () => {
    const offer = readOffer({ monthlyPrice: 1234, nonRecurringPrice: 500 }, 0);
    expect(offerPriceText(offer, "EUR")).toBe("1,234.00 EUR per month + 500.00 EUR one-off");
    const inYen = readOffer({ monthlyPrice: 1234, currency: "JPY" }, 0);
    expect(offerPriceText(inYen, "USD")).toBe("1,234 JPY per month");
  });

  it("offers the 10 Gbps enquiry only on a quote asked for 10 Gbps", () => {
    expect(offersTenGigEnquiry({ ...REQUEST, bandwidth: "1", bandwidthUnit: "Gbps" })).toBe(false);
    expect(offersTenGigEnquiry({ ...REQUEST, bandwidth: "10", bandwidthUnit: "Gbps" })).toBe(true);
    expect(offersTenGigEnquiry(undefined)).toBe(false);
  });

  it("checks a discount code before asking the provider", () => {
    expect(checkDiscountCode("r1", " NETSAVE10 ")).toEqual({ ok: true, code: "NETSAVE10" });
    expect(checkDiscountCode("r1", "")).toMatchObject({ ok: false });
    expect(checkDiscountCode("r1", "TWO WORDS")).toMatchObject({ ok: false });
    expect(checkDiscountCode("r1", "X".repeat(51))).toMatchObject({ ok: false });
    expect(checkDiscountCode("r1", 12)).toMatchObject({ ok: false });
  });
});

const REQUEST = {
  country: DE,
  bandwidth: "1",
  bandwidthUnit: "Gbps" as const,
  "contract-term": "12",
  contractTermUnit: "month",
  "formatted-address": "Unter den Linden 1, Berlin",
};

describe("drafts", () => {
  const quote = readQuoteResult(
    "r1",
    { status: "COMPLETED", data: [{ quoteKey: "k1", monthlyPrice: 100, vendor: { name: "V" } }] },
    "NETSAVE10",
  );

  it("saves everything needed to recreate the form and the quote, and who saved it", () => {
    const body = draftBody({ request: REQUEST, quote, savedBy: "U0REQUEST1" });
    expect(body.name).toBe("Edge Germany 1 Gbps 12 months");
    expect(body.speed).toBe(1000);
    expect(body.edgePayload).toMatchObject({
      ...REQUEST,
      responseId: "r1",
      discountCode: "NETSAVE10",
      offers: [{ quoteKey: "k1", monthlyPrice: 100, vendor: { name: "V" } }],
      savedBySlackUser: "U0REQUEST1",
    });
    expect(draftSavedBy(body)).toBe("U0REQUEST1");
  });

  it("reads a draft back as an order source, and explains one saved elsewhere", () => {
    const body = draftBody({ request: REQUEST, quote, savedBy: "U0REQUEST1" });
    const draft: DraftOrder = { ...body, id: "d1", name: "mine" };
    const source = sourceFromDraft(draft);
    expect(source).toMatchObject({
      ok: true,
      source: {
        request: REQUEST,
        responseId: "r1",
        discountCode: "NETSAVE10",
        draft: { id: "d1", name: "mine" },
      },
    });
    expect(source.ok && source.source.offers.map((o) => o.key)).toEqual(["k1"]);
    const portal = sourceFromDraft({ id: "d2", speed: 100, edgePayload: { vendor: "x" } });
    expect(portal).toMatchObject({ ok: false });
    expect(draftSavedBy({ edgePayload: { vendor: "x" } })).toBeUndefined();
  });

  it("renames with the draft's speed and payload unchanged, and checks the name", () => {
    const draft: DraftOrder = { id: "d1", speed: 500, edgePayload: { a: 1 } };
    expect(renameBody(draft, "New")).toEqual({ name: "New", speed: 500, edgePayload: { a: 1 } });
    // Without a speed on the record: the saved request's, never a guess.
    expect(renameBody({ id: "d2", edgePayload: { ...REQUEST } }, "N")?.speed).toBe(1000);
    expect(renameBody({ id: "d3", edgePayload: { a: 1 } }, "N")).toBeUndefined();
    expect(checkDraftName("  Tokyo office ")).toEqual({ ok: true, name: "Tokyo office" });
    expect(checkDraftName("")).toMatchObject({ ok: false });
    expect(checkDraftName("a\nb")).toMatchObject({ ok: false });
    expect(checkDraftName("x".repeat(101))).toMatchObject({ ok: false });
  });
});

describe("buildEdgeOrder", () => {
  const offers = [
    readOffer(
      { quoteKey: "k1", vendor: { name: "V1" }, monthlyPrice: 300, totalContractPrice: 3600 },
      0,
    ),
    readOffer(
      { quoteKey: "k2", vendor: { name: "V2" }, monthlyPrice: 200, totalContractPrice: 2400 },
      1,
    ),
  ];
  const source: EdgeOrderSource = {
    request: REQUEST,
    responseId: "r1",
    offers,
    draft: { id: "d1", name: "Berlin draft" },
  };
  const base = {
    source,
    offerKey: "k2",
    portName: " edge-berlin-1 ",
    takenNames: new Set(["existing-port"]),
    identity: { companyUsername: "acme-networks" },
    requester: { userId: "U0REQUEST1", channelId: "C0GENERAL1" },
    currency: "USD",
  };

  it("says every problem in a network engineer's words: no API field paths, no rule numbers", async () => {
    const valid = { offerKey: base.offerKey as unknown, portName: base.portName as unknown };
    const { messages, leaks } = await scanErrorWords(valid, async (f) => {
      const check = buildEdgeOrder({ ...base, ...f });
      return check.ok ? undefined : check.errors;
    });
    expect(leaks).toEqual({});
    expect(messages.length).toBeGreaterThanOrEqual(3);
  });

  it("hands over the exact body, every field in words, the price and the port name", () => {
    const check = buildEdgeOrder(base);
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    const { submission } = check;
    expect(submission.kind).toBe("edge");
    expect(submission.title).toBe("edge-berlin-1");
    expect(submission.reconcileKey).toBe("edge-berlin-1");
    expect(submission.call).toEqual({
      operation: "createEdgePortOrder",
      pathParams: { companyName: "acme-networks" },
      body: {
        portName: "edge-berlin-1",
        speed: 1000,
        paymentType: "invoice",
        edgePayload: {
          ...REQUEST,
          responseId: "r1",
          quoteKey: "k2",
          price: offers[1]!.raw,
          draftOrderId: "d1",
        },
      },
    });
    const labels = submission.summary.map((l) => l.label);
    for (const label of [
      "Port name",
      "Country",
      "Address",
      "Speed",
      "Contract term",
      "Offer",
      "Price",
      "Quote key",
      "Payment type",
      "From draft",
    ]) {
      expect(labels).toContain(label);
    }
    expect(submission.price).toMatchObject({ monthly: 200, total: 2400 });
    expect(submission.requester).toEqual({ userId: "U0REQUEST1", channelId: "C0GENERAL1" });
  });

  it("records the offer's one-off charge with the price, so its total is explained in full", () => {
    const withOneOff = readOffer(
      {
        quoteKey: "k3",
        vendor: { name: "V3" },
        monthlyPrice: 1146.24,
        nonRecurringPrice: 1500,
        totalContractPrice: 15254.88,
      },
      0,
    );
    const check = buildEdgeOrder({
      ...base,
      source: { ...source, offers: [withOneOff] },
      offerKey: "k3",
    });
    if (!check.ok) throw new Error(JSON.stringify(check.errors));
    expect(check.submission.price).toMatchObject({
      monthly: 1146.24,
      oneOff: 1500,
      total: 15254.88,
      termMonths: 12,
    });
    const plain = buildEdgeOrder(base);
    if (plain.ok) expect(plain.submission.price).not.toHaveProperty("oneOff");
  });

  it("refuses a quote whose contract term is longer than ten years (a draft made elsewhere)", () => {
    const long = {
      ...source,
      request: { ...REQUEST, "contract-term": "15", contractTermUnit: "year" },
    };
    const check = buildEdgeOrder({ ...base, source: long });
    expect(check).toEqual({
      ok: false,
      errors: {
        offer:
          "This quote's contract term is longer than 120 months (10 years): request a quote for a shorter term",
      },
    });
    const longest = {
      ...source,
      request: { ...REQUEST, "contract-term": "10", contractTermUnit: "year" },
    };
    const ok = buildEdgeOrder({ ...base, source: longest });
    if (!ok.ok) throw new Error(JSON.stringify(ok.errors));
    expect(ok.submission.price?.termMonths).toBe(120);
  });

  it("refuses a name already in use, in any case", () => {
    const check = buildEdgeOrder({ ...base, portName: "Existing-Port" });
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.errors.portName).toContain("already exists");
  });

  it("refuses an offer not in the quote and a bad port name", () => {
    const check = buildEdgeOrder({ ...base, offerKey: "forged", portName: "a\tb" });
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.errors.offer).toBe("Choose one of the offers");
      expect(check.errors.portName).toContain("control characters");
    }
    const empty = buildEdgeOrder({ ...base, portName: "" });
    expect(!empty.ok && empty.errors.portName).toContain("required");
  });

  it("refuses an Edge port under 100 Mbps (provider rule 3)", () => {
    const small = {
      ...source,
      request: { ...REQUEST, bandwidth: "50", bandwidthUnit: "Mbps" as const },
    };
    const check = buildEdgeOrder({ ...base, source: small });
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.errors.offer).toContain("at least 100 Mbps");
  });

  it("takes the only offer when none was chosen, and refuses a quote without offers", () => {
    const one = buildEdgeOrder({
      ...base,
      offerKey: undefined,
      source: { ...source, offers: [offers[0]!] },
    });
    expect(one.ok).toBe(true);
    const none = buildEdgeOrder({ ...base, source: { ...source, offers: [] } });
    expect(!none.ok && none.errors.offer).toContain("no offers");
  });
});

describe("provider reads", () => {
  const page = <T>(items: T[]): EdgePage<T> => ({ items });

  it("caches the Edge lists, shares a load in flight and retries after a failure", async () => {
    let loads = 0;
    let fail = true;
    const provider = {
      listEdgeCountries: async () => {
        loads++;
        if (fail) throw new Error("down");
        return page([DE]);
      },
      listEdgeBandwidths: async () => page([100]),
      listEdgeContractTerms: async () => page([12]),
    } as Partial<ProviderApi> as ProviderApi;
    const cache = new EdgeCatalogueCache(provider);
    await expect(cache.get()).rejects.toThrow("down");
    fail = false;
    const [a, b] = await Promise.all([cache.get(), cache.get()]);
    expect(a).toBe(b);
    expect(a.countries.map((c) => c.name)).toEqual(["Germany"]);
    await cache.get();
    expect(loads).toBe(2);
  });

  it("gives up waiting after the bound it is given", async () => {
    const never = new Promise<never>(() => {});
    const provider = {
      listEdgeCountries: () => never,
      listEdgeBandwidths: () => never,
      listEdgeContractTerms: () => never,
    } as Partial<ProviderApi> as ProviderApi;
    await expect(new EdgeCatalogueCache(provider).get(20)).rejects.toBeInstanceOf(
      DeadlineExceededError,
    );
  });

  it("collects the names of ports and Edge orders, not drafts", async () => {
    const deps = {
      identity: async () => ({ userId: "u", companyId: "c", companyUsername: "acme" }),
      provider: {
        listPorts: async (company: string) => {
          expect(company).toBe("acme");
          return [{ name: "AMS-1" }, {}];
        },
        listEdgeOrders: async () =>
          page([
            { portName: "Edge-1", objectType: "ORDER" },
            { portName: "edge-port", objectType: "PORT" },
            { portName: "draft name", objectType: "DRAFT ORDER" },
          ]),
      } as Partial<ProviderApi> as ProviderApi,
      // A request holding a port name (the approvals' one rule) counts too.
      approvals: { store: { namesHeld: async () => new Set(["held-by-a-request"]) } } as never,
    };
    expect([...(await takenPortNames(deps))].sort()).toEqual([
      "ams-1",
      "edge-1",
      "edge-port",
      "held-by-a-request",
    ]);
  });
});
