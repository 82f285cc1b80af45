// The pricing flow against the sandbox over real HTTP: reading the inline command, finding the
// data center a person means, pricing, the modal checks (which must hold against any payload)
// and the bounded look-ups Slack's 3 seconds need.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { dcfRef } from "../../src/domain/catalog/dcfs.js";
import { portPriceCommandText } from "../../src/domain/catalog/portTerms.js";
import { withDeadline } from "../../src/domain/deadline.js";
import { DeadlineExceededError } from "../../src/domain/errors.js";
import { createLogger } from "../../src/log.js";
import { createProviderApi, type Dcf, type ProviderApi } from "../../src/provider/api.js";
import { createProviderClient } from "../../src/provider/client.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { checkConnectionPriceForm } from "../../src/usecases/pricing/connectionPrice.js";
import { canPrice, partialDcfTerms, resolveDcf } from "../../src/usecases/pricing/dcfResolution.js";
import { checkPortPriceForm, quotePortPrice } from "../../src/usecases/pricing/portPrice.js";
import { parsePortPriceArgs } from "../../src/usecases/pricing/portPriceArgs.js";
import { DcfDirectory, suggestDcfs } from "../../src/usecases/shared/dcfDirectory.js";
import { parseDcfRef } from "../../src/usecases/shared/dcfFacts.js";
import { readPortTerm } from "../../src/usecases/shared/portTermReading.js";
import {
  PricingRequestError,
  priceConnection,
  pricePort,
} from "../../src/usecases/shared/prices.js";
import { scanErrorWords } from "../support/plainWords.js";
import { memoryLogStream } from "../support/recordingServer.js";

let sandbox: Sandbox;
let provider: ProviderApi;
let dcfs: Dcf[];

beforeAll(async () => {
  sandbox = await startSandbox({});
  const logger = createLogger({ level: "silent", destination: memoryLogStream() });
  provider = createProviderApi(
    createProviderClient({
      baseUrl: sandbox.url,
      apiKey: "flow-test-key",
      logger,
      retry: { attempts: 1 },
    }),
  );
  dcfs = await provider.listDcfs();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.faults.clear());

function dcf(username: string): Dcf {
  const found = dcfs.find((d) => d.username === username);
  if (!found) throw new Error(`no sandbox DCF ${username}`);
  return found;
}

function calls(operationId: string): number {
  return sandbox.state.requestLog.filter((e) => e.operationId === operationId).length;
}

describe("readPortTerm", () => {
  it.each([
    ["1y", { value: 1, unit: "y", durationUnit: "y" }],
    ["12m", { value: 12, unit: "m", durationUnit: "y" }],
    ["12 months", { value: 12, unit: "m", durationUnit: "y" }],
    ["1 Year", { value: 1, unit: "y", durationUnit: "y" }],
    ["annual", { value: 1, unit: "y", durationUnit: "y" }],
    ["1m", { value: 1, unit: "m", durationUnit: "m" }],
    ["1 month", { value: 1, unit: "m", durationUnit: "m" }],
    ["monthly", { value: 1, unit: "m", durationUnit: "m" }],
  ])("reads %s as a term the provider prices", (text, term) => {
    expect(readPortTerm(text)).toEqual({ kind: "term", term });
  });

  it.each([
    ["36m", 36, "m"],
    ["3 years", 3, "y"],
    ["24mo", 24, "m"],
    ["4w", 4, "w"],
  ])("refuses %s: the provider has no such port term", (text, value, unit) => {
    expect(readPortTerm(text)).toEqual({ kind: "unsupported", value, unit });
  });

  it.each(["10G", "AMS", "", "1.5y", "12345678m"])("does not read %j as a term", (text) => {
    expect(readPortTerm(text)).toBeUndefined();
  });
});

describe("parsePortPriceArgs", () => {
  const words = (text: string) => text.split(" ");

  it("reads <dcf> <speed> <term> from the end, so names may have spaces", () => {
    expect(parsePortPriceArgs(words("ironbridge docklands 10G 1y"))).toEqual({
      kind: "complete",
      dcfQuery: "ironbridge docklands",
      speedMbps: 10000,
      term: { value: 1, unit: "y", durationUnit: "y" },
      includeCrossConnect: false,
    });
  });

  it("joins two-word speeds and terms and finds xc anywhere", () => {
    expect(parsePortPriceArgs(words("xc AMS 1 Gbps 12 months"))).toEqual({
      kind: "complete",
      dcfQuery: "AMS",
      speedMbps: 1000,
      term: { value: 12, unit: "m", durationUnit: "y" },
      includeCrossConnect: true,
    });
    expect(parsePortPriceArgs(words("AMS 100M 1m --cross-connect"))).toMatchObject({
      kind: "complete",
      speedMbps: 100,
      term: { durationUnit: "m" },
      includeCrossConnect: true,
    });
  });

  it("reads 1000 as Mbps and 1m in the term place as a month, not a speed", () => {
    expect(parsePortPriceArgs(words("LHR 1000 1m"))).toMatchObject({
      kind: "complete",
      speedMbps: 1000,
      term: { value: 1, unit: "m", durationUnit: "m" },
    });
  });

  it("says what is missing so the modal can ask for it", () => {
    expect(parsePortPriceArgs(words("AMS 10G"))).toEqual({
      kind: "incomplete",
      missing: ["term"],
      dcfQuery: "AMS",
      speedMbps: 10000,
      includeCrossConnect: false,
    });
    expect(parsePortPriceArgs(words("AMS 1y"))).toMatchObject({
      kind: "incomplete",
      missing: ["speed"],
      dcfQuery: "AMS",
    });
    expect(parsePortPriceArgs(words("amsterdam"))).toMatchObject({
      kind: "incomplete",
      missing: ["speed", "term"],
    });
    expect(parsePortPriceArgs(words("10G 1y"))).toMatchObject({
      kind: "incomplete",
      missing: ["data center"],
    });
  });

  it("sets aside words after the speed and term, and names them, instead of losing both", () => {
    expect(parsePortPriceArgs(words("ironbridge-iad1 10G 12m extra words"))).toEqual({
      kind: "complete",
      dcfQuery: "ironbridge-iad1",
      speedMbps: 10000,
      term: { value: 12, unit: "m", durationUnit: "y" },
      includeCrossConnect: false,
      ignored: ["extra", "words"],
    });
    expect(parsePortPriceArgs(words("ironbridge iad1 1 Gbps 1 year please xc"))).toMatchObject({
      kind: "complete",
      dcfQuery: "ironbridge iad1",
      speedMbps: 1000,
      includeCrossConnect: true,
      ignored: ["please"],
    });
    // Without a data center before them, the pair is the data center's words as before.
    expect(parsePortPriceArgs(words("10G 1y extra"))).toMatchObject({ kind: "incomplete" });
  });

  it("refuses what stands in the speed or term place but cannot be read", () => {
    expect(parsePortPriceArgs(words("AMS 10X 1y"))).toEqual({
      kind: "invalid",
      problem: { kind: "speed", text: "10X" },
    });
    expect(parsePortPriceArgs(words("AMS 10G 36m"))).toEqual({
      kind: "invalid",
      problem: { kind: "term", text: "36m", value: 36, unit: "m" },
    });
    expect(parsePortPriceArgs(words("AMS 10G 5q"))).toEqual({
      kind: "invalid",
      problem: { kind: "term", text: "5q" },
    });
    expect(parsePortPriceArgs(["x".repeat(500), "10G", "1y"])).toEqual({
      kind: "invalid",
      problem: { kind: "dcf-too-long", length: 500 },
    });
  });

  it("is the inverse of portPriceCommandText", () => {
    const text = portPriceCommandText({
      dcf: "meridian slough",
      speedMbps: 2500,
      term: { value: 12, unit: "m" },
      includeCrossConnect: true,
    });
    expect(text).toBe('price port "meridian slough" 2.5G 12m xc');
    expect(parsePortPriceArgs(["meridian slough", "2.5G", "12m", "xc"])).toMatchObject({
      kind: "complete",
      dcfQuery: "meridian slough",
      speedMbps: 2500,
      includeCrossConnect: true,
    });
  });
});

describe("DCF references in option values", () => {
  it("round-trips id|username and refuses anything we did not write", () => {
    const am3 = dcf("ironbridge-science-park-am3");
    expect(parseDcfRef(dcfRef(am3))).toBe(am3.id);
    expect(parseDcfRef(am3.id)).toBe(am3.id);
    for (const bad of ["hint:timeout", "", "|x", "x".repeat(151), 42, null, "a b|c"])
      expect(parseDcfRef(bad)).toBeUndefined();
  });

  it("keeps the value within Slack's 150 characters", () => {
    const ref = dcfRef({ id: "a".repeat(36), username: "u".repeat(200) });
    expect(ref).toBe("a".repeat(36));
  });
});

describe("withDeadline", () => {
  it("returns what answers in time and aborts what does not", async () => {
    await expect(withDeadline(200, async () => "fast")).resolves.toBe("fast");
    let aborted = false;
    const slow = withDeadline(
      50,
      (signal) =>
        new Promise((resolve) => {
          signal.addEventListener("abort", () => {
            aborted = true;
          });
          setTimeout(resolve, 1_000);
        }),
    );
    await expect(slow).rejects.toBeInstanceOf(DeadlineExceededError);
    expect(aborted).toBe(true);
  });
});

describe("resolveDcf", () => {
  it("finds a username exactly, whatever its case, and an id", async () => {
    const r1 = await resolveDcf(provider, "Ironbridge-Docklands-LD8");
    expect(r1).toMatchObject({ kind: "one", dcf: { username: "ironbridge-docklands-ld8" } });
    const r2 = await resolveDcf(provider, dcf("summit-inzai").id);
    expect(r2).toMatchObject({ kind: "one", dcf: { username: "summit-inzai" } });
  });

  it("finds an exact name among several matches", async () => {
    const r = await resolveDcf(provider, "Meridian Otemachi TY2");
    expect(r).toMatchObject({ kind: "one", dcf: { username: "meridian-otemachi-ty2" } });
  });

  it("narrows an airport code to the one facility that can price the speed", async () => {
    const r = await resolveDcf(provider, "LHR", { speedMbps: 400000 });
    expect(r).toEqual({
      kind: "one",
      dcf: expect.objectContaining({ username: "ironbridge-docklands-ld8" }),
      narrowedFrom: 4,
    });
  });

  it("lists several, those that can price the speed first", async () => {
    const r = await resolveDcf(provider, "AMS", { speedMbps: 100 });
    expect(r.kind).toBe("one");
    const several = await resolveDcf(provider, "LHR", { speedMbps: 10000 });
    if (several.kind !== "several") throw new Error(`expected several, got ${several.kind}`);
    expect(several.candidates.map((d) => d.username)).toHaveLength(4);
    const one = await resolveDcf(provider, "los angeles", { speedMbps: 100000 });
    // Atlas Colo LA4 offers 100G but is not ready: only One Wilshire can price it.
    expect(one).toMatchObject({ kind: "one", dcf: { username: "ironbridge-one-wilshire" } });
  });

  it("answers none when nothing matches", async () => {
    expect(await resolveDcf(provider, "atlantis")).toEqual({ kind: "none" });
    expect(await resolveDcf(provider, "atlantis-xy9")).toEqual({ kind: "none" });
  });

  it("finds a facility by the code in its name, a metro name or code, in any case", async () => {
    expect(await resolveDcf(provider, "ld5")).toMatchObject({
      kind: "one",
      dcf: { username: "meridian-slough-ld5" },
    });
    expect(await resolveDcf(provider, "AM3", { speedMbps: 10000 })).toMatchObject({
      kind: "one",
      dcf: { username: "ironbridge-science-park-am3" },
    });
    for (const text of ["AMSTERDAM", "ams", "Ams"]) {
      const r = await resolveDcf(provider, text, { speedMbps: 10000 });
      if (r.kind !== "several") throw new Error(`${text}: expected several, got ${r.kind}`);
      expect(r.partial).toBeUndefined();
      expect(r.candidates.map((d) => d.username)).toContain("ironbridge-science-park-am3");
    }
  });

  it("offers what matches part of a text that matches nothing whole, never picking one", async () => {
    // Another operator's name for a facility code the sandbox has.
    const ld5 = await resolveDcf(provider, "equinix-ld5", { speedMbps: 1000 });
    expect(ld5).toEqual({
      kind: "several",
      partial: true,
      candidates: [expect.objectContaining({ username: "meridian-slough-ld5" })],
    });
    // A metro code with a number: every Amsterdam facility, the ones pricing 10G first.
    const ams1 = await resolveDcf(provider, "AMS1", { speedMbps: 10000 });
    if (ams1.kind !== "several") throw new Error(`expected several, got ${ams1.kind}`);
    expect(ams1.partial).toBe(true);
    const names = ams1.candidates.map((d) => d.username);
    expect(names).toEqual(
      expect.arrayContaining([
        "ironbridge-science-park-am3",
        "northpoint-schiphol-rijk",
        "bluewater-amsterdam-zuidoost",
      ]),
    );
    const prices10G = ams1.candidates.map((d) => canPrice(d, 10000));
    expect(prices10G).toContain(true);
    expect(prices10G).toEqual([...prices10G].sort((a, b) => Number(b) - Number(a)));
  });

  it("splits a text into the parts worth searching alone", () => {
    expect(partialDcfTerms("equinix-ld5")).toEqual(["equinix", "ld5"]);
    expect(partialDcfTerms("AMS1")).toEqual(["ams"]);
    expect(partialDcfTerms("Equinix AM3 ")).toEqual(["equinix", "am3"]);
    // Too short to narrow anything, or the whole text again.
    expect(partialDcfTerms("LD")).toEqual([]);
    expect(partialDcfTerms("atlantis")).toEqual([]);
    expect(partialDcfTerms("a-b-c-1")).toEqual([]);
    expect(partialDcfTerms("one two three four five")).toHaveLength(3);
  });
});

describe("quotePortPrice and pricePort", () => {
  const complete = (text: string) => {
    const args = parsePortPriceArgs(text.split(" "));
    if (args.kind !== "complete") throw new Error(`not complete: ${text}`);
    return args;
  };

  it("prices what the sandbox prices for the same DCF, speed and unit", async () => {
    const quote = await quotePortPrice(provider, complete("summit-tai-seng 10G 12m xc"));
    if (quote.kind !== "priced") throw new Error(`expected a price, got ${quote.kind}`);
    const [direct] = await provider.pricePorts(
      [{ dcf: dcf("summit-tai-seng").id, speed: 10000, durationUnit: "y" }],
      { includeCrossConnect: true },
    );
    expect(quote.result).toEqual(direct);
    // FREE_CROSS_CONNECT: the charge is there, and zero.
    expect(quote.result.crossConnectAmount).toBe(0);
  });

  it("says which speeds a DCF offers, and that a not-ready DCF has no price", async () => {
    const before = calls("calculatePricing");
    expect(await quotePortPrice(provider, complete("keystone-pantin 100G 1y"))).toMatchObject({
      kind: "speed-not-offered",
      speedMbps: 100000,
      offered: [1000, 10000],
    });
    expect(await quotePortPrice(provider, complete("atlas-colo-la4 10G 1y"))).toMatchObject({
      kind: "not-ready",
      dcf: { username: "atlas-colo-la4" },
    });
    expect(calls("calculatePricing")).toBe(before);
  });

  it("returns choices for an ambiguous name and no-match for nothing", async () => {
    const choices = await quotePortPrice(provider, complete("meridian 10G 1y"));
    expect(choices).toMatchObject({ kind: "choices", query: "meridian", speedMbps: 10000 });
    expect(await quotePortPrice(provider, complete("atlantis 10G 1y"))).toEqual({
      kind: "no-match",
      query: "atlantis",
    });
    const before = calls("calculatePricing");
    expect(await quotePortPrice(provider, complete("equinix-ld5 1000 1y"))).toMatchObject({
      kind: "choices",
      partial: true,
      candidates: [{ username: "meridian-slough-ld5" }],
    });
    expect(calls("calculatePricing")).toBe(before);
  });

  it("refuses a request the pricing rule refuses, before sending it", async () => {
    const before = calls("calculatePricing");
    await expect(
      pricePort(provider, {
        dcf: dcf("summit-inzai"),
        speedMbps: 0,
        durationUnit: "y",
        includeCrossConnect: false,
      }),
    ).rejects.toBeInstanceOf(PricingRequestError);
    expect(calls("calculatePricing")).toBe(before);
  });
});

describe("DcfDirectory", () => {
  it("remembers what a search found, so a pick needs no provider call", async () => {
    const directory = new DcfDirectory(provider);
    const found = await directory.search("singapore");
    expect(found.length).toBe(4);
    expect(found.every((d) => !("products" in (directory.cached(d.id) ?? {})))).toBe(true);
    const before = calls("listDataCenterFacilities");
    const first = found[0];
    if (!first) throw new Error("no result");
    expect((await directory.byId(first.id))?.id).toBe(first.id);
    expect(calls("listDataCenterFacilities")).toBe(before);
  });

  it("asks the provider on a miss or once an entry is stale, and forgets the oldest", async () => {
    let now = 0;
    const directory = new DcfDirectory(provider, { ttlMs: 1_000, maxEntries: 2, now: () => now });
    const iad = dcf("ironbridge-iad1");
    const before = calls("listDataCenterFacilities");
    expect((await directory.byId(iad.id))?.username).toBe("ironbridge-iad1");
    await directory.byId(iad.id);
    expect(calls("listDataCenterFacilities")).toBe(before + 1);
    now = 2_000;
    await directory.byId(iad.id);
    expect(calls("listDataCenterFacilities")).toBe(before + 2);
    directory.remember([dcf("summit-inzai"), dcf("keystone-pantin")]);
    expect(directory.cached(iad.id)).toBeUndefined();
    expect(directory.cached(dcf("keystone-pantin").id)).toBeDefined();
    expect(await directory.byId("00000000-0000-0000-0000-000000000000")).toBeUndefined();
  });
});

describe("suggestDcfs", () => {
  it("ranks an exact airport code first and needs two letters", async () => {
    const directory = new DcfDirectory(provider);
    expect(await suggestDcfs(directory, " a ")).toEqual({ kind: "too-short" });
    const found = await suggestDcfs(directory, "FRA");
    if (found.kind !== "found") throw new Error(found.kind);
    expect(found.dcfs.map((d) => d.username)).toEqual([
      "cobalt-hanauer-landstrasse",
      "summit-kleyerstrasse-fr2",
      "atlas-colo-eschborn",
    ]);
  });

  it("gives up at the deadline, and reports a provider failure", async () => {
    const directory = new DcfDirectory(provider);
    sandbox.faults.add({ match: "GET /v2/data-center-facility/search", latencyMs: 1_000 });
    const started = performance.now();
    expect(await suggestDcfs(directory, "tokyo", 150)).toEqual({ kind: "timeout" });
    expect(performance.now() - started).toBeLessThan(900);
    sandbox.faults.set([{ match: "GET /v2/data-center-facility/search", status: 500 }]);
    const failed = await suggestDcfs(directory, "tokyo");
    expect(failed.kind).toBe("failed");
    expect(failed.kind === "failed" && failed.message.length).toBeGreaterThan(0);
  });
});

describe("checkPortPriceForm", () => {
  const am3 = () => dcf("ironbridge-science-park-am3");
  const form = (over: Record<string, unknown> = {}) => ({
    dcf: dcfRef(am3()),
    speed: "10000",
    term: "1y",
    includeCrossConnect: false,
    ...over,
  });

  it("says every problem in a network engineer's words: no API field paths, no rule numbers", async () => {
    const directory = new DcfDirectory(provider);
    const { messages, leaks } = await scanErrorWords(form(), async (f) => {
      const checked = await checkPortPriceForm(directory, f);
      return checked.ok ? undefined : checked.errors;
    });
    expect(leaks).toEqual({});
    expect(messages.length).toBeGreaterThanOrEqual(6);
  });

  it("answers an unknown data center and a bad term in one go", async () => {
    expect(
      await checkPortPriceForm(
        new DcfDirectory(provider),
        form({ dcf: "ffffffff|gone", term: "3y" }),
      ),
    ).toEqual({
      ok: false,
      errors: {
        dcf: "Pick a data center from the list",
        term: "Choose 1 year or month to month",
      },
    });
  });

  it("accepts a DCF, one of its speeds and a term", async () => {
    const checked = await checkPortPriceForm(new DcfDirectory(provider), form({ term: "1m" }));
    expect(checked).toEqual({
      ok: true,
      value: {
        dcf: expect.objectContaining({ id: am3().id }),
        speedMbps: 10000,
        term: { value: 1, unit: "m", durationUnit: "m" },
        includeCrossConnect: false,
      },
    });
  });

  it("puts each problem on its field, whatever the payload carried", async () => {
    const directory = new DcfDirectory(provider);
    expect(
      await checkPortPriceForm(directory, {
        dcf: null,
        speed: undefined,
        term: 7,
        includeCrossConnect: ["zz"],
      }),
    ).toEqual({
      ok: false,
      errors: {
        dcf: "Choose a data center",
        speed: "Choose a speed",
        term: "Choose 1 year or month to month",
        includeCrossConnect: "Include cross connect must be ticked or not",
      },
    });
    const huge = await checkPortPriceForm(directory, form({ dcf: "z".repeat(1_000_000) }));
    expect(huge).toEqual({ ok: false, errors: { dcf: "Pick a data center from the list" } });
    const hint = await checkPortPriceForm(directory, form({ dcf: "hint:none", speed: "ten" }));
    expect(hint).toEqual({
      ok: false,
      errors: { dcf: "Pick a data center from the list", speed: "Choose one of the speeds listed" },
    });
  });

  it("checks the speed against the DCF, and refuses a not-ready or unknown DCF", async () => {
    const directory = new DcfDirectory(provider);
    expect(await checkPortPriceForm(directory, form({ speed: "400000" }))).toEqual({
      ok: false,
      errors: { speed: "Choose one of this data center's speeds: 1G, 10G, 100G" },
    });
    const la4 = await checkPortPriceForm(directory, form({ dcf: dcfRef(dcf("atlas-colo-la4")) }));
    expect(la4.ok === false && la4.errors.dcf).toContain("not ready");
    const unknown = await checkPortPriceForm(
      directory,
      form({ dcf: "00000000-0000-0000-0000-000000000000|ghost" }),
    );
    expect(unknown).toEqual({ ok: false, errors: { dcf: "Pick a data center from the list" } });
  });

  it("answers within the deadline when the provider is slow", async () => {
    sandbox.faults.add({ match: "GET /v2/data-center-facility", latencyMs: 1_000 });
    const started = performance.now();
    const slow = await checkPortPriceForm(new DcfDirectory(provider), form(), 150);
    expect(performance.now() - started).toBeLessThan(900);
    expect(slow).toEqual({
      ok: false,
      errors: { dcf: "The provider took too long to confirm this data center; submit again" },
    });
  });
});

describe("checkConnectionPriceForm and priceConnection", () => {
  const form = (over: Record<string, unknown> = {}) => ({
    srcDcf: dcfRef(dcf("meridian-saint-denis-pa3")),
    destDcf: dcfRef(dcf("northpoint-alexandria-sy2")),
    bandwidth: "250",
    classOfService: "SILVERPLUS",
    duration: "8",
    durationUnit: "w",
    ...over,
  });

  it("says every problem in a network engineer's words: no API field paths, no rule numbers", async () => {
    const directory = new DcfDirectory(provider);
    const { messages, leaks } = await scanErrorWords(form(), async (f) => {
      const checked = await checkConnectionPriceForm(directory, f);
      return checked.ok ? undefined : checked.errors;
    });
    expect(leaks).toEqual({});
    expect(messages.length).toBeGreaterThanOrEqual(10);
  });

  it("builds the connection the provider prices, and prices it as the sandbox does", async () => {
    const checked = await checkConnectionPriceForm(new DcfDirectory(provider), form());
    if (!checked.ok) throw new Error(JSON.stringify(checked.errors));
    expect(checked.value.config).toEqual({
      bandwidth: 250,
      classOfService: "SILVERPLUS",
      duration: { value: 8, unit: "w" },
      srcDcf: dcf("meridian-saint-denis-pa3").id,
      destDcf: dcf("northpoint-alexandria-sy2").id,
    });
    const result = await priceConnection(provider, checked.value.config);
    const [direct] = await provider.priceConnections([checked.value.config]);
    // entity.duration.from/to follow the clock; the amounts and factors must not differ.
    expect(result.price).toBe(direct?.price);
    expect(result.preAuthAmount).toBe(direct?.preAuthAmount);
    expect(result.factors).toEqual(direct?.factors);
    expect(result.formula).toBe(direct?.formula);
  });

  it("refuses a term longer than ten years in its unit, with the other problems, and takes ten years", async () => {
    const directory = new DcfDirectory(provider);
    expect(
      await checkConnectionPriceForm(directory, form({ duration: "121", durationUnit: "m" })),
    ).toEqual({
      ok: false,
      errors: { duration: "Duration must be at most 120 months (10 years)" },
    });
    expect(
      await checkConnectionPriceForm(
        directory,
        form({ duration: "523", durationUnit: "w", bandwidth: "0" }),
      ),
    ).toMatchObject({
      ok: false,
      errors: {
        duration: "Duration must be at most 522 weeks (10 years)",
        bandwidth: expect.any(String),
      },
    });
    for (const [duration, durationUnit] of [
      ["120", "m"],
      ["522", "w"],
    ]) {
      const longest = await checkConnectionPriceForm(directory, form({ duration, durationUnit }));
      expect(longest.ok).toBe(true);
    }
  });

  it("refuses bad values field by field", async () => {
    const directory = new DcfDirectory(provider);
    expect(
      await checkConnectionPriceForm(
        directory,
        form({
          bandwidth: "99999999999999999999",
          duration: "0",
          classOfService: "gold",
          durationUnit: "m ",
        }),
      ),
    ).toEqual({
      ok: false,
      errors: {
        bandwidth: "Bandwidth must be from 1 Mbps to 100,000 Mbps (100 Gbps, the fastest port)",
        duration: "Duration must be at least 1",
        classOfService: "Class of service must be one of GOLD, SILVERPLUS, SILVER, BRONZE",
        durationUnit: "Duration unit must be months or weeks",
      },
    });
    expect(await checkConnectionPriceForm(directory, form({ destDcf: "ffffffff|gone" }))).toEqual({
      ok: false,
      errors: { destDcf: "Pick a data center from the list" },
    });
  });

  it("answers an unknown data center and a bad bandwidth in one go", async () => {
    const directory = new DcfDirectory(provider);
    expect(
      await checkConnectionPriceForm(
        directory,
        form({ destDcf: "ffffffff|gone", bandwidth: "99999999", durationUnit: "y" }),
      ),
    ).toEqual({
      ok: false,
      errors: {
        destDcf: "Pick a data center from the list",
        bandwidth: "Bandwidth must be from 1 Mbps to 100,000 Mbps (100 Gbps, the fastest port)",
        durationUnit: "Duration unit must be months or weeks",
      },
    });
  });
});
