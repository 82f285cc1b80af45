// Edge (a port delivered to an address): the lists a quote form offers, the quote itself (start,
// then the jobs poll its result; the synchronous one is deprecated), a discount code, the Edge
// orders, the enquiries for what cannot be quoted, and the draft orders an Edge order starts as.
import type { ProviderApi } from "../api.js";
import type { Caller } from "./call.js";

type EdgeCalls = Pick<
  ProviderApi,
  | "listEdgeCountries"
  | "listEdgeBandwidths"
  | "listEdgeContractTerms"
  | "getEdgePriceSync"
  | "startEdgeQuote"
  | "getEdgeQuoteResult"
  | "applyEdgeDiscount"
  | "listEdgeLocations"
  | "listEdgeOrders"
  | "listEdgeOrdersV1"
  | "createEdgePortOrder"
  | "sendEdgeSelect"
  | "sendEdgeEnquiry"
  | "listDrafts"
  | "createDraft"
  | "updateDraft"
  | "deleteDraft"
>;

export function edgeCalls(call: Caller): EdgeCalls {
  return {
    async listEdgeCountries(opts) {
      return call.edgePage("listEdgeCountries", {}, opts);
    },

    async listEdgeBandwidths(opts) {
      return call.edgePage("listEdgeBandwidths", {}, opts);
    },

    async listEdgeContractTerms(opts) {
      return call.edgePage("listEdgeContractTerms", {}, opts);
    },

    async getEdgePriceSync(req, opts) {
      return call.object("getEdgePrice", { body: req }, opts);
    },

    async startEdgeQuote(req, opts) {
      return call.object("startEdgePriceSearch", { body: req }, opts, ({ responseId }) =>
        typeof responseId === "string" && responseId !== "" ? undefined : "no `responseId`",
      );
    },

    async getEdgeQuoteResult(responseId, opts) {
      return call.object("getEdgePriceResult", { params: { path: { responseId } } }, opts);
    },

    async applyEdgeDiscount(quoteKey, discountCode, opts) {
      const query = { quoteKey, discountCode };
      return call.object("calculateEdgePortPrice", { params: { query } }, opts);
    },

    async listEdgeLocations(opts) {
      return call.array("listEdgeLocations", {}, opts);
    },

    async listEdgeOrders(query = {}, opts) {
      const { page, size, status } = query;
      const paged = page !== undefined && size !== undefined;
      const params = {
        query: {
          ...(paged ? { page: String(page), size: String(size) } : {}),
          ...(status !== undefined ? { status } : {}),
        },
      };
      return call.edgePage("listEdgePortOrders", { params }, opts);
    },

    async listEdgeOrdersV1(companyName, opts) {
      return call.array("listEdgeOrdersV1", { params: { path: { companyName } } }, opts);
    },

    async createEdgePortOrder(companyName, body, opts) {
      return call.object("createEdgePortOrder", { params: { path: { companyName } }, body }, opts);
    },

    async sendEdgeSelect(req, opts) {
      return call.nothing("sendEdgeSelect", { body: req }, opts);
    },

    async sendEdgeEnquiry(req, opts) {
      return call.nothing("sendEdgeEnquiry", { body: req }, opts);
    },

    async listDrafts(opts) {
      return call.array("listDraftOrders", {}, opts);
    },

    async createDraft(body, opts) {
      return call.object("createDraftOrder", { body }, opts);
    },

    async updateDraft(id, body, opts) {
      const path = { draftOrderId: id };
      return call.object("updateDraftOrder", { params: { path }, body }, opts);
    },

    async deleteDraft(id, opts) {
      return call.nothing("deleteDraftOrder", { params: { path: { draftOrderId: id } } }, opts);
    },
  };
}
