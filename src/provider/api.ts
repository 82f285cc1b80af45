// The provider's API as the rest of the bot sees it: ProviderApi, one named, typed function per
// operation of the document, with the record types it returns. Each function calls exactly one
// operation through the client (which already turned every failed call into a ProviderError)
// and adds meaning only where the spec leaves work to the caller: JSON text query parameters,
// `{results}` wrappers, the Edge list's unknown wrapper, identity from the token call. The
// functions live in src/provider/calls/, one module per family of operations.
// Polling (an Edge quote, an order's status) belongs to the jobs, not here.
import { createCaller } from "./calls/call.js";
import { catalogueCalls } from "./calls/catalogue.js";
import { connectionCalls } from "./calls/connections.js";
import { edgeCalls } from "./calls/edge.js";
import { portCalls } from "./calls/ports.js";
import { createProviderClient, type ProviderClient, type ProviderClientOptions } from "./client.js";
import type { components } from "./generated/provider.js";
import type { OperationId } from "./operations.js";

export type Schemas = components["schemas"];

/** Per-call options: a caller's AbortSignal (combined with the client's timeout). */
export interface CallOptions {
  signal?: AbortSignal;
}

/** Who the bot acts as, from GET /api/auth/token (`id`, `companies[0]`). */
export interface ProviderIdentity {
  userId: string;
  companyId: string;
  /** The company username: the `{companyUsername}` and `{companyName}` of the paths. */
  companyUsername: string;
  /** The company's display name (its username when the provider gives none). */
  companyName: string;
}

export interface DcfSearch {
  /** Free text; the spec does not show the `criteria` syntax, so it is sent as {"text": ...}. */
  text?: string;
  /** More criteria fields, merged into the same JSON object. */
  criteria?: Record<string, unknown>;
  page?: number;
  pageSize?: number;
}

/** The DCF listing's `filter` (JSON text): `where` keys are dotted, e.g. dataCenterFacility.metroId. */
export interface DcfFilter {
  where?: Record<string, unknown>;
  skip?: number;
  limit?: number;
}

/** An Edge list, whichever wrapper the provider used (a page object or a plain array). */
export interface EdgePage<T> {
  items: T[];
  page?: number;
  size?: number;
  total?: number;
}

/** The spec: page and size take effect only together, so the type only lets both or neither. */
export type EdgeOrderQuery = { status?: string } & (
  | { page: number | string; size: number | string }
  | { page?: undefined; size?: undefined }
);

export type PortPriceConfig = Schemas["PortPriceConfigDurationUnit"];
export type ConnectionPriceConfig = Schemas["ConnectionPriceConfig"];
export type PricingResult = Schemas["PricingResult"];
export type Dcf = Schemas["DataCenterFacility"];
export type DcfSearchResult = Schemas["DataCenterFacilitySearchResult"];
export type PortOrderRequest = Schemas["PortOrderRequest"];
export type PortOrder = Schemas["PortOrder"];
export type PortOrderRead = Schemas["PortOrderRead"];
export type Port = Schemas["Port"];
export type PortCapabilities = Schemas["PortCapabilities"];
export type MetroCapability = Schemas["MetroCapability"];
export type Layer2ConnectionRequest = Schemas["Layer2ConnectionRequest"];
export type Layer2Connection = Schemas["Layer2Connection"];
export type Asn = Schemas["Asn"];
export type GiaServiceRequest = Schemas["GiaServiceRequest"];
export type GiaService = Schemas["GiaService"];
export type CloudRouter = Schemas["CloudRouter"];
export type EdgeQuotationRequest = Schemas["EdgeQuotationRequest"];
export type EdgeQuotationResult = Schemas["EdgeQuotationResult"];
export type EdgePriceSearchStart = Schemas["EdgePriceSearchStart"];
export type EdgeLocation = Schemas["EdgeLocation"];
export type EdgeOrderListItem = Schemas["EdgeOrderListItem"];
/** docs/DESIGN.md §4: send `portName` (the document also accepts `name`). */
export type EdgePortOrderRequest = Schemas["EdgePortOrderRequestPortName"];
export type DraftOrderRequest = Schemas["DraftOrderRequest"];
export type DraftOrder = Schemas["DraftOrder"];

export interface ProviderApi {
  /** GET /api/auth/token → the user id and the first company. */
  whoami(opts?: CallOptions): Promise<ProviderIdentity>;
  /** GET /v2/data-center-facility/search */
  searchDcfs(search?: DcfSearch, opts?: CallOptions): Promise<DcfSearchResult[]>;
  /** GET /v2/data-center-facility */
  listDcfs(filter?: DcfFilter, opts?: CallOptions): Promise<Dcf[]>;
  /** POST /api/pricing/calculate with ports; one result per port, in order. */
  pricePorts(
    ports: readonly PortPriceConfig[],
    options?: { includeCrossConnect?: boolean } & CallOptions,
  ): Promise<PricingResult[]>;
  /** POST /api/pricing/calculate with layer 2 connections; one result per connection. */
  priceConnections(
    connections: readonly ConnectionPriceConfig[],
    opts?: CallOptions,
  ): Promise<PricingResult[]>;
  /** PUT /api/company/{companyUsername}/ports/orders — not idempotent: never resend blindly. */
  createPortOrder(
    companyUsername: string,
    body: PortOrderRequest,
    opts?: CallOptions,
  ): Promise<PortOrder>;
  /** GET /api/company/{companyName}/ports/orders/{orderId} */
  getPortOrder(companyName: string, orderId: string, opts?: CallOptions): Promise<PortOrderRead>;
  /** GET /api/company/{companyUsername}/ports */
  listPorts(
    companyUsername: string,
    options?: { deleted?: boolean } & CallOptions,
  ): Promise<Port[]>;
  /** GET /api/company/{companyName}/ports/{portId} */
  getPort(companyName: string, portId: string, opts?: CallOptions): Promise<Port>;
  /** GET /app-user/{companyId}/ports/{portId}/info — IO-D enabled when giaStandardV1 is true. */
  getPortInfo(companyId: string, portId: string, opts?: CallOptions): Promise<PortCapabilities>;
  /** GET /api/company/{companyUsername}/metro/capabilities */
  listMetroCapabilities(companyUsername: string, opts?: CallOptions): Promise<MetroCapability[]>;
  /** PUT /api/v2/company/{companyUsername}/connections/layer2 — not idempotent. */
  createLayer2Connection(
    companyUsername: string,
    body: Layer2ConnectionRequest,
    opts?: CallOptions,
  ): Promise<Layer2Connection>;
  /** GET /api/private-asn/suggestion → the suggested private ASN. */
  suggestPrivateAsn(opts?: CallOptions): Promise<number>;
  /**
   * GET /app-user/{companyId}/asns with status VERIFIED: public ones by default (the spec's
   * filter), private ones with `{ private: true }`.
   */
  listVerifiedAsns(
    companyId: string,
    options?: { private?: boolean } & CallOptions,
  ): Promise<Asn[]>;
  /** POST /app-user/{companyId}/gia-service — not idempotent. */
  createGiaService(
    companyId: string,
    body: GiaServiceRequest,
    opts?: CallOptions,
  ): Promise<GiaService>;
  /** GET /app-user/{companyId}/l3vpns */
  listCloudRouters(companyId: string, opts?: CallOptions): Promise<CloudRouter[]>;
  /** GET /v2/edge/countries (item fields not shown by the spec). */
  listEdgeCountries(opts?: CallOptions): Promise<EdgePage<unknown>>;
  /** GET /v2/edge/bandwidth */
  listEdgeBandwidths(opts?: CallOptions): Promise<EdgePage<unknown>>;
  /** GET /v2/edge/contract-term */
  listEdgeContractTerms(opts?: CallOptions): Promise<EdgePage<unknown>>;
  /**
   * POST /v2/edge/price
   * @deprecated The provider deprecated it and it often times out: use startEdgeQuote and
   * poll getEdgeQuoteResult from a job.
   */
  getEdgePriceSync(req: EdgeQuotationRequest, opts?: CallOptions): Promise<EdgeQuotationResult>;
  /** POST /v2/edge/price/search → {responseId, status}; poll getEdgeQuoteResult (from a job). */
  startEdgeQuote(req: EdgeQuotationRequest, opts?: CallOptions): Promise<EdgePriceSearchStart>;
  /** GET /v2/edge/price/result/{responseId} */
  getEdgeQuoteResult(responseId: string, opts?: CallOptions): Promise<EdgeQuotationResult>;
  /** GET /v2/edge-ports/calculate-price?quoteKey&discountCode */
  applyEdgeDiscount(
    quoteKey: string,
    discountCode: string,
    opts?: CallOptions,
  ): Promise<EdgeQuotationResult>;
  /** GET /v2/edge-ports/locations */
  listEdgeLocations(opts?: CallOptions): Promise<EdgeLocation[]>;
  /** GET /v2/edge-ports/orders — drafts, Edge orders and ports. */
  listEdgeOrders(query?: EdgeOrderQuery, opts?: CallOptions): Promise<EdgePage<EdgeOrderListItem>>;
  /**
   * GET /api/company/{companyName}/ports/edge-orders
   * @deprecated Replaced by listEdgeOrders (GET /v2/edge-ports/orders).
   */
  listEdgeOrdersV1(companyName: string, opts?: CallOptions): Promise<EdgeOrderListItem[]>;
  /** POST /api/company/{companyName}/ports/edge-orders — not idempotent. */
  createEdgePortOrder(
    companyName: string,
    body: EdgePortOrderRequest,
    opts?: CallOptions,
  ): Promise<PortOrder>;
  /** POST /v2/admin/edge-orders/send-select — records a 10 Gbps enquiry (204). */
  sendEdgeSelect(req: EdgeQuotationRequest, opts?: CallOptions): Promise<void>;
  /** POST /v2/admin/edge-orders/send-enquiry — emails customer support (204). */
  sendEdgeEnquiry(req: EdgeQuotationRequest, opts?: CallOptions): Promise<void>;
  /** GET /v2/api/draft/orders */
  listDrafts(opts?: CallOptions): Promise<DraftOrder[]>;
  /** POST /v2/api/draft/orders */
  createDraft(body: DraftOrderRequest, opts?: CallOptions): Promise<DraftOrder>;
  /** PATCH /v2/api/draft/orders/{draftOrderId} */
  updateDraft(id: string, body: DraftOrderRequest, opts?: CallOptions): Promise<DraftOrder>;
  /** DELETE /v2/api/draft/orders/{draftOrderId} (204) */
  deleteDraft(id: string, opts?: CallOptions): Promise<void>;
}

export type ProviderApiMethod = keyof ProviderApi;

/**
 * Which ProviderApi method(s) call each operation of the document. Pricing is one operation
 * with two uses (ports or connections), so it has two methods; every other has one.
 */
export const OPERATION_METHODS = {
  getAuthToken: ["whoami"],
  searchDataCenterFacilities: ["searchDcfs"],
  listDataCenterFacilities: ["listDcfs"],
  calculatePricing: ["pricePorts", "priceConnections"],
  createPortOrder: ["createPortOrder"],
  getPortOrder: ["getPortOrder"],
  listPorts: ["listPorts"],
  getPort: ["getPort"],
  getPortInfo: ["getPortInfo"],
  listMetroCapabilities: ["listMetroCapabilities"],
  createLayer2Connection: ["createLayer2Connection"],
  getPrivateAsnSuggestion: ["suggestPrivateAsn"],
  listAsns: ["listVerifiedAsns"],
  createGiaService: ["createGiaService"],
  listCloudRouters: ["listCloudRouters"],
  listEdgeCountries: ["listEdgeCountries"],
  listEdgeBandwidths: ["listEdgeBandwidths"],
  listEdgeContractTerms: ["listEdgeContractTerms"],
  getEdgePrice: ["getEdgePriceSync"],
  startEdgePriceSearch: ["startEdgeQuote"],
  getEdgePriceResult: ["getEdgeQuoteResult"],
  calculateEdgePortPrice: ["applyEdgeDiscount"],
  listEdgeLocations: ["listEdgeLocations"],
  listEdgePortOrders: ["listEdgeOrders"],
  listEdgeOrdersV1: ["listEdgeOrdersV1"],
  createEdgePortOrder: ["createEdgePortOrder"],
  sendEdgeSelect: ["sendEdgeSelect"],
  sendEdgeEnquiry: ["sendEdgeEnquiry"],
  listDraftOrders: ["listDrafts"],
  createDraftOrder: ["createDraft"],
  updateDraftOrder: ["updateDraft"],
  deleteDraftOrder: ["deleteDraft"],
} as const satisfies Record<OperationId, readonly [ProviderApiMethod, ...ProviderApiMethod[]]>;

export function createProviderApi(client: ProviderClient): ProviderApi {
  const call = createCaller(client);
  return {
    ...catalogueCalls(call),
    ...portCalls(call),
    ...connectionCalls(call),
    ...edgeCalls(call),
  };
}

/** The client and the API in one step, for the composition root. */
export function createProvider(options: ProviderClientOptions): ProviderApi {
  return createProviderApi(createProviderClient(options));
}
