import {
  ADDRESS_MAX,
  DISCOUNT_CODE_MAX,
  type EdgeQuotationRequest,
  type EdgeQuote,
  type EdgeRecord,
  POST_CODE_MAX,
  PRINTABLE,
} from "../../domain/catalog/edge.js";
import { MAX_TERM_MONTHS, maxTermText } from "../../domain/catalog/terms.js";
import { isRecord } from "../../domain/records.js";
import { readQuoteResult } from "../../provider/edgeResponses.js";
import { edgeCalculatePriceQueryRule, edgeQuotationRule } from "../../provider/rules/edge.js";
import { fieldErrors } from "../../provider/rules/fieldErrors.js";
import { hasEmoji } from "../../provider/rules/names.js";
import {
  type CatalogueDeps,
  countryKey,
  type EdgeCatalogue,
  type EdgeCountryChoice,
  pickBandwidth,
  pickCountry,
  pickTerm,
  termChoiceMonths,
} from "./catalogue.js";

/**
 * The Edge quote form: its checks against the catalogue and the provider's rule, the quotation
 * request it builds (and reads back from a draft or a button), reading a quote again with or
 * without a discount code. The country in a quotation request is "an object" (the spec shows no
 * fields): the list's own element is sent as is.
 */

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
  } else if (termChoiceMonths(term) > MAX_TERM_MONTHS) {
    // Offered or typed, a term the spend ledger could not count is not quoted.
    errors.term = `Contract term must be at most ${maxTermText("months")}`;
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

/**
 * What a quote's buttons carry: the quote key (responseId), the form that recreates the request
 * (country key, bandwidth and term keys, address, post code) and the discount code applied.
 * The country object itself is not carried (its size is not bounded by the spec): it is looked
 * up again in the Edge country list, which also re-checks everything. views/edge/edgeQuote.ts
 * encodes it into a button value and parses it back.
 */
export interface QuoteRef {
  responseId: string;
  form: Required<EdgeQuoteForm>;
  discountCode?: string;
}

export function quoteRef(
  responseId: string,
  request: EdgeQuotationRequest,
  discountCode?: string,
): QuoteRef {
  return { responseId, form: formOfRequest(request), ...(discountCode ? { discountCode } : {}) };
}
