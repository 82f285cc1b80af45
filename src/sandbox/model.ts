// The sandbox's in-memory world: seeded reference data plus what callers create. Response
// bodies are typed by the OpenAPI document's generated schemas, so a drift in the contract
// shows up as a compile error here rather than as a surprise in the bot.
import type { components } from "../provider/generated/provider.js";

export type Schemas = components["schemas"];

/** On-net DCFs get the LOA in about a day; off-net (extended) ones wait 4-6 weeks for a partner. */
export type DcfKind = "ON_NET" | "OFF_NET";
/** Kind of timeline a port order follows (Edge ports are provisioned through a partner). */
export type OrderKind = DcfKind | "EDGE";

export interface Region {
  id: string;
  name: string;
  priceMultiplier: number;
}

export interface Metro {
  id: string;
  key: string;
  name: string;
  code: string;
  country: string;
  rir: string;
  regionId: string;
  layer2: boolean;
  createdAt: string;
  /** Set after the DCFs are built. */
  firstDcfId: string;
}

export interface Dcf {
  /** The DCF id (UUID form); also `dataCenterFacility.id`. */
  id: string;
  username: string;
  name: string;
  kind: DcfKind;
  metroId: string;
  regionId: string;
  city: string;
  country: string;
  airportCodes: string[];
  /** Valid port speeds in Mbps (integers): the shape the sandbox chose for `speeds`. */
  speeds: number[];
  tags: string[];
  ready: boolean;
  edge: boolean;
  freeCrossConnect: boolean;
  canBundleCrossConnect: boolean;
  /** The listing record served by GET /v2/data-center-facility. */
  record: Schemas["DataCenterFacility"];
  products: Schemas["Product"][];
}

export interface Company {
  id: string;
  username: string;
  name: string;
  record: Schemas["Company"];
}

export interface ApiUser {
  userId: string;
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  companyId: string;
  companyUsername: string;
}

export interface PortCapabilityFlags {
  giaStandardV1: boolean;
  l2TypeA: boolean;
  l3vpnTypeA: boolean;
  qinq: boolean;
}

/** A connection entry seeded on a port (created ones live in `ServiceRecord`). */
export type PortConnection = Schemas["PortConnection"];

export interface Port {
  id: string;
  name: string;
  companyId: string;
  dcfId: string;
  type: "PHYSICAL" | "NNI" | "PHYSICAL_NSP";
  speed: number;
  status: string;
  linkState: string;
  createdAt: string;
  deleted: boolean;
  deletedAt: string | null;
  isEdgePort: boolean;
  edgePayload: Record<string, unknown> | null;
  capabilities: PortCapabilityFlags;
  vlanRanges: Schemas["VlanRange"][];
  seededConnections: PortConnection[];
  /** The order that created this port, for ports made by orders. */
  orderId?: string;
}

export interface PortOrderOverride {
  status?: string;
  loaStatus?: string;
  atMs: number;
}

export interface PortOrder {
  id: string;
  companyId: string;
  dcfId: string;
  speed: number;
  portName: string;
  durationUnit: string;
  paymentType: string;
  createdAtMs: number;
  kind: OrderKind;
  /** Days from creation until the LOA arrives (per order, from the seed). */
  loaDays: number;
  isEdgePort: boolean;
  edgePayload: Record<string, unknown> | null;
  requestSource: string;
  createdBy: string;
  /** The id the port gets once the order is done. */
  portId: string;
  /** An admin override freezes automatic progression. */
  override?: PortOrderOverride;
}

export type ServiceKind = "LAYER2" | "GIA";

/** A layer 2 connection or an IO-D service created through the API. */
export interface ServiceRecord {
  id: string;
  kind: ServiceKind;
  name: string;
  portId: string;
  companyId: string;
  /** Mbps: the layer 2 speed or the IO-D rate limit. */
  speed: number;
  createdAtMs: number;
  /** Layer 2 to another company waits for that company (PENDING) before ACTIVE. */
  awaitsOtherCompany: boolean;
  request: Record<string, unknown>;
  override?: { status: string; atMs: number };
}

export interface DraftOrder {
  id: string;
  name: string | null;
  speed: number;
  edgePayload: Record<string, unknown>;
  companyId: string;
  createdAtMs: number;
  updatedAtMs: number;
  deletedAtMs?: number;
}

export interface EdgeCountry {
  id: string;
  name: string;
  code: string;
  currency: string;
  provider: string[];
  requiresPostCode: boolean;
}

export interface EdgeQuoteItem {
  quoteKey: string;
  vendor: string;
  product: string;
  monthlyPrice: number;
  nonRecurringPrice: number;
  term: number;
  termUnit: string;
  bandwidth: number;
  bandwidthUnit: string;
  leadTimeDays: number;
}

export interface EdgeQuotation {
  responseId: string;
  request: Record<string, unknown>;
  createdAtMs: number;
  polls: number;
  formattedAddress: string;
  addressResult: Record<string, unknown>;
  items: EdgeQuoteItem[];
}

export interface EdgeEnquiry {
  kind: "select" | "enquiry";
  body: Record<string, unknown>;
  at: string;
}

export interface RequestLogEntry {
  method: string;
  path: string;
  operationId: string | null;
  status: number;
  /** Sandbox time of the request (ISO). */
  at: string;
  durationMs: number;
  fault: string | null;
}
