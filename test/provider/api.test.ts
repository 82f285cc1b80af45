// Every operation of the document called through ProviderApi over real HTTP against a local
// recording server: method, path, query, body and the bearer key as sent; the result as read.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createLogger } from "../../src/log.js";
import {
  createProviderApi,
  type EdgeQuotationRequest,
  OPERATION_METHODS,
  type ProviderApi,
  type ProviderApiMethod,
} from "../../src/provider/api.js";
import { createProviderClient } from "../../src/provider/client.js";
import { ProviderError } from "../../src/provider/errors.js";
import type { OperationId } from "../../src/provider/operations.js";
import {
  memoryLogStream,
  type RecordingServer,
  type Reply,
  startRecordingServer,
} from "../support/recordingServer.js";

const API_KEY = "test-key-api-3f9a1c7e5b2d";

let server: RecordingServer;
let api: ProviderApi;

beforeAll(async () => {
  server = await startRecordingServer();
  const logger = createLogger({
    level: "debug",
    secrets: [API_KEY],
    destination: memoryLogStream(),
  });
  api = createProviderApi(
    createProviderClient({ baseUrl: server.url, apiKey: API_KEY, logger, retry: { attempts: 1 } }),
  );
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const quote: EdgeQuotationRequest = {
  country: { code: "DE", name: "Germany" },
  bandwidth: "100",
  bandwidthUnit: "Mbps",
  "contract-term": "12",
  contractTermUnit: "month",
  "formatted-address": "Alexanderplatz 1, 10178 Berlin, Germany",
};
const portOrderBody = {
  dataCenterFacility: "equinix-sg1",
  speed: "10000",
  durationUnit: "y",
  portName: "sg1-core-01",
  paymentType: "invoice" as const,
};
const layer2Body = {
  name: "sg1-to-ty2",
  portId: "p1",
  destPortId: "p2",
  destCompany: "partner-co",
  destMetroId: "m2",
  duration: 12,
  durationUnit: "m",
  paymentType: "invoice",
  classOfService: "SILVER" as const,
  speed: 1000,
  type: "LAYER2" as const,
  evergreen: false,
};
const giaBody = {
  accessPortId: "p1",
  name: "iod-sg1",
  rateLimit: 100,
  type: "DYNAMIC" as const,
  privateAsn: true as const,
  privateAsnAutoAssign: true as const,
  ipBlock: 28,
  autoAssignBgpKey: true as const,
  duration: { quantity: 30, unit: "d" },
  paymentType: "payg",
};
const draftBody = { name: "Berlin edge", speed: 100, edgePayload: { step: 2 } };
const portOrder = { id: "o1", status: "created", loaStatus: "TODO", portName: "sg1-core-01" };
const pricing = { results: [{ type: "PORT", price: 1200 }] };
const quoteResult = { "formatted-address": quote["formatted-address"], data: [{ price: 1 }] };

interface Row {
  method: ProviderApiMethod;
  operation: OperationId;
  call: (api: ProviderApi) => Promise<unknown>;
  sent: { method: string; path: string; query?: Record<string, unknown>; body?: unknown };
  reply: Reply;
  result: unknown;
}

// Query values that are JSON text are compared parsed, so key order does not matter.
const JSON_QUERY = new Set(["filter", "criteria"]);

const rows: Row[] = [
  {
    method: "whoami",
    operation: "getAuthToken",
    call: (a) => a.whoami(),
    sent: { method: "GET", path: "/api/auth/token" },
    reply: {
      json: {
        id: "u1",
        companies: [{ id: "c1", username: "acme-networks", name: "Acme Networks" }],
      },
    },
    result: {
      userId: "u1",
      companyId: "c1",
      companyUsername: "acme-networks",
      companyName: "Acme Networks",
    },
  },
  {
    method: "searchDcfs",
    operation: "searchDataCenterFacilities",
    call: (a) => a.searchDcfs({ text: "singapore", page: 2, pageSize: 10 }),
    sent: {
      method: "GET",
      path: "/v2/data-center-facility/search",
      query: { criteria: { text: "singapore" }, page: "2", pageSize: "10" },
    },
    reply: { json: [{ id: "d1", name: "SG1" }] },
    result: [{ id: "d1", name: "SG1" }],
  },
  {
    method: "listDcfs",
    operation: "listDataCenterFacilities",
    call: (a) => a.listDcfs({ where: { "dataCenterFacility.metroId": "m1" }, skip: 0, limit: 50 }),
    sent: {
      method: "GET",
      path: "/v2/data-center-facility",
      query: { filter: { where: { "dataCenterFacility.metroId": "m1" }, skip: 0, limit: 50 } },
    },
    reply: { json: [{ id: "d1" }] },
    result: [{ id: "d1" }],
  },
  {
    method: "pricePorts",
    operation: "calculatePricing",
    call: (a) =>
      a.pricePorts([{ dcf: "d1", speed: 10000, durationUnit: "y" }], {
        includeCrossConnect: true,
      }),
    sent: {
      method: "POST",
      path: "/api/pricing/calculate",
      body: { ports: [{ dcf: "d1", speed: 10000, durationUnit: "y" }], includeCrossConnect: true },
    },
    reply: { json: pricing },
    result: pricing.results,
  },
  {
    method: "priceConnections",
    operation: "calculatePricing",
    call: (a) =>
      a.priceConnections([
        {
          bandwidth: 500,
          classOfService: "SILVER",
          duration: { value: 12, unit: "m" },
          srcDcf: "d1",
          destDcf: "d2",
        },
      ]),
    sent: {
      method: "POST",
      path: "/api/pricing/calculate",
      body: {
        connections: [
          {
            bandwidth: 500,
            classOfService: "SILVER",
            duration: { value: 12, unit: "m" },
            srcDcf: "d1",
            destDcf: "d2",
          },
        ],
      },
    },
    reply: { json: pricing },
    result: pricing.results,
  },
  {
    method: "createPortOrder",
    operation: "createPortOrder",
    call: (a) => a.createPortOrder("acme-networks", portOrderBody),
    sent: { method: "PUT", path: "/api/company/acme-networks/ports/orders", body: portOrderBody },
    reply: { json: portOrder },
    result: portOrder,
  },
  {
    method: "getPortOrder",
    operation: "getPortOrder",
    call: (a) => a.getPortOrder("acme-networks", "o1"),
    sent: { method: "GET", path: "/api/company/acme-networks/ports/orders/o1" },
    reply: { json: { ...portOrder, status: "processing" } },
    result: { ...portOrder, status: "processing" },
  },
  {
    method: "listPorts",
    operation: "listPorts",
    call: (a) => a.listPorts("acme-networks", { deleted: false }),
    sent: { method: "GET", path: "/api/company/acme-networks/ports", query: { deleted: "false" } },
    reply: { json: { results: [{ id: "p1", name: "sg1-core-01" }] } },
    result: [{ id: "p1", name: "sg1-core-01" }],
  },
  {
    method: "getPort",
    operation: "getPort",
    call: (a) => a.getPort("acme-networks", "p1"),
    sent: { method: "GET", path: "/api/company/acme-networks/ports/p1" },
    reply: { json: { id: "p1", speed: { value: 10000, name: "10000 Mbps" } } },
    result: { id: "p1", speed: { value: 10000, name: "10000 Mbps" } },
  },
  {
    method: "getPortInfo",
    operation: "getPortInfo",
    call: (a) => a.getPortInfo("c1", "p1"),
    sent: { method: "GET", path: "/app-user/c1/ports/p1/info" },
    reply: { json: { capabilities: { giaStandardV1: true } } },
    result: { capabilities: { giaStandardV1: true } },
  },
  {
    method: "listMetroCapabilities",
    operation: "listMetroCapabilities",
    call: (a) => a.listMetroCapabilities("acme-networks"),
    sent: { method: "GET", path: "/api/company/acme-networks/metro/capabilities" },
    reply: { json: { results: [{ id: "m1", regionIds: ["r1"], capabilities: { layer2: true } }] } },
    result: [{ id: "m1", regionIds: ["r1"], capabilities: { layer2: true } }],
  },
  {
    method: "createLayer2Connection",
    operation: "createLayer2Connection",
    call: (a) => a.createLayer2Connection("acme-networks", layer2Body),
    sent: {
      method: "PUT",
      path: "/api/v2/company/acme-networks/connections/layer2",
      body: layer2Body,
    },
    reply: { json: { id: "l2-1", type: "LAYER2", status: "CREATING", speed: 1000 } },
    result: { id: "l2-1", type: "LAYER2", status: "CREATING", speed: 1000 },
  },
  {
    method: "suggestPrivateAsn",
    operation: "getPrivateAsnSuggestion",
    call: (a) => a.suggestPrivateAsn(),
    sent: { method: "GET", path: "/api/private-asn/suggestion" },
    reply: { json: { asn: 64512 } },
    result: 64512,
  },
  {
    method: "listVerifiedAsns",
    operation: "listAsns",
    call: (a) => a.listVerifiedAsns("c1"),
    sent: {
      method: "GET",
      path: "/app-user/c1/asns",
      query: { filter: { where: { status: "VERIFIED", private: false } } },
    },
    reply: { json: [{ id: "a1", asn: "65010", status: "VERIFIED", private: false }] },
    result: [{ id: "a1", asn: "65010", status: "VERIFIED", private: false }],
  },
  {
    method: "createGiaService",
    operation: "createGiaService",
    call: (a) => a.createGiaService("c1", giaBody),
    sent: { method: "POST", path: "/app-user/c1/gia-service", body: giaBody },
    reply: { json: { id: "g1", status: "CREATING" } },
    result: { id: "g1", status: "CREATING" },
  },
  {
    method: "listCloudRouters",
    operation: "listCloudRouters",
    call: (a) => a.listCloudRouters("c1"),
    sent: { method: "GET", path: "/app-user/c1/l3vpns" },
    reply: { json: [{ id: "r1", status: "CREATED", sites: [] }] },
    result: [{ id: "r1", status: "CREATED", sites: [] }],
  },
  {
    method: "listEdgeCountries",
    operation: "listEdgeCountries",
    call: (a) => a.listEdgeCountries(),
    sent: { method: "GET", path: "/v2/edge/countries" },
    reply: { json: { data: [{ code: "DE" }], page: 1, size: 50, total: 1 } },
    result: { items: [{ code: "DE" }], page: 1, size: 50, total: 1 },
  },
  {
    method: "listEdgeBandwidths",
    operation: "listEdgeBandwidths",
    call: (a) => a.listEdgeBandwidths(),
    sent: { method: "GET", path: "/v2/edge/bandwidth" },
    reply: { json: { data: [{ value: 100 }], page: 1, size: 50, total: 1 } },
    result: { items: [{ value: 100 }], page: 1, size: 50, total: 1 },
  },
  {
    method: "listEdgeContractTerms",
    operation: "listEdgeContractTerms",
    call: (a) => a.listEdgeContractTerms(),
    sent: { method: "GET", path: "/v2/edge/contract-term" },
    reply: { json: { data: [{ value: 12 }], page: 1, size: 50, total: 1 } },
    result: { items: [{ value: 12 }], page: 1, size: 50, total: 1 },
  },
  {
    method: "getEdgePriceSync",
    operation: "getEdgePrice",
    call: (a) => a.getEdgePriceSync(quote),
    sent: { method: "POST", path: "/v2/edge/price", body: quote },
    reply: { json: quoteResult },
    result: quoteResult,
  },
  {
    method: "startEdgeQuote",
    operation: "startEdgePriceSearch",
    call: (a) => a.startEdgeQuote(quote),
    sent: { method: "POST", path: "/v2/edge/price/search", body: quote },
    reply: { json: { responseId: "q1", status: "PENDING" } },
    result: { responseId: "q1", status: "PENDING" },
  },
  {
    method: "getEdgeQuoteResult",
    operation: "getEdgePriceResult",
    call: (a) => a.getEdgeQuoteResult("q1"),
    sent: { method: "GET", path: "/v2/edge/price/result/q1" },
    reply: { json: quoteResult },
    result: quoteResult,
  },
  {
    method: "applyEdgeDiscount",
    operation: "calculateEdgePortPrice",
    call: (a) => a.applyEdgeDiscount("q1", "NETSAVE10"),
    sent: {
      method: "GET",
      path: "/v2/edge-ports/calculate-price",
      query: { quoteKey: "q1", discountCode: "NETSAVE10" },
    },
    reply: { json: quoteResult },
    result: quoteResult,
  },
  {
    method: "listEdgeLocations",
    operation: "listEdgeLocations",
    call: (a) => a.listEdgeLocations(),
    sent: { method: "GET", path: "/v2/edge-ports/locations" },
    reply: { json: [{ city: "Berlin", country: "DE" }] },
    result: [{ city: "Berlin", country: "DE" }],
  },
  {
    method: "listEdgeOrders",
    operation: "listEdgePortOrders",
    call: (a) => a.listEdgeOrders({ page: 1, size: 20, status: "processing" }),
    sent: {
      method: "GET",
      path: "/v2/edge-ports/orders",
      query: { page: "1", size: "20", status: "processing" },
    },
    reply: { json: [{ id: "e1", objectType: "DRAFT ORDER", status: "DRAFT" }] },
    result: { items: [{ id: "e1", objectType: "DRAFT ORDER", status: "DRAFT" }] },
  },
  {
    method: "listEdgeOrdersV1",
    operation: "listEdgeOrdersV1",
    call: (a) => a.listEdgeOrdersV1("acme-networks"),
    sent: { method: "GET", path: "/api/company/acme-networks/ports/edge-orders" },
    reply: { json: [{ id: "e1" }] },
    result: [{ id: "e1" }],
  },
  {
    method: "createEdgePortOrder",
    operation: "createEdgePortOrder",
    call: (a) =>
      a.createEdgePortOrder("acme-networks", {
        portName: "ber-edge-1",
        speed: 100,
        paymentType: "invoice",
        edgePayload: { draftOrderId: "dr1", quoteKey: "q1" },
      }),
    sent: {
      method: "POST",
      path: "/api/company/acme-networks/ports/edge-orders",
      body: {
        portName: "ber-edge-1",
        speed: 100,
        paymentType: "invoice",
        edgePayload: { draftOrderId: "dr1", quoteKey: "q1" },
      },
    },
    reply: { json: { ...portOrder, isEdgePort: true } },
    result: { ...portOrder, isEdgePort: true },
  },
  {
    method: "sendEdgeSelect",
    operation: "sendEdgeSelect",
    call: (a) => a.sendEdgeSelect(quote),
    sent: { method: "POST", path: "/v2/admin/edge-orders/send-select", body: quote },
    reply: { status: 204 },
    result: undefined,
  },
  {
    method: "sendEdgeEnquiry",
    operation: "sendEdgeEnquiry",
    call: (a) => a.sendEdgeEnquiry(quote),
    sent: { method: "POST", path: "/v2/admin/edge-orders/send-enquiry", body: quote },
    reply: { status: 204 },
    result: undefined,
  },
  {
    method: "listDrafts",
    operation: "listDraftOrders",
    call: (a) => a.listDrafts(),
    sent: { method: "GET", path: "/v2/api/draft/orders" },
    reply: { json: [{ id: "dr1", status: "DRAFT", deleteIn: 29 }] },
    result: [{ id: "dr1", status: "DRAFT", deleteIn: 29 }],
  },
  {
    method: "createDraft",
    operation: "createDraftOrder",
    call: (a) => a.createDraft(draftBody),
    sent: { method: "POST", path: "/v2/api/draft/orders", body: draftBody },
    reply: { json: { id: "dr1", ...draftBody, status: "DRAFT" } },
    result: { id: "dr1", ...draftBody, status: "DRAFT" },
  },
  {
    method: "updateDraft",
    operation: "updateDraftOrder",
    call: (a) => a.updateDraft("dr1", { ...draftBody, speed: 200 }),
    sent: { method: "PATCH", path: "/v2/api/draft/orders/dr1", body: { ...draftBody, speed: 200 } },
    reply: { json: { id: "dr1", ...draftBody, speed: 200 } },
    result: { id: "dr1", ...draftBody, speed: 200 },
  },
  {
    method: "deleteDraft",
    operation: "deleteDraftOrder",
    call: (a) => a.deleteDraft("dr1"),
    sent: { method: "DELETE", path: "/v2/api/draft/orders/dr1" },
    reply: { status: 204 },
    result: undefined,
  },
];

function parsedQuery(query: Record<string, string>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(query).map(([k, v]) => [k, JSON_QUERY.has(k) ? JSON.parse(v) : v]),
  );
}

describe("ProviderApi over HTTP: one row per operation", () => {
  it("has a row for every operation and every method of the API", () => {
    const operations = new Set(rows.map((r) => r.operation));
    expect([...operations].sort()).toEqual(Object.keys(OPERATION_METHODS).sort());
    expect(operations.size).toBe(32);
    expect(rows.map((r) => r.method).sort()).toEqual(Object.keys(api).sort());
    for (const row of rows) {
      expect(OPERATION_METHODS[row.operation] as readonly string[]).toContain(row.method);
    }
  });

  for (const row of rows) {
    it(`${row.method} → ${row.operation} (${row.sent.method} ${row.sent.path})`, async () => {
      server.replies(row.reply);
      const result = await row.call(api);

      expect(server.requests).toHaveLength(1);
      const [seen] = server.requests;
      expect(seen?.method).toBe(row.sent.method);
      expect(seen?.path).toBe(row.sent.path);
      expect(parsedQuery(seen?.query ?? {})).toEqual(row.sent.query ?? {});
      expect(seen?.body).toEqual(row.sent.body);
      if (row.sent.body !== undefined) {
        expect(seen?.headers["content-type"]).toMatch(/^application\/json/);
      } else {
        expect(seen?.bodyText).toBe("");
      }
      expect(seen?.headers.authorization).toBe(`Bearer ${API_KEY}`);
      expect(result).toEqual(row.result);
    });
  }
});

describe("ProviderApi: what the named functions add", () => {
  it("lists private verified ASNs on request", async () => {
    server.replies({ json: [] });
    await api.listVerifiedAsns("c1", { private: true });
    expect(JSON.parse(server.requests[0]?.query.filter ?? "")).toEqual({
      where: { status: "VERIFIED", private: true },
    });
  });

  it("sends no query at all when no filter, criteria or page is given", async () => {
    server.replies({ json: [] });
    await api.listDcfs();
    await api.searchDcfs();
    await api.listEdgeOrders();
    expect(server.requests.map((r) => r.query)).toEqual([{}, {}, {}]);
  });

  it("sends Edge order page and size only together", async () => {
    server.replies({ json: { data: [{ id: "e1" }], page: 2, size: 5, total: 11 } });
    // A JS caller (or a cast) giving only one of them: neither is sent, the status still is.
    const onlyPage = { page: 2, status: "done" } as unknown as Parameters<
      ProviderApi["listEdgeOrders"]
    >[0];
    const result = await api.listEdgeOrders(onlyPage);
    expect(server.requests[0]?.query).toEqual({ status: "done" });
    expect(result).toEqual({ items: [{ id: "e1" }], page: 2, size: 5, total: 11 });
  });

  it("merges DCF search text into other criteria", async () => {
    server.replies({ json: [] });
    await api.searchDcfs({ text: "tokyo", criteria: { name: "TY2" } });
    expect(JSON.parse(server.requests[0]?.query.criteria ?? "")).toEqual({
      name: "TY2",
      text: "tokyo",
    });
  });

  it("falls back to the company username when the token gives no company name", async () => {
    server.replies({ json: { id: "u1", companies: [{ id: "c1", username: "acme-networks" }] } });
    expect(await api.whoami()).toEqual({
      userId: "u1",
      companyId: "c1",
      companyUsername: "acme-networks",
      companyName: "acme-networks",
    });
  });

  it("refuses a token without a company as an invalid response, with a clear message", async () => {
    server.replies({ json: { id: "u1", companies: [] } });
    const error = await api.whoami().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      kind: "invalid-response",
      operation: "getAuthToken",
      httpStatus: 200,
      outcomeUnknown: false,
    });
    expect((error as ProviderError).userMessage).toMatch(/no company/);
  });

  it.each<[ProviderApiMethod, (a: ProviderApi) => Promise<unknown>, Reply]>([
    ["listPorts", (a) => a.listPorts("acme"), { json: { ports: [] } }],
    ["listDcfs", (a) => a.listDcfs(), { json: { data: [] } }],
    ["suggestPrivateAsn", (a) => a.suggestPrivateAsn(), { json: { asn: "64512" } }],
    ["startEdgeQuote", (a) => a.startEdgeQuote(quote), { json: { status: "PENDING" } }],
    ["getPort", (a) => a.getPort("acme", "p1"), { status: 200 }],
    ["listEdgeOrders", (a) => a.listEdgeOrders(), { json: { data: "none" } }],
  ])("%s: a 2xx of the wrong shape is an invalid response", async (_name, call, reply) => {
    server.replies(reply);
    const error = await call(api).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).kind).toBe("invalid-response");
    expect(server.requests).toHaveLength(1);
  });

  it("reads an Edge list given as a page object or as a plain array", async () => {
    server.replies({ json: [{ code: "SG" }] });
    expect(await api.listEdgeCountries()).toEqual({ items: [{ code: "SG" }] });
    server.replies({ json: { page: 1 } });
    expect(await api.listEdgeCountries()).toEqual({ items: [], page: 1 });
  });
});
