// Every operation of the OpenAPI document answers over real HTTP, and each answer validates
// against the document's response schema for its status.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import {
  type Answer,
  call,
  type Loose,
  openSandbox,
  providerContract,
  responseErrors,
  SINGAPORE_QUOTE,
} from "./helpers.js";

const OPERATIONS = [
  "getAuthToken",
  "searchDataCenterFacilities",
  "listDataCenterFacilities",
  "calculatePricing",
  "createPortOrder",
  "getPortOrder",
  "listPorts",
  "getPort",
  "getPortInfo",
  "listMetroCapabilities",
  "createLayer2Connection",
  "getPrivateAsnSuggestion",
  "listAsns",
  "createGiaService",
  "listCloudRouters",
  "listEdgeCountries",
  "listEdgeBandwidths",
  "listEdgeContractTerms",
  "getEdgePrice",
  "startEdgePriceSearch",
  "getEdgePriceResult",
  "calculateEdgePortPrice",
  "listEdgeLocations",
  "listEdgePortOrders",
  "listEdgeOrdersV1",
  "createEdgePortOrder",
  "sendEdgeSelect",
  "sendEdgeEnquiry",
  "listDraftOrders",
  "createDraftOrder",
  "updateDraftOrder",
  "deleteDraftOrder",
] as const;

describe("sandbox operations", () => {
  let sandbox: Sandbox;
  const answers = new Map<string, Answer[]>();
  const errorAnswers: Array<[string, Answer]> = [];

  async function record(
    operationId: string,
    method: string,
    path: string,
    options: Parameters<typeof call>[3] = {},
  ) {
    const answer = await call(sandbox.url, method, path, options);
    answers.set(operationId, [...(answers.get(operationId) ?? []), answer]);
    return answer as Answer<Loose>;
  }

  beforeAll(async () => {
    sandbox = await openSandbox({ edgeQuote: { readyAfterPolls: 1, readyAfterMs: 1e12 } });
    const { companyUsername: company, companyId } = sandbox.apiUser;

    await record("getAuthToken", "GET", "/api/auth/token");
    const search = await record(
      "searchDataCenterFacilities",
      "GET",
      "/v2/data-center-facility/search",
      {
        query: { criteria: JSON.stringify({ text: "london" }), page: "1", pageSize: "10" },
      },
    );
    const londonDcf = search.body[0];
    const dcfs = await record("listDataCenterFacilities", "GET", "/v2/data-center-facility", {
      query: {
        filter: JSON.stringify({ where: { "dataCenterFacility.ready": true }, skip: 0, limit: 50 }),
      },
    });
    const iad = dcfs.body.find((d: Loose) => d.username === "ironbridge-iad1");
    await record("calculatePricing", "POST", "/api/pricing/calculate", {
      body: {
        ports: [{ dcf: iad.id, speed: 10000, durationUnit: "y" }],
        includeCrossConnect: true,
      },
    });
    await record("calculatePricing", "POST", "/api/pricing/calculate", {
      body: {
        connections: [
          {
            bandwidth: 500,
            classOfService: "SILVER",
            duration: { value: 12, unit: "m" },
            srcDcf: iad.id,
            destDcf: londonDcf.id,
          },
        ],
      },
    });
    const order = await record("createPortOrder", "PUT", `/api/company/${company}/ports/orders`, {
      body: {
        dataCenterFacility: "ironbridge-iad1",
        speed: "10000",
        durationUnit: "y",
        portName: "ops-test-01",
        paymentType: "invoice",
      },
    });
    await record("getPortOrder", "GET", `/api/company/${company}/ports/orders/${order.body.id}`);
    sandbox.clock.advance(2 * 24 * 3600 * 1000);
    await record("getPortOrder", "GET", `/api/company/${company}/ports/orders/${order.body.id}`);

    const ports = await record("listPorts", "GET", `/api/company/${company}/ports`, {
      query: { deleted: "false" },
    });
    const own = ports.body.results as Loose[];
    const iadPort = own.find((p) => p.name === "iad-core-01");
    await record("getPort", "GET", `/api/company/${company}/ports/${iadPort.id}`);
    await record("getPortInfo", "GET", `/app-user/${companyId}/ports/${iadPort.id}/info`);
    const metros = await record(
      "listMetroCapabilities",
      "GET",
      `/api/company/${company}/metro/capabilities`,
    );

    const partnerPorts = await call<Loose>(sandbox.url, "GET", "/api/company/globex-cloud/ports");
    const partnerIad = partnerPorts.body.results.find((p: Loose) => p.name === "globex-iad-01");
    const l2Common = {
      duration: 12,
      durationUnit: "m",
      paymentType: "invoice",
      classOfService: "SILVER",
      speed: 500,
      type: "LAYER2",
      evergreen: false,
    };
    await record("createLayer2Connection", "PUT", `/api/v2/company/${company}/connections/layer2`, {
      body: {
        name: "p2p",
        portId: iadPort.id,
        destPortId: partnerIad.id,
        destCompany: "globex-cloud",
        destMetroId: partnerIad.metroId,
        ...l2Common,
      },
    });
    const lonMetro = metros.body.results.find(
      (m: Loose) => m.id === londonDcf.dataCenterFacility.metroId,
    );
    await record("createLayer2Connection", "PUT", `/api/v2/company/${company}/connections/layer2`, {
      body: {
        name: "b2b",
        portId: iadPort.id,
        destCompany: "globex-cloud",
        destMetroId: lonMetro.id,
        destDcf: londonDcf.id,
        destRegionId: lonMetro.regionIds[0],
        ...l2Common,
      },
    });

    await record("getPrivateAsnSuggestion", "GET", "/api/private-asn/suggestion");
    const asns = await record("listAsns", "GET", `/app-user/${companyId}/asns`, {
      query: { filter: JSON.stringify({ where: { status: "VERIFIED", private: false } }) },
    });
    await record("createGiaService", "POST", `/app-user/${companyId}/gia-service`, {
      body: {
        accessPortId: iadPort.id,
        name: "iod-public",
        rateLimit: 1000,
        type: "DYNAMIC",
        privateAsn: false,
        asnId: asns.body[0].id,
        autoAssignBgpKey: true,
        ipBlock: 28,
        duration: { quantity: 30, unit: "d" },
        paymentType: "payg",
        ipGeoCountry: "US",
        ipGeoCity: "",
      },
    });
    await record("listCloudRouters", "GET", `/app-user/${companyId}/l3vpns`);

    await record("listEdgeCountries", "GET", "/v2/edge/countries");
    await record("listEdgeBandwidths", "GET", "/v2/edge/bandwidth");
    await record("listEdgeContractTerms", "GET", "/v2/edge/contract-term");
    await record("getEdgePrice", "POST", "/v2/edge/price", { body: SINGAPORE_QUOTE });
    const started = await record("startEdgePriceSearch", "POST", "/v2/edge/price/search", {
      body: SINGAPORE_QUOTE,
    });
    await record("getEdgePriceResult", "GET", `/v2/edge/price/result/${started.body.responseId}`);
    const result = await record(
      "getEdgePriceResult",
      "GET",
      `/v2/edge/price/result/${started.body.responseId}`,
    );
    await record("calculateEdgePortPrice", "GET", "/v2/edge-ports/calculate-price", {
      query: { quoteKey: result.body.data[0].quoteKey, discountCode: "NETSAVE10" },
    });
    await record("listEdgeLocations", "GET", "/v2/edge-ports/locations");

    const draft = await record("createDraftOrder", "POST", "/v2/api/draft/orders", {
      body: { name: null, speed: 500, edgePayload: { quoteKey: result.body.data[0].quoteKey } },
    });
    await record("updateDraftOrder", "PATCH", `/v2/api/draft/orders/${draft.body.id}`, {
      body: { name: "Jurong office", speed: 1000, edgePayload: { step: 2 } },
    });
    await record("listDraftOrders", "GET", "/v2/api/draft/orders");
    const second = await call<Loose>(sandbox.url, "POST", "/v2/api/draft/orders", {
      body: { speed: 200, edgePayload: {} },
    });
    await record("createEdgePortOrder", "POST", `/api/company/${company}/ports/edge-orders`, {
      body: {
        portName: "sg-edge-01",
        speed: 500,
        paymentType: "invoice",
        edgePayload: { draftOrderId: draft.body.id, country: { code: "SG" } },
      },
    });
    await record("listEdgePortOrders", "GET", "/v2/edge-ports/orders");
    await record("listEdgePortOrders", "GET", "/v2/edge-ports/orders", {
      query: { page: "1", size: "1" },
    });
    await record("listEdgeOrdersV1", "GET", `/api/company/${company}/ports/edge-orders`);
    await record("sendEdgeSelect", "POST", "/v2/admin/edge-orders/send-select", {
      body: { ...SINGAPORE_QUOTE, bandwidth: "10", bandwidthUnit: "Gbps" },
    });
    await record("sendEdgeEnquiry", "POST", "/v2/admin/edge-orders/send-enquiry", {
      body: SINGAPORE_QUOTE,
    });
    await record("deleteDraftOrder", "DELETE", `/v2/api/draft/orders/${second.body.id}`);

    // Error answers are part of the contract too.
    errorAnswers.push([
      "getAuthToken",
      await call(sandbox.url, "GET", "/api/auth/token", { auth: false }),
    ]);
    errorAnswers.push([
      "createPortOrder",
      await call(sandbox.url, "PUT", `/api/company/${company}/ports/orders`, {
        body: { speed: "1000" },
      }),
    ]);
    errorAnswers.push([
      "getPortOrder",
      await call(sandbox.url, "GET", `/api/company/${company}/ports/orders/nope`),
    ]);
    errorAnswers.push([
      "getEdgePriceResult",
      await call(sandbox.url, "GET", "/v2/edge/price/result/nope"),
    ]);
    errorAnswers.push([
      "calculateEdgePortPrice",
      await call(sandbox.url, "GET", "/v2/edge-ports/calculate-price", {
        query: { quoteKey: "nope", discountCode: "X" },
      }),
    ]);
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  it("covers exactly the operations of the OpenAPI document", async () => {
    const api = await providerContract();
    const documented = api
      .getOperations()
      .map((o) => o.operationId)
      .sort();
    expect(documented).toEqual([...OPERATIONS].sort());
    expect([...answers.keys()].sort()).toEqual([...OPERATIONS].sort());
  });

  it.each(OPERATIONS)(
    "%s answers 2xx with a body valid against its response schema",
    async (operationId) => {
      const list = answers.get(operationId) ?? [];
      expect(list.length).toBeGreaterThan(0);
      for (const answer of list) {
        expect(
          answer.status,
          `${operationId}: ${answer.text.slice(0, 300)}`,
        ).toBeGreaterThanOrEqual(200);
        expect(answer.status, `${operationId}: ${answer.text.slice(0, 300)}`).toBeLessThan(300);
        expect(await responseErrors(operationId, answer)).toEqual([]);
      }
    },
  );

  it("answers errors in a documented error shape", async () => {
    expect(errorAnswers.map(([, a]) => a.status)).toEqual([401, 400, 404, 404, 404]);
    for (const [operationId, answer] of errorAnswers) {
      expect(await responseErrors(operationId, answer)).toEqual([]);
    }
  });

  it("checks its own response validation: a wrong shape is refused", async () => {
    const bad: Answer = { status: 200, body: { results: [{ id: 5 }] }, text: "" };
    expect((await responseErrors("listPorts", bad)).length).toBeGreaterThan(0);
  });
});
