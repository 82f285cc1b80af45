import type { ActionsBlock, Button, KnownBlock } from "@slack/types";
import {
  cheapestOffer,
  countryName,
  describeRequest,
  type EdgeOffer,
  type EdgeQuotationRequest,
  type EdgeQuote,
  MAX_OFFERS,
  offerCurrency,
  offersTenGigEnquiry,
  otherOfferFields,
  requestTermMonths,
  termCost,
} from "../../src/domain/catalog/edge.js";
import { formatMoney } from "../../src/domain/money.js";
import type { QuoteFailure } from "../../src/jobs/quotes/quotePoller.js";
import type { QuoteRef } from "../../src/usecases/edge/quote.js";
import {
  actions,
  button,
  context,
  escapeMrkdwn,
  fields,
  header,
  LIMITS,
  section,
  truncate,
} from "../blocks.js";
import { code, formatNumber, formatTerm } from "../format.js";

/**
 * The Edge quote's messages in the thread of a quote request: requested, ready (offers and
 * buttons), failed, discounted (a saved draft's are edgeDrafts.ts'). Pure functions; ids are
 * exported for listeners and tests.
 */

export const EDGE_QUOTE_BUTTONS = {
  discount: "edge_quote_discount",
  saveDraft: "edge_quote_save_draft",
  order: "edge_quote_order",
  tenGig: "edge_quote_ten_gig",
  support: "edge_quote_support",
  retry: "edge_quote_retry",
} as const;

export const EDGE_QUOTE_ACTIONS_BLOCK = "edge_quote_actions";

export interface Message {
  text: string;
  blocks: KnownBlock[];
}

// ---------------------------------------------------------------------------------------------
// The quote reference carried by the buttons

/** A quote reference (src/usecases/edge/quote.ts QuoteRef) as a button value, within Slack's limit. */
export function encodeQuoteRef(ref: QuoteRef): string | undefined {
  const value = JSON.stringify({
    r: ref.responseId,
    c: ref.form.country,
    b: ref.form.bandwidth,
    t: ref.form.term,
    a: ref.form.address,
    ...(ref.form.postCode ? { p: ref.form.postCode } : {}),
    ...(ref.discountCode ? { d: ref.discountCode } : {}),
  });
  // A longer value would be cut by Slack: better no button than a broken one.
  return value.length <= LIMITS.actionValue ? value : undefined;
}

const str = (x: unknown, max: number) => (typeof x === "string" && x.length <= max ? x : undefined);

export function parseQuoteRef(value: unknown): QuoteRef | undefined {
  if (typeof value !== "string" || value.length > LIMITS.actionValue) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const p = parsed as Record<string, unknown>;
  const responseId = str(p.r, 200);
  const country = str(p.c, 200);
  const bandwidth = str(p.b, 100);
  const term = str(p.t, 100);
  const address = str(p.a, 1000);
  if (!responseId || !country || !bandwidth || !term || address === undefined) return undefined;
  const postCode = str(p.p, 100) ?? "";
  const discountCode = str(p.d, 100);
  return {
    responseId,
    form: { country, bandwidth, term, address, postCode },
    ...(discountCode ? { discountCode } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Messages

function requestFields(request: EdgeQuotationRequest, address?: string) {
  return fields([
    ["Country", escapeMrkdwn(countryName(request.country))],
    ["Bandwidth", escapeMrkdwn(`${request.bandwidth} ${request.bandwidthUnit}`)],
    ["Contract term", formatTerm(Number(request["contract-term"]), request.contractTermUnit)],
    ["Address", escapeMrkdwn(address ?? request["formatted-address"])],
    ["Post code", request.postCode ? escapeMrkdwn(request.postCode) : undefined],
  ]);
}

/** The thread root posted when a quote is requested. */
export function quoteRequestedMessage(input: {
  request: EdgeQuotationRequest;
  requestedBy: string;
  responseId: string;
}): Message {
  const what = describeRequest(input.request);
  return {
    text: `Quote requested… Edge port ${escapeMrkdwn(what)}`,
    blocks: [
      section(
        `:hourglass_flowing_sand: *Quote requested…* <@${input.requestedBy}> asked for an Edge port quote: ${escapeMrkdwn(what)}.`,
      ),
      requestFields(input.request),
      context(
        `The provider asks its partners for prices; I'll post the offers in this thread (usually within a few minutes). Quote key ${code(input.responseId)}`,
      ),
    ],
  };
}

/** The thread root once the quote is in (an update of the message above). */
export function quoteAnsweredRootMessage(input: {
  request: EdgeQuotationRequest;
  requestedBy: string;
  responseId: string;
  outcome: "ready" | "failed";
}): Message {
  const what = describeRequest(input.request);
  const line =
    input.outcome === "ready"
      ? `:white_check_mark: *Edge quote ready* for <@${input.requestedBy}>: ${escapeMrkdwn(what)}. The offers are in the thread.`
      : `:warning: *Edge quote failed* for <@${input.requestedBy}>: ${escapeMrkdwn(what)}. See the thread.`;
  return {
    text: `Edge quote ${input.outcome === "ready" ? "ready" : "failed"}: ${escapeMrkdwn(what)}`,
    blocks: [
      section(line),
      requestFields(input.request),
      context(`Quote key ${code(input.responseId)}`),
    ],
  };
}

/** An amount with its currency code; the code may come from the provider, so it is escaped. */
function money(amount: number | undefined, currency: string): string | undefined {
  return formatMoney(amount, escapeMrkdwn(currency));
}

function offerBlock(offer: EdgeOffer, index: number, configuredCurrency: string): KnownBlock {
  const name = [offer.vendor ?? `Offer ${index + 1}`, offer.product].filter(Boolean).join(" · ");
  const currency = offerCurrency(offer, configuredCurrency);
  const monthly = money(offer.monthly, currency);
  const discounted =
    monthly !== undefined &&
    offer.originalMonthly !== undefined &&
    offer.monthly !== undefined &&
    offer.originalMonthly > offer.monthly;
  const priceLine = [
    monthly
      ? discounted
        ? `~${money(offer.originalMonthly, currency)}~ *${monthly}* per month`
        : `*${monthly}* per month`
      : undefined,
    offer.nonRecurring !== undefined ? `${money(offer.nonRecurring, currency)} one-off` : undefined,
    offer.total !== undefined ? `${money(offer.total, currency)} over the term` : undefined,
  ].filter(Boolean);
  const details = [
    offer.bandwidth ? escapeMrkdwn(offer.bandwidth) : undefined,
    offer.term ? escapeMrkdwn(offer.term) : undefined,
    offer.leadTimeDays !== undefined
      ? `lead time about ${formatNumber(offer.leadTimeDays)} days`
      : undefined,
    offer.quoteKey ? `key ${code(offer.quoteKey)}` : undefined,
  ].filter(Boolean);
  const others = otherOfferFields(offer).map(
    ([k, v]) => `${escapeMrkdwn(k)}: ${escapeMrkdwn(truncate(v, 80))}`,
  );
  const lines = [
    `*${escapeMrkdwn(name)}*`,
    priceLine.length > 0 ? priceLine.join(" · ") : "_No price in this offer_",
    details.join(" · "),
    others.join(" · "),
  ].filter((l) => l !== "");
  return section(lines.join("\n"));
}

/**
 * "Cheapest over the 24-month term: Zayo, 25,300.00 USD in total (monthly price × 24 months +
 * one-off charge)": the measure is said, since the lowest monthly price is not always the
 * cheapest once the one-off charge is counted.
 */
function cheapestOverTerm(
  offers: readonly EdgeOffer[],
  request: EdgeQuotationRequest | undefined,
  configured: string,
): string | undefined {
  const months = request ? requestTermMonths(request) : undefined;
  const cheapest = cheapestOffer(offers, months);
  const cost = cheapest ? termCost(cheapest, months) : undefined;
  if (!cheapest || cost === undefined) return undefined;
  const measure =
    cheapest.total !== undefined
      ? "the provider's total for the term"
      : `monthly price × ${months} months + one-off charge`;
  const term = months !== undefined ? `the ${months}-month term` : "the term";
  return `Cheapest over ${term}: ${cheapest.vendor ? `${cheapest.vendor}, ` : ""}${formatMoney(cost, offerCurrency(cheapest, configured))} in total (${measure})`;
}

/** The buttons under a quote (also under a discounted one). */
export function quoteActionsBlock(
  ref: QuoteRef,
  hasOffers: boolean,
  /** The quote was asked for 10 Gbps: the provider's team can be asked for an offer. */
  tenGigEnquiry: boolean,
): ActionsBlock | undefined {
  const value = encodeQuoteRef(ref);
  if (!value) return undefined;
  const elements: Button[] = [];
  if (hasOffers) {
    elements.push(
      button("Order", EDGE_QUOTE_BUTTONS.order, value, "primary"),
      button("Apply discount code", EDGE_QUOTE_BUTTONS.discount, value),
      button("Save as draft", EDGE_QUOTE_BUTTONS.saveDraft, value),
    );
  }
  const tenGig = button("Ask for a 10 Gbps offer", EDGE_QUOTE_BUTTONS.tenGig, value);
  tenGig.confirm = {
    title: { type: "plain_text", text: "Ask for 10 Gbps?" },
    text: {
      type: "plain_text",
      text: "The provider records a request for a 10 Gbps offer at this address and follows up.",
    },
    confirm: { type: "plain_text", text: "Ask" },
    deny: { type: "plain_text", text: "Cancel" },
  };
  const support = button("Contact support", EDGE_QUOTE_BUTTONS.support, value);
  support.confirm = {
    title: { type: "plain_text", text: "Contact support?" },
    text: {
      type: "plain_text",
      text: "The provider emails its customer support with this quote request.",
    },
    confirm: { type: "plain_text", text: "Send" },
    deny: { type: "plain_text", text: "Cancel" },
  };
  if (tenGigEnquiry) elements.push(tenGig);
  elements.push(support);
  return actions(EDGE_QUOTE_ACTIONS_BLOCK, elements);
}

/** Block budget: header, request, note, actions, sandbox label and a "more" line. */
const OFFER_BLOCKS_MAX = MAX_OFFERS;

/** The quote with its offers and buttons (a thread reply). */
export function quoteReadyMessage(input: {
  quote: EdgeQuote;
  /** The request as sent; unknown only when a job's echo of it could not be read. */
  request?: EdgeQuotationRequest;
  requestedBy: string;
  /** The buttons' reference; without one (an unreadable request) no buttons are shown. */
  ref?: QuoteRef;
  /** The configured ISO 4217 code (PRICE_CURRENCY), for offers that name none. */
  currency: string;
}): Message {
  const { quote, request, currency } = input;
  const discount = quote.discountCode;
  const blocks: KnownBlock[] = [
    header(discount ? `Edge quote with ${discount}` : "Edge quote ready"),
  ];
  if (request) blocks.push(requestFields(request, quote.formattedAddress));
  const shown = quote.offers.slice(0, OFFER_BLOCKS_MAX);
  if (shown.length === 0) {
    blocks.push(
      section(
        `:mag: The provider's partners returned no offers for this address. Check the address${offersTenGigEnquiry(request) ? ", ask for a 10 Gbps offer" : ""} or contact support.`,
      ),
    );
  }
  shown.forEach((offer, i) => {
    blocks.push(offerBlock(offer, i, currency));
  });
  if (quote.offers.length > shown.length) {
    blocks.push(context(`_${quote.offers.length - shown.length} more offers not shown._`));
  }
  // With one offer there is nothing to compare.
  const cheapestLine =
    quote.offers.length > 1 ? cheapestOverTerm(quote.offers, request, currency) : undefined;
  if (cheapestLine) {
    blocks.push(section(`:moneybag: ${escapeMrkdwn(cheapestLine)}`));
  }
  const count =
    quote.offers.length === 0
      ? "no offers"
      : `${quote.offers.length} offer${quote.offers.length === 1 ? "" : "s"}`;
  // The notification's text carries the cheapest line; in the blocks it is said once, above.
  const summary = cheapestLine ? `${count} · ${cheapestLine}` : count;
  const note = [
    count,
    `Quote key ${code(quote.responseId)}`,
    discount ? `discount code ${code(discount)} applied` : undefined,
    `amounts in ${escapeMrkdwn(currency)} unless an offer names its own currency`,
    `requested by <@${input.requestedBy}>`,
  ].filter(Boolean);
  blocks.push(context(note.join(" · ")));
  const actionsBlock = input.ref
    ? quoteActionsBlock(input.ref, quote.offers.length > 0, offersTenGigEnquiry(request))
    : undefined;
  if (actionsBlock) blocks.push(actionsBlock);
  return {
    text: escapeMrkdwn(
      `${discount ? `Edge quote with ${discount}` : "Edge quote ready"}: ${request ? `${describeRequest(request)}: ` : ""}${summary}`,
    ),
    blocks,
  };
}

/** Why a quote failed, with a button to ask again when the request is known. */
/**
 * The one wording of each way an Edge quote fails (the poller's and the adapter's kinds,
 * src/jobs/quotes/quotePoller.ts QuoteFailure): the thread message and the request's own failure say
 * the same.
 */
export function quoteFailureText(failure: QuoteFailure): string {
  switch (failure.kind) {
    case "timeout":
      return `The Edge quote was not ready after ${waited(failure.afterMs)}: the provider's partners did not answer in time. Request a new quote, or try again later.`;
    case "not-configured":
      return "The provider could not price this Edge quote: its external pricing provider is not configured (HTTP 400). This is on the provider's side — ask their support, then request the quote again.";
    case "expired":
      return "The external provider has no such quote (HTTP 404): it may have expired or never been created. Request a new quote.";
    case "provider-error":
      return "The external provider failed with an unhandled error while pricing this Edge quote (HTTP 500). Try again in a few minutes.";
    case "partners-failed":
      return `The provider's partners could not quote this Edge port (status ${escapeMrkdwn(failure.providerStatus ?? "failed")}). Check the address, then request the quote again or contact support.`;
  }
}

/** "10 minutes", "1 minute", "30 s": how long the poller waited. */
function waited(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes >= 1) return `${minutes} minute${minutes === 1 ? "" : "s"}`;
  return `${Math.max(1, Math.ceil(ms / 1000))} s`;
}

export function quoteFailedMessage(input: {
  message: string;
  requestedBy: string;
  ref?: QuoteRef;
}): Message {
  const blocks: KnownBlock[] = [
    section(`:warning: <@${input.requestedBy}> ${escapeMrkdwn(input.message)}`),
  ];
  const value = input.ref ? encodeQuoteRef(input.ref) : undefined;
  if (value) {
    blocks.push(
      actions(EDGE_QUOTE_ACTIONS_BLOCK, [
        button("Request the quote again", EDGE_QUOTE_BUTTONS.retry, value),
        button("Contact support", EDGE_QUOTE_BUTTONS.support, value),
      ]),
    );
  }
  return { text: `Edge quote failed: ${escapeMrkdwn(input.message)}`, blocks };
}

/** After "Ask for a 10 Gbps offer" or "Contact support". */
export function enquirySentMessage(kind: "ten-gig" | "support", by: string): Message {
  const text =
    kind === "ten-gig"
      ? `:telephone_receiver: <@${by}> asked the provider for a 10 Gbps offer at this address; their team follows up.`
      : `:email: <@${by}> sent this quote request to the provider's customer support; they answer by email.`;
  return { text, blocks: [section(text)] };
}
