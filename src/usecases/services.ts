import type { ApprovalRequest } from "../approvals/index.js";
import { speedMbps } from "../domain/requestFacts.js";
import type { Port } from "../provider/api.js";
import { connectionsOf, findConnectionById } from "../provider/normalize.js";
import type { Services } from "../services.js";

/**
 * One layer 2 connection or IO-D service, looked up by id.
 *
 * The provider has no read of a single connection or IO-D service (docs/provider/provider-api.md lists only
 * their creation), so — as the reconciliation of placements does — the record is found in the
 * `connections` of the company's ports: each entry there carries id, name, status, speed and
 * type, and the ports carrying it are its ends. What only the creation answer and the request
 * hold (the partner company of a business-to-business connection, the ASN and address blocks
 * of an IO-D service) is added from the approval record when the order went through this bot.
 * Shapes beyond the spec's few fields are read defensively: anything unknown is left out.
 */

export type LookupDeps = Pick<Services, "provider" | "identity" | "logger"> & {
  approvals?: Pick<Services["approvals"], "store">;
};

export type ServiceKind = "layer2" | "iod" | "other";

/** One end of a connection that is one of the company's ports. */
export interface PortEnd {
  portId: string;
  portName?: string;
  dcfName?: string;
  dcfUsername?: string;
  dcfId?: string;
  metroName?: string;
  metroCode?: string;
}

/** The far end of a connection that is not one of the company's ports. */
export interface PartnerEnd {
  company?: string;
  portId?: string;
  dcfId?: string;
  metroId?: string;
  regionId?: string;
}

/** A BGP session as far as the provider reports it; the BGP key is never read. */
export interface BgpSession {
  state?: string;
  peerIp?: string;
  localIp?: string;
  peerAsn?: string;
  localAsn?: string;
}

export interface ServiceDetail {
  id: string;
  kind: ServiceKind;
  name?: string;
  status?: string;
  /** The provider's type as it said it ("Layer 2", "LAYER2", "GIA"). */
  typeLabel?: string;
  speedMbps?: number;
  /** Layer 2: where it starts; IO-D: the access port. */
  source?: PortEnd;
  destination?: PortEnd;
  partner?: PartnerEnd;
  classOfService?: string;
  term?: { value?: number; unit?: string };
  evergreen?: boolean;
  // IO-D
  routing?: string;
  asn?: string;
  privateAsn?: boolean;
  ipv4Blocks: string[];
  ipv6Blocks: string[];
  /** Requested block sizes when no block is reported yet, e.g. 28 for a /28. */
  ipv4PrefixLength?: number;
  ipv6PrefixLength?: number;
  bgpSessions: BgpSession[];
  createdAt?: string;
  /** Set when the order went through this bot's approvals. */
  approval?: { id: string; requesterId: string };
}

export type ServiceLookup =
  | { found: true; service: ServiceDetail }
  | { found: false; id: string; portsChecked: number };

type Row = Record<string, unknown>;

function asRow(value: unknown): Row {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Row) : {};
}

function str(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return typeof value === "string" && value.trim() !== "" ? value : undefined;
}

function int(value: unknown): number | undefined {
  const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  return typeof n === "number" && Number.isFinite(n) ? n : undefined;
}

/** The first of several spellings a field may come under. */
function first<T>(
  rows: readonly Row[],
  keys: readonly string[],
  read: (v: unknown) => T | undefined,
) {
  for (const row of rows) {
    for (const key of keys) {
      const value = read(row[key]);
      if (value !== undefined) return value;
    }
  }
  return undefined;
}

/** Which kind a connection entry is, from its type (LAYER2 seen; the sandbox says GIA for IO-D). */
export function serviceKind(entry: Row): ServiceKind {
  const type = `${str(entry.type) ?? ""} ${str(entry.typeFriendly) ?? ""} ${str(entry.serviceType) ?? ""}`;
  if (/layer\s*2|\bl2\b|layer2/i.test(type)) return "layer2";
  if (/\bgia\b|\biod\b|io-d|internet/i.test(type)) return "iod";
  return "other";
}

function portEnd(port: Port): PortEnd {
  const dcf = asRow(port.dataCenterFacility);
  const metro = asRow(port.metro);
  return {
    portId: port.id,
    portName: str(port.name),
    dcfName: str(dcf.name),
    dcfUsername: str(dcf.username),
    dcfId: str(port.dataCenterFacilityId) ?? str(dcf.id),
    metroName: str(metro.name),
    metroCode: str(metro.code),
  };
}

/** Address blocks: strings like "203.0.113.0/28", alone or in a list or an object's values. */
function blocks(rows: readonly Row[], keys: readonly string[]): string[] {
  const found: string[] = [];
  const add = (value: unknown) => {
    if (typeof value === "string" && value.includes("/") && value.length <= 64) found.push(value);
    else if (Array.isArray(value))
      for (const v of value) add(typeof v === "object" ? (asRow(v).prefix ?? asRow(v).block) : v);
  };
  for (const row of rows) for (const key of keys) add(row[key]);
  return [...new Set(found)].slice(0, 20);
}

function bgpSessions(rows: readonly Row[]): BgpSession[] {
  const sessions: BgpSession[] = [];
  for (const row of rows) {
    for (const key of ["bgpSessions", "bgpSession", "bgp", "bgpPeers", "bgpPeer"]) {
      const value = row[key];
      const list = Array.isArray(value) ? value : value !== undefined ? [value] : [];
      for (const item of list) {
        const s = asRow(item);
        // Only these fields are read: a session object may also carry the BGP key.
        const session: BgpSession = {
          state: str(s.state) ?? str(s.status) ?? str(s.sessionState),
          peerIp: str(s.peerIp) ?? str(s.neighborIp) ?? str(s.remoteIp) ?? str(s.peerAddress),
          localIp: str(s.localIp) ?? str(s.localAddress),
          peerAsn: str(s.peerAsn) ?? str(s.remoteAsn) ?? str(s.neighborAsn),
          localAsn: str(s.localAsn),
        };
        if (Object.values(session).some((v) => v !== undefined)) sessions.push(session);
      }
    }
    if (sessions.length > 0) break;
  }
  return sessions.slice(0, 10);
}

function asnOf(rows: readonly Row[]): string | undefined {
  for (const row of rows) {
    const value = row.asn;
    const asn = str(value) ?? str(asRow(value).asn);
    if (asn) return asn;
  }
  return undefined;
}

/** The approval whose placement created this record, among the recent ones. */
async function approvalFor(deps: LookupDeps, id: string): Promise<ApprovalRequest | undefined> {
  const store = deps.approvals?.store;
  if (!store) return undefined;
  try {
    const recent = await store.list({ limit: 500 });
    return recent.find(
      (r) => (r.kind === "layer2" || r.kind === "iod") && r.result?.providerId === id,
    );
  } catch (error) {
    // The look-up still shows what the provider says; only the request's details are missing.
    deps.logger.warn({ err: error, id }, "look-up: approval records unavailable");
    return undefined;
  }
}

/** Builds the detail from the port entry, the carrying ports and the creation record/request. */
export function describeService(
  id: string,
  entry: Row,
  carrying: readonly Port[],
  ownPorts: readonly Port[],
  approval?: ApprovalRequest,
): ServiceDetail {
  const record = asRow(approval?.result?.record);
  const request = asRow(approval?.call.body);
  // The port entry is the provider's current word (status); the creation record and the request
  // fill what the entry does not carry.
  const rows = [entry, record, request];
  const kind =
    serviceKind(entry) !== "other"
      ? serviceKind(entry)
      : approval?.kind === "layer2" || approval?.kind === "iod"
        ? approval.kind
        : serviceKind(record);
  const byId = (portId: string | undefined) =>
    portId ? ownPorts.find((p) => p.id === portId) : undefined;

  const sourceId = first([record, request], ["portId", "accessPortId"], str);
  const source = byId(sourceId) ?? carrying[0];
  const destId = first([record, request], ["destPortId"], str);
  const dest = byId(destId) ?? (kind === "layer2" ? carrying.find((p) => p !== source) : undefined);
  const partnerCompany = first([record, request], ["destCompany"], str);
  const partner: PartnerEnd | undefined =
    !dest &&
    kind === "layer2" &&
    (partnerCompany || destId || first([record, request], ["destDcf"], str))
      ? {
          company: partnerCompany,
          portId: destId,
          dcfId: first([record, request], ["destDcf"], str),
          metroId: first([record, request], ["destMetroId"], str),
          regionId: first([record, request], ["destRegionId"], str),
        }
      : undefined;

  const termValue = first(
    rows,
    ["duration"],
    (v) => int(v) ?? int(asRow(v).quantity) ?? int(asRow(v).value),
  );
  const termUnit =
    first(rows, ["durationUnit"], str) ?? first(rows, ["duration"], (v) => str(asRow(v).unit));
  const ipBlockLength = first(rows, ["ipBlock"], int);
  const ipv6Length = first(rows, ["ipv6Block"], int);
  return {
    id,
    kind,
    name: first(rows, ["name"], str),
    status: str(entry.status) ?? str(record.status),
    typeLabel: str(entry.typeFriendly) ?? str(entry.type),
    speedMbps: first(rows, ["speed", "rateLimit", "bandwidth"], speedMbps),
    source: source ? portEnd(source) : undefined,
    destination: dest ? portEnd(dest) : undefined,
    partner,
    classOfService: first(rows, ["classOfService"], str),
    term: termValue !== undefined || termUnit ? { value: termValue, unit: termUnit } : undefined,
    evergreen: first(rows, ["evergreen"], (v) => (typeof v === "boolean" ? v : undefined)),
    routing: kind === "iod" ? first([record, request], ["type"], str) : undefined,
    asn: kind === "iod" ? asnOf(rows) : undefined,
    privateAsn: first(rows, ["privateAsn"], (v) => (typeof v === "boolean" ? v : undefined)),
    ipv4Blocks: blocks(rows, [
      "ipv4",
      "ipv4Block",
      "ipv4Prefix",
      "ipv4Prefixes",
      "ipBlock",
      "prefixes",
    ]).filter((b) => !b.includes(":")),
    ipv6Blocks: blocks(rows, [
      "ipv6",
      "ipv6Block",
      "ipv6Prefix",
      "ipv6Prefixes",
      "prefixes",
    ]).filter((b) => b.includes(":")),
    ipv4PrefixLength:
      kind === "iod" && typeof ipBlockLength === "number" ? ipBlockLength : undefined,
    ipv6PrefixLength: kind === "iod" && typeof ipv6Length === "number" ? ipv6Length : undefined,
    bgpSessions: kind === "iod" ? bgpSessions(rows) : [],
    createdAt: first([entry, record], ["createdAt"], str),
    approval: approval ? { id: approval.id, requesterId: approval.requester.userId } : undefined,
  };
}

/** Finds a layer 2 connection or IO-D service by id in the company's ports. */
export async function lookUpService(deps: LookupDeps, id: string): Promise<ServiceLookup> {
  const { companyUsername } = await deps.identity();
  const ports = await deps.provider.listPorts(companyUsername, { deleted: false });
  const found = findConnectionById(ports, id);
  if (!found) return { found: false, id, portsChecked: ports.length };
  const { entry, carrying } = found;
  const approval = await approvalFor(deps, id);
  return { found: true, service: describeService(id, entry, carrying, ports, approval) };
}

/** The first layer 2 connection and IO-D service ids in these ports (help's examples). */
export function firstServiceIds(ports: readonly Port[]): {
  connectionId?: string;
  serviceId?: string;
} {
  const ids: { connectionId?: string; serviceId?: string } = {};
  for (const port of ports) {
    for (const c of connectionsOf(port)) {
      const id = str(c.id);
      if (!id) continue;
      const kind = serviceKind(c);
      if (kind === "layer2") ids.connectionId ??= id;
      if (kind === "iod") ids.serviceId ??= id;
    }
  }
  return ids;
}
