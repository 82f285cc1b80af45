import type { ApprovalRequest, ApprovalSettings } from "../approvals/index.js";
import { num, text } from "../domain/catalog/edge.js";
import { speedMbps } from "../domain/catalog/requestFacts.js";
import type { Logger } from "../log.js";
import type { Port, ProviderApi } from "../provider/api.js";
import type { IdentityLookup } from "../provider/identity.js";
import { connectionsOf, findConnectionById } from "../provider/normalize.js";
import {
  addressBlocksOf,
  asnOf,
  type BgpSession,
  bgpSessionsOf,
  firstOf,
  flagOf,
  type PortPlace,
  portPlace,
  type RawRecord,
  recordOf,
  type ServiceKind,
  serviceKind,
  termOf,
} from "../provider/serviceRecords.js";

/**
 * One layer 2 connection or IO-D service, looked up by id.
 *
 * The provider has no read of a single connection or IO-D service (docs/provider/provider-api.md lists only
 * their creation), so — as the reconciliation of placements does — the record is found in the
 * `connections` of the company's ports: each entry there carries id, name, status, speed and
 * type, and the ports carrying it are its ends. What only the creation answer and the request
 * hold (the partner company of a business-to-business connection, the ASN and address blocks
 * of an IO-D service) is added from the approval record when the order went through this bot.
 * Shapes beyond the spec's few fields are read defensively (src/provider/serviceRecords.ts):
 * anything unknown is left out.
 */

export type LookupDeps = { provider: ProviderApi; identity: IdentityLookup; logger: Logger } & {
  approvals?: Pick<ApprovalSettings, "store">;
};

/** One end of a connection that is one of the company's ports. */
export interface PortEnd extends PortPlace {
  portId: string;
  portName?: string;
}

/** The far end of a connection that is not one of the company's ports. */
export interface PartnerEnd {
  company?: string;
  portId?: string;
  dcfId?: string;
  metroId?: string;
  regionId?: string;
  /** Names of the ids above, where the request said them (its approval summary). */
  dcfName?: string;
  metroName?: string;
  regionName?: string;
}

/**
 * The name a request's summary line gives an id ("Globex LD5 (id)", "London (LON) · id"), if
 * it gives one: a business-to-business end is ids in the provider's records, names only in
 * what the requester chose (issue 32, item 17).
 */
function summaryName(
  approval: ApprovalRequest | undefined,
  label: string,
  id: string | undefined,
): string | undefined {
  if (!approval || !id) return undefined;
  const value = approval.summary.find((line) => line.label === label)?.value;
  if (value === undefined || !value.includes(id)) return undefined;
  const name = value.replace(` (${id})`, "").replace(` · ${id}`, "").trim();
  return name !== "" && name !== id ? name : undefined;
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

function portEnd(port: Port): PortEnd {
  return { portId: port.id, portName: text(port.name), ...portPlace(port) };
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
  entry: RawRecord,
  carrying: readonly Port[],
  ownPorts: readonly Port[],
  approval?: ApprovalRequest,
): ServiceDetail {
  const record = recordOf(approval?.result?.record);
  const request = recordOf(approval?.call.body);
  // The port entry is the provider's current word (status); the creation record and the request
  // fill what the entry does not carry.
  const rows = [entry, record, request];
  // The ends, the partner and the IO-D routing only the creation record and the request say.
  const placed = [record, request];
  const kind =
    serviceKind(entry) !== "other"
      ? serviceKind(entry)
      : approval?.kind === "layer2" || approval?.kind === "iod"
        ? approval.kind
        : serviceKind(record);
  const byId = (portId: string | undefined) =>
    portId ? ownPorts.find((p) => p.id === portId) : undefined;

  const sourceId = firstOf(placed, ["portId", "accessPortId"], text);
  const source = byId(sourceId) ?? carrying[0];
  const destId = firstOf(placed, ["destPortId"], text);
  const dest = byId(destId) ?? (kind === "layer2" ? carrying.find((p) => p !== source) : undefined);
  const partnerCompany = firstOf(placed, ["destCompany"], text);
  const partnerDcf = firstOf(placed, ["destDcf"], text);
  const partnerMetro = firstOf(placed, ["destMetroId"], text);
  const partnerRegion = firstOf(placed, ["destRegionId"], text);
  const partner: PartnerEnd | undefined =
    !dest && kind === "layer2" && (partnerCompany || destId || partnerDcf)
      ? {
          company: partnerCompany,
          portId: destId,
          dcfId: partnerDcf,
          metroId: partnerMetro,
          regionId: partnerRegion,
          dcfName: summaryName(approval, "Destination data center", partnerDcf),
          metroName: summaryName(approval, "Destination metro", partnerMetro),
          regionName: summaryName(approval, "Destination region", partnerRegion),
        }
      : undefined;

  const ipBlockLength = firstOf(rows, ["ipBlock"], num);
  const ipv6Length = firstOf(rows, ["ipv6Block"], num);
  const blocks = addressBlocksOf(rows);
  return {
    id,
    kind,
    name: firstOf(rows, ["name"], text),
    status: text(entry.status) ?? text(record.status),
    typeLabel: text(entry.typeFriendly) ?? text(entry.type),
    speedMbps: firstOf(rows, ["speed", "rateLimit", "bandwidth"], speedMbps),
    source: source ? portEnd(source) : undefined,
    destination: dest ? portEnd(dest) : undefined,
    partner,
    classOfService: firstOf(rows, ["classOfService"], text),
    term: termOf(rows),
    evergreen: flagOf(rows, "evergreen"),
    routing: kind === "iod" ? firstOf(placed, ["type"], text) : undefined,
    asn: kind === "iod" ? asnOf(rows) : undefined,
    privateAsn: flagOf(rows, "privateAsn"),
    ipv4Blocks: blocks.ipv4,
    ipv6Blocks: blocks.ipv6,
    ipv4PrefixLength: kind === "iod" ? ipBlockLength : undefined,
    ipv6PrefixLength: kind === "iod" ? ipv6Length : undefined,
    bgpSessions: kind === "iod" ? bgpSessionsOf(rows) : [],
    createdAt: firstOf([entry, record], ["createdAt"], text),
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
      const id = text(c.id);
      if (!id) continue;
      const kind = serviceKind(c);
      if (kind === "layer2") ids.connectionId ??= id;
      if (kind === "iod") ids.serviceId ??= id;
    }
  }
  return ids;
}
