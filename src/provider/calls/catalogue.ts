// Who the bot is and what can be bought where, at what price: the identity check, the data
// center search and list, the price calculation and the metro list. The calls every request form
// starts from; none of them changes anything at the provider.
import type { ProviderApi, ProviderIdentity } from "../api.js";
import type { Caller, DataOf } from "./call.js";

type CatalogueCalls = Pick<
  ProviderApi,
  "whoami" | "searchDcfs" | "listDcfs" | "pricePorts" | "priceConnections" | "listMetroCapabilities"
>;

/** The token's user and first company, or why the key cannot act for a company. */
function identityOf(token: DataOf<"getAuthToken">): ProviderIdentity | undefined {
  const company = Array.isArray(token.companies) ? token.companies[0] : undefined;
  const companyId = company?.id;
  const companyUsername = company?.username;
  if (typeof token.id !== "string" || !companyId || !companyUsername) return undefined;
  return {
    userId: token.id,
    companyId,
    companyUsername,
    companyName: company.name || companyUsername,
  };
}

const NO_COMPANY = {
  detail: "a token without a user id or a company id and username",
  userMessage:
    "The provider's API key has no company with an id and username: check the key's user.",
};

export function catalogueCalls(call: Caller): CatalogueCalls {
  return {
    async whoami(opts) {
      const token = await call.object("getAuthToken", {}, opts, (body) =>
        identityOf(body) ? undefined : NO_COMPANY,
      );
      return identityOf(token) as ProviderIdentity;
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
      return call.array("searchDataCenterFacilities", { params: { query } }, opts);
    },

    async listDcfs(filter, opts) {
      const query = filter ? { filter: JSON.stringify(filter) } : {};
      return call.array("listDataCenterFacilities", { params: { query } }, opts);
    },

    async pricePorts(ports, options = {}) {
      const { includeCrossConnect, ...opts } = options;
      const body = {
        ports: [...ports],
        ...(includeCrossConnect !== undefined ? { includeCrossConnect } : {}),
      };
      return call.results("calculatePricing", { body }, opts);
    },

    async priceConnections(connections, opts) {
      return call.results("calculatePricing", { body: { connections: [...connections] } }, opts);
    },

    async listMetroCapabilities(companyUsername, opts) {
      return call.results("listMetroCapabilities", { params: { path: { companyUsername } } }, opts);
    },
  };
}
