// Reference data the seeded world is built from: real cities and airport codes, invented
// facility operators (no real company's name is used for a simulated facility).

export type DcfVariant =
  /** on-net, cross connect charged */
  | "on"
  /** on-net with a free cross connect */
  | "on-free"
  /** on-net and tagged for Edge */
  | "edge"
  /** off-net (extended) location: the LOA comes from a partner in 4-6 weeks */
  | "off"
  /** on-net but not ready for orders yet */
  | "not-ready";

export interface DcfSeed {
  name: string;
  street: string;
  zip: string;
  variant: DcfVariant;
}

export interface MetroSeed {
  key: string;
  name: string;
  code: string;
  country: string;
  state: string;
  rir: string;
  region: "na" | "eu" | "apac";
  airports: string[];
  /** [longitude, latitude] */
  geo: [number, number];
  layer2: boolean;
  phone: string;
  dcfs: DcfSeed[];
}

export const REGION_SEEDS = [
  { key: "na", name: "North America", priceMultiplier: 1 },
  { key: "eu", name: "Europe", priceMultiplier: 1.15 },
  { key: "apac", name: "Asia Pacific", priceMultiplier: 1.35 },
] as const;

export const METRO_SEEDS: MetroSeed[] = [
  {
    key: "iad",
    name: "Ashburn",
    code: "IAD",
    country: "US",
    state: "VA",
    rir: "ARIN",
    region: "na",
    airports: ["IAD"],
    geo: [-77.487, 39.043],
    layer2: true,
    phone: "+1 703 555 0140",
    dcfs: [
      { name: "Ironbridge IAD1", street: "21715 Filigree Court", zip: "20147", variant: "on" },
      {
        name: "Meridian Ashburn Campus",
        street: "44470 Chilum Place",
        zip: "20147",
        variant: "on-free",
      },
      {
        name: "Northpoint Loudoun",
        street: "21110 Ridgetop Circle",
        zip: "20166",
        variant: "edge",
      },
    ],
  },
  {
    key: "nyc",
    name: "New York",
    code: "NYC",
    country: "US",
    state: "NY",
    rir: "ARIN",
    region: "na",
    airports: ["JFK", "EWR", "LGA"],
    geo: [-74.006, 40.713],
    layer2: true,
    phone: "+1 212 555 0117",
    dcfs: [
      { name: "Ironbridge NY2 Hudson", street: "60 Hudson Street", zip: "10013", variant: "on" },
      { name: "Bluewater Secaucus", street: "800 Secaucus Road", zip: "07094", variant: "edge" },
      { name: "Harborline 111 Eighth", street: "111 8th Avenue", zip: "10011", variant: "off" },
    ],
  },
  {
    key: "dfw",
    name: "Dallas",
    code: "DFW",
    country: "US",
    state: "TX",
    rir: "ARIN",
    region: "na",
    airports: ["DFW", "DAL"],
    geo: [-96.797, 32.777],
    layer2: true,
    phone: "+1 214 555 0123",
    dcfs: [
      {
        name: "Cobalt Infomart Dallas",
        street: "1950 N Stemmons Fwy",
        zip: "75207",
        variant: "on",
      },
      {
        name: "Meridian Richardson",
        street: "2323 Bryan Street",
        zip: "75201",
        variant: "on-free",
      },
      { name: "Keystone Plano DC3", street: "3010 Waterview Pkwy", zip: "75080", variant: "off" },
    ],
  },
  {
    key: "lax",
    name: "Los Angeles",
    code: "LAX",
    country: "US",
    state: "CA",
    rir: "ARIN",
    region: "na",
    airports: ["LAX"],
    geo: [-118.244, 34.052],
    layer2: true,
    phone: "+1 213 555 0199",
    dcfs: [
      { name: "Ironbridge One Wilshire", street: "624 S Grand Ave", zip: "90017", variant: "on" },
      { name: "Summit El Segundo", street: "445 N Douglas St", zip: "90245", variant: "edge" },
      { name: "Atlas Colo LA4", street: "900 N Alameda St", zip: "90012", variant: "not-ready" },
    ],
  },
  {
    key: "yto",
    name: "Toronto",
    code: "YTO",
    country: "CA",
    state: "ON",
    rir: "ARIN",
    region: "na",
    airports: ["YYZ", "YTZ"],
    geo: [-79.383, 43.653],
    layer2: false,
    phone: "+1 416 555 0150",
    dcfs: [
      {
        name: "Northpoint Front Street",
        street: "151 Front Street W",
        zip: "M5J 2N1",
        variant: "on",
      },
      { name: "Keystone Markham TR2", street: "45 Parliament St", zip: "M5A 0G7", variant: "off" },
    ],
  },
  {
    key: "lon",
    name: "London",
    code: "LON",
    country: "GB",
    state: "Greater London",
    rir: "RIPE",
    region: "eu",
    airports: ["LHR", "LCY", "LGW"],
    geo: [-0.128, 51.507],
    layer2: true,
    phone: "+44 20 5550 0140",
    dcfs: [
      {
        name: "Ironbridge Docklands LD8",
        street: "Sovereign House, 227 Marsh Wall",
        zip: "E14 9SD",
        variant: "on",
      },
      {
        name: "Meridian Slough LD5",
        street: "8 Buckingham Avenue",
        zip: "SL1 4AX",
        variant: "on-free",
      },
      { name: "Bluewater Park Royal", street: "Coronation Road", zip: "NW10 7PQ", variant: "edge" },
      {
        name: "Harborline Croydon",
        street: "Unit 3, Imperial Way",
        zip: "CR0 4RR",
        variant: "off",
      },
    ],
  },
  {
    key: "fra",
    name: "Frankfurt",
    code: "FRA",
    country: "DE",
    state: "Hessen",
    rir: "RIPE",
    region: "eu",
    airports: ["FRA"],
    geo: [8.682, 50.11],
    layer2: true,
    phone: "+49 69 5550 0120",
    dcfs: [
      {
        name: "Cobalt Hanauer Landstrasse",
        street: "Hanauer Landstrasse 298",
        zip: "60314",
        variant: "on",
      },
      {
        name: "Summit Kleyerstrasse FR2",
        street: "Kleyerstrasse 90",
        zip: "60326",
        variant: "on-free",
      },
      {
        name: "Atlas Colo Eschborn",
        street: "Frankfurter Strasse 80",
        zip: "65760",
        variant: "edge",
      },
    ],
  },
  {
    key: "ams",
    name: "Amsterdam",
    code: "AMS",
    country: "NL",
    state: "Noord-Holland",
    rir: "RIPE",
    region: "eu",
    airports: ["AMS"],
    geo: [4.904, 52.368],
    layer2: true,
    phone: "+31 20 555 0130",
    dcfs: [
      {
        name: "Ironbridge Science Park AM3",
        street: "Science Park 610",
        zip: "1098 XH",
        variant: "on",
      },
      {
        name: "Northpoint Schiphol-Rijk",
        street: "Boeingavenue 271",
        zip: "1119 PD",
        variant: "off",
      },
      {
        name: "Bluewater Amsterdam Zuidoost",
        street: "Luttenbergweg 4",
        zip: "1101 EC",
        variant: "edge",
      },
    ],
  },
  {
    key: "par",
    name: "Paris",
    code: "PAR",
    country: "FR",
    state: "Ile-de-France",
    rir: "RIPE",
    region: "eu",
    airports: ["CDG", "ORY"],
    geo: [2.352, 48.857],
    layer2: true,
    phone: "+33 1 55 50 01 40",
    dcfs: [
      {
        name: "Meridian Saint-Denis PA3",
        street: "114 Rue Ambroise Croizat",
        zip: "93200",
        variant: "on",
      },
      { name: "Keystone Pantin", street: "10 Rue Waldeck Rochet", zip: "93500", variant: "off" },
    ],
  },
  {
    key: "sin",
    name: "Singapore",
    code: "SIN",
    country: "SG",
    state: "Singapore",
    rir: "APNIC",
    region: "apac",
    airports: ["SIN"],
    geo: [103.82, 1.352],
    layer2: true,
    phone: "+65 6555 0140",
    dcfs: [
      {
        name: "Ironbridge Ayer Rajah SG1",
        street: "20 Ayer Rajah Crescent",
        zip: "139964",
        variant: "on",
      },
      {
        name: "Harborline Jurong SG3",
        street: "2 Jurong East Street 21",
        zip: "609601",
        variant: "edge",
      },
      { name: "Summit Tai Seng", street: "29A Tai Seng Avenue", zip: "534119", variant: "on-free" },
      { name: "Cobalt Loyang", street: "2 Loyang Lane", zip: "508913", variant: "off" },
    ],
  },
  {
    key: "syd",
    name: "Sydney",
    code: "SYD",
    country: "AU",
    state: "NSW",
    rir: "APNIC",
    region: "apac",
    airports: ["SYD"],
    geo: [151.209, -33.868],
    layer2: true,
    phone: "+61 2 5550 0140",
    dcfs: [
      {
        name: "Northpoint Alexandria SY2",
        street: "639 Gardeners Road",
        zip: "2020",
        variant: "on",
      },
      {
        name: "Atlas Colo Macquarie Park",
        street: "17 Talavera Road",
        zip: "2113",
        variant: "edge",
      },
      { name: "Keystone St Leonards", street: "35 Herbert Street", zip: "2065", variant: "off" },
    ],
  },
  {
    key: "tyo",
    name: "Tokyo",
    code: "TYO",
    country: "JP",
    state: "Tokyo",
    rir: "APNIC",
    region: "apac",
    airports: ["NRT", "HND"],
    geo: [139.692, 35.69],
    layer2: true,
    phone: "+81 3 5550 0140",
    dcfs: [
      { name: "Meridian Otemachi TY2", street: "1-6-1 Otemachi", zip: "100-0004", variant: "on" },
      { name: "Cobalt Shinagawa TY5", street: "2-16-3 Konan", zip: "108-0075", variant: "edge" },
      { name: "Summit Inzai", street: "1-2 Makinohara", zip: "270-1331", variant: "off" },
    ],
  },
];

export const EDGE_COUNTRY_SEEDS = [
  { name: "Singapore", code: "SG", currency: "SGD", requiresPostCode: true },
  { name: "United States", code: "US", currency: "USD", requiresPostCode: false },
  { name: "United Kingdom", code: "GB", currency: "GBP", requiresPostCode: false },
  { name: "Germany", code: "DE", currency: "EUR", requiresPostCode: false },
  { name: "Netherlands", code: "NL", currency: "EUR", requiresPostCode: false },
  { name: "Australia", code: "AU", currency: "AUD", requiresPostCode: false },
  { name: "Japan", code: "JP", currency: "JPY", requiresPostCode: false },
] as const;

export const EDGE_VENDORS = ["Northwind Fiber", "Tessera Access", "Lumina Metro", "Orbital Loop"];

/** Edge bandwidths in Mbps. */
export const EDGE_BANDWIDTHS = [100, 200, 500, 1000, 2000, 5000, 10000];

/** Edge contract terms in months. */
export const EDGE_TERMS = [12, 24, 36];
