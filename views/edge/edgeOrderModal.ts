// The Edge order modal (from a quote or a draft): the offers to choose from, each with its
// price, and the port name. Split from views/edge/edgeModals.ts (the other Edge modals and the ids
// they share) because the offer choice is its own piece of wording.
import type { InputBlock, KnownBlock, ModalView, PlainTextOption } from "@slack/types";
import {
  cheapestOffer,
  countryName,
  describeRequest,
  EDGE_NAME_MAX,
  type EdgeOffer,
  offerCurrency,
  requestTermMonths,
} from "../../src/domain/catalog/edge.js";
import { formatMoney } from "../../src/domain/money.js";
import type { EdgeOrderSource } from "../../src/usecases/edge/order.js";
import { context, escapeMrkdwn, LIMITS, option, section } from "../blocks.js";
import { code } from "../format.js";
import { inputBlock, plainText, radioButtons, staticSelect, textInput } from "../inputs.js";
import {
  EDGE_ORDER_BLOCKS,
  EDGE_ORDER_INPUTS,
  EDGE_ORDER_VIEW,
  type EdgeModalMetadata,
  edgeModal,
  edgeProblemModal,
} from "./edgeModals.js";

function offerOption(offer: EdgeOffer, index: number, configured: string): PlainTextOption {
  const vendor = offer.vendor ?? `Offer ${index + 1}`;
  const currency = offerCurrency(offer, configured);
  const head =
    offer.monthly !== undefined
      ? `${vendor} — ${formatMoney(offer.monthly, currency)} per month`
      : offer.total !== undefined
        ? `${vendor} — ${formatMoney(offer.total, currency)} for the term`
        : vendor;
  const details = [
    offer.nonRecurring !== undefined
      ? `${formatMoney(offer.nonRecurring, currency)} one-off`
      : undefined,
    offer.total !== undefined && offer.monthly !== undefined
      ? `${formatMoney(offer.total, currency)} over the term`
      : undefined,
    offer.leadTimeDays !== undefined ? `~${offer.leadTimeDays} days lead time` : undefined,
  ].filter((d): d is string => d !== undefined);
  return option(head, offer.key, details.length > 0 ? details.join(" · ") : undefined);
}

/** Radio buttons hold 10 options. */
const RADIO_MAX = 10;

function offerElement(
  offers: readonly EdgeOffer[],
  termMonths: number | undefined,
  currency: string,
): InputBlock["element"] {
  const options = offers
    .slice(0, LIMITS.staticOptions)
    .map((offer, i) => offerOption(offer, i, currency));
  const cheapest = cheapestOffer(offers, termMonths);
  return options.length <= RADIO_MAX
    ? radioButtons(EDGE_ORDER_INPUTS.offer, options, cheapest?.key)
    : staticSelect(EDGE_ORDER_INPUTS.offer, options, cheapest?.key);
}

/** Order an Edge port from a quote or a draft: the offer (with its price) and a port name. */
export function edgeOrderModal(input_: {
  source: EdgeOrderSource;
  metadata: EdgeModalMetadata;
  speedMbps?: number;
  /** The configured ISO 4217 code (PRICE_CURRENCY), for offers that name none. */
  currency: string;
}): ModalView {
  const { source } = input_;
  if (source.offers.length === 0) {
    return edgeProblemModal(
      "Order an Edge port",
      "This quote has no offers to order. Request a new quote, or contact support from the quote.",
    );
  }
  const request = source.request;
  const lines = [
    `*${escapeMrkdwn(describeRequest(request))}*`,
    escapeMrkdwn(request["formatted-address"]),
    request.postCode ? `Post code ${escapeMrkdwn(request.postCode)}` : undefined,
    source.draft
      ? `From the draft *${escapeMrkdwn(source.draft.name ?? "Draft order")}*: the provider deletes it once the port is ordered.`
      : undefined,
    source.discountCode ? `Discount code ${code(source.discountCode)} applied.` : undefined,
  ].filter(Boolean);
  const blocks: KnownBlock[] = [
    section(lines.join("\n")),
    inputBlock(
      EDGE_ORDER_BLOCKS.offer,
      "Offer",
      offerElement(source.offers, requestTermMonths(request), input_.currency),
      {
        hint: plainText(
          "Each offer's price as quoted; the cheapest over the term (monthly × term + one-off) is preselected",
        ),
      },
    ),
    inputBlock(
      EDGE_ORDER_BLOCKS.portName,
      "Port name",
      textInput(
        EDGE_ORDER_INPUTS.portName,
        undefined,
        `e.g. edge-${countryName(request.country)
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, "-")
          .slice(0, 20)}-1`,
        EDGE_NAME_MAX,
      ),
      { hint: plainText("Unique among your ports and Edge orders") },
    ),
    context(
      [
        `Speed ${input_.speedMbps !== undefined ? `${input_.speedMbps} Mbps` : `${request.bandwidth} ${request.bandwidthUnit}`}`,
        "payment by invoice (the only option for Edge ports)",
        "an approver confirms before anything is ordered",
        "the provider orders the port from its partner; the LOA takes 4 to 6 weeks",
      ].join(" · "),
    ),
  ];
  return edgeModal(
    EDGE_ORDER_VIEW,
    "Order an Edge port",
    blocks,
    input_.metadata,
    "Request approval",
  );
}
