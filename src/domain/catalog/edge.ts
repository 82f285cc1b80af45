import type { components } from "../../provider/generated/provider.js";
import { formatMoney } from "../money.js";
import { isRecord } from "../records.js";
import { formatTerm } from "../units.js";
import { speedMbps } from "./requestFacts.js";

/**
 * The Edge (off-net) quote facts every layer reads: a request's and an offer's words (country
 * name, one-line request, term months, price over the term, the cheapest offer), the limits of
 * the quote form, and the lenient text/number readers the provider's unshown Edge shapes need.
 * Pure: the views word quotes with these, the provider's response readers
 * (src/provider/edgeResponses.ts) and the Edge use cases (src/usecases/edge/) build on them.
 */

/** The quotation request as the provider's contract shows it (the rule's parse has this shape). */
export type EdgeQuotationRequest = components["schemas"]["EdgeQuotationRequest"];

export type EdgeRecord = Record<string, unknown>;

/** Text of a string or a finite number, trimmed; undefined for anything else or blank. */
export function text(x: unknown): string | undefined {
  if (typeof x === "string" && x.trim() !== "") return x.trim();
  if (typeof x === "number" && Number.isFinite(x)) return String(x);
  return undefined;
}

/** A finite number, or a string that reads as one. */
export function num(x: unknown): number | undefined {
  if (typeof x === "number" && Number.isFinite(x)) return x;
  if (typeof x === "string" && x.trim() !== "" && Number.isFinite(Number(x))) return Number(x);
  return undefined;
}

/** The first field among `keys` that reads as text. */
export function firstText(record: EdgeRecord, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = text(record[key]);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** Printable text: a line break or control character in a name or address is a paste mistake. */
export const PRINTABLE = /^[^\p{Cc}\p{Zl}\p{Zp}]*$/u;

/** The provider's port name limit (rules.ts PORT_NAME_MAX), also used for draft names. */
export const EDGE_NAME_MAX = 100;
export const ADDRESS_MAX = 300;
export const POST_CODE_MAX = 20;
export const DISCOUNT_CODE_MAX = 50;
/** The longest key kept as a select value (a country key, an offer key). */
export const KEY_MAX = 100;

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

/** The Mbps of a quotation request's bandwidth. */
export function requestMbps(request: EdgeQuotationRequest): number | undefined {
  return speedMbps(`${request.bandwidth} ${request.bandwidthUnit}`);
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
// Quotes and offers, as the provider's response readers hand them over

export type QuoteStatus = "ready" | "pending" | "failed";

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

export const USED_OFFER_FIELDS = new Set([
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

/** Scalar fields of an offer that readOffer (src/provider/edgeResponses.ts) did not understand (shown so nothing is hidden); USED_OFFER_FIELDS lists the fields it reads. */
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
