import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/approvals/index.js";
import { createLogger } from "../../src/log.js";
import type { Port, ProviderApi } from "../../src/provider/api.js";
import { serviceKind } from "../../src/provider/serviceRecords.js";
import { firstServiceIds, type LookupDeps, lookUpService } from "../../src/usecases/services.js";

const IDENTITY = {
  userId: "u1",
  companyId: "c0ffee0000000000000000c1",
  companyUsername: "acme-networks",
};

const ams = {
  id: "port-ams",
  name: "ams-core-1",
  dataCenterFacilityId: "dcf-am3",
  dataCenterFacility: { name: "Equinix AM3", username: "equinix-am3" },
  metro: { name: "Amsterdam", code: "AMS" },
  connections: [
    { id: "l2-both", name: "ams-to-lon", status: "ACTIVE", speed: 2000, type: "LAYER2" },
    { id: "l2-b2b", name: "ams-to-globex", status: "PENDING", speed: 200, type: "LAYER2" },
    { id: "iod-1", name: "ams-internet", status: "ACTIVE", speed: 500, type: "GIA" },
  ],
} as unknown as Port;
const lon = {
  id: "port-lon",
  name: "lon-core-01",
  dataCenterFacility: { name: "Equinix LD5" },
  connections: [
    { id: "l2-both", name: "ams-to-lon", status: "ACTIVE", speed: 2000, type: "LAYER2" },
  ],
} as unknown as Port;

function approvalFor(kind: "layer2" | "iod", providerId: string, body: unknown, record: unknown) {
  return {
    id: "apr_abcdefghijklmnop",
    kind,
    requester: { userId: "U0REQUESTER" },
    summary: [],
    call: { operation: "x", pathParams: {}, body },
    result: { providerId, status: "CREATING", record },
  } as unknown as ApprovalRequest;
}

function depsWith(ports: unknown[], approvals?: ApprovalRequest[] | Error) {
  const logLines: string[] = [];
  let listCalls = 0;
  const deps: LookupDeps = {
    provider: {
      listPorts: async (company: string) => {
        expect(company).toBe(IDENTITY.companyUsername);
        listCalls++;
        return ports as Port[];
      },
    } as unknown as ProviderApi,
    identity: async () => IDENTITY,
    logger: createLogger({
      level: "debug",
      destination: new Writable({
        write(chunk, _enc, cb) {
          logLines.push(chunk.toString());
          cb();
        },
      }),
    }),
    ...(approvals
      ? {
          approvals: {
            store: {
              list: async () => {
                if (approvals instanceof Error) throw approvals;
                return approvals;
              },
            } as never,
          },
        }
      : {}),
  };
  return { deps, logLines, listCalls: () => listCalls };
}

describe("lookUpService", () => {
  it("finds a port-to-port connection in the ports' connections, with both ports as its ends", async () => {
    const { deps, listCalls } = depsWith([ams, lon]);
    const found = await lookUpService(deps, "l2-both");
    expect(listCalls()).toBe(1);
    if (!found.found) throw new Error("not found");
    expect(found.service).toMatchObject({
      id: "l2-both",
      kind: "layer2",
      name: "ams-to-lon",
      status: "ACTIVE",
      speedMbps: 2000,
      source: {
        portId: "port-ams",
        portName: "ams-core-1",
        dcfName: "Equinix AM3",
        dcfUsername: "equinix-am3",
        metroName: "Amsterdam",
        metroCode: "AMS",
      },
      destination: { portId: "port-lon", portName: "lon-core-01", dcfName: "Equinix LD5" },
    });
    expect(found.service.partner).toBeUndefined();
  });

  it("takes the partner of a business-to-business connection and its terms from the approval record", async () => {
    const request = {
      name: "ams-to-globex",
      portId: "port-ams",
      destCompany: "globex-cloud",
      destMetroId: "metro-fra",
      destDcf: "dcf-fr5",
      destRegionId: "eu-1",
      classOfService: "SILVER",
      duration: 6,
      durationUnit: "m",
      speed: 200,
      evergreen: true,
    };
    const { deps } = depsWith(
      [ams, lon],
      [approvalFor("layer2", "l2-b2b", request, { id: "l2-b2b", status: "CREATING" })],
    );
    const found = await lookUpService(deps, "l2-b2b");
    if (!found.found) throw new Error("not found");
    expect(found.service).toMatchObject({
      kind: "layer2",
      // The port's entry is the provider's current word, not the creation answer.
      status: "PENDING",
      source: { portId: "port-ams" },
      partner: {
        company: "globex-cloud",
        dcfId: "dcf-fr5",
        metroId: "metro-fra",
        regionId: "eu-1",
      },
      classOfService: "SILVER",
      term: { value: 6, unit: "m" },
      evergreen: true,
      approval: { id: "apr_abcdefghijklmnop", requesterId: "U0REQUESTER" },
    });
    expect(found.service.destination).toBeUndefined();
  });

  it("an IO-D service: access port, ASN and address block sizes from the creation answer, never the BGP key", async () => {
    const request = {
      accessPortId: "port-ams",
      name: "ams-internet",
      rateLimit: 500,
      type: "DYNAMIC",
      privateAsn: false,
      asnId: "asn-uuid",
      ipBlock: 28,
      enableIpv6: true,
      ipv6Block: 48,
      bgpKey: "s3cret-bgp-key",
      duration: { quantity: 30, unit: "d" },
    };
    const record = {
      id: "iod-1",
      status: "CREATING",
      asn: 64500,
      ipBlock: 28,
      ipv6Block: 48,
      bgp: { state: "ESTABLISHED", peerIp: "203.0.113.17", key: "s3cret-bgp-key" },
    };
    const { deps } = depsWith([ams, lon], [approvalFor("iod", "iod-1", request, record)]);
    const found = await lookUpService(deps, "iod-1");
    if (!found.found) throw new Error("not found");
    expect(found.service).toMatchObject({
      kind: "iod",
      speedMbps: 500,
      source: { portId: "port-ams" },
      routing: "DYNAMIC",
      asn: "64500",
      privateAsn: false,
      ipv4Blocks: [],
      ipv4PrefixLength: 28,
      ipv6PrefixLength: 48,
      term: { value: 30, unit: "d" },
      bgpSessions: [{ state: "ESTABLISHED", peerIp: "203.0.113.17" }],
    });
    expect(JSON.stringify(found.service)).not.toContain("s3cret");
  });

  it("reads assigned blocks wherever the record lists them", async () => {
    const port = {
      id: "p1",
      connections: [
        {
          id: "iod-2",
          type: "GIA",
          ipv4: ["198.51.100.0/29"],
          ipv6Prefixes: [{ prefix: "2001:db8::/48" }],
          asn: { asn: 65010 },
        },
      ],
    };
    const found = await lookUpService(depsWith([port]).deps, "iod-2");
    if (!found.found) throw new Error("not found");
    expect(found.service.ipv4Blocks).toEqual(["198.51.100.0/29"]);
    expect(found.service.ipv6Blocks).toEqual(["2001:db8::/48"]);
    expect(found.service.asn).toBe("65010");
  });

  it("says not found, with how many ports were checked", async () => {
    const found = await lookUpService(depsWith([ams, lon]).deps, "nope");
    expect(found).toEqual({ found: false, id: "nope", portsChecked: 2 });
  });

  it("never crashes on odd shapes: ports without connections, entries that are not objects, odd fields", async () => {
    const odd = [
      { id: "p0" },
      { id: "p1", connections: "none" },
      {
        id: "p2",
        connections: [null, 7, "x", { id: "odd-1", status: 5, speed: "fast", type: {} }],
      },
    ];
    const found = await lookUpService(depsWith(odd).deps, "odd-1");
    if (!found.found) throw new Error("not found");
    expect(found.service).toMatchObject({ id: "odd-1", kind: "other", status: "5" });
    expect(found.service.speedMbps).toBeUndefined();
  });

  it("still answers when the approval records cannot be read, and logs why", async () => {
    const { deps, logLines } = depsWith([ams, lon], new Error("redis down"));
    const found = await lookUpService(deps, "l2-both");
    expect(found.found).toBe(true);
    expect(logLines.join("")).toContain("approval records unavailable");
  });
});

describe("serviceKind and firstServiceIds", () => {
  it("tells layer 2 from IO-D by type or friendly name", () => {
    expect(serviceKind({ type: "LAYER2" })).toBe("layer2");
    expect(serviceKind({ typeFriendly: "Layer 2" })).toBe("layer2");
    expect(serviceKind({ type: "GIA" })).toBe("iod");
    expect(serviceKind({ typeFriendly: "Internet On-Demand" })).toBe("iod");
    expect(serviceKind({ type: "L3VPN" })).toBe("other");
    expect(serviceKind({})).toBe("other");
  });

  it("finds the first layer 2 connection and IO-D service for help's examples", () => {
    expect(firstServiceIds([ams, lon])).toEqual({ connectionId: "l2-both", serviceId: "iod-1" });
    expect(firstServiceIds([lon])).toEqual({ connectionId: "l2-both" });
    expect(firstServiceIds([{ id: "p" } as Port])).toEqual({});
  });
});
