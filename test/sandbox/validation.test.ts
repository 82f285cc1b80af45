// Every rule the sandbox enforces is refused with a 400 whose message names the rule; missing
// or empty keys get 401; unknown paths 404.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { call, type Loose, openSandbox } from "./helpers.js";

interface Ctx {
  company: string;
  companyId: string;
  iadPort: Loose;
  fraNni: Loose;
  partnerPort: Loose;
  publicAsnId: string;
  iadDcf: Loose;
  torontoDcf: Loose;
  torontoMetro: Loose;
}

type Case = [
  name: string,
  method: string,
  path: (c: Ctx) => string,
  body: (c: Ctx) => unknown,
  message: RegExp,
];

const portOrder = (over: Record<string, unknown>) => () => ({
  dataCenterFacility: "ironbridge-iad1",
  speed: "10000",
  durationUnit: "y",
  portName: "rules-01",
  paymentType: "invoice",
  ...over,
});

const iod = (over: Record<string, unknown>) => (c: Ctx) => ({
  accessPortId: c.iadPort.id,
  name: "iod-rules",
  rateLimit: 100,
  ...over,
});
const privateDynamic = {
  type: "DYNAMIC",
  privateAsn: true,
  privateAsnAutoAssign: true,
  ipBlock: 28,
  autoAssignBgpKey: true,
};
const publicDynamic = (c: Ctx) => ({
  type: "DYNAMIC",
  privateAsn: false,
  asnId: c.publicAsnId,
  autoAssignBgpKey: true,
});
const staticRouting = { type: "STATIC", privateAsn: true, privateAsnAutoAssign: true, ipBlock: 29 };

const l2 = (over: (c: Ctx) => Record<string, unknown>) => (c: Ctx) => {
  const body: Record<string, unknown> = {
    name: "l2-rules",
    portId: c.iadPort.id,
    destCompany: "globex-cloud",
    destMetroId: c.partnerPort.metroId,
    duration: 12,
    durationUnit: "m",
    paymentType: "invoice",
    classOfService: "SILVER",
    speed: 100,
    type: "LAYER2",
    ...over(c),
  };
  for (const [k, v] of Object.entries(body)) if (v === undefined) delete body[k];
  return body;
};

const companyPath = (suffix: string) => (c: Ctx) => `/api/company/${c.company}${suffix}`;
const iodPath = (c: Ctx) => `/app-user/${c.companyId}/gia-service`;
const l2Path = (c: Ctx) => `/api/v2/company/${c.company}/connections/layer2`;
const edgeOrder = (over: Record<string, unknown>) => () => ({
  portName: "edge-rules",
  speed: 500,
  edgePayload: {},
  ...over,
});

const CASES: Case[] = [
  [
    "port order: speed not offered",
    "PUT",
    companyPath("/ports/orders"),
    portOrder({ speed: "2500" }),
    /speed "2500" is not one of the valid speeds of DCF Ironbridge IAD1/,
  ],
  [
    "port order: unknown DCF username",
    "PUT",
    companyPath("/ports/orders"),
    portOrder({ dataCenterFacility: "nowhere-dc" }),
    /no DCF with username "nowhere-dc"/,
  ],
  [
    "port order: DCF not ready",
    "PUT",
    companyPath("/ports/orders"),
    portOrder({ dataCenterFacility: "atlas-colo-la4", speed: "1000" }),
    /not ready/,
  ],
  [
    "port order: missing required field",
    "PUT",
    companyPath("/ports/orders"),
    () => ({
      dataCenterFacility: "ironbridge-iad1",
      speed: "1000",
      durationUnit: "y",
      paymentType: "invoice",
    }),
    /body must have required property 'portName'/,
  ],
  [
    "port order: unknown field",
    "PUT",
    companyPath("/ports/orders"),
    portOrder({ colour: "red" }),
    /additional properties \(colour\)/,
  ],
  [
    "port order: paymentType",
    "PUT",
    companyPath("/ports/orders"),
    portOrder({ paymentType: "card" }),
    /paymentType must be equal to one of the allowed values \(invoice\)/,
  ],
  [
    "Edge order: speed below 100",
    "POST",
    companyPath("/ports/edge-orders"),
    edgeOrder({ speed: 50 }),
    /speed must be at least 100 Mbps/,
  ],
  [
    "Edge order: speed text below 100",
    "POST",
    companyPath("/ports/edge-orders"),
    edgeOrder({ speed: "99" }),
    /speed must be at least 100 Mbps/,
  ],
  [
    "Edge order: paymentType",
    "POST",
    companyPath("/ports/edge-orders"),
    edgeOrder({ paymentType: "card" }),
    /paymentType "card" is not supported; invoice is the only/,
  ],
  [
    "Edge order: no port name",
    "POST",
    companyPath("/ports/edge-orders"),
    () => ({ speed: 500, edgePayload: {} }),
    /portName \(or name\) is required/,
  ],
  [
    "IO-D rules 1-2: privateAsn missing",
    "POST",
    iodPath,
    iod({ type: "DYNAMIC", autoAssignBgpKey: true, ipBlock: 28 }),
    /IO-D rules 1 and 2: privateAsn/,
  ],
  [
    "IO-D rule 1: no private ASN source",
    "POST",
    iodPath,
    iod({ ...privateDynamic, privateAsnAutoAssign: undefined }),
    /IO-D rule 1: .*privateAsnAutoAssign true or give privateAsnRequested/,
  ],
  [
    "IO-D rule 1: ipBlock",
    "POST",
    iodPath,
    iod({ ...privateDynamic, ipBlock: undefined }),
    /IO-D rule 1: ipBlock is required/,
  ],
  [
    "IO-D rule 1: asnId with private ASN",
    "POST",
    iodPath,
    (c) => iod({ ...privateDynamic, asnId: c.publicAsnId })(c),
    /IO-D rule 1: asnId must not be sent/,
  ],
  [
    "IO-D rule 1: requested ASN not private",
    "POST",
    iodPath,
    iod({ ...privateDynamic, privateAsnAutoAssign: undefined, privateAsnRequested: 13335 }),
    /IO-D rule 1: privateAsnRequested must be a private ASN/,
  ],
  [
    "IO-D rule 2: asnId required",
    "POST",
    iodPath,
    iod({ type: "DYNAMIC", privateAsn: false, autoAssignBgpKey: true }),
    /IO-D rule 2: asnId is required with a public ASN/,
  ],
  [
    "IO-D rule 2: private fields with public ASN",
    "POST",
    iodPath,
    (c) => iod({ ...publicDynamic(c), privateAsnAutoAssign: true })(c),
    /IO-D rule 2: privateAsnAutoAssign must not be sent/,
  ],
  [
    "IO-D rule 2: asnId not a verified public ASN",
    "POST",
    iodPath,
    (c) => iod({ ...publicDynamic(c), asnId: "00000000-0000-4000-8000-000000000000" })(c),
    /IO-D rule 2: asnId must be the id of a verified public ASN/,
  ],
  [
    "IO-D rule 3: no BGP key",
    "POST",
    iodPath,
    iod({ ...privateDynamic, autoAssignBgpKey: undefined }),
    /IO-D rule 3: .*autoAssignBgpKey true or give a bgpKey/,
  ],
  [
    "IO-D rule 3: BGP key length",
    "POST",
    iodPath,
    iod({ ...privateDynamic, autoAssignBgpKey: undefined, bgpKey: "abc" }),
    /IO-D rule 3: bgpKey must be 6 to 24 characters/,
  ],
  [
    "IO-D rule 4: ipv6Block required",
    "POST",
    iodPath,
    iod({ ...privateDynamic, enableIpv6: true }),
    /IO-D rule 4: ipv6Block is required/,
  ],
  [
    "IO-D rule 4: ipv6Block only 48",
    "POST",
    iodPath,
    iod({ ...privateDynamic, enableIpv6: true, ipv6Block: 56 }),
    /IO-D rule 4: ipv6Block must be 48/,
  ],
  [
    "IO-D rule 5: privateAsnAutoAssign",
    "POST",
    iodPath,
    iod({ ...staticRouting, privateAsnAutoAssign: false }),
    /IO-D rule 5: STATIC routing needs privateAsnAutoAssign true/,
  ],
  [
    "IO-D rule 5: ipBlock",
    "POST",
    iodPath,
    iod({ ...staticRouting, ipBlock: undefined }),
    /IO-D rule 5: ipBlock is required/,
  ],
  [
    "IO-D rule 5: forbidden fields",
    "POST",
    iodPath,
    iod({ ...staticRouting, bgpKey: "secret-key-1" }),
    /IO-D rule 5: bgpKey must not be sent/,
  ],
  [
    "IO-D: port not IO-D enabled",
    "POST",
    iodPath,
    (c) => iod({ ...staticRouting, accessPortId: c.fraNni.id })(c),
    /not IO-D enabled \(capabilities.giaStandardV1 is false\)/,
  ],
  [
    "IO-D: rate limit over capacity",
    "POST",
    iodPath,
    iod({ ...staticRouting, rateLimit: 9000 }),
    // 10 G less the seeded layer 2 connection (2,000) and the seeded IO-D service (500).
    /rateLimit 9000 Mbps exceeds the port's remaining capacity \(7500 Mbps\)/,
  ],
  [
    "IO-D: missing name",
    "POST",
    iodPath,
    (c) => ({ accessPortId: c.iadPort.id, rateLimit: 100, ...staticRouting }),
    /body must have required property 'name'/,
  ],
  [
    "layer 2 p2p: destDcf mixed in",
    "PUT",
    l2Path,
    l2((c) => ({ destPortId: c.partnerPort.id, destDcf: c.iadDcf.id })),
    /port-to-port: destPortId must not be sent with destDcf/,
  ],
  [
    "layer 2: no destination",
    "PUT",
    l2Path,
    l2(() => ({})),
    /send destPortId \(port-to-port\) or destDcf and destRegionId/,
  ],
  [
    "layer 2 b2b: destRegionId missing",
    "PUT",
    l2Path,
    l2((c) => ({ destDcf: c.iadDcf.id, destMetroId: c.iadDcf.dataCenterFacility.metroId })),
    /business-to-business: destDcf and destRegionId are both required/,
  ],
  [
    "layer 2: source port of another company",
    "PUT",
    l2Path,
    l2((c) => ({
      portId: c.partnerPort.id,
      destPortId: c.iadPort.id,
      destCompany: "acme-networks",
      destMetroId: c.iadPort.metroId,
    })),
    /does not belong to company acme-networks/,
  ],
  [
    "layer 2 b2b: metro without layer 2",
    "PUT",
    l2Path,
    l2((c) => ({
      destDcf: c.torontoDcf.id,
      destMetroId: c.torontoMetro.id,
      destRegionId: c.torontoMetro.regionIds[0],
    })),
    /Layer 2 is not available in metro Toronto/,
  ],
  [
    "layer 2 b2b: wrong region",
    "PUT",
    l2Path,
    l2((c) => ({
      destDcf: c.iadDcf.id,
      destMetroId: c.iadDcf.dataCenterFacility.metroId,
      destRegionId: "nope",
    })),
    /destRegionId must be one of the regionIds/,
  ],
  [
    "layer 2 p2p: wrong destCompany",
    "PUT",
    l2Path,
    l2((c) => ({ destPortId: c.partnerPort.id, destCompany: "acme-networks" })),
    /destCompany must be globex-cloud/,
  ],
  [
    "pricing: unknown DCF",
    "POST",
    () => "/api/pricing/calculate",
    () => ({ ports: [{ dcf: "nope", speed: 1000, durationUnit: "y" }] }),
    /no DCF with id nope/,
  ],
  [
    "pricing: speed not offered",
    "POST",
    () => "/api/pricing/calculate",
    (c) => ({ ports: [{ dcf: c.iadDcf.id, speed: 2500, durationUnit: "y" }] }),
    /Speed 2500 Mbps is not offered/,
  ],
  [
    "pricing: ports and connections together",
    "POST",
    () => "/api/pricing/calculate",
    (c) => ({ ports: [{ dcf: c.iadDcf.id, speed: 1000, durationUnit: "y" }], connections: [] }),
    /Invalid request: body/,
  ],
  [
    "Edge quote: country not configured",
    "POST",
    () => "/v2/edge/price/search",
    () => ({
      country: { code: "ZZ" },
      bandwidth: "100",
      bandwidthUnit: "Mbps",
      "contract-term": "12",
      contractTermUnit: "month",
      "formatted-address": "x",
    }),
    /not configured for this country/,
  ],
  [
    "Edge quote: Singapore needs a postCode",
    "POST",
    () => "/v2/edge/price/search",
    () => ({
      country: { code: "SG" },
      bandwidth: "100",
      bandwidthUnit: "Mbps",
      "contract-term": "12",
      contractTermUnit: "month",
      "formatted-address": "1 Raffles Place",
    }),
    /postCode is required/,
  ],
];

describe("sandbox request rules", () => {
  let sandbox: Sandbox;
  const ctx = {} as Ctx;

  beforeAll(async () => {
    sandbox = await openSandbox();
    ctx.company = sandbox.apiUser.companyUsername;
    ctx.companyId = sandbox.apiUser.companyId;
    const own = (await call<Loose>(sandbox.url, "GET", `/api/company/${ctx.company}/ports`)).body
      .results as Loose[];
    ctx.iadPort = own.find((p) => p.name === "iad-core-01");
    ctx.fraNni = own.find((p) => p.type === "NNI");
    const partner = (await call<Loose>(sandbox.url, "GET", "/api/company/globex-cloud/ports")).body
      .results as Loose[];
    ctx.partnerPort = partner.find((p) => p.name === "globex-iad-01");
    const asns = (await call<Loose>(sandbox.url, "GET", `/app-user/${ctx.companyId}/asns`))
      .body as Loose[];
    ctx.publicAsnId = asns.find((a) => !a.private && a.status === "VERIFIED").id;
    const dcfs = (await call<Loose>(sandbox.url, "GET", "/v2/data-center-facility"))
      .body as Loose[];
    ctx.iadDcf = dcfs.find((d) => d.username === "ironbridge-iad1");
    const metros = (
      await call<Loose>(sandbox.url, "GET", `/api/company/${ctx.company}/metro/capabilities`)
    ).body.results as Loose[];
    ctx.torontoMetro = metros.find((m) => m.name === "Toronto");
    ctx.torontoDcf = dcfs.find((d) => d.dataCenterFacility.metroId === ctx.torontoMetro.id);
  });

  afterAll(async () => {
    await sandbox?.close();
  });

  it.each(CASES)(
    "refuses %s with a 400 naming the rule",
    async (_name, method, path, body, message) => {
      const answer = await call<Loose>(sandbox.url, method, path(ctx), { body: body(ctx) });
      expect(answer.status, answer.text).toBe(400);
      expect(answer.body.code).toBe(400);
      expect(answer.body.message).toMatch(message);
    },
  );

  it("accepts STATIC IO-D with privateAsn true and with false (the spec is ambiguous)", async () => {
    for (const privateAsn of [true, false]) {
      const answer = await call<Loose>(sandbox.url, "POST", iodPath(ctx), {
        body: iod({ ...staticRouting, privateAsn })(ctx),
      });
      expect(answer.status, answer.text).toBe(200);
    }
  });

  it("accepts the legacy `duration` field in port pricing, priced like durationUnit", async () => {
    const legacy = await call<Loose>(sandbox.url, "POST", "/api/pricing/calculate", {
      body: { ports: [{ dcf: ctx.iadDcf.id, speed: 1000, duration: "y" }] },
    });
    const current = await call<Loose>(sandbox.url, "POST", "/api/pricing/calculate", {
      body: { ports: [{ dcf: ctx.iadDcf.id, speed: 1000, durationUnit: "y" }] },
    });
    expect(legacy.status).toBe(200);
    expect(legacy.body.results[0].price).toBe(current.body.results[0].price);
  });

  it("refuses bad JSON in filter, criteria and the body with the provider's 400 shape", async () => {
    const filter = await call<Loose>(sandbox.url, "GET", "/v2/data-center-facility", {
      query: { filter: "{where" },
    });
    expect(filter.body).toEqual({ code: 400, message: "filter is not valid JSON" });
    const criteria = await call<Loose>(sandbox.url, "GET", "/v2/data-center-facility/search", {
      query: { criteria: "[1" },
    });
    expect(criteria.body).toEqual({ code: 400, message: "criteria is not valid JSON" });
    const res = await fetch(`${sandbox.url}/api/pricing/calculate`, {
      method: "POST",
      headers: { authorization: "Bearer k", "content-type": "application/json" },
      body: "{not json",
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ code: 400, message: "Request body is not valid JSON" });
  });

  it("answers 401 without a bearer key, and accepts any non-empty one", async () => {
    const expected = {
      error: { message: "The user is not logged in", status: 401, statusCode: 401 },
    };
    for (const auth of [false, "Bearer ", "Bearer    ", "Basic abc", "abc"] as const) {
      const answer = await call(sandbox.url, "GET", "/api/auth/token", { auth });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual(expected);
    }
    expect((await call(sandbox.url, "GET", "/api/auth/token", { auth: "Bearer x" })).status).toBe(
      200,
    );
    expect(
      (await call(sandbox.url, "GET", "/api/auth/token", { auth: "bearer some-other-key" })).status,
    ).toBe(200);
  });

  it("answers 404 for unknown paths, including unknown admin paths, in the provider's envelope", async () => {
    for (const path of [
      "/api/nothing-here",
      "/v2/edge",
      "/__sandbox/nothing",
      "/api/auth/token/extra",
    ]) {
      const answer = await call<Loose>(sandbox.url, "GET", path);
      expect(answer.status, path).toBe(404);
      expect(answer.body.error).toMatchObject({
        status: 404,
        statusCode: 404,
        message: expect.any(String),
      });
    }
    expect((await call(sandbox.url, "DELETE", "/api/auth/token")).status).toBe(404);
  });

  it("serves admin endpoints without a key, only under /__sandbox/", async () => {
    expect((await call(sandbox.url, "GET", "/__sandbox/clock", { auth: false })).status).toBe(200);
    expect((await call(sandbox.url, "GET", "/clock", { auth: false })).status).toBe(404);
    expect((await call(sandbox.url, "GET", "/api/__sandbox/clock")).status).toBe(404);
  });

  it("answers 403 when ordering for another company and 404 for an unknown one", async () => {
    const other = await call<Loose>(sandbox.url, "PUT", "/api/company/globex-cloud/ports/orders", {
      body: portOrder({})(),
    });
    expect(other.status).toBe(403);
    const unknown = await call<Loose>(sandbox.url, "PUT", "/api/company/nobody/ports/orders", {
      body: portOrder({})(),
    });
    expect(unknown.status).toBe(404);
  });
});
