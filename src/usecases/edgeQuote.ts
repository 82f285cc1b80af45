import { createHash } from "node:crypto";
import { monthsOfTerm } from "../approvals/index.js";
import { formatMoney } from "../domain/money.js";
import { isSingapore, speedMbps } from "../domain/requestFacts.js";
import { formatTerm } from "../domain/units.js";
import type { OrderSubmission } from "../orders/index.js";
import type { DraftOrder, DraftOrderRequest, ProviderApi } from "../provider/api.js";
import {
  type EdgeQuotationRequest,
  edgeCalculatePriceQueryRule,
  edgeDraftOrderRule,
  edgePortOrderRule,
  edgeQuotationRule,
} from "../provider/rules/edge.js";
import { fieldErrors, ROOT_FIELD } from "../provider/rules/fieldErrors.js";
import { hasEmoji } from "../provider/rules/names.js";
import type { Identity, Services } from "../services.js";

/**
 * Edge (off-net) port quotes: the catalogue (countries, bandwidths, contract terms), the quote
 * form and its checks, reading an asynchronous quote's result, drafts and the Edge port order
 * handed over for approval. No Slack here: plain inputs, plain results.
 *
 * Spec gaps (docs/provider/provider-api.md shows none of these shapes) and what this module does about them:
 * - Items of the three Edge lists: read by name-ish fields, tolerating numbers, strings and
 *   objects; an item that cannot be read is left out (a country is kept with a made-up label).
 * - The country in a quotation request is "an object": the list's own element is sent as is.
 * - "Not ready yet" for a quote result: a `status` that is not a finished one, or no status and
 *   no offers yet. The sandbox answers 200 `{status: "PENDING", data: []}`.
 * - Offers (`data[]` items): vendor, prices and term are read by likely names; the raw item is
 *   kept and goes into the order's edgePayload (it "holds the price with all vendor details").
 */

export type EdgeRecord = Record<string, unknown>;
export type { EdgeQuotationRequest };

const isRecord = (x: unknown): x is EdgeRecord =>
  typeof x === "object" && x !== null && !Array.isArray(x);

function text(x: unknown): string | undefined {
  if (typeof x === "string" && x.trim() !== "") return x.trim();
  if (typeof x === "number" && Number.isFinite(x)) return String(x);
  return undefined;
}

function num(x: unknown): number | undefined {
  if (typeof x === "number" && Number.isFinite(x)) return x;
  if (typeof x === "string" && x.trim() !== "" && Number.isFinite(Number(x))) return Number(x);
  return undefined;
}

function firstText(record: EdgeRecord, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = text(record[key]);
    if (value !== undefined) return value;
  }
  return undefined;
}

function hashOf(value: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify(value) ?? "")
    .digest("hex")
    .slice(0, 16);
}

/** Printable text: a line break or control character in a name or address is a paste mistake. */
const PRINTABLE = /^[^\p{Cc}\p{Zl}\p{Zp}]*$/u;

/** The provider's port name limit (rules.ts PORT_NAME_MAX), also used for draft names. */
export const EDGE_NAME_MAX = 100;
export const ADDRESS_MAX = 300;
export const POST_CODE_MAX = 20;
export const DISCOUNT_CODE_MAX = 50;

// ---------------------------------------------------------------------------------------------
// The catalogue

export interface EdgeCountryChoice {
  /** Stable key for a select option (an id or code when there is one). */
  key: string;
  name: string;
  /** The list's element, sent as the quotation request's `country`. */
  country: EdgeRecord;
  postCodeRequired: boolean;
}

export type BandwidthUnit = "Mbps" | "Gbps";

export interface EdgeBandwidthChoice {
  /** `<value>|<unit>`, e.g. `1|Gbps`. */
  key: string;
  value: string;
  unit: BandwidthUnit;
  mbps: number;
  label: string;
}

export interface EdgeTermChoice {
  /** `<value>|<unit>`, e.g. `12|month`. */
  key: string;
  value: string;
  unit: string;
  label: string;
}

export interface EdgeCatalogue {
  countries: EdgeCountryChoice[];
  bandwidths: EdgeBandwidthChoice[];
  terms: EdgeTermChoice[];
}

const COUNTRY_KEY_FIELDS = ["id", "code", "iso2", "isoCode", "countryCode", "alpha2", "name"];
const COUNTRY_NAME_FIELDS = [
  "name",
  "countryName",
  "displayName",
  "label",
  "title",
  "country",
  "code",
  "iso2",
  "isoCode",
  "countryCode",
  "id",
];
const KEY_MAX = 100;

/** The key of a country object: the same for a list element and the request that sent it. */
export function countryKey(country: unknown): string {
  if (isRecord(country)) {
    const id = firstText(country, COUNTRY_KEY_FIELDS);
    if (id !== undefined && id.length <= KEY_MAX && !id.includes("|")) return id;
  }
  return `h:${hashOf(country)}`;
}

/** A name a person recognises; the spec does not show the country's fields. */
export function countryName(country: unknown): string {
  if (typeof country === "string" && country.trim() !== "") return country.trim();
  if (isRecord(country)) {
    const name = firstText(country, COUNTRY_NAME_FIELDS);
    if (name !== undefined) return name;
    const anyText = Object.values(country).map(text).find(Boolean);
    if (anyText) return anyText;
  }
  return "Unnamed country";
}

const POST_CODE_FLAG = /post.?code.*(required|mandatory)|requires?.?post.?code/i;

/** Singapore (rules.ts), or a country that says it needs a post code (e.g. postCodeRequired). */
export function postCodeRequired(country: unknown): boolean {
  if (isSingapore(country)) return true;
  return (
    isRecord(country) &&
    Object.entries(country).some(([key, value]) => value === true && POST_CODE_FLAG.test(key))
  );
}

export function readCountries(items: readonly unknown[]): EdgeCountryChoice[] {
  const seen = new Set<string>();
  const out: EdgeCountryChoice[] = [];
  for (const item of items) {
    const country = isRecord(item)
      ? item
      : typeof item === "string" && item.trim() !== ""
        ? { name: item.trim() }
        : undefined;
    if (!country) continue;
    const key = countryKey(country);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      key,
      name: countryName(country),
      country,
      postCodeRequired: postCodeRequired(country),
    });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

function bandwidthOf(mbps: number, unit?: BandwidthUnit): EdgeBandwidthChoice {
  const gbps = unit === "Gbps" || (unit === undefined && mbps >= 1000 && mbps % 1000 === 0);
  const value = gbps ? String(Number((mbps / 1000).toFixed(3))) : String(mbps);
  const u: BandwidthUnit = gbps ? "Gbps" : "Mbps";
  return { key: `${value}|${u}`, value, unit: u, mbps, label: `${value} ${u}` };
}

function unitOf(x: unknown): BandwidthUnit | undefined {
  const t = text(x)?.toLowerCase();
  if (!t) return undefined;
  if (t.startsWith("g")) return "Gbps";
  if (t.startsWith("m")) return "Mbps";
  return undefined;
}

function readBandwidth(item: unknown): EdgeBandwidthChoice | undefined {
  if (typeof item === "number" || typeof item === "string") {
    const mbps = speedMbps(item);
    return mbps === undefined
      ? undefined
      : bandwidthOf(mbps, unitOf(String(item).replace(/[\d.\s]/g, "")));
  }
  if (!isRecord(item)) return undefined;
  const unit = unitOf(item.unit ?? item.bandwidthUnit ?? item.uom);
  const value = item.value ?? item.bandwidth ?? item.speed ?? item.amount;
  let mbps: number | undefined;
  if (num(value) !== undefined) mbps = speedMbps(`${num(value)} ${unit ?? "Mbps"}`);
  else if (num(item.mbps) !== undefined) mbps = speedMbps(num(item.mbps));
  else mbps = speedMbps(item.label ?? item.name ?? value);
  return mbps === undefined ? undefined : bandwidthOf(mbps, unit);
}

export function readBandwidths(items: readonly unknown[]): EdgeBandwidthChoice[] {
  const byMbps = new Map<number, EdgeBandwidthChoice>();
  for (const item of items) {
    const choice = readBandwidth(item);
    if (choice && !byMbps.has(choice.mbps)) byMbps.set(choice.mbps, choice);
  }
  return [...byMbps.values()].sort((a, b) => a.mbps - b.mbps);
}

const TERM_TEXT = /^(\d{1,3})\s*(m|mo|mon|month|months|y|yr|yrs|year|years)?$/i;

function termOf(value: number, unit: string): EdgeTermChoice {
  return {
    key: `${value}|${unit}`,
    value: String(value),
    unit,
    label: formatTerm(value, unit),
  };
}

function termUnit(x: unknown): string | undefined {
  const t = text(x);
  return t && /^[A-Za-z ]{1,20}$/.test(t) ? t : undefined;
}

function readTerm(item: unknown): EdgeTermChoice | undefined {
  if (typeof item === "number") {
    return Number.isInteger(item) && item > 0 ? termOf(item, "month") : undefined;
  }
  if (typeof item === "string") {
    const m = TERM_TEXT.exec(item.trim());
    if (!m) return undefined;
    const unit = m[2]?.toLowerCase().startsWith("y") ? "year" : "month";
    return Number(m[1]) > 0 ? termOf(Number(m[1]), unit) : undefined;
  }
  if (!isRecord(item)) return undefined;
  const value = num(item.value ?? item.term ?? item.contractTerm ?? item.duration ?? item.months);
  const unit =
    termUnit(item.unit ?? item.termUnit ?? item.contractTermUnit ?? item.durationUnit) ??
    (item.months !== undefined ? "month" : undefined);
  if (value !== undefined && Number.isInteger(value) && value > 0) {
    return termOf(value, unit ?? "month");
  }
  const label = text(item.label ?? item.name);
  return label ? readTerm(label) : undefined;
}

export function readTerms(items: readonly unknown[]): EdgeTermChoice[] {
  const byKey = new Map<string, EdgeTermChoice>();
  for (const item of items) {
    const choice = readTerm(item);
    if (choice && !byKey.has(choice.key)) byKey.set(choice.key, choice);
  }
  const months = (t: EdgeTermChoice) =>
    Number(t.value) * (t.unit.toLowerCase().startsWith("y") ? 12 : 1);
  return [...byKey.values()].sort((a, b) => months(a) - months(b));
}

export type CatalogueDeps = Pick<Services, "provider">;

/** Thrown when a bounded wait for the provider ran out. */
export class EdgeTimeoutError extends Error {
  constructor(what: string) {
    super(`The provider did not answer in time (${what})`);
    this.name = "EdgeTimeoutError";
  }
}

/** Waits for `work` at most `ms`; the work itself goes on (its result may be cached). */
export function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new EdgeTimeoutError(what)), ms);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/**
 * The three Edge lists, read together and kept for a while: a modal, its options loads and its
 * submission all need them within Slack's 3 seconds, and the lists change rarely. A failed load
 * is not kept, so the next caller tries again.
 */
export class EdgeCatalogueCache {
  private cached: { value: Promise<EdgeCatalogue>; at: number } | undefined;

  constructor(
    private readonly provider: ProviderApi,
    private readonly ttlMs = 10 * 60_000,
    private readonly loadTimeoutMs = 10_000,
  ) {}

  /** The catalogue; with `timeoutMs`, rejects with EdgeTimeoutError when it takes longer. */
  get(timeoutMs?: number): Promise<EdgeCatalogue> {
    const now = Date.now();
    if (!this.cached || now - this.cached.at > this.ttlMs) {
      const value = this.load();
      const entry = { value, at: now };
      this.cached = entry;
      value.catch(() => {
        if (this.cached === entry) this.cached = undefined;
      });
    }
    return timeoutMs === undefined
      ? this.cached.value
      : within(this.cached.value, timeoutMs, "Edge catalogue");
  }

  private async load(): Promise<EdgeCatalogue> {
    const signal = AbortSignal.timeout(this.loadTimeoutMs);
    const [countries, bandwidths, terms] = await Promise.all([
      this.provider.listEdgeCountries({ signal }),
      this.provider.listEdgeBandwidths({ signal }),
      this.provider.listEdgeContractTerms({ signal }),
    ]);
    return {
      countries: readCountries(countries.items),
      bandwidths: readBandwidths(bandwidths.items),
      terms: readTerms(terms.items),
    };
  }
}

const caches = new WeakMap<ProviderApi, EdgeCatalogueCache>();

/** One catalogue cache per provider client (the command, listeners and jobs share it). */
export function edgeCatalogue(deps: CatalogueDeps): EdgeCatalogueCache {
  let cache = caches.get(deps.provider);
  if (!cache) {
    cache = new EdgeCatalogueCache(deps.provider);
    caches.set(deps.provider, cache);
  }
  return cache;
}

/** Countries whose name or key contains the typed text (for a searchable select). */
export function matchCountries(
  countries: readonly EdgeCountryChoice[],
  typed: string,
): EdgeCountryChoice[] {
  const q = typed.trim().toLowerCase().slice(0, 100);
  if (q === "") return [...countries];
  return countries.filter((c) => c.name.toLowerCase().includes(q) || c.key.toLowerCase() === q);
}

// ---------------------------------------------------------------------------------------------
// The quote form

export const EDGE_QUOTE_FIELDS = ["country", "bandwidth", "term", "address", "postCode"] as const;
export type EdgeQuoteField = (typeof EDGE_QUOTE_FIELDS)[number];

/** What a person entered, as it arrived (anything: a forged payload looks the same). */
export interface EdgeQuoteForm {
  /** A country key. */
  country?: unknown;
  /** A bandwidth key `<value>|<unit>`. */
  bandwidth?: unknown;
  /** A term key `<value>|<unit>`. */
  term?: unknown;
  address?: unknown;
  postCode?: unknown;
}

export type EdgeQuoteCheck =
  | {
      ok: true;
      request: EdgeQuotationRequest;
      country: EdgeCountryChoice;
      bandwidthMbps: number;
    }
  | { ok: false; errors: Partial<Record<EdgeQuoteField, string>> };

const RULE_FIELD: Record<string, EdgeQuoteField> = {
  country: "country",
  bandwidth: "bandwidth",
  bandwidthUnit: "bandwidth",
  "contract-term": "term",
  contractTermUnit: "term",
  "formatted-address": "address",
  postCode: "postCode",
};

const BANDWIDTH_KEY = /^(\d{1,6}(?:\.\d{1,3})?)\|(Mbps|Gbps)$/;
const TERM_KEY = /^(\d{1,3})\|([A-Za-z ]{1,20})$/;

/** A bandwidth key: one of the offered ones, or any when the provider's list was unreadable. */
export function pickBandwidth(
  catalogue: EdgeCatalogue,
  key: unknown,
): EdgeBandwidthChoice | undefined {
  if (typeof key !== "string") return undefined;
  if (catalogue.bandwidths.length > 0) return catalogue.bandwidths.find((b) => b.key === key);
  const m = BANDWIDTH_KEY.exec(key);
  const mbps = m ? speedMbps(`${m[1]} ${m[2]}`) : undefined;
  if (!m || mbps === undefined) return undefined;
  const unit = m[2] as BandwidthUnit;
  return { key, value: m[1]!, unit, mbps, label: `${m[1]} ${unit}` };
}

export function pickTerm(catalogue: EdgeCatalogue, key: unknown): EdgeTermChoice | undefined {
  if (typeof key !== "string") return undefined;
  if (catalogue.terms.length > 0) return catalogue.terms.find((t) => t.key === key);
  const m = TERM_KEY.exec(key);
  return m && Number(m[1]) > 0 ? termOf(Number(m[1]), m[2]!) : undefined;
}

export function pickCountry(catalogue: EdgeCatalogue, key: unknown): EdgeCountryChoice | undefined {
  return typeof key === "string" ? catalogue.countries.find((c) => c.key === key) : undefined;
}

function optionalText(x: unknown): string | undefined {
  return typeof x === "string" && x.trim() !== "" ? x.trim() : undefined;
}

/**
 * Checks the form against the catalogue (a value not offered is refused, whatever the client
 * sent) and the provider's rule, and builds the quotation request.
 */
export function checkEdgeQuoteForm(catalogue: EdgeCatalogue, form: EdgeQuoteForm): EdgeQuoteCheck {
  const errors: Partial<Record<EdgeQuoteField, string>> = {};
  const country = pickCountry(catalogue, form.country);
  if (!country) {
    errors.country =
      form.country === undefined || form.country === null || form.country === ""
        ? "Choose a country"
        : "Choose one of the countries in the list";
  }
  const bandwidth = pickBandwidth(catalogue, form.bandwidth);
  if (!bandwidth) {
    errors.bandwidth =
      catalogue.bandwidths.length > 0
        ? "Choose one of the offered bandwidths"
        : "Enter a bandwidth as a number, with its unit";
  }
  const term = pickTerm(catalogue, form.term);
  if (!term) {
    errors.term =
      catalogue.terms.length > 0
        ? "Choose one of the offered contract terms"
        : "Enter a contract term as a whole number, with its unit";
  }
  const address = optionalText(form.address);
  if (form.address !== undefined && typeof form.address !== "string") {
    errors.address = "Address must be text";
  } else if (!address) {
    errors.address = "Enter the site's address";
  } else if (address.length > ADDRESS_MAX) {
    errors.address = `Address must be at most ${ADDRESS_MAX} characters`;
  } else if (!PRINTABLE.test(address)) {
    errors.address = "Address can't contain line breaks or control characters";
  } else if (hasEmoji(address) || !/[\p{L}\p{N}]/u.test(address)) {
    // The provider's carriers look the site up by this text: pictures find nothing.
    errors.address =
      "Address must be the site's street address in words and numbers, without emoji (e.g. Marsh Wall 227, London)";
  }
  const postCode = optionalText(form.postCode);
  if (form.postCode !== undefined && form.postCode !== null && typeof form.postCode !== "string") {
    errors.postCode = "Post code must be text";
  } else if (postCode !== undefined && postCode.length > POST_CODE_MAX) {
    errors.postCode = `Post code must be at most ${POST_CODE_MAX} characters`;
  } else if (country?.postCodeRequired && postCode === undefined) {
    errors.postCode = `A post code is required for an address in ${country.name}`;
  }
  if (!country || !bandwidth || !term || Object.keys(errors).length > 0) {
    return { ok: false, errors };
  }
  const request = {
    country: country.country,
    bandwidth: bandwidth.value,
    bandwidthUnit: bandwidth.unit,
    "contract-term": term.value,
    contractTermUnit: term.unit,
    "formatted-address": address,
    ...(postCode !== undefined ? { postCode } : {}),
  };
  const parsed = edgeQuotationRule.safeParse(request);
  if (!parsed.success) {
    for (const [path, message] of Object.entries(fieldErrors(parsed.error))) {
      const field = RULE_FIELD[path.split(".")[0] ?? ""] ?? "country";
      errors[field] ??= message;
    }
    return { ok: false, errors };
  }
  return { ok: true, request: parsed.data, country, bandwidthMbps: bandwidth.mbps };
}

/** The Mbps of a quotation request's bandwidth. */
export function requestMbps(request: EdgeQuotationRequest): number | undefined {
  return speedMbps(`${request.bandwidth} ${request.bandwidthUnit}`);
}

/** The form that recreates a request (for a quote's buttons and for drafts). */
export function formOfRequest(request: EdgeQuotationRequest): Required<EdgeQuoteForm> {
  return {
    country: countryKey(request.country),
    bandwidth: `${request.bandwidth}|${request.bandwidthUnit}`,
    term: `${request["contract-term"]}|${request.contractTermUnit}`,
    address: request["formatted-address"],
    postCode: request.postCode ?? "",
  };
}

/**
 * A stored request (a draft's edgePayload, a job's echo) read back with the provider's rule.
 * Only the rule's own fields are taken: the payload carries more.
 */
export function readStoredRequest(stored: unknown): EdgeQuotationRequest | undefined {
  if (!isRecord(stored)) return undefined;
  const picked: EdgeRecord = {};
  for (const key of [
    "country",
    "bandwidth",
    "bandwidthUnit",
    "contract-term",
    "contractTermUnit",
    "formatted-address",
    "postCode",
    "withMetro",
  ]) {
    if (stored[key] !== undefined) picked[key] = stored[key];
  }
  const parsed = edgeQuotationRule.safeParse(picked);
  return parsed.success ? parsed.data : undefined;
}

/** The request with the catalogue's current country object when it still lists that country. */
export function refreshCountry(
  catalogue: EdgeCatalogue | undefined,
  request: EdgeQuotationRequest,
): EdgeQuotationRequest {
  const current = catalogue ? pickCountry(catalogue, countryKey(request.country)) : undefined;
  return current ? { ...request, country: current.country } : request;
}

/** 10 Gbps, the one speed the provider's enquiry (send-select) asks its team to offer. */
export const TEN_GBPS_MBPS = 10_000;

/**
 * Whether a quote offers "Ask for a 10 Gbps offer": only a quote that was asked for 10 Gbps
 * (the provider records the enquiry "only when a 10 Gbps offer is asked for"); a 1 Gbps quote
 * does not push a person towards a speed they did not ask for.
 */
export function offersTenGigEnquiry(request: EdgeQuotationRequest | undefined): boolean {
  return request !== undefined && requestMbps(request) === TEN_GBPS_MBPS;
}

/** The same request asking for 10 Gbps (POST send-select: "used only when a 10 Gbps offer is asked for"). */
export function tenGigabitRequest(request: EdgeQuotationRequest): EdgeQuotationRequest {
  return { ...request, bandwidth: "10", bandwidthUnit: "Gbps" };
}

/** One line describing a request: "Singapore · 1 Gbps · 12 months". */
export function describeRequest(request: EdgeQuotationRequest): string {
  const term = num(request["contract-term"]);
  return [
    countryName(request.country),
    `${request.bandwidth} ${request.bandwidthUnit}`,
    formatTerm(term, request.contractTermUnit),
  ].join(" · ");
}

// ---------------------------------------------------------------------------------------------
// Quote results

export type QuoteStatus = "ready" | "pending" | "failed";

const FINISHED = new Set([
  "COMPLETED",
  "COMPLETE",
  "DONE",
  "READY",
  "SUCCESS",
  "SUCCEEDED",
  "FINISHED",
]);
const FAILED = new Set([
  "FAILED",
  "FAILURE",
  "ERROR",
  "REJECTED",
  "CANCELLED",
  "CANCELED",
  "EXPIRED",
]);

/**
 * Whether a result is there. The spec does not show how "not ready" looks: a status that is not
 * a finished or failed one is pending; without a status, offers mean ready.
 */
export function quoteStatus(body: unknown): QuoteStatus {
  if (!isRecord(body)) return "pending";
  const status = text(body.status)?.toUpperCase();
  if (status !== undefined) {
    if (FINISHED.has(status)) return "ready";
    if (FAILED.has(status)) return "failed";
    return "pending";
  }
  return Array.isArray(body.data) && body.data.length > 0 ? "ready" : "pending";
}

export interface EdgeOffer {
  /** Identifies the offer in a form: its quoteKey, else its position (`#1`). */
  key: string;
  quoteKey?: string;
  vendor?: string;
  product?: string;
  monthly?: number;
  nonRecurring?: number;
  total?: number;
  originalMonthly?: number;
  discountCode?: string;
  leadTimeDays?: number;
  term?: string;
  bandwidth?: string;
  currency?: string;
  /** The provider's item, unchanged. */
  raw: EdgeRecord;
}

const USED_OFFER_FIELDS = new Set([
  "quoteKey",
  "key",
  "id",
  "vendor",
  "vendorName",
  "provider",
  "supplier",
  "carrier",
  "name",
  "product",
  "productName",
  "service",
  "monthlyPrice",
  "monthly",
  "mrc",
  "monthlyRecurringCharge",
  "recurringPrice",
  "nonRecurringPrice",
  "nrc",
  "oneOffPrice",
  "setupPrice",
  "installationPrice",
  "totalContractPrice",
  "totalPrice",
  "total",
  "contractValue",
  "price",
  "originalMonthlyPrice",
  "discountCode",
  "leadTimeDays",
  "leadTime",
  "term",
  "termUnit",
  "bandwidth",
  "bandwidthUnit",
  "currency",
  "amountSaved",
]);

function nameOf(x: unknown): string | undefined {
  return isRecord(x) ? firstText(x, ["name", "label", "title", "id"]) : text(x);
}

function measure(x: unknown, unit: unknown, format?: typeof formatTerm): string | undefined {
  if (isRecord(x)) return measure(x.value, x.unit, format);
  const value = num(x);
  if (value === undefined) return text(x);
  const u = text(unit);
  if (format) return format(value, u);
  return u ? `${value} ${u}` : String(value);
}

export function readOffer(item: unknown, index: number): EdgeOffer {
  const raw: EdgeRecord = isRecord(item) ? item : { value: item };
  const price = isRecord(raw.price) ? raw.price : undefined;
  const quoteKey = firstText(raw, ["quoteKey", "key", "id"]);
  const monthly = num(
    raw.monthlyPrice ??
      raw.monthly ??
      raw.mrc ??
      raw.monthlyRecurringCharge ??
      raw.recurringPrice ??
      price?.monthly,
  );
  const offer: EdgeOffer = {
    key: quoteKey && quoteKey.length <= KEY_MAX ? quoteKey : `#${index + 1}`,
    raw,
  };
  const set = <K extends keyof EdgeOffer>(k: K, v: EdgeOffer[K] | undefined) => {
    if (v !== undefined) offer[k] = v;
  };
  set("quoteKey", quoteKey);
  set(
    "vendor",
    nameOf(raw.vendor) ??
      text(raw.vendorName) ??
      nameOf(raw.provider) ??
      nameOf(raw.supplier) ??
      nameOf(raw.carrier),
  );
  set("product", nameOf(raw.product) ?? text(raw.productName) ?? nameOf(raw.service));
  set("monthly", monthly);
  set(
    "nonRecurring",
    num(
      raw.nonRecurringPrice ??
        raw.nrc ??
        raw.oneOffPrice ??
        raw.setupPrice ??
        raw.installationPrice ??
        price?.setup,
    ),
  );
  set(
    "total",
    num(raw.totalContractPrice ?? raw.totalPrice ?? raw.total ?? raw.contractValue) ??
      (monthly === undefined ? num(raw.price) : undefined),
  );
  set("originalMonthly", num(raw.originalMonthlyPrice));
  set("discountCode", text(raw.discountCode));
  set("leadTimeDays", num(raw.leadTimeDays ?? raw.leadTime));
  set("term", measure(raw.term, raw.termUnit, formatTerm));
  set("bandwidth", measure(raw.bandwidth, raw.bandwidthUnit));
  set("currency", text(raw.currency));
  return offer;
}

/** Scalar fields of an offer that readOffer did not understand (shown so nothing is hidden). */
export function otherOfferFields(offer: EdgeOffer, max = 6): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(offer.raw)) {
    if (USED_OFFER_FIELDS.has(key)) continue;
    const shown = text(value) ?? (typeof value === "boolean" ? String(value) : undefined);
    if (shown !== undefined) out.push([key, shown]);
    if (out.length >= max) break;
  }
  return out;
}

export interface EdgeQuote {
  responseId: string;
  status: QuoteStatus;
  /** The provider's status word, when it sent one. */
  providerStatus?: string;
  formattedAddress?: string;
  offers: EdgeOffer[];
  discountCode?: string;
}

export const MAX_OFFERS = 10;

export function readQuoteResult(
  responseId: string,
  body: unknown,
  discountCode?: string,
): EdgeQuote {
  const record = isRecord(body) ? body : {};
  const data = Array.isArray(record.data) ? record.data : [];
  const quote: EdgeQuote = {
    responseId,
    status: quoteStatus(body),
    offers: data.map(readOffer),
  };
  const providerStatus = text(record.status);
  if (providerStatus) quote.providerStatus = providerStatus;
  const address = text(record["formatted-address"]);
  if (address) quote.formattedAddress = address;
  if (discountCode) quote.discountCode = discountCode;
  return quote;
}

/**
 * What an offer costs over the whole contract term: its total when the provider gives one, else
 * the monthly price times the term's months plus the one-off charge. Undefined when the offer
 * has no price, or only a monthly one and the term is unknown.
 */
export function termCost(offer: EdgeOffer, termMonths: number | undefined): number | undefined {
  if (offer.total !== undefined) return offer.total;
  if (offer.monthly === undefined || termMonths === undefined) return undefined;
  return offer.monthly * termMonths + (offer.nonRecurring ?? 0);
}

/** The term of a request in months ("24 month", "2 year"), or undefined. */
export function requestTermMonths(request: EdgeQuotationRequest): number | undefined {
  const value = num(request["contract-term"]);
  if (value === undefined || value <= 0) return undefined;
  const unit = request.contractTermUnit.toLowerCase();
  if (unit.startsWith("month")) return value;
  if (unit.startsWith("year")) return value * 12;
  return undefined;
}

/**
 * The cheapest offer over the term (total cost: monthly × months + one-off, or the provider's
 * total), or the first offer when none can be compared. A lower monthly price with a large
 * one-off charge is not the cheapest, so "cheapest" always means over the term.
 */
export function cheapestOffer(
  offers: readonly EdgeOffer[],
  termMonths: number | undefined,
): EdgeOffer | undefined {
  const costed = offers
    .map((offer) => ({ offer, cost: termCost(offer, termMonths) }))
    .filter((o): o is { offer: EdgeOffer; cost: number } => o.cost !== undefined);
  return costed.sort((a, b) => a.cost - b.cost)[0]?.offer ?? offers[0];
}

/** The currency of an offer's amounts: its own when the provider gave one, else the configured. */
export function offerCurrency(offer: EdgeOffer, configured: string): string {
  return offer.currency ?? configured;
}

/** "1,234.00 USD per month + 500.00 USD one-off (15,308.00 USD over the term)". */
export function offerPriceText(offer: EdgeOffer, configuredCurrency: string): string {
  const currency = offerCurrency(offer, configuredCurrency);
  const monthly = formatMoney(offer.monthly, currency);
  const oneOff = formatMoney(offer.nonRecurring, currency);
  const total = formatMoney(offer.total, currency);
  const parts: string[] = [];
  if (monthly !== undefined) parts.push(`${monthly} per month`);
  if (oneOff !== undefined) parts.push(`${oneOff} one-off`);
  let line = parts.join(" + ");
  if (total !== undefined) {
    line = line ? `${line} (${total} over the term)` : `${total} over the term`;
  }
  return line || "no price given";
}

/**
 * Reads the quote again: the result, or with a discount code the discounted result. Bounded by
 * `signal`; throws ProviderError (404: no such quote or code).
 */
export async function loadQuote(
  deps: CatalogueDeps,
  responseId: string,
  discountCode: string | undefined,
  signal?: AbortSignal,
): Promise<EdgeQuote> {
  const body = discountCode
    ? await deps.provider.applyEdgeDiscount(responseId, discountCode, { signal })
    : await deps.provider.getEdgeQuoteResult(responseId, { signal });
  return readQuoteResult(responseId, body, discountCode);
}

export type DiscountCodeCheck = { ok: true; code: string } | { ok: false; message: string };

export function checkDiscountCode(quoteKey: string, value: unknown): DiscountCodeCheck {
  const code = typeof value === "string" ? value.trim() : "";
  if (code === "") return { ok: false, message: "Enter a discount code" };
  if (code.length > DISCOUNT_CODE_MAX || !/^\S+$/.test(code) || !PRINTABLE.test(code)) {
    return {
      ok: false,
      message: `A discount code is one word of at most ${DISCOUNT_CODE_MAX} characters`,
    };
  }
  const parsed = edgeCalculatePriceQueryRule.safeParse({ quoteKey, discountCode: code });
  if (!parsed.success) {
    return { ok: false, message: Object.values(fieldErrors(parsed.error))[0] ?? "Not valid" };
  }
  return { ok: true, code: parsed.data.discountCode };
}

// ---------------------------------------------------------------------------------------------
// Drafts

/** Where the Slack user who saved a draft is kept in its edgePayload (Delete is theirs only). */
export const SAVED_BY_FIELD = "savedBySlackUser";

/** The contract term in months for the spend ledger, when the request's unit reads as one. */
function termOfRequest(request: EdgeQuotationRequest): { termMonths?: number } {
  const months = monthsOfTerm(request["contract-term"], request.contractTermUnit);
  return months === undefined ? {} : { termMonths: months };
}

/** A draft's name from its request: "Edge Singapore 1 Gbps 12 months". */
export function defaultDraftName(request: EdgeQuotationRequest): string {
  const term = num(request["contract-term"]);
  return `Edge ${countryName(request.country)} ${request.bandwidth} ${request.bandwidthUnit} ${formatTerm(term, request.contractTermUnit)}`
    .replace(/\s+/g, " ")
    .slice(0, EDGE_NAME_MAX);
}

/**
 * A draft's body: everything needed to recreate the form (the quotation request's fields, at
 * the top level as "form parameters") and the quote (its key, discount and offers as the
 * provider returned them), plus who saved it.
 */
export function draftBody(input: {
  request: EdgeQuotationRequest;
  quote: EdgeQuote;
  savedBy: string;
  name?: string;
}): DraftOrderRequest {
  const speed = requestMbps(input.request) ?? 0;
  const edgePayload: EdgeRecord = {
    ...input.request,
    responseId: input.quote.responseId,
    quoteKey: input.quote.responseId,
    ...(input.quote.discountCode ? { discountCode: input.quote.discountCode } : {}),
    offers: input.quote.offers.map((o) => o.raw),
    [SAVED_BY_FIELD]: input.savedBy,
  };
  return edgeDraftOrderRule.parse({
    name: input.name ?? defaultDraftName(input.request),
    speed,
    edgePayload,
  });
}

export type DraftNameCheck = { ok: true; name: string } | { ok: false; message: string };

export function checkDraftName(value: unknown): DraftNameCheck {
  const name = typeof value === "string" ? value.trim() : "";
  if (name === "") return { ok: false, message: "Enter a name for the draft" };
  if (!PRINTABLE.test(name)) {
    return { ok: false, message: "Draft name can't contain line breaks or control characters" };
  }
  const parsed = edgeDraftOrderRule.shape.name.safeParse(name);
  if (!parsed.success) {
    return { ok: false, message: parsed.error.issues[0]?.message ?? "Not a valid name" };
  }
  return { ok: true, name };
}

/**
 * The body that renames a draft: PATCH needs speed and edgePayload again, so they are sent as
 * they are (the speed from the saved request when the record lacks it). Undefined when the
 * speed can't be known: guessing one would change the draft.
 */
export function renameBody(draft: DraftOrder, name: string): DraftOrderRequest | undefined {
  const payload = isRecord(draft.edgePayload) ? draft.edgePayload : {};
  const stored = readStoredRequest(payload);
  const speed =
    typeof draft.speed === "number" && draft.speed > 0
      ? draft.speed
      : stored
        ? requestMbps(stored)
        : undefined;
  return speed === undefined ? undefined : { name, speed, edgePayload: payload };
}

export function draftSavedBy(draft: Pick<DraftOrder, "edgePayload">): string | undefined {
  const payload = draft.edgePayload;
  return isRecord(payload) ? text(payload[SAVED_BY_FIELD]) : undefined;
}

/** A draft by id, from the drafts list (the provider has no single-draft read). */
export async function findDraft(
  deps: CatalogueDeps,
  id: string,
  signal?: AbortSignal,
): Promise<DraftOrder | undefined> {
  const drafts = await deps.provider.listDrafts({ signal });
  return drafts.find((d) => d.id === id);
}

// ---------------------------------------------------------------------------------------------
// Ordering

/** What an order is made from: a fresh quote, or a saved draft. */
export interface EdgeOrderSource {
  request: EdgeQuotationRequest;
  responseId?: string;
  discountCode?: string;
  offers: EdgeOffer[];
  draft?: { id: string; name?: string | null };
}

export function sourceFromQuote(request: EdgeQuotationRequest, quote: EdgeQuote): EdgeOrderSource {
  return {
    request,
    responseId: quote.responseId,
    ...(quote.discountCode ? { discountCode: quote.discountCode } : {}),
    offers: quote.offers,
  };
}

export type DraftSourceCheck =
  | { ok: true; source: EdgeOrderSource }
  | { ok: false; message: string };

/** A draft's order source; drafts saved elsewhere (the portal) may not carry what is needed. */
export function sourceFromDraft(draft: DraftOrder): DraftSourceCheck {
  const payload = isRecord(draft.edgePayload) ? draft.edgePayload : {};
  const request = readStoredRequest(payload);
  if (!request) {
    return {
      ok: false,
      message:
        "This draft doesn't hold an Edge quote I can read (it may have been saved in the provider's portal); open it there.",
    };
  }
  const offers = Array.isArray(payload.offers) ? payload.offers.map(readOffer) : [];
  const responseId = text(payload.responseId) ?? text(payload.quoteKey);
  const discountCode = text(payload.discountCode);
  return {
    ok: true,
    source: {
      request,
      ...(responseId ? { responseId } : {}),
      ...(discountCode ? { discountCode } : {}),
      offers,
      draft: { id: draft.id, name: draft.name ?? null },
    },
  };
}

/** The names already used by the company's ports and Edge orders (lower case). */
export async function takenPortNames(
  deps: Pick<Services, "provider" | "identity">,
  signal?: AbortSignal,
): Promise<Set<string>> {
  const { companyUsername } = await deps.identity();
  const [ports, edge] = await Promise.all([
    deps.provider.listPorts(companyUsername, { deleted: false, signal }),
    deps.provider.listEdgeOrders({}, { signal }),
  ]);
  const names = new Set<string>();
  for (const port of ports) if (port.name) names.add(port.name.trim().toLowerCase());
  for (const item of edge.items) {
    if (item.portName && !(item.objectType ?? "").toUpperCase().includes("DRAFT")) {
      names.add(item.portName.trim().toLowerCase());
    }
  }
  return names;
}

export const EDGE_ORDER_FIELDS = ["offer", "portName"] as const;
export type EdgeOrderField = (typeof EDGE_ORDER_FIELDS)[number];

export type EdgeOrderCheck =
  | { ok: true; submission: OrderSubmission }
  | { ok: false; errors: Partial<Record<EdgeOrderField, string>> };

/** The order's edgePayload: the form parameters, the quote and the chosen offer as returned. */
export function orderEdgePayload(source: EdgeOrderSource, offer: EdgeOffer): EdgeRecord {
  return {
    ...source.request,
    ...(source.responseId ? { responseId: source.responseId } : {}),
    quoteKey: offer.quoteKey ?? source.responseId,
    ...(source.discountCode ? { discountCode: source.discountCode } : {}),
    price: offer.raw,
    ...(source.draft ? { draftOrderId: source.draft.id } : {}),
  };
}

const ORDER_RULE_FIELD: Record<string, EdgeOrderField> = {
  portName: "portName",
  speed: "offer",
  paymentType: "offer",
  edgePayload: "offer",
};

/**
 * Builds the Edge port order for approval: the exact body that will be sent, every field of it
 * in words, the price, and the port name as the key to find the order again.
 */
export function buildEdgeOrder(input: {
  source: EdgeOrderSource;
  offerKey: unknown;
  portName: unknown;
  takenNames: ReadonlySet<string>;
  identity: Pick<Identity, "companyUsername">;
  requester: { userId: string; channelId?: string };
  /** The configured ISO 4217 code (PRICE_CURRENCY), for an offer that names none. */
  currency: string;
}): EdgeOrderCheck {
  const { source } = input;
  const errors: Partial<Record<EdgeOrderField, string>> = {};
  const offer =
    source.offers.length === 1 && (input.offerKey === undefined || input.offerKey === null)
      ? source.offers[0]
      : source.offers.find((o) => o.key === input.offerKey);
  if (source.offers.length === 0) errors.offer = "This quote has no offers to order";
  else if (!offer) errors.offer = "Choose one of the offers";
  const portName = typeof input.portName === "string" ? input.portName.trim() : input.portName;
  if (typeof portName === "string" && input.takenNames.has(portName.toLowerCase())) {
    errors.portName = `A port or Edge order named "${portName}" already exists; choose another name`;
  }
  const speed = requestMbps(source.request);
  const body = {
    portName,
    speed: speed ?? 0,
    paymentType: "invoice" as const,
    edgePayload: offer ? orderEdgePayload(source, offer) : {},
  };
  const parsed = edgePortOrderRule.safeParse(body);
  if (!parsed.success) {
    for (const [path, message] of Object.entries(fieldErrors(parsed.error))) {
      const field =
        ORDER_RULE_FIELD[path.split(".")[0] ?? ""] ?? (path === ROOT_FIELD ? "portName" : "offer");
      errors[field] ??=
        field === "offer" && path.startsWith("speed")
          ? `${message}; this quote is for ${source.request.bandwidth} ${source.request.bandwidthUnit}: request a quote for a larger bandwidth`
          : message;
    }
  }
  if (!offer || !parsed.success || Object.keys(errors).length > 0) return { ok: false, errors };
  const order = parsed.data;
  const request = source.request;
  const term = formatTerm(num(request["contract-term"]), request.contractTermUnit);
  const summary: OrderSubmission["summary"] = [
    { label: "Port name", value: order.portName },
    { label: "Country", value: countryName(request.country) },
    { label: "Address", value: request["formatted-address"] },
    ...(request.postCode ? [{ label: "Post code", value: request.postCode }] : []),
    { label: "Speed", value: `${request.bandwidth} ${request.bandwidthUnit} (${speed} Mbps)` },
    { label: "Contract term", value: term },
    {
      label: "Offer",
      value: [offer.vendor ?? "Unnamed vendor", offer.product].filter(Boolean).join(" · "),
    },
    { label: "Price", value: offerPriceText(offer, input.currency) },
    ...(offer.leadTimeDays !== undefined
      ? [{ label: "Lead time", value: `about ${offer.leadTimeDays} days` }]
      : []),
    { label: "Quote key", value: String(order.edgePayload.quoteKey ?? "—") },
    ...(source.responseId && source.responseId !== order.edgePayload.quoteKey
      ? [{ label: "Quote request", value: source.responseId }]
      : []),
    ...(source.discountCode ? [{ label: "Discount code", value: source.discountCode }] : []),
    { label: "Payment type", value: "invoice" },
    ...(source.draft
      ? [
          {
            label: "From draft",
            value: `${source.draft.name ?? "Draft"} (${source.draft.id}); the provider deletes the draft once ordered`,
          },
        ]
      : []),
  ];
  return {
    ok: true,
    submission: {
      kind: "edge",
      title: order.portName,
      summary,
      call: {
        operation: "createEdgePortOrder",
        pathParams: { companyName: input.identity.companyUsername },
        body: order,
      },
      reconcileKey: order.portName,
      price: {
        ...(offer.monthly !== undefined ? { monthly: offer.monthly } : {}),
        ...(offer.total !== undefined ? { total: offer.total } : {}),
        text: `${offerPriceText(offer, input.currency)} · ${term}${source.discountCode ? ` · discount ${source.discountCode}` : ""}`,
        ...termOfRequest(source.request),
      },
      requester: {
        userId: input.requester.userId,
        ...(input.requester.channelId ? { channelId: input.requester.channelId } : {}),
      },
    },
  };
}
