// Hand-built provider records following openapi/provider.yaml: realistic full records, old ones
// with the epoch in deletedAt/cancelledAt, unknown statuses and tags, and bare minimum records.
import type { components } from "../../src/provider/generated/provider.js";

type Schemas = components["schemas"];

export const EPOCH = "1970-01-01T00:00:00.000Z";
/** "Now" for every view test; 3 days after CREATED. */
export const NOW = new Date("2026-11-15T13:05:00.000Z");
export const CREATED = "2026-11-12T13:05:00.000Z";
export const TZ = "Europe/Amsterdam";

export const metroAms: Schemas["Metro"] = {
  id: "5f1a2b3c4d5e6f7a8b9c0d1e",
  name: "Amsterdam",
  code: "AMS",
  country: "NL",
  regionIds: ["6a1b2c3d4e5f6a7b8c9d0e1f"],
  ready: true,
  deleted: false,
  deletedAt: null,
  createdAt: "2020-01-01T00:00:00.000Z",
};

const publicPrivacy = { mode: "PUBLIC", blackListIds: [], whiteListIds: [] };

export const dcfOnNet: Schemas["DataCenterFacility"] = {
  id: "61f0c1a2b3c4d5e6f7a8b9c0",
  username: "equinix-am3",
  name: "Equinix AM3",
  tags: [],
  company: {
    privacy: { network: publicPrivacy, community: publicPrivacy },
    addresses: [
      {
        registered: true,
        primary: false,
        address: "Head office 1",
        city: "Haarlem",
        country: "NL",
      },
      {
        registered: false,
        primary: true,
        address: "Science Park 610",
        city: "Amsterdam",
        state: "NH",
        zip: "1098 XH",
        country: "NL",
        geo: { type: "Point", coordinates: [4.95, 52.35] },
      },
    ],
    website: "https://example.com",
  },
  dataCenterFacility: {
    airportCodes: ["AMS"],
    speeds: [1000, 10000, 100000],
    metroId: metroAms.id,
    ready: true,
    id: "0b7c9d4e-1f2a-4b3c-8d5e-6f7a8b9c0d1e",
    nniReady: true,
    brandId: null,
    canBundleCrossConnect: true,
  },
  stats: { members: 3, interconnections: 120 },
  provider: [],
  externalId: null,
  destinationPortOnly: false,
  verified: true,
  nnis: null,
  costbookLocationId: "7c1d2e3f4a5b6c7d8e9f0a1b",
  bundleCrossConnectChargeId: null,
  // An old record: the epoch means "not deleted".
  deletedAt: EPOCH,
  createdAt: "2019-05-01T10:00:00.000Z",
  updatedAt: "2025-05-01T10:00:00.000Z",
};

export const dcfOffNet: Schemas["DataCenterFacility"] = {
  id: "62a0c1a2b3c4d5e6f7a8b9c1",
  username: "partner-lisbon-1",
  name: "Partner Lisbon 1",
  tags: ["OFF_NET", "EXTENDED"],
  company: { addresses: [{ registered: true, city: "Lisbon", country: "PT" }] },
  // The element shape of speeds is not shown: objects as in port records.
  dataCenterFacility: {
    speeds: [
      { value: 1000, name: "1000 Mbps" },
      { value: 10000, name: "10000 Mbps" },
    ],
    metroId: "5f1a2b3c4d5e6f7a8b9c0d99",
    ready: false,
  },
  deletedAt: null,
};

export const dcfEdgeFree: Schemas["DataCenterFacility"] = {
  id: "63b0c1a2b3c4d5e6f7a8b9c2",
  username: "edge-amsterdam-2",
  name: "Edge & Co <Amsterdam> 2",
  tags: ["EDGE", "FREE_CROSS_CONNECT", "SHINY_NEW_TAG"],
  dataCenterFacility: { speeds: ["100", "1000", "2500"], metroId: metroAms.id },
};

/** Nothing but the id: every view must still render. */
export const dcfBare: Schemas["DataCenterFacility"] = { id: "64c0c1a2b3c4d5e6f7a8b9c3" };

export const portActive: Schemas["Port"] = {
  id: "5f2a9c0e1b3d4a5f6e7d8c9b",
  name: "ams-core-1",
  companyId: "600000000000000000000001",
  speed: { value: 10000, name: "10000 Mbps" },
  status: "ACTIVE",
  serviceStatus: "OPEN",
  linkState: "UP",
  linkStateUpSince: CREATED,
  type: "PHYSICAL",
  isEdgePort: false,
  mediaType: "FIBER",
  dataCenterFacilityId: dcfOnNet.id,
  metroId: metroAms.id,
  capacity: { total: 10000, utilised: 2500, remaining: 7500 },
  supportedServices: ["L2", "IOD"],
  vlanRanges: [
    { start: 100, end: 199 },
    { start: 300, end: 300 },
  ],
  cosMapping: { GOLD: ["EF", "CS5"], SILVERPLUS: ["AF41"], SILVER: ["AF31"], BRONZE: [] },
  connections: [
    { id: "c1", name: "to-london", status: "ACTIVE", speed: 1000, type: "LAYER2" },
    {
      id: "c2",
      name: "to-frankfurt",
      status: "ERROR",
      speed: 500,
      type: "LAYER2",
      typeFriendly: "Layer 2",
    },
    { id: "c3", name: "to-paris", status: "FROBNICATING", speed: 100, type: "LAYER2" },
  ],
  dataCenterFacility: { ...dcfOnNet },
  metro: metroAms,
  createdAt: "2026-01-10T09:00:00.000Z",
  firstActiveAt: "2026-01-12T09:00:00.000Z",
  activeChangedAt: "2026-01-12T09:00:00.000Z",
  deletedAt: null,
  deleted: false,
};

/** An old port with an unknown status, no embedded objects, the epoch in deletedAt. */
export const portOld: Schemas["Port"] = {
  id: "5f2a9c0e1b3d4a5f6e7d8c00",
  name: "legacy-nni",
  speed: { name: "1000 Mbps" },
  status: "HIBERNATING",
  type: "NNI",
  metroId: "5f1a2b3c4d5e6f7a8b9c0d99",
  capacity: { utilised: 0, remaining: 1000 },
  deletedAt: EPOCH,
};

export const portBare: Schemas["Port"] = { id: "5f2a9c0e1b3d4a5f6e7d8cff" };

export const capabilitiesIod: Schemas["PortCapabilities"] = {
  capabilities: { giaStandardV1: true, l2TypeA: true, l3vpnTypeA: false, qinq: true },
};
export const capabilitiesNoIod: Schemas["PortCapabilities"] = {
  capabilities: { giaStandardV1: false },
};

const baseOrder: Schemas["PortOrderRead"] = {
  id: "64b7f0c2a1e9d3b5c7a8e6f4",
  portName: "ams-core-2",
  speed: { value: 10000, name: "10000 Mbps" },
  paymentType: "invoice",
  status: "created",
  loaStatus: "TODO",
  isEdgePort: false,
  edgePayload: null,
  cancelled: false,
  requestSource: "BRAND_API",
  createdBy: "jdoe",
  type: "PHYSICAL",
  dataCenterFacilityId: dcfOnNet.id,
  metroId: metroAms.id,
  dataCenterFacility: { ...dcfOnNet, type: "DATA_CENTER_FACILITY", tags: [] },
  metro: metroAms,
  deleted: false,
  deletedAt: null,
  cancelledAt: null,
  createdAt: CREATED,
  updatedAt: CREATED,
  durationUnit: "y",
};

export const orderCreatedOnNet: Schemas["PortOrderRead"] = baseOrder;

export const orderOffNet: Schemas["PortOrderRead"] = {
  ...baseOrder,
  id: "64b7f0c2a1e9d3b5c7a8e6f5",
  status: "allocated",
  dataCenterFacilityId: dcfOffNet.id,
  dataCenterFacility: { ...dcfOffNet, type: "DATA_CENTER_FACILITY" },
  metro: undefined,
};

/** An old finished order: the epoch in cancelledAt means "not cancelled". */
export const orderDone: Schemas["PortOrderRead"] = {
  ...baseOrder,
  id: "64b7f0c2a1e9d3b5c7a8e6f6",
  status: "done",
  loaStatus: "DONE",
  cancelledAt: EPOCH,
  port: {
    id: "5f2a9c0e1b3d4a5f6e7d8caa",
    name: "ams-core-2",
    speed: 10000,
    status: "ACTIVE",
    type: "PHYSICAL",
  },
};

/** No DCF embedded: the kind of data center cannot be told. */
export const orderNoDcf: Schemas["PortOrderRead"] = {
  id: "64b7f0c2a1e9d3b5c7a8e6f7",
  status: "AWAITING_SOMETHING_NEW",
  loaStatus: "IN_REVIEW",
  metroId: metroAms.id,
};

export const orderCancelled: Schemas["PortOrderRead"] = {
  ...baseOrder,
  id: "64b7f0c2a1e9d3b5c7a8e6f8",
  status: "cancelled",
  cancelled: true,
  cancelledAt: "2026-11-14T10:00:00.000Z",
  cancelledBy: "admin",
};

export const orderBare: Schemas["PortOrderRead"] = { id: "64b7f0c2a1e9d3b5c7a8e6f9" };

export const asnPublic: Schemas["Asn"] = {
  id: "3e1f7a2b-4c5d-4e6f-8a9b-0c1d2e3f4a5b",
  companyId: "600000000000000000000001",
  asn: "13335",
  asSet: "AS-EXAMPLE",
  private: false,
  status: "VERIFIED",
  ipPrefixConfiguredInIPCV4: ["192.0.2.0/24", "198.51.100.0/24"],
  ipPrefixConfiguredInSLV4: ["192.0.2.0/24", "203.0.113.0/24"],
  ipPrefixConfiguredInIPCV6: ["2001:db8::/32"],
  ipPrefixConfiguredInSLV6: [],
  deallocatedAt: null,
  deleted_at: EPOCH,
};

export const asnPrivateUnknownStatus: Schemas["Asn"] = {
  id: "3e1f7a2b-4c5d-4e6f-8a9b-0c1d2e3f4a5c",
  asn: "64512",
  asSet: null,
  status: "RECHECKING",
};

export const asnBare: Schemas["Asn"] = { id: "3e1f7a2b-4c5d-4e6f-8a9b-0c1d2e3f4a5d" };

export const routerFull: Schemas["CloudRouter"] = {
  id: "65d0c1a2b3c4d5e6f7a8b9c4",
  companyId: "600000000000000000000001",
  name: "eu-backbone",
  requestSource: "BRAND_APP",
  status: "CREATED",
  paymentMethod: "invoice",
  duration: { quantity: 12, unit: "m" },
  bandwidth: "1000MB",
  deletedAt: EPOCH,
  sites: [
    {
      id: "a1b2c3d4-0000-4000-8000-000000000001",
      name: "ams-site",
      type: "COMPANY",
      portId: portActive.id,
      rateLimit: { rate: 500, unit: "Mbps" },
      classOfService: [
        { name: "GOLD", value: 20 },
        { name: "SILVER", value: 30 },
      ],
      redundancySiteType: "primary",
      status: "CREATED",
      deleted_at: EPOCH,
      peers: [
        {
          id: "b1b2c3d4-0000-4000-8000-000000000001",
          type: "SELF",
          status: "CREATED",
          asn: 64512,
          externalIp: "10.0.0.1/30",
        },
      ],
    },
    {
      id: "a1b2c3d4-0000-4000-8000-000000000002",
      name: "fra-site",
      port_id: "5f2a9c0e1b3d4a5f6e7d8c01",
      rateLimit: { rate: 1000 },
      status: "DELETING",
      deleted_at: "2026-11-01T00:00:00.000Z",
      peers: [
        {
          id: "b1b2c3d4-0000-4000-8000-000000000002",
          type: "PARTNER",
          status: "SWAYING",
          asn: 65001,
          externalIp: "10.0.1.1/30",
        },
      ],
    },
  ],
};

export const routerBare: Schemas["CloudRouter"] = { id: "65d0c1a2b3c4d5e6f7a8b9c5" };

export const edgeLocations: Schemas["EdgeLocation"][] = [
  { city: "Amsterdam", country: "Netherlands" },
  { city: "Lisbon", country: "Portugal" },
  { country: "Singapore" },
  {},
];

export const edgeItems: Schemas["EdgeOrderListItem"][] = [
  {
    id: "66e0c1a2b3c4d5e6f7a8b9c6",
    speed: 1000,
    portName: "edge-lisbon-1",
    objectType: "DRAFT ORDER",
    status: "DRAFT",
    daysUntilDelete: 2,
    createdAt: CREATED,
  },
  {
    id: "66e0c1a2b3c4d5e6f7a8b9c7",
    speed: 10000,
    portName: "edge-ams-1",
    objectType: "PORT",
    status: "done",
    createdAt: "2026-10-01T08:00:00.000Z",
    edgePayload: { vendor: "x" },
  },
  { id: "66e0c1a2b3c4d5e6f7a8b9c8", objectType: "ORDER", status: "QUOTING_AGAIN" },
  {},
];

export const drafts: Schemas["DraftOrder"][] = [
  {
    id: "67f0c1a2b3c4d5e6f7a8b9c9",
    name: "Draft order 01-11-2026",
    speed: 1000,
    edgePayload: {},
    deleteIn: 2,
    status: "DRAFT",
    createdAt: "2026-11-01T08:00:00.000Z",
  },
  {
    id: "67f0c1a2b3c4d5e6f7a8b9ca",
    name: null,
    speed: 100,
    edgePayload: {},
    deleteIn: 20,
    createdAt: CREATED,
  },
  { id: "67f0c1a2b3c4d5e6f7a8b9cb" },
];

export const portPriceResult: Schemas["PricingResult"] = {
  type: "PORT",
  entity: {
    dcf: { id: dcfOnNet.id, name: "Equinix AM3", regionIds: [], metroIds: [metroAms.id], tags: [] },
    speed: 10000,
    discountId: null,
    durationUnit: "m",
  },
  price: 14814,
  preAuthAmount: 1234.5,
  amountSaved: null,
  amountSavedTotal: null,
  basicTotalAmount: null,
  basicMonthlyAmount: 1234.5,
  crossConnectAmount: 350,
};

export const connectionPriceResult: Schemas["PricingResult"] = {
  type: "CONNECTION",
  entity: {
    srcDcf: { id: dcfOnNet.id, name: "Equinix AM3" },
    destDcf: { id: "68a0c1a2b3c4d5e6f7a8b9d0", name: "Telehouse North" },
    duration: { unit: "m", value: 12 },
    bandwidth: 500,
    classOfService: "SILVER",
  },
  // (350*1.2)*12/(1-0.25)+150
  price: 6870,
  preAuthAmount: 572.5,
  amountSaved: 120,
  amountSavedTotal: null,
  basicTotalAmount: 6990,
  basicMonthlyAmount: 572.5,
  formula: "(bandwidthCost*multiplier)*duration/(1-margin)+portFee",
  factors: [
    { name: "margin", number: 0.25, ref: null },
    { name: "portFee", number: 150, ref: null },
    { name: "nniFee", number: 0, ref: null },
    {
      name: "bandwidthCost",
      number: 350,
      ref: {
        from: { id: "r-eu", name: "Europe", regionIds: ["r-eu"] },
        to: { id: "r-uk", name: "United Kingdom", regionIds: ["r-uk"] },
        price: { price: 0.7, bandwidth: { from: 1, to: 1000 }, cos: "SILVER" },
      },
    },
    { name: "multiplier", number: 1.2, ref: null },
    { name: "duration", number: 12, ref: null },
  ],
};
