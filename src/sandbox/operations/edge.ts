// Edge: catalogue lists, quotations (deprecated sync and async), discount codes, Edge port
// orders, enquiries and draft orders.
import {
  buildQuotation,
  EDGE_DISCOUNT_CODES,
  EdgeQuoteError,
  parseEdgeRequest,
  pollQuotation,
  presentPendingQuotation,
  presentQuotation,
} from "../edge.js";
import type { Dcf, EdgeQuotation } from "../model.js";
import { edgeListItems, presentDraft, presentPortOrder } from "../present.js";
import { edgeOrderViolation, speedMbps } from "../rules.js";
import { EDGE_BANDWIDTHS, EDGE_TERMS } from "../seedData.js";
import type { SandboxState } from "../state.js";
import { companyFromPath, ownCompanyByUsername } from "./catalog.js";
import {
  ApiError,
  badRequest,
  envelope,
  intQuery,
  noContent,
  notFound,
  type OperationHandler,
  ok,
} from "./types.js";

type Row = Record<string, unknown>;

const page = (data: unknown[]) => ok({ data, page: 1, size: data.length, total: data.length });

const listEdgeCountries: OperationHandler = (_req, { state }) =>
  page(
    state.world.edgeCountries.map((c) => ({
      id: c.id,
      name: c.name,
      code: c.code,
      currency: c.currency,
      provider: c.provider,
      postCodeRequired: c.requiresPostCode,
    })),
  );

const listEdgeBandwidths: OperationHandler = () =>
  page(
    EDGE_BANDWIDTHS.map((mbps) =>
      mbps >= 1000
        ? { value: mbps / 1000, unit: "Gbps", mbps, label: `${mbps / 1000} Gbps` }
        : { value: mbps, unit: "Mbps", mbps, label: `${mbps} Mbps` },
    ),
  );

const listEdgeContractTerms: OperationHandler = () =>
  page(EDGE_TERMS.map((months) => ({ value: months, unit: "month", label: `${months} months` })));

function edgeMetroFor(state: SandboxState, countryCode: string) {
  const dcf = state.world.dcfs.find((d) => d.edge && d.country === countryCode);
  const metro = dcf ? state.metroById(dcf.metroId) : undefined;
  return metro ? { id: metro.id, name: metro.name } : undefined;
}

function newQuotation(state: SandboxState, body: Row): EdgeQuotation {
  try {
    const parsed = parseEdgeRequest(state.world.edgeCountries, body);
    const responseId = state.newUuid();
    const quotation = buildQuotation(
      state.seed,
      responseId,
      body,
      parsed,
      state.nowMs(),
      edgeMetroFor(state, parsed.country.code),
    );
    state.quotations.set(responseId, quotation);
    for (const item of quotation.items) state.quoteItems.set(item.quoteKey, { responseId, item });
    return quotation;
  } catch (error) {
    // The provider reports an unserviceable request as a missing configuration of its
    // external pricing provider (400).
    if (error instanceof EdgeQuoteError) throw badRequest(error.message);
    throw error;
  }
}

const getEdgePrice: OperationHandler = async (req, ctx) => {
  const quotation = newQuotation(ctx.state, req.body as Row);
  // Deprecated and slow, like the real call that often times out.
  await ctx.sleep(ctx.edgeSyncPriceDelayMs);
  return ok(presentQuotation(quotation));
};

const startEdgePriceSearch: OperationHandler = (req, { state }) => {
  const quotation = newQuotation(state, req.body as Row);
  return ok({ responseId: quotation.responseId, status: "PENDING" });
};

const noSuchQuote = (id: string) => notFound(`The external provider has no such quote: ${id}`);

const getEdgePriceResult: OperationHandler = (req, { state, edgeQuote }) => {
  const id = req.params.responseId ?? "";
  const quotation = state.quotations.get(id);
  if (!quotation) throw noSuchQuote(id);
  const ready = pollQuotation(quotation, state.nowMs(), edgeQuote);
  return ok(ready ? presentQuotation(quotation) : presentPendingQuotation(quotation));
};

const calculateEdgePortPrice: OperationHandler = (req, { state }) => {
  const quoteKey = String(req.query.quoteKey ?? "");
  const code = String(req.query.discountCode ?? "").trim();
  const whole = state.quotations.get(quoteKey);
  const single = state.quoteItems.get(quoteKey);
  const quotation = whole ?? (single ? state.quotations.get(single.responseId) : undefined);
  if (!quotation) throw noSuchQuote(quoteKey);
  const share = EDGE_DISCOUNT_CODES[code.toUpperCase()];
  // The spec lists only 200 and 404 for this call: an unknown code is "not found" too.
  if (share === undefined)
    throw new ApiError(404, envelope(404, `Discount code ${code} is not valid`));
  return ok(
    presentQuotation(quotation, {
      ...(single && !whole ? { items: [single.item] } : {}),
      discount: { code: code.toUpperCase(), share },
    }),
  );
};

const listEdgeLocations: OperationHandler = (_req, { state }) =>
  ok(
    state.world.dcfs
      .filter((d) => d.edge)
      .map((d) => ({
        id: d.id,
        name: d.name,
        city: d.city,
        country: d.country,
        metroId: d.metroId,
        dataCenterFacilityId: d.id,
      })),
  );

const listEdgePortOrders: OperationHandler = (req, { state }) => {
  let items = edgeListItems(state);
  const status = req.query.status;
  if (typeof status === "string" && status !== "") {
    items = items.filter((i) => String(i.status).toLowerCase() === status.toLowerCase());
  }
  const pageNumber = intQuery(req.query, "page", 1);
  const size = intQuery(req.query, "size", 1);
  // page and size take effect only when both are given (docs/provider/provider-api.md, Limits).
  if (pageNumber !== undefined && size !== undefined) {
    const slice = items.slice((pageNumber - 1) * size, pageNumber * size);
    return ok({ data: slice, page: pageNumber, size, total: items.length });
  }
  return ok({ data: items, page: 1, size: items.length, total: items.length });
};

const listEdgeOrdersV1: OperationHandler = (req, { state }) => {
  const company = companyFromPath(state, req.params.companyName);
  return ok(
    edgeListItems(state).filter((i) => i.objectType === "ORDER" && i.companyId === company.id),
  );
};

/** The Edge DCF the order lands at: named in the payload, else in its country, else the first. */
function edgeDcfFor(state: SandboxState, payload: Row): Dcf {
  const edgeDcfs = state.world.dcfs.filter((d) => d.edge);
  for (const key of ["dataCenterFacilityId", "dcfId", "dcf", "locationId"]) {
    const named = edgeDcfs.find((d) => d.id === payload[key]);
    if (named) return named;
  }
  const country = payload.country;
  const code =
    typeof country === "string"
      ? country
      : typeof country === "object" && country !== null
        ? String((country as Row).code ?? "")
        : "";
  return edgeDcfs.find((d) => d.country === code.toUpperCase()) ?? edgeDcfs[0]!;
}

/**
 * The lead time the ordered offer promised (its quote item travels in `edgePayload.price`), so
 * the order is done when the quote said; a payload without one takes the sandbox's usual wait.
 */
function offeredLeadTime(payload: Row): { leadTimeDays?: number } {
  const price = payload.price;
  const days =
    typeof price === "object" && price !== null ? (price as Row).leadTimeDays : undefined;
  return typeof days === "number" && Number.isInteger(days) && days > 0 && days <= 365
    ? { leadTimeDays: days }
    : {};
}

const createEdgePortOrder: OperationHandler = (req, { state }) => {
  const company = ownCompanyByUsername(state, req.params.companyName);
  const body = req.body as Row;
  const rule = edgeOrderViolation(body);
  if (rule) throw badRequest(rule);
  const payload = (body.edgePayload ?? {}) as Row;
  const dcf = edgeDcfFor(state, payload);
  const order = state.createPortOrder({
    companyId: company.id,
    dcfId: dcf.id,
    speed: Math.round(speedMbps(body.speed) ?? 0),
    portName: String(body.portName ?? body.name).trim(),
    durationUnit: "m",
    paymentType: "invoice",
    isEdgePort: true,
    edgePayload: payload,
    ...offeredLeadTime(payload),
  });
  // An unknown or expired draft does not fail the order: the order matters more than its draft.
  if (typeof payload.draftOrderId === "string") state.deleteDraft(payload.draftOrderId);
  return ok(presentPortOrder(state, order, "create"));
};

/** An Edge select or enquiry is recorded (`state.enquiries`) and answered 204, nothing more. */
const recordEnquiry =
  (kind: "select" | "enquiry"): OperationHandler =>
  (req, { state }) => {
    state.enquiries.push({
      kind,
      body: req.body as Row,
      at: new Date(state.nowMs()).toISOString(),
    });
    return noContent();
  };

const sendEdgeSelect = recordEnquiry("select");
const sendEdgeEnquiry = recordEnquiry("enquiry");

const listDraftOrders: OperationHandler = (_req, { state }) =>
  ok(state.liveDrafts().map((d) => presentDraft(state, d)));

function draftInput(body: Row) {
  const speed = Number(body.speed);
  if (!Number.isFinite(speed) || speed <= 0)
    throw badRequest("Draft order: speed must be a positive number of Mbps");
  const name = typeof body.name === "string" && body.name.trim() !== "" ? body.name.trim() : null;
  return { name, speed, edgePayload: (body.edgePayload ?? {}) as Row };
}

const createDraftOrder: OperationHandler = (req, { state }) => {
  const draft = state.createDraft(draftInput(req.body as Row));
  return ok(presentDraft(state, draft));
};

const updateDraftOrder: OperationHandler = (req, { state }) => {
  const id = req.params.draftOrderId ?? "";
  const draft = state.liveDraft(id);
  if (!draft) throw notFound(`Draft order ${id} not found`);
  const input = draftInput(req.body as Row);
  draft.name = input.name ?? state.createDraftName();
  draft.speed = input.speed;
  draft.edgePayload = input.edgePayload;
  draft.updatedAtMs = state.nowMs();
  return ok(presentDraft(state, draft));
};

const deleteDraftOrder: OperationHandler = (req, { state }) => {
  const id = req.params.draftOrderId ?? "";
  if (!state.deleteDraft(id)) throw notFound(`Draft order ${id} not found`);
  return noContent();
};

export const edgeHandlers: Record<string, OperationHandler> = {
  listEdgeCountries,
  listEdgeBandwidths,
  listEdgeContractTerms,
  getEdgePrice,
  startEdgePriceSearch,
  getEdgePriceResult,
  calculateEdgePortPrice,
  listEdgeLocations,
  listEdgePortOrders,
  listEdgeOrdersV1,
  createEdgePortOrder,
  sendEdgeSelect,
  sendEdgeEnquiry,
  listDraftOrders,
  createDraftOrder,
  updateDraftOrder,
  deleteDraftOrder,
};
