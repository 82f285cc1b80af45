import {
  type EdgeOffer,
  type EdgeQuote,
  type EdgeRecord,
  firstText,
  KEY_MAX,
  num,
  type QuoteStatus,
  text,
} from "../domain/catalog/edge.js";
import { isRecord } from "../domain/records.js";
import { formatTerm } from "../domain/units.js";

/**
 * Reads the provider's Edge quote result (GET /v2/edge/price/result, the discount call): its
 * status and its offers, whose shapes the spec does not show. Normalising a raw provider
 * response is the provider layer's job; the use cases and the quote poller get plain EdgeQuote
 * values.
 *
 * - "Not ready yet": a `status` that is not a finished one, or no status and no offers yet. The
 *   sandbox answers 200 `{status: "PENDING", data: []}`.
 * - Offers (`data[]` items): vendor, prices and term are read by likely names; the raw item is
 *   kept and goes into the order's edgePayload (it "holds the price with all vendor details").
 */

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
