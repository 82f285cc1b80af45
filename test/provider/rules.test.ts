import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import {
  dcfSpeedsMbps,
  isPrivateAsn,
  isSingapore,
  speedMbps,
} from "../../src/domain/catalog/requestFacts.js";
import {
  edgeCalculatePriceQueryRule,
  edgeDraftOrderRule,
  edgePortOrderRule,
  edgeQuotationRule,
} from "../../src/provider/rules/edge.js";
import { fieldErrors, ROOT_FIELD } from "../../src/provider/rules/fieldErrors.js";
import { giaServiceRule, IOD_STATIC_PRIVATE_ASN } from "../../src/provider/rules/iod.js";
import {
  type Layer2BusinessToBusinessRequest,
  type Layer2PortToPortRequest,
  type Layer2Request,
  layer2BusinessToBusinessRule,
  layer2PortToPortRule,
  layer2Rule,
} from "../../src/provider/rules/layer2.js";
import { portOrderBodyRule, portOrderRule } from "../../src/provider/rules/portOrder.js";
import { pricingRequestRule } from "../../src/provider/rules/pricing.js";

type Obj = Record<string, unknown>;

/** A case is accepted when `path` is absent; otherwise refused with `message` at `path`. */
type Case = { name: string; input: unknown; path?: string; message?: RegExp };

const ok = (name: string, input: unknown): Case => ({ name, input });
const no = (name: string, input: unknown, path: string, message: RegExp): Case => ({
  name,
  input,
  path,
  message,
});

/** Copy of `base` with `patch` applied; a key patched to undefined is removed. */
function edit(base: Obj, patch: Obj): Obj {
  const out: Obj = { ...base, ...patch };
  for (const [k, v] of Object.entries(patch)) if (v === undefined) delete out[k];
  return out;
}

/** Every message at a path, unknown keys expanded to their own path, as fieldErrors does. */
function messagesAt(error: z.ZodError, path: string): string[] {
  const out: string[] = [];
  for (const issue of error.issues) {
    const paths =
      issue.code === "unrecognized_keys" ? issue.keys.map((k) => [...issue.path, k]) : [issue.path];
    for (const p of paths) {
      const key = p.length === 0 ? ROOT_FIELD : p.map(String).join(".");
      if (key === path) out.push(issue.message);
    }
  }
  return out;
}

function table(schema: z.ZodType, cases: Case[]): void {
  it.each(cases)("$name", (c) => {
    const result = schema.safeParse(c.input);
    if (c.path === undefined) {
      expect(result.error?.issues).toBeUndefined();
      return;
    }
    expect(result.success).toBe(false);
    const messages = result.error ? messagesAt(result.error, c.path) : [];
    expect(messages).toContainEqual(expect.stringMatching(c.message ?? /./));
  });
}

// -------------------------------------------------------------------------------------------

describe("speedMbps", () => {
  it.each([
    [1000, 1000],
    ["1000", 1000],
    ["1000 Mbps", 1000],
    ["1000mbps", 1000],
    ["100M", 100],
    ["100m", 100],
    ["10G", 10000],
    ["10g", 10000],
    ["10 Gbps", 10000],
    ["1 gbps", 1000],
    ["2.5G", 2500],
    ["1.1 Gbps", 1100],
    [" 40 GB ", 40000],
    [{ value: 10000, name: "10 Gbps" }, 10000],
    [{ value: 1000 }, 1000],
    [{ value: "100 Mbps" }, 100],
    [{ name: "1 Gbps" }, 1000],
  ])("reads %j as %d Mbps", (input, mbps) => {
    expect(speedMbps(input)).toBe(mbps);
  });

  it.each([
    0,
    -100,
    1.5,
    Number.NaN,
    "",
    "fast",
    "1.5",
    "10 Tbps",
    "-10G",
    "10 G bps",
    null,
    undefined,
    true,
    {},
    { value: null },
    [1000],
  ])("does not read %j", (input) => {
    expect(speedMbps(input)).toBeUndefined();
  });

  it("lists a DCF's distinct readable speeds in ascending order", () => {
    expect(dcfSpeedsMbps(["10 Gbps", 1000, { value: 1000, name: "1000 Mbps" }, "?", null])).toEqual(
      [1000, 10000],
    );
  });
});

// -------------------------------------------------------------------------------------------

describe("port order body", () => {
  const dcf = {
    username: "sg1-dc",
    speeds: [
      { value: 1000, name: "1000 Mbps" },
      { value: 10000, name: "10000 Mbps" },
    ],
  };
  const body = {
    dataCenterFacility: "sg1-dc",
    speed: "10000",
    durationUnit: "y",
    portName: "sg1-core-01",
    paymentType: "invoice",
  };
  const speedList = /Speed must be one of this data center's speeds: 1000, 10000 Mbps/;

  describe("portOrderRule(dcf)", () => {
    table(portOrderRule(dcf), [
      ok("accepts a valid order", body),
      ok("accepts a speed written as 10 Gbps (compared in Mbps)", edit(body, { speed: "10 Gbps" })),
      ok("accepts term in months", edit(body, { durationUnit: "m" })),
      ok("accepts a 100-character port name", edit(body, { portName: "p".repeat(100) })),
      no(
        "refuses a speed the DCF does not offer",
        edit(body, { speed: "100" }),
        "speed",
        speedList,
      ),
      no("refuses an unreadable speed", edit(body, { speed: "fast" }), "speed", speedList),
      no(
        "refuses a numeric speed (the spec says string)",
        edit(body, { speed: 10000 }),
        "speed",
        speedList,
      ),
      no("refuses a missing speed", edit(body, { speed: undefined }), "speed", /Speed is required/),
      no(
        "refuses another DCF's username",
        edit(body, { dataCenterFacility: "ld5-dc" }),
        "dataCenterFacility",
        /Data center must be the chosen one \(sg1-dc\)/,
      ),
      no(
        "refuses an empty DCF",
        edit(body, { dataCenterFacility: "" }),
        "dataCenterFacility",
        /Data center is required/,
      ),
      no(
        "refuses a term unit other than y or m",
        edit(body, { durationUnit: "w" }),
        "durationUnit",
        /Term unit must be y \(years\) or m \(months\)/,
      ),
      no(
        "refuses an empty port name",
        edit(body, { portName: "" }),
        "portName",
        /Port name is required/,
      ),
      no(
        "refuses a blank port name",
        edit(body, { portName: "   " }),
        "portName",
        /Port name is required/,
      ),
      no(
        "refuses a port name over 100 characters",
        edit(body, { portName: "p".repeat(101) }),
        "portName",
        /Port name must be at most 100 characters/,
      ),
      no(
        "refuses a port name with a line break",
        edit(body, { portName: "a\nb" }),
        "portName",
        /Port name can't contain line breaks/,
      ),
      no(
        "refuses a payment type other than invoice",
        edit(body, { paymentType: "card" }),
        "paymentType",
        /Payment type must be invoice/,
      ),
      no(
        "refuses an unknown field",
        edit(body, { discount: "x" }),
        "discount",
        /Not a field of this request: discount/,
      ),
    ]);

    it("trims the port name", () => {
      expect(portOrderRule(dcf).parse(edit(body, { portName: "  core  " })).portName).toBe("core");
    });

    it.each([
      ["numbers", [1000, 10000]],
      ["numeric strings", ["1000", "10000"]],
      ["human strings", ["1 Gbps", "10G"]],
    ])("accepts DCF speeds given as %s", (_kind, speeds) => {
      expect(portOrderRule({ username: "sg1-dc", speeds }).safeParse(body).success).toBe(true);
      const refused = portOrderRule({ username: "sg1-dc", speeds }).safeParse(
        edit(body, { speed: "100" }),
      );
      expect(refused.error && fieldErrors(refused.error).speed).toMatch(speedList);
    });

    it("refuses every speed when the DCF lists none", () => {
      const r = portOrderRule({ username: "sg1-dc", speeds: [] }).safeParse(body);
      expect(r.error && fieldErrors(r.error).speed).toMatch(/lists no valid speeds/);
    });
  });

  describe("portOrderBodyRule (no DCF)", () => {
    table(portOrderBodyRule, [
      ok("accepts any readable speed", edit(body, { speed: "100" })),
      no(
        "refuses an unreadable speed",
        edit(body, { speed: "fast" }),
        "speed",
        /Speed must be a speed in Mbps/,
      ),
    ]);
  });
});

// -------------------------------------------------------------------------------------------

describe("pricing request", () => {
  const port = { dcf: "dcf-uuid-1", speed: 10000, durationUnit: "y" };
  const connection = {
    bandwidth: 100,
    classOfService: "SILVER",
    duration: { value: 12, unit: "m" },
    srcDcf: "dcf-uuid-1",
    destDcf: "dcf-uuid-2",
  };
  const ports = (p: Obj) => ({ ports: [edit(port, p)] });
  const conns = (c: Obj) => ({ connections: [edit(connection, c)] });

  table(pricingRequestRule, [
    ok("accepts ports", { ports: [port, edit(port, { durationUnit: "m" })] }),
    ok("accepts ports with cross connect", { ports: [port], includeCrossConnect: true }),
    ok("accepts connections", { connections: [connection] }),
    ok("accepts every class of service", {
      connections: ["GOLD", "SILVERPLUS", "SILVER", "BRONZE"].map((c) =>
        edit(connection, { classOfService: c }),
      ),
    }),
    ok("accepts a term in weeks", conns({ duration: { value: 4, unit: "w" } })),
    no(
      "refuses ports and connections together",
      { ports: [port], connections: [connection] },
      "connections",
      /either ports or connections, not both/,
    ),
    no("refuses neither ports nor connections", {}, "ports", /Add ports or connections to price/),
    no("refuses an empty port list", { ports: [] }, "ports", /at least one port/),
    no(
      "refuses an empty connection list",
      { connections: [] },
      "connections",
      /at least one connection/,
    ),
    no(
      "refuses cross connect with connections",
      { connections: [connection], includeCrossConnect: true },
      "includeCrossConnect",
      /only to port prices/,
    ),
    no(
      "refuses a fractional port speed",
      ports({ speed: 1.5 }),
      "ports.0.speed",
      /Speed must be a whole number of Mbps/,
    ),
    no(
      "refuses a port speed as text",
      ports({ speed: "1000" }),
      "ports.0.speed",
      /Speed must be a whole number of Mbps/,
    ),
    no(
      "refuses a zero port speed",
      ports({ speed: 0 }),
      "ports.0.speed",
      /Speed must be greater than 0/,
    ),
    no("refuses an empty DCF id", ports({ dcf: "" }), "ports.0.dcf", /Data center is required/),
    no(
      "refuses a port term in weeks",
      ports({ durationUnit: "w" }),
      "ports.0.durationUnit",
      /y \(years\) or m \(months\)/,
    ),
    no(
      "refuses `duration` in place of durationUnit, naming the right field",
      ports({ durationUnit: undefined, duration: "y" }),
      "ports.0.duration",
      /duration \(use durationUnit\)/,
    ),
    no(
      "refuses a fractional bandwidth",
      conns({ bandwidth: 1.5 }),
      "connections.0.bandwidth",
      /Bandwidth must be a whole number of Mbps/,
    ),
    no(
      "refuses bandwidth as text",
      conns({ bandwidth: "1000" }),
      "connections.0.bandwidth",
      /whole number of Mbps/,
    ),
    no(
      "refuses an unknown class of service",
      conns({ classOfService: "PLATINUM" }),
      "connections.0.classOfService",
      /Class of service must be GOLD, SILVERPLUS, SILVER, BRONZE/,
    ),
    no(
      "refuses a term in years for a connection",
      conns({ duration: { value: 1, unit: "y" } }),
      "connections.0.duration.unit",
      /m \(months\) or w \(weeks\)/,
    ),
    no(
      "refuses a zero term",
      conns({ duration: { value: 0, unit: "m" } }),
      "connections.0.duration.value",
      /Term must be greater than 0/,
    ),
    no(
      "refuses a missing term",
      conns({ duration: undefined }),
      "connections.0.duration",
      /Term is required/,
    ),
    no(
      "refuses a missing source DCF",
      conns({ srcDcf: undefined }),
      "connections.0.srcDcf",
      /Source data center is required/,
    ),
    no(
      "refuses a missing destination DCF",
      conns({ destDcf: undefined }),
      "connections.0.destDcf",
      /Destination data center is required/,
    ),
  ]);

  it("gives a type that tells ports from connections", () => {
    const r = pricingRequestRule.parse({ ports: [port] });
    expect("ports" in r ? r.ports[0]?.speed : undefined).toBe(10000);
  });
});

// -------------------------------------------------------------------------------------------

describe("layer 2 connection request", () => {
  const common = {
    name: "sg-to-ld",
    portId: "5f1e0c0b8c1a2b3c4d5e6f70",
    destCompany: "acme",
    destMetroId: "5f1e0c0b8c1a2b3c4d5e6f71",
    duration: 12,
    durationUnit: "m",
    paymentType: "invoice",
    classOfService: "SILVER",
    speed: 100,
    type: "LAYER2",
    evergreen: false,
  };
  const p2p = { ...common, destPortId: "5f1e0c0b8c1a2b3c4d5e6f72" };
  const b2b = { ...common, destDcf: "dcf-uuid-2", destRegionId: "region-1" };

  describe("layer2PortToPortRule", () => {
    table(layer2PortToPortRule, [
      ok("accepts port-to-port", p2p),
      no(
        "refuses a missing destination port",
        common,
        "destPortId",
        /Destination port is required/,
      ),
      no(
        "refuses a destination DCF alongside the destination port",
        edit(p2p, { destDcf: "dcf-uuid-2" }),
        "destDcf",
        /Destination data center can't be sent with a destination port/,
      ),
      no(
        "refuses a destination region alongside the destination port",
        edit(p2p, { destRegionId: "region-1" }),
        "destRegionId",
        /Destination region can't be sent with a destination port/,
      ),
    ]);
  });

  describe("layer2BusinessToBusinessRule", () => {
    table(layer2BusinessToBusinessRule, [
      ok("accepts business-to-business", b2b),
      no(
        "refuses a destination port alongside DCF and region",
        edit(b2b, { destPortId: "x" }),
        "destPortId",
        /Destination port can't be sent with a destination data center and region/,
      ),
      no(
        "refuses a missing region",
        edit(b2b, { destRegionId: undefined }),
        "destRegionId",
        /Destination region is required/,
      ),
      no(
        "refuses a missing DCF",
        edit(b2b, { destDcf: undefined }),
        "destDcf",
        /Destination data center is required/,
      ),
    ]);
  });

  describe("layer2Rule (either)", () => {
    table(layer2Rule, [
      ok("accepts port-to-port", p2p),
      ok("accepts business-to-business", b2b),
      ok("accepts an evergreen connection", edit(p2p, { evergreen: true })),
      no(
        "names both fields when destPortId and destDcf are sent (at destPortId)",
        edit(p2p, { destDcf: "dcf-uuid-2" }),
        "destPortId",
        /Destination port conflicts with destination data center: choose port-to-port or business-to-business/,
      ),
      no(
        "names both fields when destPortId and destDcf are sent (at destDcf)",
        edit(p2p, { destDcf: "dcf-uuid-2" }),
        "destDcf",
        /Destination data center conflicts with destination port/,
      ),
      no(
        "names all three when port, DCF and region are sent",
        { ...b2b, destPortId: "x" },
        "destPortId",
        /conflicts with destination data center and destination region/,
      ),
      no(
        "refuses no destination",
        common,
        "destPortId",
        /Choose a destination port, or a destination data center and region/,
      ),
      no(
        "refuses a DCF without a region",
        edit(b2b, { destRegionId: undefined }),
        "destRegionId",
        /Destination region is required/,
      ),
      no(
        "refuses a region without a DCF",
        edit(b2b, { destDcf: undefined }),
        "destDcf",
        /Destination data center is required/,
      ),
      no(
        "refuses a term unit other than m",
        edit(p2p, { durationUnit: "y" }),
        "durationUnit",
        /Term unit must be m \(months\)/,
      ),
      no(
        "refuses a zero term",
        edit(p2p, { duration: 0 }),
        "duration",
        /Term must be greater than 0/,
      ),
      no(
        "refuses a fractional term",
        edit(p2p, { duration: 1.5 }),
        "duration",
        /Term must be a whole number/,
      ),
      no(
        "refuses a payment type other than invoice",
        edit(p2p, { paymentType: "payg" }),
        "paymentType",
        /Payment type must be invoice/,
      ),
      no(
        "refuses an unknown class of service",
        edit(p2p, { classOfService: "gold" }),
        "classOfService",
        /Class of service must be GOLD/,
      ),
      no(
        "refuses a speed as text",
        edit(p2p, { speed: "100" }),
        "speed",
        /Speed must be a whole number of Mbps/,
      ),
      no(
        "refuses a type other than LAYER2",
        edit(p2p, { type: "LAYER3" }),
        "type",
        /Connection type must be LAYER2/,
      ),
      no(
        "refuses a missing evergreen flag",
        edit(p2p, { evergreen: undefined }),
        "evergreen",
        /Evergreen is required/,
      ),
      no(
        "refuses a missing name",
        edit(p2p, { name: undefined }),
        "name",
        /Connection name is required/,
      ),
      no(
        "refuses a missing source port",
        edit(p2p, { portId: "" }),
        "portId",
        /Source port is required/,
      ),
      no(
        "refuses a missing destination company",
        edit(p2p, { destCompany: undefined }),
        "destCompany",
        /Destination company is required/,
      ),
      no(
        "refuses a missing destination metro",
        edit(p2p, { destMetroId: undefined }),
        "destMetroId",
        /Destination metro is required/,
      ),
    ]);

    it("infers either variant's type", () => {
      expectTypeOf<Layer2Request>().toEqualTypeOf<
        Layer2PortToPortRequest | Layer2BusinessToBusinessRequest
      >();
    });

    it("reports the conflict together with other field errors", () => {
      const r = layer2Rule.safeParse(edit(p2p, { destDcf: "d", speed: "fast" }));
      const errors = r.error ? fieldErrors(r.error) : {};
      expect(errors.speed).toMatch(/whole number/);
      expect(errors.destPortId).toMatch(/conflicts/);
    });
  });
});

// -------------------------------------------------------------------------------------------

describe("IO-D service request", () => {
  const common = {
    accessPortId: "5f1e0c0b8c1a2b3c4d5e6f70",
    name: "iod-sg1",
    rateLimit: 100,
    enableIpv6: false,
    defaultOriginate: true,
    defaultOriginateIpv6: false,
    duration: { quantity: 30, unit: "d" },
    paymentType: "payg",
    ipGeoCountry: "SG",
    ipGeoCity: "",
  };
  const dynamicPrivate = {
    ...common,
    type: "DYNAMIC",
    privateAsn: true,
    privateAsnAutoAssign: true,
    ipBlock: 28,
    autoAssignBgpKey: true,
  };
  const dynamicPublic = {
    ...common,
    type: "DYNAMIC",
    privateAsn: false,
    asnId: "3f2504e0-4f89-11d3-9a0c-0305e82c3301",
    bgpKey: "s3cr3t-key",
  };
  const staticRouting = {
    ...common,
    type: "STATIC",
    privateAsn: IOD_STATIC_PRIVATE_ASN,
    privateAsnAutoAssign: true,
    ipBlock: 29,
  };

  table(giaServiceRule, [
    // Rule 1
    ok("rule 1: accepts auto-assigned private ASN", dynamicPrivate),
    ok(
      "rule 1: accepts a requested 16-bit private ASN",
      edit(dynamicPrivate, { privateAsnAutoAssign: undefined, privateAsnRequested: 64512 }),
    ),
    ok(
      "rule 1: accepts a requested 32-bit private ASN with auto-assign false",
      edit(dynamicPrivate, { privateAsnAutoAssign: false, privateAsnRequested: 4200000000 }),
    ),
    no(
      "rule 1: refuses neither auto-assign nor a requested ASN",
      edit(dynamicPrivate, { privateAsnAutoAssign: false }),
      "privateAsnRequested",
      /^Choose private ASN auto-assign or enter one/,
    ),
    no(
      "rule 1: refuses auto-assign together with a requested ASN",
      edit(dynamicPrivate, { privateAsnRequested: 64600 }),
      "privateAsnRequested",
      /^.*not both/,
    ),
    no(
      "rule 1: refuses a public ASN number as the private ASN",
      edit(dynamicPrivate, { privateAsnAutoAssign: undefined, privateAsnRequested: 13335 }),
      "privateAsnRequested",
      /^Private ASN must be in 64512–65534 or 4200000000–4294967294/,
    ),
    no(
      "rule 1: refuses 65535 (reserved, not private)",
      edit(dynamicPrivate, { privateAsnAutoAssign: undefined, privateAsnRequested: 65535 }),
      "privateAsnRequested",
      /^Private ASN must be in/,
    ),
    no(
      "rule 1: refuses a missing IP block",
      edit(dynamicPrivate, { ipBlock: undefined }),
      "ipBlock",
      /^A private ASN needs an IPv4 block/,
    ),
    no(
      "rule 1: refuses a public ASN id",
      edit(dynamicPrivate, { asnId: "3f2504e0-4f89-11d3-9a0c-0305e82c3301" }),
      "asnId",
      /^Public ASN can't be used with a private ASN/,
    ),
    // Rule 2
    ok("rule 2: accepts a public ASN", dynamicPublic),
    ok("rule 2: accepts a public ASN with an IP block", edit(dynamicPublic, { ipBlock: 28 })),
    no(
      "rule 2: refuses a missing public ASN",
      edit(dynamicPublic, { asnId: undefined }),
      "asnId",
      /^Public ASN is required/,
    ),
    no(
      "rule 2: refuses a requested private ASN",
      edit(dynamicPublic, { privateAsnRequested: 64512 }),
      "privateAsnRequested",
      /^Private ASN can't be used with a public ASN/,
    ),
    no(
      "rule 2: refuses privateAsnAutoAssign even when false",
      edit(dynamicPublic, { privateAsnAutoAssign: false }),
      "privateAsnAutoAssign",
      /^Private ASN auto-assign can't be used/,
    ),
    // Rule 3
    ok("rule 3: accepts BGP key auto-assign", dynamicPrivate),
    ok("rule 3: accepts a 6-character BGP key", edit(dynamicPublic, { bgpKey: "abcdef" })),
    ok("rule 3: accepts a 24-character BGP key", edit(dynamicPublic, { bgpKey: "k".repeat(24) })),
    ok(
      "rule 3: accepts a BGP key with auto-assign false",
      edit(dynamicPublic, { autoAssignBgpKey: false }),
    ),
    no(
      "rule 3: refuses neither a BGP key nor auto-assign",
      edit(dynamicPublic, { bgpKey: undefined }),
      "bgpKey",
      /^Enter a BGP key \(6 to 24 characters\) or choose auto-assign/,
    ),
    no(
      "rule 3: refuses auto-assign false without a key",
      edit(dynamicPrivate, { autoAssignBgpKey: false }),
      "bgpKey",
      /^Enter a BGP key/,
    ),
    no(
      "rule 3: refuses a 5-character BGP key",
      edit(dynamicPublic, { bgpKey: "abcde" }),
      "bgpKey",
      /^BGP key must be 6 to 24 characters/,
    ),
    no(
      "rule 3: refuses a 25-character BGP key",
      edit(dynamicPublic, { bgpKey: "k".repeat(25) }),
      "bgpKey",
      /^BGP key must be 6 to 24 characters/,
    ),
    no(
      "rule 3: refuses a key together with auto-assign",
      edit(dynamicPublic, { autoAssignBgpKey: true }),
      "bgpKey",
      /^.*not both/,
    ),
    // Rule 4
    ok(
      "rule 4: accepts IPv6 with a /48",
      edit(dynamicPrivate, { enableIpv6: true, ipv6Block: 48 }),
    ),
    ok("rule 4: accepts IPv6 off without a block", edit(dynamicPrivate, { enableIpv6: false })),
    no(
      "rule 4: refuses IPv6 without a block",
      edit(dynamicPrivate, { enableIpv6: true }),
      "ipv6Block",
      /^IPv6 block is required/,
    ),
    no(
      "rule 4: refuses a /64",
      edit(dynamicPrivate, { enableIpv6: true, ipv6Block: 64 }),
      "ipv6Block",
      /^IPv6 block can only be \/48/,
    ),
    no(
      "rule 4: refuses any block other than /48 even with IPv6 off",
      edit(staticRouting, { ipv6Block: 56 }),
      "ipv6Block",
      /^IPv6 block can only be \/48/,
    ),
    // Rule 5
    ok("rule 5: accepts static routing with privateAsn true", staticRouting),
    ok(
      "rule 5: accepts static routing with privateAsn false (the spec's sample)",
      edit(staticRouting, { privateAsn: false }),
    ),
    ok(
      "rule 5: accepts static routing with IPv6",
      edit(staticRouting, { enableIpv6: true, ipv6Block: 48 }),
    ),
    no(
      "rule 5: refuses a missing private ASN auto-assign",
      edit(staticRouting, { privateAsnAutoAssign: undefined }),
      "privateAsnAutoAssign",
      /^Static routing needs private ASN auto-assign on/,
    ),
    no(
      "rule 5: refuses private ASN auto-assign false",
      edit(staticRouting, { privateAsnAutoAssign: false }),
      "privateAsnAutoAssign",
      /^Static routing needs private ASN auto-assign on/,
    ),
    no(
      "rule 5: refuses a missing IP block",
      edit(staticRouting, { ipBlock: undefined }),
      "ipBlock",
      /^Static routing needs an IPv4 block/,
    ),
    no(
      "rule 5: refuses a public ASN",
      edit(staticRouting, { asnId: "3f2504e0-4f89-11d3-9a0c-0305e82c3301" }),
      "asnId",
      /^Public ASN can't be used with static routing/,
    ),
    no(
      "rule 5: refuses a requested private ASN",
      edit(staticRouting, { privateAsnRequested: 64512 }),
      "privateAsnRequested",
      /^A chosen private ASN can't be used with static routing/,
    ),
    no(
      "rule 5: refuses a BGP key",
      edit(staticRouting, { bgpKey: "abcdefgh" }),
      "bgpKey",
      /^BGP key can't be used with static routing/,
    ),
    no(
      "rule 5: refuses BGP key auto-assign, even false",
      edit(staticRouting, { autoAssignBgpKey: false }),
      "autoAssignBgpKey",
      /^BGP key auto-assign can't be used/,
    ),
    // Fields
    no(
      "refuses an unknown routing type",
      edit(staticRouting, { type: "BGP" }),
      "type",
      /Routing type must be DYNAMIC or STATIC/,
    ),
    no(
      "refuses a zero rate limit",
      edit(staticRouting, { rateLimit: 0 }),
      "rateLimit",
      /Rate limit must be greater than 0/,
    ),
    no(
      "refuses a fractional rate limit",
      edit(staticRouting, { rateLimit: 10.5 }),
      "rateLimit",
      /Rate limit must be a whole number of Mbps/,
    ),
    no(
      "refuses an IP block over 32",
      edit(staticRouting, { ipBlock: 33 }),
      "ipBlock",
      /IP block must be a prefix length from 0 to 32/,
    ),
    no(
      "refuses a negative IP block",
      edit(staticRouting, { ipBlock: -1 }),
      "ipBlock",
      /prefix length from 0 to 32/,
    ),
    no(
      "refuses a public ASN id that is not a UUID",
      edit(dynamicPublic, { asnId: "13335" }),
      "asnId",
      /id of a verified ASN record/,
    ),
    no(
      "refuses a lower-case country",
      edit(staticRouting, { ipGeoCountry: "sg" }),
      "ipGeoCountry",
      /two-letter code in capitals/,
    ),
    no(
      "refuses a three-letter country",
      edit(staticRouting, { ipGeoCountry: "SGP" }),
      "ipGeoCountry",
      /two-letter code/,
    ),
    no(
      "refuses a missing privateAsn",
      edit(staticRouting, { privateAsn: undefined }),
      "privateAsn",
      /Private ASN is required/,
    ),
    no(
      "refuses a zero-day term",
      edit(staticRouting, { duration: { quantity: 0, unit: "d" } }),
      "duration.quantity",
      /Term must be greater than 0/,
    ),
    no(
      "refuses an empty service name",
      edit(staticRouting, { name: " " }),
      "name",
      /Service name is required/,
    ),
    no(
      "refuses a missing port",
      edit(staticRouting, { accessPortId: undefined }),
      "accessPortId",
      /Port is required/,
    ),
    no(
      "refuses an unknown field (burst rate is not shown)",
      edit(staticRouting, { burstRate: 200 }),
      "burstRate",
      /Not a field of this request: burstRate/,
    ),
  ]);

  it("reports every violated rule at once, each at its field", () => {
    const r = giaServiceRule.safeParse(
      edit(staticRouting, {
        ipBlock: undefined,
        asnId: "3f2504e0-4f89-11d3-9a0c-0305e82c3301",
        bgpKey: "abcdefgh",
        enableIpv6: true,
      }),
    );
    const errors = r.error ? fieldErrors(r.error) : {};
    expect(errors).toEqual({
      ipBlock: expect.stringMatching(/^Static routing needs an IPv4 block/),
      asnId: expect.stringMatching(/^Public ASN can't be used with static routing/),
      bgpKey: expect.stringMatching(/^BGP key can't be used with static routing/),
      ipv6Block: expect.stringMatching(/^IPv6 block is required when IPv6 is on/),
    });
  });

  it("reports rule violations even when another field has the wrong type", () => {
    const r = giaServiceRule.safeParse(edit(dynamicPublic, { rateLimit: "100", asnId: undefined }));
    const errors = r.error ? fieldErrors(r.error) : {};
    expect(errors.rateLimit).toMatch(/Rate limit must be a whole number/);
    expect(errors.asnId).toMatch(/^Public ASN is required when not using a private ASN/);
  });

  it("sends privateAsn true for STATIC (rule text over the spec's sample)", () => {
    expect(IOD_STATIC_PRIVATE_ASN).toBe(true);
  });

  it.each([
    [64512, true],
    [65534, true],
    [4200000000, true],
    [4294967294, true],
    [64511, false],
    [65535, false],
    [4294967295, false],
    [64512.5, false],
  ])("isPrivateAsn(%d) is %s", (asn, expected) => {
    expect(isPrivateAsn(asn)).toBe(expected);
  });
});

// -------------------------------------------------------------------------------------------

describe("Edge quotation request", () => {
  const quote = {
    country: { code: "GB", name: "United Kingdom" },
    bandwidth: "100",
    bandwidthUnit: "Mbps",
    "contract-term": "12",
    contractTermUnit: "month",
    "formatted-address": "1 Example Street, London, UK",
  };
  const sg = edit(quote, { country: { code: "SG", name: "Singapore" }, postCode: "018989" });

  table(edgeQuotationRule, [
    ok("accepts a quote request", quote),
    ok(
      "accepts Gbps, a null postcode and withMetro",
      edit(quote, { bandwidthUnit: "Gbps", postCode: null, withMetro: false }),
    ),
    ok("accepts a decimal bandwidth", edit(quote, { bandwidth: "2.5", bandwidthUnit: "Gbps" })),
    ok("accepts Singapore with a postcode", sg),
    no(
      "refuses a missing country",
      edit(quote, { country: undefined }),
      "country",
      /Country is required/,
    ),
    no(
      "refuses a country that is not an object",
      edit(quote, { country: "GB" }),
      "country",
      /Country must be one of the Edge countries/,
    ),
    no(
      "refuses a non-numeric bandwidth",
      edit(quote, { bandwidth: "fast" }),
      "bandwidth",
      /Bandwidth must be a number/,
    ),
    no(
      "refuses a numeric (not text) bandwidth",
      edit(quote, { bandwidth: 100 }),
      "bandwidth",
      /Bandwidth must be a number/,
    ),
    no(
      "refuses a zero bandwidth",
      edit(quote, { bandwidth: "0" }),
      "bandwidth",
      /Bandwidth must be greater than 0/,
    ),
    no(
      "refuses a bandwidth unit other than Mbps or Gbps",
      edit(quote, { bandwidthUnit: "Tbps" }),
      "bandwidthUnit",
      /Bandwidth unit must be Mbps or Gbps/,
    ),
    no(
      "refuses a fractional contract term",
      edit(quote, { "contract-term": "12.5" }),
      "contract-term",
      /Contract term must be a number/,
    ),
    no(
      "refuses a missing contract term unit",
      edit(quote, { contractTermUnit: undefined }),
      "contractTermUnit",
      /Contract term unit is required/,
    ),
    no(
      "refuses an empty address",
      edit(quote, { "formatted-address": "" }),
      "formatted-address",
      /Address is required/,
    ),
    no(
      "refuses Singapore without a postcode",
      edit(sg, { postCode: undefined }),
      "postCode",
      /Postcode is required for a Singapore address/,
    ),
    no(
      "refuses Singapore with a null postcode",
      edit(sg, { postCode: null }),
      "postCode",
      /Postcode is required/,
    ),
    no(
      "refuses a 5-digit Singapore postcode",
      edit(sg, { postCode: "12345" }),
      "postCode",
      /Singapore postcode must be 6 digits/,
    ),
    no(
      "refuses withMetro as text",
      edit(quote, { withMetro: "yes" }),
      "withMetro",
      /Include metro must be true or false/,
    ),
  ]);

  it.each([
    [{ code: "SG" }, true],
    [{ iso2: "sg" }, true],
    [{ isoCode: "SGP" }, true],
    [{ name: "Singapore" }, true],
    [{ countryName: " SINGAPORE " }, true],
    [{ id: 1, label: "Singapore", provider: "x" }, true],
    [{ code: "GB", name: "United Kingdom" }, false],
    [{ currency: "SG" }, false],
    [{ code: "SGD" }, false],
    [null, false],
    ["SG", false],
  ])("isSingapore(%j) is %s", (country, expected) => {
    expect(isSingapore(country)).toBe(expected);
  });
});

describe("Edge port order request", () => {
  const order = {
    portName: "edge-sg-01",
    speed: 100,
    paymentType: "invoice",
    edgePayload: { draftOrderId: "64b7f0c2a1b2c3d4e5f60718", quote: { price: 1 } },
  };

  table(edgePortOrderRule, [
    ok("accepts an Edge port order", order),
    ok("accepts a speed as numeric text", edit(order, { speed: "1000" })),
    ok("accepts a missing payment type (default invoice)", edit(order, { paymentType: undefined })),
    ok("accepts an edgePayload without a draft", edit(order, { edgePayload: {} })),
    no(
      "refuses a speed below 100",
      edit(order, { speed: 99 }),
      "speed",
      /^Edge port speed must be at least 100 Mbps$/,
    ),
    no(
      "refuses a speed below 100 as text",
      edit(order, { speed: "50" }),
      "speed",
      /at least 100 Mbps/,
    ),
    no(
      "refuses a non-numeric speed",
      edit(order, { speed: "10G" }),
      "speed",
      /Edge port speed must be a number of Mbps/,
    ),
    no("refuses a missing speed", edit(order, { speed: undefined }), "speed", /Speed is required/),
    no(
      "refuses a payment type other than invoice",
      edit(order, { paymentType: "payg" }),
      "paymentType",
      /^Edge orders support only invoice payment$/,
    ),
    no(
      "refuses a missing port name",
      edit(order, { portName: undefined }),
      "portName",
      /Port name is required/,
    ),
    no(
      "refuses `name` in place of portName, naming the right field",
      edit(order, { portName: undefined, name: "edge-sg-01" }),
      "name",
      /name \(use portName\)/,
    ),
    no(
      "refuses a missing edgePayload",
      edit(order, { edgePayload: undefined }),
      "edgePayload",
      /Edge order details are required/,
    ),
    no(
      "refuses an empty draft order id",
      edit(order, { edgePayload: { draftOrderId: "" } }),
      "edgePayload.draftOrderId",
      /Draft order id can't be empty/,
    ),
  ]);
});

describe("Edge draft order body", () => {
  const draft = { name: "SG quote", speed: 100, edgePayload: { step: 2 } };

  table(edgeDraftOrderRule, [
    ok("accepts a draft", draft),
    ok("accepts a null name", edit(draft, { name: null })),
    ok("accepts a missing name (service names it)", edit(draft, { name: undefined })),
    no("refuses an empty name", edit(draft, { name: " " }), "name", /Draft name can't be empty/),
    no("refuses a missing speed", edit(draft, { speed: undefined }), "speed", /Speed is required/),
    no(
      "refuses a speed as text",
      edit(draft, { speed: "100" }),
      "speed",
      /Speed must be a number of Mbps/,
    ),
    no(
      "refuses a missing edgePayload",
      edit(draft, { edgePayload: undefined }),
      "edgePayload",
      /Edge order details are required/,
    ),
    no(
      "refuses an edgePayload that is a list",
      edit(draft, { edgePayload: [] }),
      "edgePayload",
      /Edge order details must be an object/,
    ),
  ]);
});

describe("Edge calculate-price query", () => {
  const query = { quoteKey: "q-123", discountCode: "SPRING" };

  table(edgeCalculatePriceQueryRule, [
    ok("accepts a quote key and discount code", query),
    no(
      "refuses an empty quote key",
      edit(query, { quoteKey: "" }),
      "quoteKey",
      /Quote key is required/,
    ),
    no(
      "refuses a missing discount code",
      edit(query, { discountCode: undefined }),
      "discountCode",
      /Discount code is required/,
    ),
  ]);
});

// -------------------------------------------------------------------------------------------

describe("fieldErrors", () => {
  it("keeps the first message per field path, joined with dots", () => {
    const r = pricingRequestRule.safeParse({ ports: [{ dcf: "", speed: 1.5, durationUnit: "y" }] });
    expect(r.error && fieldErrors(r.error)).toEqual({
      "ports.0.dcf": "Data center is required",
      "ports.0.speed": "Speed must be a whole number of Mbps",
    });
  });

  it("reports each unknown key under its own path", () => {
    const r = edgeCalculatePriceQueryRule.safeParse({
      quoteKey: "q",
      discountCode: "d",
      a: 1,
      b: 2,
    });
    const errors = r.error ? fieldErrors(r.error) : {};
    expect(Object.keys(errors).sort()).toEqual(["a", "b"]);
    expect(errors.a).toMatch(/Not a field of this request: a, b/);
  });

  it("puts whole-body problems under ROOT_FIELD", () => {
    const r = edgeDraftOrderRule.safeParse("not an object");
    expect(r.error && fieldErrors(r.error)).toEqual({
      [ROOT_FIELD]: "Draft order must be an object",
    });
  });
});
