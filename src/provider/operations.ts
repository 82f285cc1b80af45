// The provider's operations, from openapi/provider.yaml: each one's method, path template and
// what it is about in the user's words. The client names every request from this table (for
// logs, metrics and errors) and the API calls each operation by its id, so a path is written
// once, here, and checked against the generated types.
import type { ProviderCall } from "./errors.js";
import type { operations, paths } from "./generated/provider.js";

export type OperationId = keyof operations;
export type HttpMethod = "get" | "put" | "post" | "patch" | "delete";

interface OperationEntry {
  method: HttpMethod;
  path: keyof paths;
  /** The thing the call is about, in the user's words, for error messages. */
  subject: string;
}

/**
 * Every operation of openapi/provider.yaml: method, path template and what it is about.
 * Checked against the generated types below and against the YAML by a test.
 */
export const OPERATIONS = {
  getAuthToken: { method: "get", path: "/api/auth/token", subject: "the identity check" },
  searchDataCenterFacilities: {
    method: "get",
    path: "/v2/data-center-facility/search",
    subject: "the data center search",
  },
  listDataCenterFacilities: {
    method: "get",
    path: "/v2/data-center-facility",
    subject: "the data center list",
  },
  calculatePricing: {
    method: "post",
    path: "/api/pricing/calculate",
    subject: "the price calculation",
  },
  createPortOrder: {
    method: "put",
    path: "/api/company/{companyUsername}/ports/orders",
    subject: "the port order",
  },
  getPortOrder: {
    method: "get",
    path: "/api/company/{companyName}/ports/orders/{orderId}",
    subject: "the port order status",
  },
  listPorts: {
    method: "get",
    path: "/api/company/{companyUsername}/ports",
    subject: "the port list",
  },
  getPort: {
    method: "get",
    path: "/api/company/{companyName}/ports/{portId}",
    subject: "the port",
  },
  getPortInfo: {
    method: "get",
    path: "/app-user/{companyId}/ports/{portId}/info",
    subject: "the port's capabilities",
  },
  listMetroCapabilities: {
    method: "get",
    path: "/api/company/{companyUsername}/metro/capabilities",
    subject: "the metro list",
  },
  createLayer2Connection: {
    method: "put",
    path: "/api/v2/company/{companyUsername}/connections/layer2",
    subject: "the layer 2 connection request",
  },
  getPrivateAsnSuggestion: {
    method: "get",
    path: "/api/private-asn/suggestion",
    subject: "the private ASN suggestion",
  },
  listAsns: { method: "get", path: "/app-user/{companyId}/asns", subject: "the ASN list" },
  createGiaService: {
    method: "post",
    path: "/app-user/{companyId}/gia-service",
    subject: "the IO-D service request",
  },
  listCloudRouters: {
    method: "get",
    path: "/app-user/{companyId}/l3vpns",
    subject: "the cloud router list",
  },
  listEdgeCountries: {
    method: "get",
    path: "/v2/edge/countries",
    subject: "the Edge country list",
  },
  listEdgeBandwidths: {
    method: "get",
    path: "/v2/edge/bandwidth",
    subject: "the Edge bandwidth list",
  },
  listEdgeContractTerms: {
    method: "get",
    path: "/v2/edge/contract-term",
    subject: "the Edge contract term list",
  },
  getEdgePrice: { method: "post", path: "/v2/edge/price", subject: "the Edge quote" },
  startEdgePriceSearch: {
    method: "post",
    path: "/v2/edge/price/search",
    subject: "the Edge quote request",
  },
  getEdgePriceResult: {
    method: "get",
    path: "/v2/edge/price/result/{responseId}",
    subject: "the Edge quote result",
  },
  calculateEdgePortPrice: {
    method: "get",
    path: "/v2/edge-ports/calculate-price",
    subject: "the Edge discount code",
  },
  listEdgeLocations: {
    method: "get",
    path: "/v2/edge-ports/locations",
    subject: "the Edge location list",
  },
  listEdgePortOrders: {
    method: "get",
    path: "/v2/edge-ports/orders",
    subject: "the Edge order list",
  },
  listEdgeOrdersV1: {
    method: "get",
    path: "/api/company/{companyName}/ports/edge-orders",
    subject: "the Edge order list",
  },
  createEdgePortOrder: {
    method: "post",
    path: "/api/company/{companyName}/ports/edge-orders",
    subject: "the Edge port order",
  },
  sendEdgeSelect: {
    method: "post",
    path: "/v2/admin/edge-orders/send-select",
    subject: "the 10 Gbps Edge enquiry",
  },
  sendEdgeEnquiry: {
    method: "post",
    path: "/v2/admin/edge-orders/send-enquiry",
    subject: "the Edge enquiry",
  },
  listDraftOrders: { method: "get", path: "/v2/api/draft/orders", subject: "the draft order list" },
  createDraftOrder: { method: "post", path: "/v2/api/draft/orders", subject: "the draft order" },
  updateDraftOrder: {
    method: "patch",
    path: "/v2/api/draft/orders/{draftOrderId}",
    subject: "the draft order update",
  },
  deleteDraftOrder: {
    method: "delete",
    path: "/v2/api/draft/orders/{draftOrderId}",
    subject: "the draft order deletion",
  },
} as const satisfies Record<OperationId, OperationEntry>;

// Compile-time proof that each entry's method and path lead to that very operation in the
// generated types (a wrong path or method fails `tsc`).
type Table = typeof OPERATIONS;
type Mismatched = {
  [K in OperationId]: paths[Table[K]["path"]][Table[K]["method"]] extends operations[K] ? never : K;
}[OperationId];
type AssertNone<T extends never> = T;
export type OperationTableMatchesDocument = AssertNone<Mismatched>;

const BY_METHOD_AND_PATH = new Map<string, OperationId>(
  (Object.keys(OPERATIONS) as OperationId[]).map((id) => [
    `${OPERATIONS[id].method.toUpperCase()} ${OPERATIONS[id].path}`,
    id,
  ]),
);

/** The operationId for an HTTP method and a path template of the document, if any. */
export function operationIdFor(method: string, pathTemplate: string): OperationId | undefined {
  return BY_METHOD_AND_PATH.get(`${method.toUpperCase()} ${pathTemplate}`);
}

/** How a call of this operation is named in errors. */
export function providerCallFor(operation: OperationId): ProviderCall {
  const entry = OPERATIONS[operation];
  return {
    operation,
    method: entry.method.toUpperCase(),
    path: entry.path,
    subject: entry.subject,
  };
}
