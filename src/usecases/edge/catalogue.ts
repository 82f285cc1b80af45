import { createHash } from "node:crypto";
import {
  countryName,
  type EdgeRecord,
  firstText,
  KEY_MAX,
  num,
  text,
} from "../../domain/catalog/edge.js";
import { isSingapore, speedMbps } from "../../domain/catalog/requestFacts.js";
import { withDeadline } from "../../domain/deadline.js";
import { isRecord } from "../../domain/records.js";
import { formatTerm } from "../../domain/units.js";
import type { ProviderApi } from "../../provider/api.js";

/**
 * The Edge catalogue: the three provider lists (countries, bandwidths, contract terms) read into
 * select choices, kept for a while, and a form value picked back out of them. Items of the lists
 * are read by name-ish fields, tolerating numbers, strings and objects (the spec shows none of
 * their shapes); an item that cannot be read is left out.
 */

function hashOf(value: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify(value) ?? "")
    .digest("hex")
    .slice(0, 16);
}

export interface EdgeCountryChoice {
  /** Stable key for a select option (an id or code when there is one). */
  key: string;
  name: string;
  /** The list's element, sent as the quotation request's `country`. */
  country: EdgeRecord;
  postCodeRequired: boolean;
}

export type BandwidthUnit = "Mbps" | "Gbps";

export interface EdgeBandwidthChoice {
  /** `<value>|<unit>`, e.g. `1|Gbps`. */
  key: string;
  value: string;
  unit: BandwidthUnit;
  mbps: number;
  label: string;
}

export interface EdgeTermChoice {
  /** `<value>|<unit>`, e.g. `12|month`. */
  key: string;
  value: string;
  unit: string;
  label: string;
}

export interface EdgeCatalogue {
  countries: EdgeCountryChoice[];
  bandwidths: EdgeBandwidthChoice[];
  terms: EdgeTermChoice[];
}

const COUNTRY_KEY_FIELDS = ["id", "code", "iso2", "isoCode", "countryCode", "alpha2", "name"];

/** The key of a country object: the same for a list element and the request that sent it. */
export function countryKey(country: unknown): string {
  if (isRecord(country)) {
    const id = firstText(country, COUNTRY_KEY_FIELDS);
    if (id !== undefined && id.length <= KEY_MAX && !id.includes("|")) return id;
  }
  return `h:${hashOf(country)}`;
}

const POST_CODE_FLAG = /post.?code.*(required|mandatory)|requires?.?post.?code/i;

/** Singapore (rules.ts), or a country that says it needs a post code (e.g. postCodeRequired). */
export function postCodeRequired(country: unknown): boolean {
  if (isSingapore(country)) return true;
  return (
    isRecord(country) &&
    Object.entries(country).some(([key, value]) => value === true && POST_CODE_FLAG.test(key))
  );
}

export function readCountries(items: readonly unknown[]): EdgeCountryChoice[] {
  const seen = new Set<string>();
  const out: EdgeCountryChoice[] = [];
  for (const item of items) {
    const country = isRecord(item)
      ? item
      : typeof item === "string" && item.trim() !== ""
        ? { name: item.trim() }
        : undefined;
    if (!country) continue;
    const key = countryKey(country);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({
      key,
      name: countryName(country),
      country,
      postCodeRequired: postCodeRequired(country),
    });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

function bandwidthOf(mbps: number, unit?: BandwidthUnit): EdgeBandwidthChoice {
  const gbps = unit === "Gbps" || (unit === undefined && mbps >= 1000 && mbps % 1000 === 0);
  const value = gbps ? String(Number((mbps / 1000).toFixed(3))) : String(mbps);
  const u: BandwidthUnit = gbps ? "Gbps" : "Mbps";
  return { key: `${value}|${u}`, value, unit: u, mbps, label: `${value} ${u}` };
}

function unitOf(x: unknown): BandwidthUnit | undefined {
  const t = text(x)?.toLowerCase();
  if (!t) return undefined;
  if (t.startsWith("g")) return "Gbps";
  if (t.startsWith("m")) return "Mbps";
  return undefined;
}

function readBandwidth(item: unknown): EdgeBandwidthChoice | undefined {
  if (typeof item === "number" || typeof item === "string") {
    const mbps = speedMbps(item);
    return mbps === undefined
      ? undefined
      : bandwidthOf(mbps, unitOf(String(item).replace(/[\d.\s]/g, "")));
  }
  if (!isRecord(item)) return undefined;
  const unit = unitOf(item.unit ?? item.bandwidthUnit ?? item.uom);
  const value = item.value ?? item.bandwidth ?? item.speed ?? item.amount;
  let mbps: number | undefined;
  if (num(value) !== undefined) mbps = speedMbps(`${num(value)} ${unit ?? "Mbps"}`);
  else if (num(item.mbps) !== undefined) mbps = speedMbps(num(item.mbps));
  else mbps = speedMbps(item.label ?? item.name ?? value);
  return mbps === undefined ? undefined : bandwidthOf(mbps, unit);
}

export function readBandwidths(items: readonly unknown[]): EdgeBandwidthChoice[] {
  const byMbps = new Map<number, EdgeBandwidthChoice>();
  for (const item of items) {
    const choice = readBandwidth(item);
    if (choice && !byMbps.has(choice.mbps)) byMbps.set(choice.mbps, choice);
  }
  return [...byMbps.values()].sort((a, b) => a.mbps - b.mbps);
}

const TERM_TEXT = /^(\d{1,3})\s*(m|mo|mon|month|months|y|yr|yrs|year|years)?$/i;

function termOf(value: number, unit: string): EdgeTermChoice {
  return {
    key: `${value}|${unit}`,
    value: String(value),
    unit,
    label: formatTerm(value, unit),
  };
}

function termUnit(x: unknown): string | undefined {
  const t = text(x);
  return t && /^[A-Za-z ]{1,20}$/.test(t) ? t : undefined;
}

function readTerm(item: unknown): EdgeTermChoice | undefined {
  if (typeof item === "number") {
    return Number.isInteger(item) && item > 0 ? termOf(item, "month") : undefined;
  }
  if (typeof item === "string") {
    const m = TERM_TEXT.exec(item.trim());
    if (!m) return undefined;
    const unit = m[2]?.toLowerCase().startsWith("y") ? "year" : "month";
    return Number(m[1]) > 0 ? termOf(Number(m[1]), unit) : undefined;
  }
  if (!isRecord(item)) return undefined;
  const value = num(item.value ?? item.term ?? item.contractTerm ?? item.duration ?? item.months);
  const unit =
    termUnit(item.unit ?? item.termUnit ?? item.contractTermUnit ?? item.durationUnit) ??
    (item.months !== undefined ? "month" : undefined);
  if (value !== undefined && Number.isInteger(value) && value > 0) {
    return termOf(value, unit ?? "month");
  }
  const label = text(item.label ?? item.name);
  return label ? readTerm(label) : undefined;
}

export function readTerms(items: readonly unknown[]): EdgeTermChoice[] {
  const byKey = new Map<string, EdgeTermChoice>();
  for (const item of items) {
    const choice = readTerm(item);
    if (choice && !byKey.has(choice.key)) byKey.set(choice.key, choice);
  }
  return [...byKey.values()].sort((a, b) => termChoiceMonths(a) - termChoiceMonths(b));
}

/** A term choice in months: its value, times 12 for a unit in years. */
export function termChoiceMonths(term: EdgeTermChoice): number {
  return Number(term.value) * (term.unit.toLowerCase().startsWith("y") ? 12 : 1);
}

export type CatalogueDeps = { provider: ProviderApi };

/**
 * The three Edge lists, read together and kept for a while: a modal, its options loads and its
 * submission all need them within Slack's 3 seconds, and the lists change rarely. A failed load
 * is not kept, so the next caller tries again.
 */
export class EdgeCatalogueCache {
  private cached: { value: Promise<EdgeCatalogue>; at: number } | undefined;

  constructor(
    private readonly provider: ProviderApi,
    private readonly ttlMs = 10 * 60_000,
    private readonly loadTimeoutMs = 10_000,
  ) {}

  /** The catalogue; with `timeoutMs`, rejects with DeadlineExceededError when it takes longer
   * (the shared load goes on and is kept for the next caller). */
  get(timeoutMs?: number): Promise<EdgeCatalogue> {
    const now = Date.now();
    if (!this.cached || now - this.cached.at > this.ttlMs) {
      const value = this.load();
      const entry = { value, at: now };
      this.cached = entry;
      value.catch(() => {
        if (this.cached === entry) this.cached = undefined;
      });
    }
    return timeoutMs === undefined
      ? this.cached.value
      : withDeadline(timeoutMs, () => this.cached!.value);
  }

  private async load(): Promise<EdgeCatalogue> {
    const signal = AbortSignal.timeout(this.loadTimeoutMs);
    const [countries, bandwidths, terms] = await Promise.all([
      this.provider.listEdgeCountries({ signal }),
      this.provider.listEdgeBandwidths({ signal }),
      this.provider.listEdgeContractTerms({ signal }),
    ]);
    return {
      countries: readCountries(countries.items),
      bandwidths: readBandwidths(bandwidths.items),
      terms: readTerms(terms.items),
    };
  }
}

const caches = new WeakMap<ProviderApi, EdgeCatalogueCache>();

/** One catalogue cache per provider client (the command, listeners and jobs share it). */
export function edgeCatalogue(deps: CatalogueDeps): EdgeCatalogueCache {
  let cache = caches.get(deps.provider);
  if (!cache) {
    cache = new EdgeCatalogueCache(deps.provider);
    caches.set(deps.provider, cache);
  }
  return cache;
}

/** Countries whose name or key contains the typed text (for a searchable select). */
export function matchCountries(
  countries: readonly EdgeCountryChoice[],
  typed: string,
): EdgeCountryChoice[] {
  const q = typed.trim().toLowerCase().slice(0, 100);
  if (q === "") return [...countries];
  return countries.filter((c) => c.name.toLowerCase().includes(q) || c.key.toLowerCase() === q);
}

const BANDWIDTH_KEY = /^(\d{1,6}(?:\.\d{1,3})?)\|(Mbps|Gbps)$/;
const TERM_KEY = /^(\d{1,3})\|([A-Za-z ]{1,20})$/;

/** A bandwidth key: one of the offered ones, or any when the provider's list was unreadable. */
export function pickBandwidth(
  catalogue: EdgeCatalogue,
  key: unknown,
): EdgeBandwidthChoice | undefined {
  if (typeof key !== "string") return undefined;
  if (catalogue.bandwidths.length > 0) return catalogue.bandwidths.find((b) => b.key === key);
  const m = BANDWIDTH_KEY.exec(key);
  const mbps = m ? speedMbps(`${m[1]} ${m[2]}`) : undefined;
  if (!m || mbps === undefined) return undefined;
  const unit = m[2] as BandwidthUnit;
  return { key, value: m[1]!, unit, mbps, label: `${m[1]} ${unit}` };
}

export function pickTerm(catalogue: EdgeCatalogue, key: unknown): EdgeTermChoice | undefined {
  if (typeof key !== "string") return undefined;
  if (catalogue.terms.length > 0) return catalogue.terms.find((t) => t.key === key);
  const m = TERM_KEY.exec(key);
  return m && Number(m[1]) > 0 ? termOf(Number(m[1]), m[2]!) : undefined;
}

export function pickCountry(catalogue: EdgeCatalogue, key: unknown): EdgeCountryChoice | undefined {
  return typeof key === "string" ? catalogue.countries.find((c) => c.key === key) : undefined;
}
