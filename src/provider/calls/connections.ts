// What runs from a port: a layer 2 connection, and an IO-D (internet on demand) service with
// what it needs first (a private ASN suggestion, the verified ASNs, the cloud routers). The two
// writes are not idempotent: a lost answer is looked up, never resent.
import type { ProviderApi } from "../api.js";
import type { Caller } from "./call.js";

type ConnectionCalls = Pick<
  ProviderApi,
  | "createLayer2Connection"
  | "suggestPrivateAsn"
  | "listVerifiedAsns"
  | "createGiaService"
  | "listCloudRouters"
>;

export function connectionCalls(call: Caller): ConnectionCalls {
  return {
    async createLayer2Connection(companyUsername, body, opts) {
      return call.object(
        "createLayer2Connection",
        { params: { path: { companyUsername } }, body },
        opts,
      );
    },

    async suggestPrivateAsn(opts) {
      const body = await call.object("getPrivateAsnSuggestion", {}, opts, ({ asn }) =>
        Number.isSafeInteger(asn) ? undefined : "no integer `asn`",
      );
      return body.asn;
    },

    async listVerifiedAsns(companyId, options = {}) {
      const { private: isPrivate = false, ...opts } = options;
      const filter = { where: { status: "VERIFIED", private: isPrivate } };
      const query = { filter: JSON.stringify(filter) };
      return call.array("listAsns", { params: { path: { companyId }, query } }, opts);
    },

    async createGiaService(companyId, body, opts) {
      return call.object("createGiaService", { params: { path: { companyId } }, body }, opts);
    },

    async listCloudRouters(companyId, opts) {
      return call.array("listCloudRouters", { params: { path: { companyId } } }, opts);
    },
  };
}
