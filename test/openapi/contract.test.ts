// Contract test of openapi/provider.yaml against the provider spec (docs/provider/provider-api.md).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { OpenAPIBackend } from "openapi-backend";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { components } from "../../src/provider/generated/provider.js";

type Schemas = components["schemas"];
type Json = Record<string, unknown>;

const docPath = fileURLToPath(new URL("../../openapi/provider.yaml", import.meta.url));
const doc = parse(readFileSync(docPath, "utf8")) as Json;

/** The 32 operations of the spec's Endpoints tables: [method, path, operationId]. */
const EXPECTED: ReadonlyArray<readonly [string, string, string]> = [
  // Identity (1)
  ["get", "/api/auth/token", "getAuthToken"],
  // Data center facilities (2)
  ["get", "/v2/data-center-facility/search", "searchDataCenterFacilities"],
  ["get", "/v2/data-center-facility", "listDataCenterFacilities"],
  // Pricing (1)
  ["post", "/api/pricing/calculate", "calculatePricing"],
  // Port orders and ports (6)
  ["put", "/api/company/{companyUsername}/ports/orders", "createPortOrder"],
  ["get", "/api/company/{companyName}/ports/orders/{orderId}", "getPortOrder"],
  ["get", "/api/company/{companyUsername}/ports", "listPorts"],
  ["get", "/api/company/{companyName}/ports/{portId}", "getPort"],
  ["get", "/app-user/{companyId}/ports/{portId}/info", "getPortInfo"],
  ["get", "/api/company/{companyUsername}/metro/capabilities", "listMetroCapabilities"],
  // Layer 2 connections (1)
  ["put", "/api/v2/company/{companyUsername}/connections/layer2", "createLayer2Connection"],
  // Internet On-Demand and ASNs (3)
  ["get", "/api/private-asn/suggestion", "getPrivateAsnSuggestion"],
  ["get", "/app-user/{companyId}/asns", "listAsns"],
  ["post", "/app-user/{companyId}/gia-service", "createGiaService"],
  // Cloud routers (1)
  ["get", "/app-user/{companyId}/l3vpns", "listCloudRouters"],
  // Edge quotations and lists (13)
  ["get", "/v2/edge/countries", "listEdgeCountries"],
  ["get", "/v2/edge/bandwidth", "listEdgeBandwidths"],
  ["get", "/v2/edge/contract-term", "listEdgeContractTerms"],
  ["post", "/v2/edge/price", "getEdgePrice"],
  ["post", "/v2/edge/price/search", "startEdgePriceSearch"],
  ["get", "/v2/edge/price/result/{responseId}", "getEdgePriceResult"],
  ["get", "/v2/edge-ports/calculate-price", "calculateEdgePortPrice"],
  ["get", "/v2/edge-ports/locations", "listEdgeLocations"],
  ["get", "/v2/edge-ports/orders", "listEdgePortOrders"],
  ["get", "/api/company/{companyName}/ports/edge-orders", "listEdgeOrdersV1"],
  ["post", "/api/company/{companyName}/ports/edge-orders", "createEdgePortOrder"],
  ["post", "/v2/admin/edge-orders/send-select", "sendEdgeSelect"],
  ["post", "/v2/admin/edge-orders/send-enquiry", "sendEdgeEnquiry"],
  // Edge draft orders (4)
  ["get", "/v2/api/draft/orders", "listDraftOrders"],
  ["post", "/v2/api/draft/orders", "createDraftOrder"],
  ["patch", "/v2/api/draft/orders/{draftOrderId}", "updateDraftOrder"],
  ["delete", "/v2/api/draft/orders/{draftOrderId}", "deleteDraftOrder"],
];

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

interface Op {
  method: string;
  path: string;
  op: Json;
  pathItem: Json;
}

function operations(): Op[] {
  const paths = doc.paths as Record<string, Json>;
  const out: Op[] = [];
  for (const [path, pathItem] of Object.entries(paths)) {
    for (const method of METHODS) {
      const op = pathItem[method];
      if (op) out.push({ method, path, op: op as Json, pathItem });
    }
  }
  return out;
}

/** A copy of `obj` without `keys` (absent, not undefined: closed schemas see undefined keys). */
function without(obj: object, ...keys: string[]): Json {
  const copy: Json = { ...obj };
  for (const key of keys) delete copy[key];
  return copy;
}

function resolve(node: unknown): Json {
  const ref = (node as Json | undefined)?.$ref;
  if (typeof ref !== "string") return node as Json;
  let target: unknown = doc;
  for (const part of ref.replace(/^#\//, "").split("/")) target = (target as Json)[part];
  return resolve(target);
}

describe("provider OpenAPI contract: operations", () => {
  const ops = operations();

  it("has exactly the 32 (method, path) pairs of the spec", () => {
    expect(EXPECTED).toHaveLength(32);
    const actual = ops.map((o) => `${o.method.toUpperCase()} ${o.path}`).sort();
    const expected = EXPECTED.map(([m, p]) => `${m.toUpperCase()} ${p}`).sort();
    expect(actual).toEqual(expected);
  });

  it("gives each operation its unique, camelCase operationId", () => {
    const ids = ops.map((o) => o.op.operationId);
    expect(new Set(ids).size).toBe(32);
    for (const id of ids) expect(id).toMatch(/^[a-z][A-Za-z0-9]*$/);
    for (const [method, path, id] of EXPECTED) {
      const found = ops.find((o) => o.method === method && o.path === path);
      expect(found?.op.operationId, `${method} ${path}`).toBe(id);
    }
  });

  it("marks exactly the two deprecated operations", () => {
    const deprecated = ops.filter((o) => o.op.deprecated === true).map((o) => o.op.operationId);
    expect(deprecated.sort()).toEqual(["getEdgePrice", "listEdgeOrdersV1"]);
  });

  it("tags every operation with a declared capability tag", () => {
    const declared = new Set((doc.tags as Json[]).map((t) => t.name));
    for (const { op } of ops) {
      const tags = op.tags as string[];
      expect(tags).toHaveLength(1);
      expect(declared.has(tags[0])).toBe(true);
    }
  });

  it("declares every path parameter with the spec's name", () => {
    for (const { path, op, pathItem } of ops) {
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const params = [
        ...((pathItem.parameters as Json[]) ?? []),
        ...((op.parameters as Json[]) ?? []),
      ]
        .map(resolve)
        .filter((p) => p.in === "path");
      expect(params.map((p) => p.name).sort(), path).toEqual([...names].sort());
      for (const p of params) expect(p.required).toBe(true);
    }
  });

  it("documents a 200 or 204 response on every operation (204 on send-select, send-enquiry, draft delete)", () => {
    for (const { method, path, op } of ops) {
      const codes = Object.keys(op.responses as Json);
      expect(codes.includes("200") || codes.includes("204"), `${method} ${path}`).toBe(true);
    }
    const noContent = ops
      .filter((o) => Object.hasOwn(o.op.responses as Json, "204"))
      .map((o) => o.op.operationId)
      .sort();
    expect(noContent).toEqual(["deleteDraftOrder", "sendEdgeEnquiry", "sendEdgeSelect"]);
  });

  it("documents the error statuses the spec lists, with the Error schema", () => {
    const expectCodes: Record<string, string[]> = {
      listEdgeCountries: ["500"],
      listEdgeBandwidths: ["500"],
      getEdgePrice: ["400", "404", "500"],
      startEdgePriceSearch: ["400", "404", "500"],
      getEdgePriceResult: ["400", "404", "500"],
      calculateEdgePortPrice: ["404"],
      createEdgePortOrder: ["400", "404"],
    };
    for (const { op } of ops) {
      const responses = op.responses as Json;
      for (const code of expectCodes[op.operationId as string] ?? []) {
        const response = resolve(responses[code]);
        const schema = (response.content as Json)["application/json"] as Json;
        expect((schema.schema as Json).$ref).toBe("#/components/schemas/Error");
      }
    }
  });

  it("has the query parameters of the spec", () => {
    const query = (id: string) => {
      const found = ops.find((o) => o.op.operationId === id);
      return Object.fromEntries(
        ((found?.op.parameters as Json[]) ?? [])
          .map(resolve)
          .filter((p) => p.in === "query")
          .map((p) => [p.name, p.required === true]),
      );
    };
    expect(query("searchDataCenterFacilities")).toEqual({
      criteria: false,
      page: false,
      pageSize: false,
    });
    expect(query("listDataCenterFacilities")).toEqual({ filter: false });
    expect(query("listAsns")).toEqual({ filter: false });
    expect(query("listPorts")).toEqual({ deleted: false });
    expect(query("calculateEdgePortPrice")).toEqual({ quoteKey: true, discountCode: true });
    expect(query("listEdgePortOrders")).toEqual({ page: false, size: false, status: false });
  });
});

describe("provider OpenAPI contract: security", () => {
  it("defines api-key as an http bearer scheme", () => {
    const schemes = (doc.components as Json).securitySchemes as Json;
    expect(schemes["api-key"]).toMatchObject({ type: "http", scheme: "bearer" });
  });

  it("applies api-key globally and no operation overrides it", () => {
    expect(doc.security).toEqual([{ "api-key": [] }]);
    for (const { op } of operations()) expect(op.security).toBeUndefined();
  });
});

describe("provider OpenAPI contract: tolerant responses", () => {
  // Walks every schema reachable from a response and collects closed objects and enums.
  function walk(node: unknown, seen: Set<unknown>, found: string[], where: string): void {
    if (node === null || typeof node !== "object") return;
    const ref = (node as Json).$ref;
    if (typeof ref === "string") {
      if (seen.has(ref)) return;
      seen.add(ref);
      walk(resolve(node), seen, found, ref);
      return;
    }
    const schema = node as Json;
    if (schema.additionalProperties === false) found.push(`${where}: additionalProperties false`);
    if (Array.isArray(schema.enum)) found.push(`${where}: enum`);
    for (const value of Object.values(schema)) {
      if (Array.isArray(value)) for (const v of value) walk(v, seen, found, where);
      else walk(value, seen, found, where);
    }
  }

  it("has no closed objects and no closed enums in response schemas", () => {
    const found: string[] = [];
    const seen = new Set<unknown>();
    for (const { op } of operations()) walk(op.responses, seen, found, String(op.operationId));
    expect(found).toEqual([]);
  });
});

describe("provider OpenAPI contract: request validation (openapi-backend, as the sandbox uses)", () => {
  // quick mode skips openapi-backend's OpenAPI 3.0 definition check, which rejects 3.1 documents.
  const api = new OpenAPIBackend({ definition: structuredClone(doc) as never, quick: true });
  beforeAll(async () => {
    await api.init();
  });
  const valid = (method: string, path: string, body: unknown, query: Json = {}) =>
    api.validateRequest({
      method,
      path,
      body,
      query: query as Record<string, string>,
      headers: { "content-type": "application/json", authorization: "Bearer k" },
    }).valid;

  const dynamicPrivate = {
    accessPortId: "p1",
    name: "iod",
    rateLimit: 100,
    type: "DYNAMIC",
    privateAsn: true,
    privateAsnAutoAssign: true,
    ipBlock: 28,
    autoAssignBgpKey: true,
  } satisfies Schemas["GiaServiceRequest"];
  const dynamicPublic = {
    accessPortId: "p1",
    name: "iod",
    rateLimit: 100,
    type: "DYNAMIC",
    privateAsn: false,
    asnId: "0b6c3c9e-0000-4000-8000-000000000000",
    bgpKey: "secret1",
  } satisfies Schemas["GiaServiceRequest"];
  const staticIod = {
    accessPortId: "p1",
    name: "iod",
    rateLimit: 100,
    type: "STATIC",
    privateAsn: true,
    privateAsnAutoAssign: true,
    ipBlock: 28,
  } satisfies Schemas["GiaServiceRequest"];
  const gia = "/app-user/c1/gia-service";

  it("accepts the IO-D request forms of rules 1, 2 and 5 (STATIC with privateAsn true or false)", () => {
    expect(valid("post", gia, dynamicPrivate)).toBe(true);
    expect(
      valid("post", gia, {
        ...without(dynamicPrivate, "privateAsnAutoAssign"),
        privateAsnRequested: 64512,
      }),
    ).toBe(true);
    expect(valid("post", gia, dynamicPublic)).toBe(true);
    expect(valid("post", gia, staticIod)).toBe(true);
    expect(valid("post", gia, { ...staticIod, privateAsn: false })).toBe(true);
    expect(valid("post", gia, { ...staticIod, enableIpv6: true, ipv6Block: 48 })).toBe(true);
  });

  it("rejects IO-D requests that break rules 1 to 5", () => {
    expect(valid("post", gia, { ...dynamicPrivate, asnId: "x" })).toBe(false); // rule 1
    expect(valid("post", gia, without(dynamicPrivate, "ipBlock"))).toBe(false); // rule 1
    expect(valid("post", gia, { ...dynamicPrivate, privateAsnAutoAssign: false })).toBe(false); // rule 1
    expect(valid("post", gia, without(dynamicPublic, "asnId"))).toBe(false); // rule 2
    expect(valid("post", gia, { ...dynamicPublic, privateAsnAutoAssign: true })).toBe(false); // rule 2
    expect(valid("post", gia, without(dynamicPublic, "bgpKey"))).toBe(false); // rule 3
    expect(valid("post", gia, { ...dynamicPublic, bgpKey: "short" })).toBe(false); // rule 3
    expect(valid("post", gia, { ...dynamicPublic, bgpKey: "x".repeat(25) })).toBe(false); // rule 3
    expect(valid("post", gia, { ...staticIod, enableIpv6: true })).toBe(false); // rule 4
    expect(valid("post", gia, { ...staticIod, enableIpv6: true, ipv6Block: 64 })).toBe(false); // rule 4
    expect(valid("post", gia, { ...staticIod, bgpKey: "secret1" })).toBe(false); // rule 5
    expect(valid("post", gia, { ...staticIod, privateAsnAutoAssign: false })).toBe(false); // rule 5
    expect(valid("post", gia, { ...staticIod, type: "BGP" })).toBe(false);
    expect(valid("post", gia, { ...staticIod, unknownField: 1 })).toBe(false);
  });

  it("accepts port pricing with durationUnit or the legacy duration, never both or ports with connections", () => {
    const port = { dcf: "d1", speed: 1000, durationUnit: "y" };
    const connection = {
      bandwidth: 100,
      classOfService: "SILVER",
      duration: { value: 12, unit: "m" },
      srcDcf: "d1",
      destDcf: "d2",
    } satisfies Schemas["ConnectionPriceConfig"];
    const url = "/api/pricing/calculate";
    expect(valid("post", url, { ports: [port], includeCrossConnect: true })).toBe(true);
    expect(valid("post", url, { ports: [{ dcf: "d1", speed: 1000, duration: "y" }] })).toBe(true);
    expect(valid("post", url, { ports: [{ ...port, duration: "y" }] })).toBe(false);
    expect(valid("post", url, { connections: [connection] })).toBe(true);
    expect(valid("post", url, { ports: [port], connections: [connection] })).toBe(false);
    expect(
      valid("post", url, { connections: [{ ...connection, classOfService: "PLATINUM" }] }),
    ).toBe(false);
  });

  it("tells port-to-port from business-to-business layer 2 requests", () => {
    const common = {
      name: "l2",
      portId: "p1",
      destCompany: "acme",
      destMetroId: "m1",
      duration: 12,
      durationUnit: "m",
      paymentType: "invoice",
      classOfService: "SILVER",
      speed: 100,
      type: "LAYER2",
      evergreen: false,
    } as const;
    const url = "/api/v2/company/acme/connections/layer2";
    const p2p = { ...common, destPortId: "p2" } satisfies Schemas["Layer2ConnectionRequest"];
    const b2b = {
      ...common,
      destDcf: "d2",
      destRegionId: "r1",
    } satisfies Schemas["Layer2ConnectionRequest"];
    expect(valid("put", url, p2p)).toBe(true);
    expect(valid("put", url, b2b)).toBe(true);
    expect(valid("put", url, { ...b2b, destPortId: "p2" })).toBe(false);
    expect(valid("put", url, { ...p2p, type: "LAYER3" })).toBe(false);
  });

  it("accepts an Edge port order named portName or name, speed >= 100, paymentType invoice", () => {
    const url = "/api/company/acme/ports/edge-orders";
    const order = {
      portName: "edge-1",
      speed: 100,
      paymentType: "invoice",
      edgePayload: { draftOrderId: "d1", quote: { any: "thing" } },
    } satisfies Schemas["EdgePortOrderRequest"];
    expect(valid("post", url, order)).toBe(true);
    expect(valid("post", url, { ...without(order, "portName"), name: "edge-1" })).toBe(true);
    expect(valid("post", url, { ...order, speed: "1000" })).toBe(true);
    expect(valid("post", url, without(order, "paymentType"))).toBe(true);
    expect(valid("post", url, without(order, "portName"))).toBe(false);
    expect(valid("post", url, { ...order, speed: 50 })).toBe(false);
    expect(valid("post", url, { ...order, speed: "50" })).toBe(false);
    expect(valid("post", url, { ...order, paymentType: "card" })).toBe(false);
  });

  it("validates port orders, Edge quotations and drafts exactly", () => {
    const portOrder = {
      dataCenterFacility: "dcf-user",
      speed: "1000",
      durationUnit: "y",
      portName: "p",
      paymentType: "invoice",
    } satisfies Schemas["PortOrderRequest"];
    expect(valid("put", "/api/company/acme/ports/orders", portOrder)).toBe(true);
    expect(valid("put", "/api/company/acme/ports/orders", { ...portOrder, extra: 1 })).toBe(false);

    const quote = {
      country: { code: "SG" },
      bandwidth: "100",
      bandwidthUnit: "Mbps",
      "contract-term": "12",
      contractTermUnit: "month",
      "formatted-address": "1 Main St, Singapore",
      postCode: null,
    } satisfies Schemas["EdgeQuotationRequest"];
    expect(valid("post", "/v2/edge/price/search", quote)).toBe(true);
    expect(valid("post", "/v2/edge/price/search", { ...quote, bandwidthUnit: "Tbps" })).toBe(false);
    expect(valid("post", "/v2/edge/price/search", without(quote, "contract-term"))).toBe(false);

    const draft = { speed: 100, edgePayload: {} } satisfies Schemas["DraftOrderRequest"];
    expect(valid("post", "/v2/api/draft/orders", draft)).toBe(true);
    expect(valid("patch", "/v2/api/draft/orders/d1", { ...draft, name: null })).toBe(true);
    expect(valid("post", "/v2/api/draft/orders", { name: "x" })).toBe(false);

    expect(valid("get", "/v2/edge-ports/calculate-price", undefined, { quoteKey: "k" })).toBe(
      false,
    );
    expect(
      valid("get", "/v2/edge-ports/calculate-price", undefined, {
        quoteKey: "k",
        discountCode: "D",
      }),
    ).toBe(true);
  });
});
