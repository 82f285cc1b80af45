// Named, typed functions over the provider's 32 operations. Each one calls exactly one
// operation through the client (which already turned every failed call into a ProviderError)
// and adds meaning only where the spec leaves work to the caller: JSON text query parameters,
// `{results}` wrappers, the Edge list's unknown wrapper, identity from the token call.
// Polling (an Edge quote, an order's status) belongs to the jobs, not here.
import {
  createProviderClient,
  type OperationId,
  type ProviderClient,
  type ProviderClientOptions,
  providerCallFor,
} from "./client.js";
import { httpError, invalidResponseError } from "./errors.js";
import type { components } from "./generated/provider.js";

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

// ---------------------------------------------------------------------------------------------
// Reading results

/** What openapi-fetch returns, loosely: data on success, error otherwise, always the response. */
interface Outcome<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

function isRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

/**
 * Success is `response.ok`, not the absence of `error` (an empty error body gives
 * `error: undefined`). The client already throws for non-ok answers; this is the backstop.
 */
function ensureOk(operation: OperationId, outcome: Outcome<unknown>): void {
  if (outcome.response.ok) return;
  const body =
    typeof outcome.error === "string" || outcome.error === undefined
      ? outcome.error
      : JSON.stringify(outcome.error);
  throw httpError(providerCallFor(operation), outcome.response.status, body);
}

function unreadable(operation: OperationId, outcome: Outcome<unknown>, detail: string): never {
  throw invalidResponseError(providerCallFor(operation), outcome.response.status, detail);
}

function object<T>(operation: OperationId, outcome: Outcome<T>): T {
  ensureOk(operation, outcome);
  if (!isRecord(outcome.data)) unreadable(operation, outcome, "no JSON object in the body");
  return outcome.data as T;
}

function array<T>(operation: OperationId, outcome: Outcome<T[]>): T[] {
  ensureOk(operation, outcome);
  if (!Array.isArray(outcome.data)) unreadable(operation, outcome, "no JSON array in the body");
  return outcome.data;
}

function results<T>(operation: OperationId, outcome: Outcome<{ results: T[] }>): T[] {
  const body = object(operation, outcome);
  if (!Array.isArray(body.results)) unreadable(operation, outcome, "no `results` array");
  return body.results;
}

function nothing(operation: OperationId, outcome: Outcome<unknown>): void {
  ensureOk(operation, outcome);
}

function edgePage<T>(
  operation: OperationId,
  outcome: Outcome<T[] | { data?: T[]; page?: number; size?: number; total?: number }>,
): EdgePage<T> {
  ensureOk(operation, outcome);
  const body = outcome.data;
  if (Array.isArray(body)) return { items: body };
  if (!isRecord(body)) return unreadable(operation, outcome, "no Edge list in the body");
  const { data, page, size, total } = body;
  if (data !== undefined && !Array.isArray(data)) {
    return unreadable(operation, outcome, "a `data` that is not an array");
  }
  return {
    items: data ?? [],
    ...(typeof page === "number" ? { page } : {}),
    ...(typeof size === "number" ? { size } : {}),
    ...(typeof total === "number" ? { total } : {}),
  };
}

function identity(outcome: Outcome<Schemas["AuthToken"]>): ProviderIdentity {
  const token = object("getAuthToken", outcome);
  const company = Array.isArray(token.companies) ? token.companies[0] : undefined;
  const companyId = company?.id;
  const companyUsername = company?.username;
  if (typeof token.id !== "string" || !companyId || !companyUsername) {
    throw invalidResponseError(
      providerCallFor("getAuthToken"),
      outcome.response.status,
      "a token without a user id or a company id and username",
      "The provider's API key has no company with an id and username: check the key's user.",
    );
  }
  return {
    userId: token.id,
    companyId,
    companyUsername,
    companyName: company.name || companyUsername,
  };
}

// ---------------------------------------------------------------------------------------------
// The API

const signalOf = (opts?: CallOptions) => (opts?.signal ? { signal: opts.signal } : {});

export function createProviderApi(client: ProviderClient): ProviderApi {
  return {
    async whoami(opts) {
      return identity(await client.GET("/api/auth/token", signalOf(opts)));
    },

    async searchDcfs(search = {}, opts) {
      const criteria = {
        ...search.criteria,
        ...(search.text !== undefined ? { text: search.text } : {}),
      };
      const query = {
        ...(Object.keys(criteria).length > 0 ? { criteria: JSON.stringify(criteria) } : {}),
        ...(search.page !== undefined ? { page: search.page } : {}),
        ...(search.pageSize !== undefined ? { pageSize: search.pageSize } : {}),
      };
      return array(
        "searchDataCenterFacilities",
        await client.GET("/v2/data-center-facility/search", {
          params: { query },
          ...signalOf(opts),
        }),
      );
    },

    async listDcfs(filter, opts) {
      return array(
        "listDataCenterFacilities",
        await client.GET("/v2/data-center-facility", {
          params: { query: filter ? { filter: JSON.stringify(filter) } : {} },
          ...signalOf(opts),
        }),
      );
    },

    async pricePorts(ports, options = {}) {
      const { includeCrossConnect, ...opts } = options;
      return results(
        "calculatePricing",
        await client.POST("/api/pricing/calculate", {
          body: {
            ports: [...ports],
            ...(includeCrossConnect !== undefined ? { includeCrossConnect } : {}),
          },
          ...signalOf(opts),
        }),
      );
    },

    async priceConnections(connections, opts) {
      return results(
        "calculatePricing",
        await client.POST("/api/pricing/calculate", {
          body: { connections: [...connections] },
          ...signalOf(opts),
        }),
      );
    },

    async createPortOrder(companyUsername, body, opts) {
      return object(
        "createPortOrder",
        await client.PUT("/api/company/{companyUsername}/ports/orders", {
          params: { path: { companyUsername } },
          body,
          ...signalOf(opts),
        }),
      );
    },

    async getPortOrder(companyName, orderId, opts) {
      return object(
        "getPortOrder",
        await client.GET("/api/company/{companyName}/ports/orders/{orderId}", {
          params: { path: { companyName, orderId } },
          ...signalOf(opts),
        }),
      );
    },

    async listPorts(companyUsername, options = {}) {
      const { deleted, ...opts } = options;
      return results(
        "listPorts",
        await client.GET("/api/company/{companyUsername}/ports", {
          params: {
            path: { companyUsername },
            query: deleted !== undefined ? { deleted } : {},
          },
          ...signalOf(opts),
        }),
      );
    },

    async getPort(companyName, portId, opts) {
      return object(
        "getPort",
        await client.GET("/api/company/{companyName}/ports/{portId}", {
          params: { path: { companyName, portId } },
          ...signalOf(opts),
        }),
      );
    },

    async getPortInfo(companyId, portId, opts) {
      return object(
        "getPortInfo",
        await client.GET("/app-user/{companyId}/ports/{portId}/info", {
          params: { path: { companyId, portId } },
          ...signalOf(opts),
        }),
      );
    },

    async listMetroCapabilities(companyUsername, opts) {
      return results(
        "listMetroCapabilities",
        await client.GET("/api/company/{companyUsername}/metro/capabilities", {
          params: { path: { companyUsername } },
          ...signalOf(opts),
        }),
      );
    },

    async createLayer2Connection(companyUsername, body, opts) {
      return object(
        "createLayer2Connection",
        await client.PUT("/api/v2/company/{companyUsername}/connections/layer2", {
          params: { path: { companyUsername } },
          body,
          ...signalOf(opts),
        }),
      );
    },

    async suggestPrivateAsn(opts) {
      const outcome = await client.GET("/api/private-asn/suggestion", signalOf(opts));
      const body = object("getPrivateAsnSuggestion", outcome);
      if (!Number.isSafeInteger(body.asn)) {
        unreadable("getPrivateAsnSuggestion", outcome, "no integer `asn`");
      }
      return body.asn;
    },

    async listVerifiedAsns(companyId, options = {}) {
      const { private: isPrivate = false, ...opts } = options;
      const filter = { where: { status: "VERIFIED", private: isPrivate } };
      return array(
        "listAsns",
        await client.GET("/app-user/{companyId}/asns", {
          params: { path: { companyId }, query: { filter: JSON.stringify(filter) } },
          ...signalOf(opts),
        }),
      );
    },

    async createGiaService(companyId, body, opts) {
      return object(
        "createGiaService",
        await client.POST("/app-user/{companyId}/gia-service", {
          params: { path: { companyId } },
          body,
          ...signalOf(opts),
        }),
      );
    },

    async listCloudRouters(companyId, opts) {
      return array(
        "listCloudRouters",
        await client.GET("/app-user/{companyId}/l3vpns", {
          params: { path: { companyId } },
          ...signalOf(opts),
        }),
      );
    },

    async listEdgeCountries(opts) {
      return edgePage("listEdgeCountries", await client.GET("/v2/edge/countries", signalOf(opts)));
    },

    async listEdgeBandwidths(opts) {
      return edgePage("listEdgeBandwidths", await client.GET("/v2/edge/bandwidth", signalOf(opts)));
    },

    async listEdgeContractTerms(opts) {
      return edgePage(
        "listEdgeContractTerms",
        await client.GET("/v2/edge/contract-term", signalOf(opts)),
      );
    },

    async getEdgePriceSync(req, opts) {
      return object(
        "getEdgePrice",
        await client.POST("/v2/edge/price", { body: req, ...signalOf(opts) }),
      );
    },

    async startEdgeQuote(req, opts) {
      const outcome = await client.POST("/v2/edge/price/search", { body: req, ...signalOf(opts) });
      const body = object("startEdgePriceSearch", outcome);
      if (typeof body.responseId !== "string" || body.responseId === "") {
        unreadable("startEdgePriceSearch", outcome, "no `responseId`");
      }
      return body;
    },

    async getEdgeQuoteResult(responseId, opts) {
      return object(
        "getEdgePriceResult",
        await client.GET("/v2/edge/price/result/{responseId}", {
          params: { path: { responseId } },
          ...signalOf(opts),
        }),
      );
    },

    async applyEdgeDiscount(quoteKey, discountCode, opts) {
      return object(
        "calculateEdgePortPrice",
        await client.GET("/v2/edge-ports/calculate-price", {
          params: { query: { quoteKey, discountCode } },
          ...signalOf(opts),
        }),
      );
    },

    async listEdgeLocations(opts) {
      return array(
        "listEdgeLocations",
        await client.GET("/v2/edge-ports/locations", signalOf(opts)),
      );
    },

    async listEdgeOrders(query = {}, opts) {
      const { page, size, status } = query;
      const paged = page !== undefined && size !== undefined;
      return edgePage(
        "listEdgePortOrders",
        await client.GET("/v2/edge-ports/orders", {
          params: {
            query: {
              ...(paged ? { page: String(page), size: String(size) } : {}),
              ...(status !== undefined ? { status } : {}),
            },
          },
          ...signalOf(opts),
        }),
      );
    },

    async listEdgeOrdersV1(companyName, opts) {
      return array(
        "listEdgeOrdersV1",
        await client.GET("/api/company/{companyName}/ports/edge-orders", {
          params: { path: { companyName } },
          ...signalOf(opts),
        }),
      );
    },

    async createEdgePortOrder(companyName, body, opts) {
      return object(
        "createEdgePortOrder",
        await client.POST("/api/company/{companyName}/ports/edge-orders", {
          params: { path: { companyName } },
          body,
          ...signalOf(opts),
        }),
      );
    },

    async sendEdgeSelect(req, opts) {
      nothing(
        "sendEdgeSelect",
        await client.POST("/v2/admin/edge-orders/send-select", { body: req, ...signalOf(opts) }),
      );
    },

    async sendEdgeEnquiry(req, opts) {
      nothing(
        "sendEdgeEnquiry",
        await client.POST("/v2/admin/edge-orders/send-enquiry", { body: req, ...signalOf(opts) }),
      );
    },

    async listDrafts(opts) {
      return array("listDraftOrders", await client.GET("/v2/api/draft/orders", signalOf(opts)));
    },

    async createDraft(body, opts) {
      return object(
        "createDraftOrder",
        await client.POST("/v2/api/draft/orders", { body, ...signalOf(opts) }),
      );
    },

    async updateDraft(id, body, opts) {
      return object(
        "updateDraftOrder",
        await client.PATCH("/v2/api/draft/orders/{draftOrderId}", {
          params: { path: { draftOrderId: id } },
          body,
          ...signalOf(opts),
        }),
      );
    },

    async deleteDraft(id, opts) {
      nothing(
        "deleteDraftOrder",
        await client.DELETE("/v2/api/draft/orders/{draftOrderId}", {
          params: { path: { draftOrderId: id } },
          ...signalOf(opts),
        }),
      );
    },
  };
}

/** The client and the API in one step, for the composition root. */
export function createProvider(options: ProviderClientOptions): ProviderApi {
  return createProviderApi(createProviderClient(options));
}
