// A company's ports: ordering one (PUT, not idempotent: never resent blindly), an order's
// status, the port list, one port and its capabilities (whether IO-D can run on it).
import type { ProviderApi } from "../api.js";
import type { Caller } from "./call.js";

type PortCalls = Pick<
  ProviderApi,
  "createPortOrder" | "getPortOrder" | "listPorts" | "getPort" | "getPortInfo"
>;

export function portCalls(call: Caller): PortCalls {
  return {
    async createPortOrder(companyUsername, body, opts) {
      return call.object("createPortOrder", { params: { path: { companyUsername } }, body }, opts);
    },

    async getPortOrder(companyName, orderId, opts) {
      return call.object("getPortOrder", { params: { path: { companyName, orderId } } }, opts);
    },

    async listPorts(companyUsername, options = {}) {
      const { deleted, ...opts } = options;
      const query = deleted !== undefined ? { deleted } : {};
      return call.results("listPorts", { params: { path: { companyUsername }, query } }, opts);
    },

    async getPort(companyName, portId, opts) {
      return call.object("getPort", { params: { path: { companyName, portId } } }, opts);
    },

    async getPortInfo(companyId, portId, opts) {
      return call.object("getPortInfo", { params: { path: { companyId, portId } } }, opts);
    },
  };
}
