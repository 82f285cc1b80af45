// Reading a layer 2 connection's or IO-D service's raw records: the entries a port's
// `connections` list (normalize.ts finds them), the record a creation answered and the request
// body sent. The spec shows only a few of their fields, so every other field is looked for under
// the spellings seen so far and read leniently; what cannot be read is left out. The use cases
// (src/usecases/services.ts, trackingReads.ts) decide which records to read and what to show.

import { num, text } from "../domain/catalog/edge.js";
import { isRecord } from "../domain/records.js";
import type { Port } from "./api.js";

/** One raw record as the provider (or the bot's own request) shaped it. */
export type RawRecord = Record<string, unknown>;

export type ServiceKind = "layer2" | "iod" | "other";

/** A BGP session as far as the provider reports it; the BGP key is never read. */
export interface BgpSession {
  state?: string;
  peerIp?: string;
  localIp?: string;
  peerAsn?: string;
  localAsn?: string;
}

/** Where a port is: its data center facility and metro, as far as the port record says. */
export interface PortPlace {
  dcfName?: string;
  dcfUsername?: string;
  dcfId?: string;
  metroName?: string;
  metroCode?: string;
}

/** A record, or an empty one for anything else (so a missing record reads as no fields). */
export function recordOf(value: unknown): RawRecord {
  return isRecord(value) ? value : {};
}

/** The first readable value among several records (in order) and the spellings of a field. */
export function firstOf<T>(
  rows: readonly RawRecord[],
  keys: readonly string[],
  read: (v: unknown) => T | undefined,
): T | undefined {
  for (const row of rows) {
    for (const key of keys) {
      const value = read(row[key]);
      if (value !== undefined) return value;
    }
  }
  return undefined;
}

/** A boolean field, from the first record that has one. */
export function flagOf(rows: readonly RawRecord[], key: string): boolean | undefined {
  return firstOf(rows, [key], (v) => (typeof v === "boolean" ? v : undefined));
}

/** Which kind a connection entry is, from its type (LAYER2 seen; the sandbox says GIA for IO-D). */
export function serviceKind(entry: RawRecord): ServiceKind {
  const type = `${text(entry.type) ?? ""} ${text(entry.typeFriendly) ?? ""} ${text(entry.serviceType) ?? ""}`;
  if (/layer\s*2|\bl2\b|layer2/i.test(type)) return "layer2";
  if (/\bgia\b|\biod\b|io-d|internet/i.test(type)) return "iod";
  return "other";
}

/** A port's facility and metro (ids, names), from the port record's embedded objects. */
export function portPlace(port: Port): PortPlace {
  const dcf = recordOf(port.dataCenterFacility);
  const metro = recordOf(port.metro);
  return {
    dcfName: text(dcf.name),
    dcfUsername: text(dcf.username),
    dcfId: text(port.dataCenterFacilityId) ?? text(dcf.id),
    metroName: text(metro.name),
    metroCode: text(metro.code),
  };
}

/**
 * A contract term: `duration` as a number or `{quantity|value, unit}`, its unit also under
 * `durationUnit` (which wins over a nested unit in any record).
 */
export function termOf(rows: readonly RawRecord[]): { value?: number; unit?: string } | undefined {
  const value = firstOf(
    rows,
    ["duration"],
    (v) => num(v) ?? num(recordOf(v).quantity) ?? num(recordOf(v).value),
  );
  const unit =
    firstOf(rows, ["durationUnit"], text) ??
    firstOf(rows, ["duration"], (v) => text(recordOf(v).unit));
  return value !== undefined || unit ? { value, unit } : undefined;
}

/** Address blocks: strings like "203.0.113.0/28", alone or in a list or an object's values. */
function blocks(rows: readonly RawRecord[], keys: readonly string[]): string[] {
  const found: string[] = [];
  const add = (value: unknown) => {
    if (typeof value === "string" && value.includes("/") && value.length <= 64) found.push(value);
    else if (Array.isArray(value))
      for (const v of value)
        add(typeof v === "object" ? (recordOf(v).prefix ?? recordOf(v).block) : v);
  };
  for (const row of rows) for (const key of keys) add(row[key]);
  return [...new Set(found)].slice(0, 20);
}

/** The IPv4 and IPv6 address blocks the records report (at most 20 of each, no repeats). */
export function addressBlocksOf(rows: readonly RawRecord[]): { ipv4: string[]; ipv6: string[] } {
  return {
    ipv4: blocks(rows, [
      "ipv4",
      "ipv4Block",
      "ipv4Prefix",
      "ipv4Prefixes",
      "ipBlock",
      "prefixes",
    ]).filter((b) => !b.includes(":")),
    ipv6: blocks(rows, ["ipv6", "ipv6Block", "ipv6Prefix", "ipv6Prefixes", "prefixes"]).filter(
      (b) => b.includes(":"),
    ),
  };
}

/** The BGP sessions of the first record that reports any (at most 10). */
export function bgpSessionsOf(rows: readonly RawRecord[]): BgpSession[] {
  const sessions: BgpSession[] = [];
  for (const row of rows) {
    for (const key of ["bgpSessions", "bgpSession", "bgp", "bgpPeers", "bgpPeer"]) {
      const value = row[key];
      const list = Array.isArray(value) ? value : value !== undefined ? [value] : [];
      for (const item of list) {
        const s = recordOf(item);
        // Only these fields are read: a session object may also carry the BGP key.
        const session: BgpSession = {
          state: text(s.state) ?? text(s.status) ?? text(s.sessionState),
          peerIp: text(s.peerIp) ?? text(s.neighborIp) ?? text(s.remoteIp) ?? text(s.peerAddress),
          localIp: text(s.localIp) ?? text(s.localAddress),
          peerAsn: text(s.peerAsn) ?? text(s.remoteAsn) ?? text(s.neighborAsn),
          localAsn: text(s.localAsn),
        };
        if (Object.values(session).some((v) => v !== undefined)) sessions.push(session);
      }
    }
    if (sessions.length > 0) break;
  }
  return sessions.slice(0, 10);
}

/** The ASN of the first record that has one: `asn` as a number, text or `{asn}`. */
export function asnOf(rows: readonly RawRecord[]): string | undefined {
  for (const row of rows) {
    const value = row.asn;
    const asn = text(value) ?? text(recordOf(value).asn);
    if (asn) return asn;
  }
  return undefined;
}

/** What a connection entry says about its progress, for the tracker. */
export interface ConnectionProgress {
  status?: string;
  /** The company a waiting connection waits on (its destination company). */
  waitingOn?: string;
  /** Why it is where it is (e.g. an ERROR's reason). */
  details?: string;
}

export function connectionProgress(entry: RawRecord): ConnectionProgress {
  return {
    status: text(entry.status),
    waitingOn: text(entry.destCompany) ?? text(entry.destCompanyName),
    details: text(entry.reason) ?? text(entry.statusReason) ?? text(entry.errorMessage),
  };
}

/**
 * A port's speed for the tracker's summary: a number of Mbps, or `{value, name}` as the
 * provider sends it. Not `speedMbps` (src/domain/catalog/requestFacts.ts) on purpose: the summary
 * (src/domain/tracking/trackedOrder.ts PortSummary) keeps the provider's own words when the speed is text
 * ("10G", "10000 Mbps") and shows them as given, where speedMbps would convert or drop them.
 */
export function portSpeedAsSent(speed: unknown): number | string | undefined {
  if (typeof speed === "number" || typeof speed === "string") return speed;
  if (isRecord(speed)) {
    const { value, name } = speed;
    if (typeof value === "number") return value;
    if (typeof name === "string") return name;
  }
  return undefined;
}
