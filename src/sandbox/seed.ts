// Builds the deterministic world for a seed: regions, metros, DCFs, the API user's company and
// a partner company, their ports, ASNs, cloud routers and the Edge catalogue.
import { DAY } from "./clock.js";
import type {
  ApiUser,
  Company,
  Dcf,
  EdgeCountry,
  Metro,
  Port,
  PortConnection,
  PortOrder,
  Region,
  Schemas,
} from "./model.js";
import { Prng } from "./random.js";
import {
  type DcfVariant,
  EDGE_COUNTRY_SEEDS,
  METRO_SEEDS,
  type MetroSeed,
  REGION_SEEDS,
} from "./seedData.js";

/** The brand in `requestSource` (`<BRAND>_API`, `<BRAND>_APP`). */
export const BRAND = "NETBRIDGE";
/** The provider shows the epoch instead of null in some older records. */
export const EPOCH = "1970-01-01T00:00:00.000Z";
/** Seed data is dated from here, never from the clock, so a seed gives the same records. */
const SEED_BASE_MS = Date.UTC(2021, 0, 4, 9, 0, 0);

export interface World {
  seed: number;
  regions: Region[];
  metros: Metro[];
  dcfs: Dcf[];
  company: Company;
  partner: Company;
  apiUser: ApiUser;
  ports: Port[];
  seededOrders: PortOrder[];
  asns: Schemas["Asn"][];
  cloudRouters: Schemas["CloudRouter"][];
  edgeCountries: EdgeCountry[];
}

const iso = (ms: number) => new Date(ms).toISOString();

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

function speedsFor(variant: DcfVariant, rng: Prng): number[] {
  if (variant === "off") return [1000, 10000];
  if (variant === "edge") return [100, 1000, 10000];
  return rng.chance(0.4) ? [1000, 10000, 100000, 400000] : [1000, 10000, 100000];
}

function tagsFor(variant: DcfVariant): string[] {
  switch (variant) {
    case "on-free":
      return ["FREE_CROSS_CONNECT"];
    case "edge":
      return ["EDGE"];
    case "off":
      return ["OFF_NET", "EXTENDED"];
    default:
      return [];
  }
}

function stats(rng: Prng): Schemas["ProfileStats"] {
  return {
    members: rng.int(1, 40),
    interconnections: rng.int(0, 900),
    followers: rng.int(0, 400),
    following: rng.int(0, 50),
    privateArticles: 0,
    privateEvents: 0,
    privatePosts: 0,
    articles: rng.int(0, 12),
    events: rng.int(0, 5),
    posts: rng.int(0, 30),
  };
}

function companyDetails(
  address: Schemas["Address"],
  website: string,
  emailDomain: string,
  industry: string,
  parentIds: string[] = [],
): Schemas["CompanyDetails"] {
  const publicMode = { mode: "PUBLIC", blackListIds: [], whiteListIds: [] };
  return {
    privacy: { network: { ...publicMode }, community: { ...publicMode } },
    addresses: [address],
    parentIds,
    regionalInternetRegistry: [],
    businessRegistrationCertVerified: "VERIFIED",
    website,
    emailDomains: [emailDomain],
    industry,
    businessDevelopmentManagerTypePreference: "DEFAULT",
    isIoTDemoCompany: false,
  };
}

function buildRegions(seed: number): Region[] {
  const rng = Prng.derive(seed, "regions");
  return REGION_SEEDS.map((r) => ({
    id: rng.hex(24),
    name: r.name,
    priceMultiplier: r.priceMultiplier,
  }));
}

function buildMetros(seed: number, regions: Region[]): Metro[] {
  const rng = Prng.derive(seed, "metros");
  return METRO_SEEDS.map((m) => {
    const region = regions[REGION_SEEDS.findIndex((r) => r.key === m.region)]!;
    return {
      id: rng.hex(24),
      key: m.key,
      name: m.name,
      code: m.code,
      country: m.country,
      rir: m.rir,
      regionId: region.id,
      layer2: m.layer2,
      createdAt: iso(SEED_BASE_MS - rng.int(200, 900) * DAY),
      firstDcfId: "",
    };
  });
}

function buildDcfs(seed: number, metros: Metro[], regions: Region[]): Dcf[] {
  const rng = Prng.derive(seed, "dcfs");
  const dcfs: Dcf[] = [];
  METRO_SEEDS.forEach((metroSeed: MetroSeed, metroIndex) => {
    const metro = metros[metroIndex]!;
    const region = regions.find((r) => r.id === metro.regionId)!;
    metroSeed.dcfs.forEach((d, i) => {
      const id = rng.uuid();
      const username = slug(d.name);
      const createdMs = SEED_BASE_MS - rng.int(30, 700) * DAY + rng.int(0, DAY - 1);
      const updatedMs = createdMs + rng.int(1, 300) * DAY;
      const tags = tagsFor(d.variant);
      const speeds = speedsFor(d.variant, rng);
      const kind = d.variant === "off" ? "OFF_NET" : "ON_NET";
      const ready = d.variant !== "not-ready";
      const canBundleCrossConnect = d.variant !== "off" && rng.chance(0.7);
      const costbookLocationId = rng.hex(24);
      const popId = rng.uuid();
      const geo = {
        type: "Point",
        coordinates: [
          Math.round((metroSeed.geo[0] + (rng.next() - 0.5) * 0.2) * 1e4) / 1e4,
          Math.round((metroSeed.geo[1] + (rng.next() - 0.5) * 0.2) * 1e4) / 1e4,
        ],
      };
      const operator = d.name.split(" ")[0]!.toLowerCase();
      const record: Schemas["DataCenterFacility"] = {
        id,
        username,
        name: d.name,
        type: "DATA_CENTER_FACILITY",
        tags,
        company: companyDetails(
          {
            registered: true,
            primary: true,
            address: d.street,
            city: metroSeed.name,
            state: metroSeed.state,
            zip: d.zip,
            country: metroSeed.country,
            email: `noc@${operator}-dc.example`,
            phone: metroSeed.phone,
            geo,
          },
          `https://www.${operator}-dc.example`,
          `${operator}-dc.example`,
          "DATA_CENTER",
        ),
        dataCenterFacility: {
          airportCodes: [...metroSeed.airports],
          speeds,
          metroId: metro.id,
          ready,
          id,
          nniReady: kind === "ON_NET" && rng.chance(0.6),
          brandId: null,
          canBundleCrossConnect,
        },
        stats: stats(rng),
        provider: [],
        selectiveQinQTunnelProvider: [],
        externalId: kind === "OFF_NET" ? `EXT-${rng.int(10000, 99999)}` : null,
        destinationPortOnly: false,
        verified: true,
        nnis: null,
        costbookLocationId,
        bundleCrossConnectChargeId: canBundleCrossConnect ? rng.hex(24) : null,
        popIds: [popId],
        costbookLocation: {
          name: `${metroSeed.code}-${String(i + 1).padStart(2, "0")}`,
          id: costbookLocationId,
          tags,
          gatewayIds: [],
          regionIds: [region.id],
          regions: [
            {
              name: region.name,
              id: region.id,
              priceMultiplier: region.priceMultiplier,
              insightRegion: null,
              deleted: false,
            },
          ],
          gateways: [],
        },
        l3CostbookLocationId: null,
        // Older records show the epoch instead of null (docs/provider/provider-api.md, Conventions).
        deletedAt: createdMs < SEED_BASE_MS - 500 * DAY ? EPOCH : null,
        createdAt: iso(createdMs),
        updatedAt: iso(updatedMs),
      };
      const products: Schemas["Product"][] = [
        ["Cross connect", "CROSS_CONNECT"],
        ["Remote hands", "SERVICE"],
      ].map(([label, productType]) => ({
        id: rng.uuid(),
        companyId: id,
        dataCenterFacilityId: id,
        slug: `${username}-${slug(label!)}`,
        status: "PUBLISHED",
        transactionType: "QUOTE",
        productType: productType!,
        promoted: false,
        name: `${label} at ${d.name}`,
        headline: `${label} in ${metroSeed.name}`,
        description: null,
        logo: null,
        overviewImage: null,
        background: null,
        categories: [productType === "CROSS_CONNECT" ? "Connectivity" : "Services"],
        tags: [],
        promoTitle: null,
        promoHeadline: null,
        callToActionLabel: "Enquire",
        callToActionLink: null,
        vendorUrl: null,
        hubspotFormId: null,
        productFamilyId: null,
        isAddon: productType === "SERVICE",
        productCode: null,
        created_at: iso(createdMs),
        updated_at: iso(updatedMs),
      }));
      dcfs.push({
        id,
        username,
        name: d.name,
        kind,
        metroId: metro.id,
        regionId: region.id,
        city: metroSeed.name,
        country: metroSeed.country,
        airportCodes: [...metroSeed.airports],
        speeds,
        tags,
        ready,
        edge: d.variant === "edge",
        freeCrossConnect: d.variant === "on-free",
        canBundleCrossConnect,
        record,
        products,
      });
    });
    metro.firstDcfId = dcfs.find((d) => d.metroId === metro.id)!.id;
  });
  return dcfs;
}

function buildCompany(
  rng: Prng,
  name: string,
  username: string,
  address: Schemas["Address"],
  emailDomain: string,
): Company {
  const id = rng.hex(24);
  const createdMs = SEED_BASE_MS - rng.int(100, 400) * DAY;
  return {
    id,
    username,
    name,
    record: {
      id,
      name,
      username,
      status: "ACTIVE",
      type: "COMPANY",
      verified: true,
      tags: [],
      stats: stats(rng),
      company: companyDetails(
        address,
        `https://www.${emailDomain}`,
        emailDomain,
        "TELECOMMUNICATIONS",
      ),
      deletedAt: null,
      createdAt: iso(createdMs),
      updatedAt: iso(createdMs + 30 * DAY),
    },
  };
}

const COS_MAPPING = {
  GOLD: ["5", "6", "7"],
  SILVERPLUS: ["4"],
  SILVER: ["2", "3"],
  BRONZE: ["0", "1"],
};

export { COS_MAPPING };

interface PortSeed {
  name: string;
  metroKey: string;
  dcfIndex: number;
  type: Port["type"];
  speed: number;
  status: string;
  gia: boolean;
  deleted?: boolean;
  /** Layer 2 connections unless `kind` says GIA (an IO-D service). */
  connections?: Array<{ name: string; status: string; speed: number; kind?: "GIA" }>;
}

const OWN_PORTS: PortSeed[] = [
  {
    name: "iad-core-01",
    metroKey: "iad",
    dcfIndex: 0,
    type: "PHYSICAL",
    speed: 10000,
    status: "ACTIVE",
    gia: true,
    connections: [
      { name: "iad-to-lon-backbone", status: "ACTIVE", speed: 2000 },
      // An IO-D service from the start, so that help's `/connect iod <serviceId>` can be tried.
      { name: "iad-internet-01", status: "ACTIVE", speed: 500, kind: "GIA" },
    ],
  },
  {
    name: "nyc-edge-01",
    metroKey: "nyc",
    dcfIndex: 0,
    type: "PHYSICAL",
    speed: 1000,
    status: "ACTIVE",
    gia: true,
  },
  {
    name: "lon-core-01",
    metroKey: "lon",
    dcfIndex: 0,
    type: "PHYSICAL",
    speed: 10000,
    status: "ACTIVE",
    gia: true,
    connections: [{ name: "lon-to-fra-replication", status: "ERROR", speed: 500 }],
  },
  {
    name: "fra-nni-01",
    metroKey: "fra",
    dcfIndex: 0,
    type: "NNI",
    speed: 100000,
    status: "ACTIVE",
    gia: false,
  },
  {
    name: "sin-nsp-01",
    metroKey: "sin",
    dcfIndex: 0,
    type: "PHYSICAL_NSP",
    speed: 10000,
    status: "ACTIVE",
    gia: false,
  },
  {
    name: "syd-core-01",
    metroKey: "syd",
    dcfIndex: 0,
    type: "PHYSICAL",
    speed: 1000,
    status: "UNKNOWN",
    gia: false,
  },
  {
    name: "dfw-lab-01",
    metroKey: "dfw",
    dcfIndex: 0,
    type: "PHYSICAL",
    speed: 1000,
    status: "DELETED",
    gia: false,
    deleted: true,
  },
];

const PARTNER_PORTS: PortSeed[] = [
  {
    name: "globex-iad-01",
    metroKey: "iad",
    dcfIndex: 1,
    type: "PHYSICAL",
    speed: 10000,
    status: "ACTIVE",
    gia: false,
  },
  {
    name: "globex-lon-01",
    metroKey: "lon",
    dcfIndex: 1,
    type: "PHYSICAL",
    speed: 10000,
    status: "ACTIVE",
    gia: false,
  },
];

function buildPorts(
  rng: Prng,
  seeds: PortSeed[],
  companyId: string,
  metros: Metro[],
  dcfs: Dcf[],
  /** IO-D service ids come from their own stream: every other seeded id stays as it was. */
  serviceRng: Prng,
): Port[] {
  return seeds.map((s) => {
    const metro = metros.find((m) => m.key === s.metroKey)!;
    const dcf = dcfs.filter((d) => d.metroId === metro.id)[s.dcfIndex]!;
    const createdMs = SEED_BASE_MS + rng.int(10, 300) * DAY + rng.int(0, DAY - 1);
    const vlanStart = rng.int(2, 20) * 100;
    const connections: PortConnection[] = (s.connections ?? []).map((c) => ({
      id: c.kind === "GIA" ? serviceRng.hex(24) : rng.hex(24),
      name: c.name,
      status: c.status,
      speed: c.speed,
      type: c.kind ?? "LAYER2",
      srcConfigTag: null,
      typeFriendly: c.kind === "GIA" ? "Internet On-Demand" : "Layer 2",
    }));
    return {
      id: rng.hex(24),
      name: s.name,
      companyId,
      dcfId: dcf.id,
      type: s.type,
      speed: s.speed,
      status: s.status,
      linkState: s.status === "ACTIVE" ? "UP" : "DOWN",
      createdAt: iso(createdMs),
      deleted: s.deleted ?? false,
      deletedAt: s.deleted
        ? iso(createdMs + 200 * DAY)
        : createdMs < SEED_BASE_MS + 100 * DAY
          ? EPOCH
          : null,
      isEdgePort: false,
      edgePayload: null,
      capabilities: {
        giaStandardV1: s.gia,
        l2TypeA: s.type !== "NNI",
        l3vpnTypeA: true,
        qinq: s.type === "NNI",
      },
      vlanRanges: [{ start: vlanStart, end: vlanStart + 99 }],
      seededConnections: connections,
    };
  });
}

function buildAsns(seed: number, companyId: string): Schemas["Asn"][] {
  const rng = Prng.derive(seed, "asns");
  // 64496-64511 are reserved for documentation (RFC 5398): realistic, never someone's real ASN.
  const records: Array<{ asn: string; asSet: string | null; priv: boolean; status: string }> = [
    { asn: "64500", asSet: "AS-ACME", priv: false, status: "VERIFIED" },
    { asn: "64501", asSet: "AS-ACME-EU", priv: false, status: "VERIFIED" },
    { asn: "64502", asSet: null, priv: false, status: "PENDING" },
    { asn: "65010", asSet: null, priv: true, status: "VERIFIED" },
  ];
  return records.map((r, i) => {
    const createdMs = SEED_BASE_MS + rng.int(5, 200) * DAY;
    return {
      id: rng.uuid(),
      companyId,
      asn: r.asn,
      asSet: r.asSet,
      private: r.priv,
      skipPrefixSync: r.priv,
      status: r.status,
      ipPrefixConfiguredInIPCV4: r.priv ? [] : [`203.0.113.${i * 64}/26`],
      ipPrefixConfiguredInIPCV6: r.priv ? [] : [`2001:db8:${(i + 1).toString(16)}00::/40`],
      ipPrefixConfiguredInSLV4: r.priv ? [] : [`203.0.113.${i * 64}/26`],
      ipPrefixConfiguredInSLV6: [],
      ipPrefixLastCheckedAt: r.priv ? null : iso(createdMs + 3 * DAY),
      ipPrefixLastSLUpdateRequestAt: null,
      ipPrefixLastSLUpdateSuccessAt: null,
      ipPrefixLastErrorAt: null,
      deallocatedAt: null,
      ipPrefixLastErrorReason: null,
      company_id: companyId,
      deleted_at: i === 0 ? EPOCH : null,
      created_at: iso(createdMs),
      updated_at: iso(createdMs + DAY),
    };
  });
}

function buildCloudRouters(
  seed: number,
  companyId: string,
  ports: Port[],
): Schemas["CloudRouter"][] {
  const rng = Prng.derive(seed, "cloud-routers");
  const active = ports.filter((p) => p.status === "ACTIVE" && !p.deleted);
  const routers: Array<{ name: string; status: string; sitePorts: Port[]; siteStatus: string }> = [
    {
      name: "acme-global-l3vpn",
      status: "CREATED",
      sitePorts: active.slice(0, 3),
      siteStatus: "ACTIVE",
    },
    {
      name: "acme-lab-vpn",
      status: "DELETING",
      sitePorts: active.slice(3, 4),
      siteStatus: "DELETING",
    },
  ];
  return routers.map((r) => {
    const id = rng.hex(24);
    const createdMs = SEED_BASE_MS + rng.int(100, 400) * DAY;
    const created = iso(createdMs);
    const updated = iso(createdMs + 2 * DAY);
    return {
      id,
      companyId,
      name: r.name,
      requestSource: `${BRAND}_APP`,
      status: r.status,
      paymentMethod: "invoice",
      duration: { quantity: 12, unit: "m" },
      bandwidth: `${r.sitePorts.length * 500}MB`,
      deletedAt: null,
      createdAt: created,
      updatedAt: updated,
      sites: r.sitePorts.map((port, i) => {
        const siteId = rng.uuid();
        const simPoolId = null;
        return {
          id: siteId,
          companyId,
          l3vpnId: id,
          name: `${r.name}-site-${i + 1}`,
          type: "COMPANY",
          portId: port.id,
          slVlanId: String(rng.int(100, 3999)),
          rateLimit: { rate: 500, unit: "Mbps" },
          mtu: 1500,
          classOfService: [
            { name: "BRONZE", value: 20 },
            { name: "SILVER", value: 50 },
            { name: "GOLD", value: 30 },
          ],
          redundancySiteType: i === 0 ? "primary" : null,
          redundancyLinkedSiteId: null,
          status: r.siteStatus,
          simPoolId,
          company_id: companyId,
          l3vpn_id: id,
          sim_pool_id: simPoolId,
          port_id: port.id,
          deleted_at: r.siteStatus === "DELETING" ? null : EPOCH,
          created_at: created,
          updated_at: updated,
          peers: [
            {
              id: rng.uuid(),
              companyId,
              l3vpnSiteId: siteId,
              slPeerUuid: rng.uuid(),
              type: "SELF",
              partner: { name: "Acme Networks", type: "CUSTOMER" },
              status: r.siteStatus,
              bgpKey: null,
              asn: 64500,
              externalIp: `198.51.100.${(i + 1) * 4 + 1}/30`,
            },
          ],
        };
      }),
    };
  });
}

export function buildWorld(seed: number): World {
  const regions = buildRegions(seed);
  const metros = buildMetros(seed, regions);
  const dcfs = buildDcfs(seed, metros, regions);
  const rng = Prng.derive(seed, "companies");
  const company = buildCompany(
    rng,
    "Acme Networks",
    "acme-networks",
    {
      registered: true,
      primary: true,
      address: "500 Market Street",
      city: "San Francisco",
      state: "CA",
      zip: "94105",
      country: "US",
      email: "network@acme-networks.example",
      phone: "+1 415 555 0100",
      geo: { type: "Point", coordinates: [-122.399, 37.791] },
    },
    "acme-networks.example",
  );
  const partner = buildCompany(
    rng,
    "Globex Cloud",
    "globex-cloud",
    {
      registered: true,
      primary: true,
      address: "1 Canada Square",
      city: "London",
      state: "Greater London",
      zip: "E14 5AB",
      country: "GB",
      email: "peering@globex-cloud.example",
      phone: "+44 20 5550 0199",
      geo: { type: "Point", coordinates: [-0.019, 51.505] },
    },
    "globex-cloud.example",
  );
  const apiUser: ApiUser = {
    userId: rng.hex(24),
    username: "jordan.rivera",
    email: "jordan.rivera@acme-networks.example",
    firstName: "Jordan",
    lastName: "Rivera",
    companyId: company.id,
    companyUsername: company.username,
  };
  const portRng = Prng.derive(seed, "ports");
  const serviceRng = Prng.derive(seed, "seeded-services");
  const ownPorts = buildPorts(portRng, OWN_PORTS, company.id, metros, dcfs, serviceRng);
  const partnerPorts = buildPorts(portRng, PARTNER_PORTS, partner.id, metros, dcfs, serviceRng);
  const ports = [...ownPorts, ...partnerPorts];

  // The first own port came from an old order made in the web application: its order record is
  // frozen at done (and, being old, shows the epoch in cancelledAt).
  const firstPort = ownPorts[0]!;
  const seededOrders: PortOrder[] = [
    {
      id: portRng.hex(24),
      companyId: company.id,
      dcfId: firstPort.dcfId,
      speed: firstPort.speed,
      portName: firstPort.name,
      durationUnit: "y",
      paymentType: "invoice",
      createdAtMs: Date.parse(firstPort.createdAt) - 2 * DAY,
      kind: "ON_NET",
      loaDays: 1,
      isEdgePort: false,
      edgePayload: null,
      requestSource: `${BRAND}_APP`,
      createdBy: apiUser.username,
      portId: firstPort.id,
      override: { status: "done", loaStatus: "APPROVED", atMs: Date.parse(firstPort.createdAt) },
    },
  ];
  firstPort.orderId = seededOrders[0]!.id;

  const countryRng = Prng.derive(seed, "edge-countries");
  const edgeCountries: EdgeCountry[] = EDGE_COUNTRY_SEEDS.map((c) => ({
    id: countryRng.hex(24),
    name: c.name,
    code: c.code,
    currency: c.currency,
    provider: ["EDGE_PARTNER"],
    requiresPostCode: c.requiresPostCode,
  }));

  return {
    seed,
    regions,
    metros,
    dcfs,
    company,
    partner,
    apiUser,
    ports,
    seededOrders,
    asns: buildAsns(seed, company.id),
    cloudRouters: buildCloudRouters(seed, company.id, ownPorts),
    edgeCountries,
  };
}
