import { describe, expect, it } from "vitest";
import { text } from "../../src/domain/catalog/edge.js";
import type { Port } from "../../src/provider/api.js";
import {
  addressBlocksOf,
  asnOf,
  bgpSessionsOf,
  connectionProgress,
  firstOf,
  flagOf,
  portPlace,
  portSpeedAsSent,
  recordOf,
  serviceKind,
  termOf,
} from "../../src/provider/serviceRecords.js";

describe("recordOf", () => {
  it("keeps a record and reads anything else as no fields", () => {
    expect(recordOf({ a: 1 })).toEqual({ a: 1 });
    for (const x of [null, undefined, 3, "x", [1, 2]]) expect(recordOf(x)).toEqual({});
  });
});

describe("firstOf and flagOf", () => {
  it("reads records in order, and within a record the spellings in order", () => {
    const rows = [{ rateLimit: "", bandwidth: 50 }, { speed: 100 }];
    expect(
      firstOf(rows, ["speed", "rateLimit", "bandwidth"], (v) =>
        typeof v === "number" ? v : undefined,
      ),
    ).toBe(50);
    expect(firstOf(rows, ["nothing"], text)).toBeUndefined();
  });

  it("reads only real booleans", () => {
    expect(flagOf([{ evergreen: "true" }, { evergreen: false }], "evergreen")).toBe(false);
    expect(flagOf([{}], "evergreen")).toBeUndefined();
  });
});

describe("serviceKind", () => {
  it("reads the kind from any of the type fields", () => {
    expect(serviceKind({ serviceType: "l2" })).toBe("layer2");
    expect(serviceKind({ type: 7, typeFriendly: "IO-D" })).toBe("iod");
    expect(serviceKind({ type: "VXC" })).toBe("other");
  });
});

describe("portPlace", () => {
  it("reads the facility and metro the port embeds, the facility id first", () => {
    const port = {
      id: "p1",
      dataCenterFacilityId: "dcf-1",
      dataCenterFacility: { id: "dcf-x", name: " SY1 ", username: "sy1" },
      metro: { name: "Sydney", code: "SYD" },
    } as unknown as Port;
    expect(portPlace(port)).toEqual({
      dcfName: "SY1",
      dcfUsername: "sy1",
      dcfId: "dcf-1",
      metroName: "Sydney",
      metroCode: "SYD",
    });
    expect(portPlace({ id: "p2", dataCenterFacility: "odd" } as unknown as Port)).toEqual({});
  });
});

describe("termOf", () => {
  it("reads a number, a {quantity|value, unit} object and durationUnit (which wins)", () => {
    expect(termOf([{ duration: "12", durationUnit: "MONTHS" }])).toEqual({
      value: 12,
      unit: "MONTHS",
    });
    expect(termOf([{ duration: { quantity: 3, unit: "YEARS" } }])).toEqual({
      value: 3,
      unit: "YEARS",
    });
    expect(termOf([{ duration: { value: 1, unit: "YEAR" } }, { durationUnit: "MONTHS" }])).toEqual({
      value: 1,
      unit: "MONTHS",
    });
    expect(termOf([{}, { name: "x" }])).toBeUndefined();
  });
});

describe("addressBlocksOf", () => {
  it("splits v4 from v6, reads strings, lists and {prefix|block} items, drops repeats", () => {
    const rows = [
      { ipv4: "203.0.113.0/28", prefixes: ["2001:db8::/48", { prefix: "198.51.100.0/30" }] },
      { ipBlock: 28, ipv4Prefixes: [{ block: "203.0.113.0/28" }, "not a block"] },
    ];
    expect(addressBlocksOf(rows)).toEqual({
      ipv4: ["203.0.113.0/28", "198.51.100.0/30"],
      ipv6: ["2001:db8::/48"],
    });
  });

  it("keeps at most 20 of a kind", () => {
    const many = Array.from({ length: 30 }, (_, i) => `10.0.${i}.0/24`);
    expect(addressBlocksOf([{ prefixes: many }]).ipv4).toHaveLength(20);
  });
});

describe("bgpSessionsOf", () => {
  it("reads the first record's sessions under any spelling, never the key", () => {
    const rows = [
      { name: "no sessions here" },
      {
        bgpPeer: { status: "UP", neighborIp: "192.0.2.1", remoteAsn: 64512, bgpKey: "s3cret!" },
      },
      { bgpSessions: [{ state: "DOWN" }] },
    ];
    const sessions = bgpSessionsOf(rows);
    expect(sessions).toEqual([{ state: "UP", peerIp: "192.0.2.1", peerAsn: "64512" }]);
    expect(JSON.stringify(sessions)).not.toContain("s3cret");
  });

  it("skips empty session objects and keeps at most 10", () => {
    expect(bgpSessionsOf([{ bgp: [{}, { other: 1 }] }])).toEqual([]);
    const list = Array.from({ length: 12 }, () => ({ state: "UP" }));
    expect(bgpSessionsOf([{ bgpSessions: list }])).toHaveLength(10);
  });
});

describe("asnOf", () => {
  it("reads a number, text or {asn}, from the first record that has one", () => {
    expect(asnOf([{}, { asn: { asn: 65001 } }, { asn: 1 }])).toBe("65001");
    expect(asnOf([{ asn: "  " }, { asn: "64512" }])).toBe("64512");
    expect(asnOf([{}])).toBeUndefined();
  });
});

describe("connectionProgress", () => {
  it("reads status, who it waits on and why, under their spellings", () => {
    expect(
      connectionProgress({
        status: " ERROR ",
        destCompanyName: "Peer Co",
        statusReason: "VLAN taken",
      }),
    ).toEqual({ status: "ERROR", waitingOn: "Peer Co", details: "VLAN taken" });
    expect(connectionProgress({})).toEqual({});
  });
});

describe("portSpeedAsSent", () => {
  it("keeps the provider's own words: a number, text, or {value, name}", () => {
    expect(portSpeedAsSent(10000)).toBe(10000);
    expect(portSpeedAsSent("10G")).toBe("10G");
    expect(portSpeedAsSent({ value: 1000, name: "1G" })).toBe(1000);
    expect(portSpeedAsSent({ value: "1000", name: "1G" })).toBe("1G");
    expect(portSpeedAsSent({})).toBeUndefined();
    expect(portSpeedAsSent(null)).toBeUndefined();
  });
});
