// Edge quotations: validated against the Edge catalogue, priced deterministically per request,
// and made ready after a number of polls or an amount of sandbox time.
import type { EdgeCountry, EdgeQuotation, EdgeQuoteItem, Schemas } from "./model.js";
import { hashString, Prng } from "./random.js";
import { EDGE_BANDWIDTHS, EDGE_TERMS, EDGE_VENDORS } from "./seedData.js";

/** A quotation request the external pricing provider cannot serve; the message says why. */
export class EdgeQuoteError extends Error {}

/** Discount codes the sandbox knows, as a share taken off the monthly price. */
export const EDGE_DISCOUNT_CODES: Readonly<Record<string, number>> = {
  NETSAVE10: 0.1,
  EDGE25: 0.25,
};

const MONTHLY_BY_BANDWIDTH: Readonly<Record<number, number>> = {
  100: 450,
  200: 600,
  500: 900,
  1000: 1300,
  2000: 2100,
  5000: 3900,
  10000: 6500,
};

const COUNTRY_FACTOR: Readonly<Record<string, number>> = {
  SG: 1.3,
  US: 1,
  GB: 1.1,
  DE: 1.1,
  NL: 1.05,
  AU: 1.25,
  JP: 1.35,
};

const TERM_FACTOR: Readonly<Record<number, number>> = { 12: 1, 24: 0.92, 36: 0.85 };

const round2 = (n: number) => Math.round(n * 100) / 100;

export interface ParsedEdgeRequest {
  country: EdgeCountry;
  bandwidthMbps: number;
  termMonths: number;
  formattedAddress: string;
  postCode: string | null;
  withMetro: boolean;
}

/** Finds the country however the caller named it (its fields are not shown by the spec). */
function findCountry(countries: readonly EdgeCountry[], value: unknown): EdgeCountry | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const fields = value as Record<string, unknown>;
  const candidates = ["id", "code", "iso2", "countryCode", "name"]
    .map((k) => fields[k])
    .filter((v): v is string => typeof v === "string")
    .map((v) => v.trim().toLowerCase());
  return countries.find((c) =>
    candidates.some((v) => v === c.id || v === c.code.toLowerCase() || v === c.name.toLowerCase()),
  );
}

export function parseEdgeRequest(
  countries: readonly EdgeCountry[],
  body: Record<string, unknown>,
): ParsedEdgeRequest {
  const country = findCountry(countries, body.country);
  if (!country) {
    throw new EdgeQuoteError(
      "Edge pricing is not configured for this country: use an element of GET /v2/edge/countries",
    );
  }
  const unit = String(body.bandwidthUnit ?? "Mbps");
  const amount = Number(body.bandwidth);
  const bandwidthMbps = unit === "Gbps" ? amount * 1000 : amount;
  if (!EDGE_BANDWIDTHS.includes(bandwidthMbps)) {
    throw new EdgeQuoteError(
      `Edge bandwidth ${String(body.bandwidth)} ${unit} is not offered; offered (Mbps): ${EDGE_BANDWIDTHS.join(", ")}`,
    );
  }
  const termUnit = String(body.contractTermUnit ?? "month").toLowerCase();
  const termValue = Number(body["contract-term"]);
  const termMonths = termUnit.startsWith("year") ? termValue * 12 : termValue;
  if (!termUnit.startsWith("month") && !termUnit.startsWith("year")) {
    throw new EdgeQuoteError(`contractTermUnit must be month or year, not "${termUnit}"`);
  }
  if (!EDGE_TERMS.includes(termMonths)) {
    throw new EdgeQuoteError(
      `Edge contract term ${String(body["contract-term"])} ${termUnit} is not offered; offered (months): ${EDGE_TERMS.join(", ")}`,
    );
  }
  const formattedAddress = String(body["formatted-address"] ?? "").trim();
  if (formattedAddress === "") throw new EdgeQuoteError("formatted-address must not be empty");
  const postCode =
    typeof body.postCode === "string" && body.postCode.trim() !== "" ? body.postCode.trim() : null;
  if (country.requiresPostCode && postCode === null) {
    throw new EdgeQuoteError(`postCode is required for an Edge location in ${country.name}`);
  }
  return {
    country,
    bandwidthMbps,
    termMonths,
    formattedAddress,
    postCode,
    withMetro: body.withMetro !== false,
  };
}

/** Prices a request: 2 to 3 vendor offers, the same for the same request and seed. */
export function buildQuotation(
  seed: number,
  responseId: string,
  request: Record<string, unknown>,
  parsed: ParsedEdgeRequest,
  nowMs: number,
  metro: { id: string; name: string } | undefined,
): EdgeQuotation {
  const key = `${parsed.country.code}|${parsed.bandwidthMbps}|${parsed.termMonths}|${parsed.formattedAddress.toLowerCase()}`;
  const rng = Prng.derive(seed, `edge-quote:${key}`);
  const keys = Prng.derive(seed, `edge-quote-keys:${responseId}`);
  const vendorCount = 2 + (rng.next() < 0.5 ? 1 : 0);
  const start = rng.int(0, EDGE_VENDORS.length - 1);
  const base =
    (MONTHLY_BY_BANDWIDTH[parsed.bandwidthMbps] ?? 1000) *
    (COUNTRY_FACTOR[parsed.country.code] ?? 1.2) *
    (TERM_FACTOR[parsed.termMonths] ?? 1);
  const items: EdgeQuoteItem[] = [];
  for (let i = 0; i < vendorCount; i++) {
    items.push({
      quoteKey: keys.uuid(),
      vendor: EDGE_VENDORS[(start + i) % EDGE_VENDORS.length]!,
      product: "Edge Ethernet Access",
      monthlyPrice: round2(base * (0.9 + rng.next() * 0.3)),
      nonRecurringPrice: round2(500 + rng.int(0, 10) * 100),
      term: parsed.termMonths,
      termUnit: "month",
      bandwidth: parsed.bandwidthMbps,
      bandwidthUnit: "Mbps",
      leadTimeDays: rng.int(20, 60),
    });
  }
  const h = hashString(key);
  const addressResult: Record<string, unknown> = {
    formattedAddress: parsed.formattedAddress,
    postCode: parsed.postCode,
    country: { code: parsed.country.code, name: parsed.country.name },
    placeId: `sandbox-place-${h.toString(16)}`,
    location: { lat: (h % 18000) / 100 - 90, lng: ((h >>> 8) % 36000) / 100 - 180 },
  };
  if (parsed.withMetro && metro) addressResult.metro = { id: metro.id, name: metro.name };
  return {
    responseId,
    request,
    createdAtMs: nowMs,
    polls: 0,
    formattedAddress: parsed.formattedAddress,
    addressResult,
    items,
  };
}

function presentItem(item: EdgeQuoteItem, discount?: { code: string; share: number }) {
  const monthly = discount ? round2(item.monthlyPrice * (1 - discount.share)) : item.monthlyPrice;
  return {
    quoteKey: item.quoteKey,
    vendor: { name: item.vendor },
    product: item.product,
    monthlyPrice: monthly,
    nonRecurringPrice: item.nonRecurringPrice,
    totalContractPrice: round2(monthly * item.term + item.nonRecurringPrice),
    term: { value: item.term, unit: item.termUnit },
    bandwidth: { value: item.bandwidth, unit: item.bandwidthUnit },
    leadTimeDays: item.leadTimeDays,
    discountCode: discount?.code ?? null,
    originalMonthlyPrice: item.monthlyPrice,
    amountSaved: round2(item.monthlyPrice - monthly),
  };
}

/** The result body; `status` and `responseId` are additions (the result's fields are open). */
export type QuotationBody = Schemas["EdgeQuotationResult"] & { responseId: string; status: string };

export function presentQuotation(
  quotation: EdgeQuotation,
  options: { items?: EdgeQuoteItem[]; discount?: { code: string; share: number } } = {},
): QuotationBody {
  return {
    responseId: quotation.responseId,
    status: "COMPLETED",
    "formatted-address": quotation.formattedAddress,
    addressResult: quotation.addressResult,
    data: (options.items ?? quotation.items).map((i) => presentItem(i, options.discount)),
  };
}

/** What the result call answers while the quotation is not ready (200 with status PENDING). */
export function presentPendingQuotation(quotation: EdgeQuotation): QuotationBody {
  return {
    responseId: quotation.responseId,
    status: "PENDING",
    "formatted-address": quotation.formattedAddress,
    addressResult: {},
    data: [],
  };
}

export interface QuoteReadiness {
  readyAfterPolls: number;
  readyAfterMs: number;
}

/** Counts this poll and tells whether the quotation is ready now. */
export function pollQuotation(
  quotation: EdgeQuotation,
  nowMs: number,
  readiness: QuoteReadiness,
): boolean {
  quotation.polls += 1;
  return (
    quotation.polls > readiness.readyAfterPolls ||
    nowMs - quotation.createdAtMs >= readiness.readyAfterMs
  );
}
