import { type ApprovalSettings, nameScope } from "../../approvals/index.js";
import {
  countryName,
  type EdgeOffer,
  type EdgeQuotationRequest,
  type EdgeQuote,
  type EdgeRecord,
  num,
  offerPriceText,
  requestMbps,
  requestTermMonths,
  text,
} from "../../domain/catalog/edge.js";
import { MAX_TERM_MONTHS, maxTermText, monthsOfTerm } from "../../domain/catalog/terms.js";
import { isRecord } from "../../domain/records.js";
import { formatTerm } from "../../domain/units.js";
import type { OrderSubmission } from "../../orders/index.js";
import type { DraftOrder, ProviderApi } from "../../provider/api.js";
import { readOffer } from "../../provider/edgeResponses.js";
import type { Identity, IdentityLookup } from "../../provider/identity.js";
import { edgePortOrderRule } from "../../provider/rules/edge.js";
import { fieldErrors, ROOT_FIELD } from "../../provider/rules/fieldErrors.js";
import { readStoredRequest } from "./quote.js";

/**
 * Ordering an Edge port: what an order is made from (a fresh quote or a saved draft), the names
 * already taken, and the order body, in words and with its price, handed over for approval.
 */

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

/**
 * The names already used by the company's ports and Edge orders, or held by a request (port and
 * Edge orders share one namespace; the approvals' one rule, src/approvals/names.ts), lower case.
 */
export async function takenPortNames(
  deps: { provider: ProviderApi; identity: IdentityLookup; approvals: ApprovalSettings },
  signal?: AbortSignal,
): Promise<Set<string>> {
  const { companyUsername } = await deps.identity();
  const [ports, edge, held] = await Promise.all([
    deps.provider.listPorts(companyUsername, { deleted: false, signal }),
    deps.provider.listEdgeOrders({}, { signal }),
    deps.approvals.store.namesHeld(nameScope("edge")),
  ]);
  const names = new Set<string>(held);
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

/** The contract term in months for the spend ledger, when the request's unit reads as one. */
function termOfRequest(request: EdgeQuotationRequest): { termMonths?: number } {
  const months = monthsOfTerm(request["contract-term"], request.contractTermUnit);
  return months === undefined ? {} : { termMonths: months };
}

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
  const months = requestTermMonths(source.request);
  if (months !== undefined && months > MAX_TERM_MONTHS) {
    // A quote made elsewhere (a draft from the provider's portal) may name one: not ordered,
    // as the quote form would not have asked for it and the ledger could not count it.
    errors.offer ??= `This quote's contract term is longer than ${maxTermText("months")}: request a quote for a shorter term`;
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
        ...(offer.nonRecurring ? { oneOff: offer.nonRecurring } : {}),
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
