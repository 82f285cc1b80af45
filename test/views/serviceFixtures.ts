import type { ServiceDetail } from "../../src/usecases/services.js";

// Layer 2 connections and IO-D services as the look-up flow describes them (src/usecases/services.ts).

export const layer2PortToPort: ServiceDetail = {
  id: "6a1b2c3d4e5f6a7b8c9d0e1f",
  kind: "layer2",
  name: "ams-to-lon",
  status: "ACTIVE",
  typeLabel: "Layer 2",
  speedMbps: 2000,
  source: {
    portId: "5f2a9c0e1b3d4a5f6e7d8c9b",
    portName: "ams-core-1",
    dcfName: "Equinix AM3",
    dcfUsername: "equinix-am3",
    dcfId: "dcf-am3",
    metroName: "Amsterdam",
    metroCode: "AMS",
  },
  destination: {
    portId: "5f2a9c0e1b3d4a5f6e7d8c00",
    portName: "lon-core-01",
    dcfName: "Equinix LD5",
    dcfUsername: "equinix-ld5",
    metroName: "London",
    metroCode: "LON",
  },
  classOfService: "SILVER",
  term: { value: 12, unit: "m" },
  evergreen: true,
  ipv4Blocks: [],
  ipv6Blocks: [],
  bgpSessions: [],
  createdAt: "2026-11-12T13:05:00.000Z",
  approval: { id: "apr_abcdefghijklmnop", requesterId: "U0REQUESTER" },
};

export const layer2BusinessToBusiness: ServiceDetail = {
  id: "6a1b2c3d4e5f6a7b8c9d0e2f",
  kind: "layer2",
  name: "ams-to-globex",
  status: "PENDING",
  speedMbps: 200,
  source: { portId: "5f2a9c0e1b3d4a5f6e7d8c9b", portName: "ams-core-1" },
  partner: { company: "globex-cloud", dcfId: "dcf-fr5", metroId: "metro-fra", regionId: "eu-1" },
  ipv4Blocks: [],
  ipv6Blocks: [],
  bgpSessions: [],
};

export const iodService: ServiceDetail = {
  id: "6a1b2c3d4e5f6a7b8c9d0e3f",
  kind: "iod",
  name: "ams-internet",
  status: "ACTIVE",
  typeLabel: "Internet On-Demand",
  speedMbps: 500,
  source: { portId: "5f2a9c0e1b3d4a5f6e7d8c9b", portName: "ams-core-1", dcfName: "Equinix AM3" },
  term: { value: 30, unit: "d" },
  routing: "DYNAMIC",
  asn: "64500",
  privateAsn: false,
  ipv4Blocks: ["203.0.113.16/28"],
  ipv6Blocks: ["2001:db8:1200::/48"],
  bgpSessions: [
    { state: "ESTABLISHED", peerIp: "203.0.113.17", peerAsn: "64500", localIp: "203.0.113.18" },
  ],
};

/** Only what every look-up is sure of. */
export const bareService: ServiceDetail = {
  id: "6a1b2c3d4e5f6a7b8c9d0e4f",
  kind: "other",
  ipv4Blocks: [],
  ipv6Blocks: [],
  bgpSessions: [],
};
