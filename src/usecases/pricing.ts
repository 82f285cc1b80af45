// Pricing: ports (inline `/connect price port <dcf> <speed> <term>` or the modal) and layer 2
// connections (modal). Slack-free: plain inputs in, plain outcomes out; the Slack layer renders
// them with views/pricing.ts and views/pricingModals.ts.
import { z } from "zod";
import { CONNECTION_BANDWIDTH_MAX_MBPS, CONNECTION_DURATION_UNITS } from "../domain/connections.js";
import { DCF_SEARCH_MIN, isReady, offeredSpeeds } from "../domain/dcfs.js";
import type { PortDurationUnit, PortTerm } from "../domain/portTerms.js";
import { CLASSES_OF_SERVICE, speedMbps } from "../domain/requestFacts.js";
import { isSet } from "../domain/timestamps.js";
import { formatMbps, formatSpeed } from "../domain/units.js";
import type {
  CallOptions,
  ConnectionPriceConfig,
  Dcf,
  PortPriceConfig,
  PricingResult,
  ProviderApi,
} from "../provider/api.js";
import { fieldErrors } from "../provider/rules/fieldErrors.js";
import { pricingConnectionConfigRule, pricingRequestRule } from "../provider/rules/pricing.js";
import { DeadlineExceededError, withDeadline } from "./shared/deadline.js";

export {
  CONNECTION_BANDWIDTH_MAX_MBPS,
  CONNECTION_DURATION_UNITS,
  type ConnectionDurationUnit,
} from "../domain/connections.js";

export { DCF_SEARCH_MIN, dcfRef, isReady, offeredSpeeds } from "../domain/dcfs.js";

export { PORT_TERMS, type PortDurationUnit, type PortTerm, termText } from "../domain/portTerms.js";

// ---------------------------------------------------------------------------------------------
// Terms

export type TermReading =
  | { kind: "term"; term: PortTerm }
  /** Reads as a length of time, but one the provider cannot price a port for (36m, 3y, 4w). */
  | { kind: "unsupported"; value: number; unit: string };

const TERM_TEXT =
  /^(\d{1,4})\s*(y|yr|yrs|year|years|m|mo|mos|mon|month|months|w|wk|wks|week|weeks|d|day|days)$/i;

const TERM_WORDS: Readonly<Record<string, PortTerm>> = {
  y: { value: 1, unit: "y", durationUnit: "y" },
  yearly: { value: 1, unit: "y", durationUnit: "y" },
  annual: { value: 1, unit: "y", durationUnit: "y" },
  annually: { value: 1, unit: "y", durationUnit: "y" },
  m: { value: 1, unit: "m", durationUnit: "m" },
  monthly: { value: 1, unit: "m", durationUnit: "m" },
  "month-to-month": { value: 1, unit: "m", durationUnit: "m" },
  m2m: { value: 1, unit: "m", durationUnit: "m" },
};

/**
 * Reads a port term. Spec gap: a port price request carries only `durationUnit` ("y or m
 * shown") and no term length, and the provider's `price` is the total for that one unit (the
 * sandbox: monthly × 12 for y, × 1 for m with a month-to-month premium). So:
 * - `1y`, `12m`, `1 year`, `12 months`, `annual` → `y` (a 1-year term; 12m is the same term);
 * - `1m`, `1 month`, `monthly` → `m` (month to month);
 * - any other length (`36m`, `3y`, `4w`) is refused, never rounded: the provider has no such
 *   port term, and mapping `36m` to `m` would show a one-month price labelled "36 months".
 * Returns undefined for text that is not a term at all.
 */
export function readPortTerm(text: string): TermReading | undefined {
  const trimmed = text.trim().toLowerCase();
  const word = Object.hasOwn(TERM_WORDS, trimmed) ? TERM_WORDS[trimmed] : undefined;
  if (word) return { kind: "term", term: { ...word } };
  const match = TERM_TEXT.exec(trimmed);
  if (!match) return undefined;
  const value = Number(match[1]);
  const unit = (match[2] ?? "").charAt(0);
  if (unit === "y" && value === 1)
    return { kind: "term", term: { value, unit, durationUnit: "y" } };
  if (unit === "m" && value === 12) {
    return { kind: "term", term: { value, unit, durationUnit: "y" } };
  }
  if (unit === "m" && value === 1)
    return { kind: "term", term: { value, unit, durationUnit: "m" } };
  return { kind: "unsupported", value, unit };
}

// ---------------------------------------------------------------------------------------------
// The inline command's arguments

/** Words that ask for the cross connect charge too. */
const CROSS_CONNECT_WORDS = new Set(["xc", "+xc", "--xc", "--cross-connect", "cross-connect"]);

const NUMBER = /^\d+(\.\d+)?$/;
const UNIT_WORDS = new Set([
  // speeds
  "m",
  "mb",
  "mbps",
  "mbit",
  "mbits",
  "mbit/s",
  "mb/s",
  "g",
  "gb",
  "gbps",
  "gbit",
  "gbits",
  "gbit/s",
  "gb/s",
  // terms
  "y",
  "yr",
  "yrs",
  "year",
  "years",
  "mo",
  "mos",
  "mon",
  "month",
  "months",
  "w",
  "wk",
  "wks",
  "week",
  "weeks",
  "d",
  "day",
  "days",
]);

/** Longest data center text searched for; anything longer is a paste mistake. */
export const DCF_QUERY_MAX = 100;

export type PortPriceField = "data center" | "speed" | "term";

export type PortPriceArgs =
  | {
      kind: "complete";
      dcfQuery: string;
      speedMbps: number;
      term: PortTerm;
      includeCrossConnect: boolean;
      /** Words after the speed and term that were not used ("extra"): the answer names them. */
      ignored?: string[];
    }
  | {
      /** Something is missing: the modal asks for it. */
      kind: "incomplete";
      missing: PortPriceField[];
      dcfQuery?: string;
      speedMbps?: number;
      term?: PortTerm;
      includeCrossConnect: boolean;
    }
  | { kind: "invalid"; problem: PortArgsProblem };

export type PortArgsProblem =
  | { kind: "speed"; text: string }
  | { kind: "term"; text: string; value?: number; unit?: string }
  | { kind: "dcf-too-long"; length: number };

/** "1 Gbps" and "36 months" arrive as two words: join a number with the unit after it. */
function joinUnits(words: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? "";
    const next = words[i + 1];
    if (NUMBER.test(word) && next !== undefined && UNIT_WORDS.has(next.toLowerCase())) {
      out.push(`${word}${next}`);
      i++;
    } else {
      out.push(word);
    }
  }
  return out;
}

/**
 * Words after the last "<speed> <term>" pair that come after a data center ("ironbridge-iad1
 * 10G 12m extra"): a person's afterthought or a paste, not a longer data center name. They are
 * set aside (and the answer says so) rather than making the whole line unreadable.
 */
function withoutTrailingWords(words: readonly string[]): { words: string[]; ignored: string[] } {
  const endsWithPair =
    readPortTerm(words.at(-1) ?? "") !== undefined && speedMbps(words.at(-2) ?? "") !== undefined;
  if (endsWithPair) return { words: [...words], ignored: [] };
  for (let i = words.length - 2; i >= 2; i--) {
    const term = readPortTerm(words[i] ?? "");
    if (term && speedMbps(words[i - 1] ?? "") !== undefined) {
      return { words: words.slice(0, i + 1), ignored: words.slice(i + 1) };
    }
  }
  return { words: [...words], ignored: [] };
}

/**
 * Reads `<dcf words...> <speed> <term> [xc]` from the end, since a data center name may have
 * spaces: the last word is the term, the one before it the speed, the rest the data center.
 * A missing piece makes it "incomplete" (the modal asks for it); a piece in its place that
 * cannot be read is "invalid" (the person is told what to type).
 */
export function parsePortPriceArgs(args: readonly string[]): PortPriceArgs {
  const includeCrossConnect = args.some((a) => CROSS_CONNECT_WORDS.has(a.toLowerCase()));
  const given = joinUnits(
    args.filter((a) => a.trim() !== "" && !CROSS_CONNECT_WORDS.has(a.toLowerCase())),
  );
  const { words, ignored } = withoutTrailingWords(given);
  const last = words.at(-1);
  const beforeLast = words.at(-2);
  const lastTerm = last === undefined ? undefined : readPortTerm(last);
  const beforeLastSpeed = beforeLast === undefined ? undefined : speedMbps(beforeLast);

  let dcfWords: string[];
  let speed: number | undefined;
  let term: PortTerm | undefined;
  if (last !== undefined && lastTerm && beforeLastSpeed !== undefined) {
    // <dcf> <speed> <term>
    if (lastTerm.kind === "unsupported") {
      return {
        kind: "invalid",
        problem: { kind: "term", text: last, value: lastTerm.value, unit: lastTerm.unit },
      };
    }
    dcfWords = words.slice(0, -2);
    speed = beforeLastSpeed;
    term = lastTerm.term;
  } else if (last !== undefined && lastTerm?.kind === "term") {
    // <dcf> <term>: the speed is missing, or what stands in its place is not a speed.
    if (beforeLast !== undefined && /^\d/.test(beforeLast) && words.length > 2) {
      return { kind: "invalid", problem: { kind: "speed", text: beforeLast } };
    }
    dcfWords = words.slice(0, -1);
    term = lastTerm.term;
  } else if (last !== undefined && speedMbps(last) !== undefined && words.length > 1) {
    // <dcf> <speed>: the term is missing.
    dcfWords = words.slice(0, -1);
    speed = speedMbps(last);
  } else if (last !== undefined && /^\d/.test(last) && words.length > 1) {
    // Something number-like where the term goes that is neither a term nor a speed.
    return { kind: "invalid", problem: { kind: "term", text: last } };
  } else {
    dcfWords = words;
  }

  const dcfQuery = dcfWords.join(" ").trim();
  if (dcfQuery.length > DCF_QUERY_MAX) {
    return { kind: "invalid", problem: { kind: "dcf-too-long", length: dcfQuery.length } };
  }
  const missing: PortPriceField[] = [];
  if (dcfQuery === "") missing.push("data center");
  if (speed === undefined) missing.push("speed");
  if (term === undefined) missing.push("term");
  if (missing.length === 0 && speed !== undefined && term !== undefined) {
    return {
      kind: "complete",
      dcfQuery,
      speedMbps: speed,
      term,
      includeCrossConnect,
      ...(ignored.length > 0 ? { ignored } : {}),
    };
  }
  return {
    kind: "incomplete",
    missing,
    ...(dcfQuery ? { dcfQuery } : {}),
    ...(speed !== undefined ? { speedMbps: speed } : {}),
    ...(term ? { term } : {}),
    includeCrossConnect,
  };
}

export { portPriceCommandText } from "../domain/portTerms.js";

// ---------------------------------------------------------------------------------------------
// Data centers

export function isDeleted(dcf: Dcf): boolean {
  return isSet(dcf.deletedAt);
}

/**
 * Whether this DCF can price `speed`: ready, and the speed among its valid speeds. A DCF whose
 * speeds cannot be read is left to the provider to judge (the spec does not show their shape).
 */
export function canPrice(dcf: Dcf, speed: number): boolean {
  const offered = offeredSpeeds(dcf);
  return isReady(dcf) && (offered.length === 0 || offered.includes(speed));
}

const DCF_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** The DCF id of a select option's value; undefined for anything we did not put there. */
export function parseDcfRef(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length > 150) return undefined;
  const id = value.split("|", 1)[0] ?? "";
  return DCF_ID.test(id) ? id : undefined;
}

/**
 * DCF records by id, kept for a few minutes: the modal looks the chosen DCF up when it is
 * picked (for its speeds) and again on submission, both within Slack's 3 seconds, and the
 * options load has usually just fetched it. Per process: a cache, never a source of truth
 * across replicas (a miss asks the provider).
 */
export class DcfDirectory {
  private readonly entries = new Map<string, { dcf: Dcf; at: number }>();

  constructor(
    private readonly provider: ProviderApi,
    private readonly options: { ttlMs?: number; maxEntries?: number; now?: () => number } = {},
  ) {}

  private now(): number {
    return this.options.now?.() ?? Date.now();
  }

  /** Keeps these records (search products are dropped: they are large and not needed). */
  remember(dcfs: readonly Dcf[]): void {
    const max = this.options.maxEntries ?? 1000;
    for (const dcf of dcfs) {
      if (typeof dcf?.id !== "string") continue;
      const { products: _products, ...record } = dcf as Dcf & { products?: unknown };
      this.entries.delete(dcf.id);
      this.entries.set(dcf.id, { dcf: record, at: this.now() });
    }
    // Map order is insertion order: the oldest go first.
    for (const key of this.entries.keys()) {
      if (this.entries.size <= max) break;
      this.entries.delete(key);
    }
  }

  cached(id: string): Dcf | undefined {
    const entry = this.entries.get(id);
    if (!entry) return undefined;
    if (this.now() - entry.at > (this.options.ttlMs ?? 10 * 60_000)) {
      this.entries.delete(id);
      return undefined;
    }
    return entry.dcf;
  }

  /** The DCF with this id, from the cache or the provider; undefined when there is none. */
  async byId(id: string, opts: CallOptions = {}): Promise<Dcf | undefined> {
    const hit = this.cached(id);
    if (hit) return hit;
    const found = await this.provider.listDcfs({ where: { id } }, opts);
    // The filter's operators are not shown by the spec: whatever came back, pick the exact id.
    this.remember(found.filter((d) => d?.id === id));
    return found.find((d) => d?.id === id);
  }

  /** Free-text search; results are remembered for the look-ups that follow a pick. */
  async search(text: string, opts: CallOptions = {}): Promise<Dcf[]> {
    const found = await this.provider.searchDcfs({ text }, opts);
    const usable = found.filter((d) => typeof d?.id === "string" && !isDeleted(d));
    this.remember(usable);
    return usable;
  }
}

export type DcfSuggestions =
  | { kind: "found"; dcfs: Dcf[] }
  | { kind: "too-short" }
  | { kind: "timeout" }
  | { kind: "failed"; message: string };

/** Slack waits 3 s for options; the provider gets 2.5 of them. */
export const OPTIONS_DEADLINE_MS = 2_500;

/** The DCFs matching what a person typed into a select, answered within `deadlineMs`. */
export async function suggestDcfs(
  directory: DcfDirectory,
  typed: string,
  deadlineMs = OPTIONS_DEADLINE_MS,
): Promise<DcfSuggestions> {
  const text = typed.trim().slice(0, DCF_QUERY_MAX);
  if (text.length < DCF_SEARCH_MIN) return { kind: "too-short" };
  try {
    const dcfs = await withDeadline(deadlineMs, (signal) => directory.search(text, { signal }));
    return { kind: "found", dcfs: rankDcfs(dcfs, text) };
  } catch (error) {
    if (error instanceof DeadlineExceededError) return { kind: "timeout" };
    return { kind: "failed", message: userMessageOf(error) };
  }
}

function userMessageOf(error: unknown): string {
  if (typeof error === "object" && error !== null && "userMessage" in error) {
    const message = (error as { userMessage: unknown }).userMessage;
    if (typeof message === "string") return message;
  }
  return "the provider did not answer";
}

function lower(x: unknown): string {
  return typeof x === "string" ? x.trim().toLowerCase() : "";
}

function airportCodes(dcf: Dcf): string[] {
  const codes = dcf.dataCenterFacility?.airportCodes;
  return Array.isArray(codes) ? codes.filter((c) => typeof c === "string").map(lower) : [];
}

/** Exact username, id or name first, then airport code, then the provider's order. */
function rankDcfs(dcfs: readonly Dcf[], query: string): Dcf[] {
  const q = query.trim().toLowerCase();
  const score = (d: Dcf) =>
    lower(d.username) === q || lower(d.id) === q
      ? 0
      : lower(d.name) === q
        ? 1
        : airportCodes(d).includes(q)
          ? 2
          : 3;
  return dcfs
    .map((dcf, i) => ({ dcf, i, s: score(dcf) }))
    .sort((a, b) => a.s - b.s || a.i - b.i)
    .map((x) => x.dcf);
}

export type DcfResolution =
  | {
      kind: "one";
      dcf: Dcf;
      /** Set when several matched and only this one can price the speed asked for. */
      narrowedFrom?: number;
    }
  | {
      kind: "several";
      candidates: Dcf[];
      /**
       * Set when nothing matched the whole text and these match a part of it ("equinix-ld5"
       * → the facilities matching "ld5"): offered to pick from, never priced unasked.
       */
      partial?: true;
    }
  | { kind: "none" };

const LOOKS_LIKE_KEY = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
/** A UUID or a 24-character hex id (docs/provider/provider-api.md, Conventions). */
const LOOKS_LIKE_ID =
  /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{24})$/i;

/**
 * The DCF a person means by what they typed: a username or id (exact), a name (exact), an
 * airport code, or any text the provider's search matches. When several match and exactly one
 * of them can price the speed asked for, that one is meant ("AMS 100G" when only one Amsterdam
 * facility offers 100G).
 */
export async function resolveDcf(
  provider: ProviderApi,
  query: string,
  options: { speedMbps?: number } & CallOptions = {},
): Promise<DcfResolution> {
  const text = query.trim();
  const q = text.toLowerCase();
  const opts = options.signal ? { signal: options.signal } : {};
  // The search's criteria syntax is not shown: a username or id may not be searchable as text,
  // so exact look-ups run beside it when the text could be one (a failed one only finds less).
  const exactly = (where: Record<string, string>) =>
    provider.listDcfs({ where }, opts).catch(() => [] as Dcf[]);
  const [found, byUsername, byId] = await Promise.all([
    provider.searchDcfs({ text }, opts),
    LOOKS_LIKE_KEY.test(text) ? exactly({ username: q }) : [],
    LOOKS_LIKE_ID.test(text) ? exactly({ id: text }) : [],
  ]);
  const live = found.filter((d) => typeof d?.id === "string" && !isDeleted(d));
  const exact = [...byUsername, ...byId, ...live].find(
    (d) => typeof d?.id === "string" && (lower(d.username) === q || lower(d.id) === q),
  );
  if (exact) return { kind: "one", dcf: exact };
  const named = live.filter((d) => lower(d.name) === q);
  if (named.length === 1 && named[0]) return { kind: "one", dcf: named[0] };

  if (live.length === 0) return partialMatches(provider, text, options);

  let candidates = live;
  if (/^[a-z]{3}$/.test(q)) {
    const atAirport = live.filter((d) => airportCodes(d).includes(q));
    if (atAirport.length > 0) candidates = atAirport;
  }
  if (candidates.length === 0) return { kind: "none" };
  if (candidates.length === 1 && candidates[0]) return { kind: "one", dcf: candidates[0] };
  const speed = options.speedMbps;
  if (speed !== undefined) {
    const able = candidates.filter((d) => canPrice(d, speed));
    if (able.length === 1 && able[0]) {
      return { kind: "one", dcf: able[0], narrowedFrom: candidates.length };
    }
    // Those that can price it first: the person most likely wants one of them.
    if (able.length > 1) {
      candidates = [...able, ...candidates.filter((d) => !able.includes(d))];
    }
  }
  return { kind: "several", candidates };
}

/** At most this many parts of a text are searched for alone (one provider call each). */
const PARTIAL_TERMS_MAX = 3;

/**
 * The parts of a data center text worth searching for alone when the whole finds nothing:
 * its words ("equinix-ld5" → equinix, ld5) and a code's letters before its number ("AMS1" →
 * ams, a metro or airport code). Parts shorter than 3 characters match too much to help.
 */
export function partialDcfTerms(text: string): string[] {
  const whole = text.trim().toLowerCase();
  const terms: string[] = [];
  for (const word of whole.split(/[^a-z0-9]+/)) {
    if (word.length >= 3 && /[a-z]/.test(word) && word !== whole) terms.push(word);
    const letters = /^([a-z]{3,})\d+$/.exec(word)?.[1];
    if (letters) terms.push(letters);
  }
  return [...new Set(terms)].slice(0, PARTIAL_TERMS_MAX);
}

/**
 * The facilities matching a part of the text, those matching most parts first, then those
 * that can price the speed. Never one picked for the person: "equinix-ld5" finding only
 * "Meridian Slough LD5" is a suggestion, not what they asked for.
 */
async function partialMatches(
  provider: ProviderApi,
  text: string,
  options: { speedMbps?: number } & CallOptions,
): Promise<DcfResolution> {
  const terms = partialDcfTerms(text);
  if (terms.length === 0) return { kind: "none" };
  const opts = options.signal ? { signal: options.signal } : {};
  const found = await Promise.all(
    // A failed part only finds less; the whole text already found nothing.
    terms.map((term) => provider.searchDcfs({ text: term }, opts).catch(() => [] as Dcf[])),
  );
  const byId = new Map<string, { dcf: Dcf; hits: number; first: number }>();
  found.flat().forEach((dcf, index) => {
    if (typeof dcf?.id !== "string" || isDeleted(dcf)) return;
    const seen = byId.get(dcf.id);
    if (seen) seen.hits++;
    else byId.set(dcf.id, { dcf, hits: 1, first: index });
  });
  if (byId.size === 0) return { kind: "none" };
  const speed = options.speedMbps;
  const able = (dcf: Dcf) => (speed !== undefined && canPrice(dcf, speed) ? 0 : 1);
  const candidates = [...byId.values()]
    .sort((a, b) => b.hits - a.hits || able(a.dcf) - able(b.dcf) || a.first - b.first)
    .map((entry) => entry.dcf);
  return { kind: "several", candidates, partial: true };
}

// ---------------------------------------------------------------------------------------------
// Port prices

export interface PortPriceRequest {
  dcf: Dcf;
  speedMbps: number;
  durationUnit: PortDurationUnit;
  includeCrossConnect: boolean;
}

/** A request the rules refuse (the caller built it wrong: a bug, not a person's mistake). */
export class PricingRequestError extends Error {
  constructor(readonly errors: Record<string, string>) {
    super(`pricing request refused by the rules: ${JSON.stringify(errors)}`);
    this.name = "PricingRequestError";
  }
}

function firstResult(results: readonly PricingResult[]): PricingResult {
  const result = results[0];
  if (!result || typeof result !== "object") {
    throw new Error("the provider returned no pricing result for the request");
  }
  return result;
}

/** Prices one port. Every body goes through the pricing rule before it is sent. */
export async function pricePort(
  provider: ProviderApi,
  request: PortPriceRequest,
  opts: CallOptions = {},
): Promise<PricingResult> {
  const port: PortPriceConfig = {
    dcf: request.dcf.id,
    speed: request.speedMbps,
    durationUnit: request.durationUnit,
  };
  const checked = pricingRequestRule.safeParse({
    ports: [port],
    includeCrossConnect: request.includeCrossConnect,
  });
  if (!checked.success) throw new PricingRequestError(fieldErrors(checked.error));
  return firstResult(
    await provider.pricePorts([port], {
      includeCrossConnect: request.includeCrossConnect,
      ...opts,
    }),
  );
}

export type PortQuote =
  | {
      kind: "priced";
      dcf: Dcf;
      speedMbps: number;
      term: PortTerm;
      includeCrossConnect: boolean;
      result: PricingResult;
      /** How many data centers matched before the speed narrowed them to this one. */
      narrowedFrom?: number;
    }
  | {
      kind: "choices";
      query: string;
      candidates: Dcf[];
      speedMbps: number;
      term: PortTerm;
      includeCrossConnect: boolean;
      /** Nothing matched the whole text; these match a part of it. */
      partial?: true;
    }
  | { kind: "no-match"; query: string }
  | { kind: "speed-not-offered"; dcf: Dcf; speedMbps: number; offered: number[] }
  | { kind: "not-ready"; dcf: Dcf };

/** The inline command: find the data center, check the speed, price. */
export async function quotePortPrice(
  provider: ProviderApi,
  args: Extract<PortPriceArgs, { kind: "complete" }>,
  opts: CallOptions = {},
): Promise<PortQuote> {
  const resolution = await resolveDcf(provider, args.dcfQuery, {
    speedMbps: args.speedMbps,
    ...opts,
  });
  if (resolution.kind === "none") return { kind: "no-match", query: args.dcfQuery };
  if (resolution.kind === "several") {
    return {
      kind: "choices",
      query: args.dcfQuery,
      candidates: resolution.candidates,
      speedMbps: args.speedMbps,
      term: args.term,
      includeCrossConnect: args.includeCrossConnect,
      ...(resolution.partial ? { partial: true as const } : {}),
    };
  }
  const { dcf } = resolution;
  const offered = offeredSpeeds(dcf);
  if (offered.length > 0 && !offered.includes(args.speedMbps)) {
    return { kind: "speed-not-offered", dcf, speedMbps: args.speedMbps, offered };
  }
  if (!isReady(dcf)) return { kind: "not-ready", dcf };
  const result = await pricePort(
    provider,
    {
      dcf,
      speedMbps: args.speedMbps,
      durationUnit: args.term.durationUnit,
      includeCrossConnect: args.includeCrossConnect,
    },
    opts,
  );
  return {
    kind: "priced",
    dcf,
    speedMbps: args.speedMbps,
    term: args.term,
    includeCrossConnect: args.includeCrossConnect,
    result,
    ...(resolution.narrowedFrom !== undefined ? { narrowedFrom: resolution.narrowedFrom } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Modal submissions: everything a person (or a forged payload) sent is checked again here.

/** What the port modal submitted, as raw as it came. */
export interface PortPriceForm {
  dcf?: unknown;
  speed?: unknown;
  term?: unknown;
  includeCrossConnect?: unknown;
}

export type PortPriceFormField = "dcf" | "speed" | "term" | "includeCrossConnect";

export type FormCheck<T, F extends string> =
  | { ok: true; value: T }
  | { ok: false; errors: Partial<Record<F, string>> };

/** Longest value a select option can carry (Slack's limit); anything longer was not offered. */
const OPTION_VALUE_MAX = 150;

const optionValue = (missing: string, invalid: string) =>
  z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? missing : invalid) })
    .min(1, missing)
    .max(OPTION_VALUE_MAX, invalid);

const portPriceFormRule = z.object({
  dcf: optionValue("Choose a data center", "Pick a data center from the list").transform(
    (value, ctx) => {
      const id = parseDcfRef(value);
      if (id === undefined) {
        ctx.addIssue({ code: "custom", message: "Pick a data center from the list" });
        return z.NEVER;
      }
      return id;
    },
  ),
  speed: optionValue("Choose a speed", "Choose one of the speeds listed").transform(
    (value, ctx) => {
      const mbps = /^\d{1,9}$/.test(value) ? Number(value) : undefined;
      if (mbps === undefined || mbps <= 0) {
        ctx.addIssue({ code: "custom", message: "Choose one of the speeds listed" });
        return z.NEVER;
      }
      return mbps;
    },
  ),
  term: optionValue("Choose a term", "Choose 1 year or month to month").transform((value, ctx) => {
    const reading = readPortTerm(value);
    if (reading?.kind !== "term") {
      ctx.addIssue({ code: "custom", message: "Choose 1 year or month to month" });
      return z.NEVER;
    }
    return reading.term;
  }),
  includeCrossConnect: z.boolean({ error: "Include cross connect must be ticked or not" }),
});

/** Slack waits 3 s for a submission's ack; look-ups get 2 of them. */
export const SUBMISSION_DEADLINE_MS = 2_000;

export interface CheckedPortPrice {
  dcf: Dcf;
  speedMbps: number;
  term: PortTerm;
  includeCrossConnect: boolean;
}

type PortErrors = Partial<Record<PortPriceFormField, string>>;

function zodFieldErrors<F extends string>(error: z.ZodError): Partial<Record<F, string>> {
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(fieldErrors(error))) {
    const field = path.split(".")[0] ?? path;
    out[field] ??= message;
  }
  return out as Partial<Record<F, string>>;
}

/** Looks a DCF up within the submission deadline; a field error when that is not possible. */
async function lookUpForForm(
  directory: DcfDirectory,
  id: string,
  deadlineMs: number,
): Promise<{ dcf: Dcf } | { error: string }> {
  try {
    const dcf = await withDeadline(deadlineMs, (signal) => directory.byId(id, { signal }));
    if (!dcf || isDeleted(dcf)) return { error: "Pick a data center from the list" };
    return { dcf };
  } catch (error) {
    if (error instanceof DeadlineExceededError) {
      return { error: "The provider took too long to confirm this data center; submit again" };
    }
    return { error: `Couldn't check this data center: ${userMessageOf(error)}` };
  }
}

function speedList(mbps: readonly number[]): string {
  return mbps.map(formatSpeed).join(", ");
}

/**
 * Moves the provider rule's errors (keyed by request path) onto the form fields a person
 * fills; an issue about something the form has no field for goes to `fallback`, so it is
 * never lost.
 */
function errorsByField<F extends string>(
  byPath: Record<string, string>,
  fields: Readonly<Record<string, F>>,
  fallback: F,
): Partial<Record<F, string>> {
  const out: Partial<Record<F, string>> = {};
  for (const [path, message] of Object.entries(byPath)) {
    const field = Object.hasOwn(fields, path) ? (fields[path] ?? fallback) : fallback;
    out[field] ??= message;
  }
  return out;
}

const PORT_RULE_FIELDS: Readonly<Record<string, PortPriceFormField>> = {
  "ports.0.dcf": "dcf",
  "ports.0.speed": "speed",
  "ports.0.durationUnit": "term",
  includeCrossConnect: "includeCrossConnect",
};

/**
 * Checks the port modal's values: shapes (zod), then the chosen DCF (it exists, is ready, and
 * offers the speed), then the pricing rule. Errors are keyed by form field.
 */
export async function checkPortPriceForm(
  directory: DcfDirectory,
  form: PortPriceForm,
  deadlineMs = SUBMISSION_DEADLINE_MS,
): Promise<FormCheck<CheckedPortPrice, PortPriceFormField>> {
  const parsed = portPriceFormRule.safeParse(form);
  if (!parsed.success) {
    const errors = zodFieldErrors<PortPriceFormField>(parsed.error);
    // The data center is looked up even when another field is wrong: one answer, all problems.
    const id = errors.dcf === undefined ? dcfIdOf(form.dcf) : undefined;
    const looked = id === undefined ? undefined : await lookUpForForm(directory, id, deadlineMs);
    if (looked && "error" in looked) errors.dcf = looked.error;
    return { ok: false, errors };
  }
  const { dcf: id, speed, term, includeCrossConnect } = parsed.data;
  const looked = await lookUpForForm(directory, id, deadlineMs);
  if ("error" in looked) return { ok: false, errors: { dcf: looked.error } };
  const { dcf } = looked;
  const errors: PortErrors = {};
  if (!isReady(dcf)) {
    errors.dcf = "This data center is not ready for orders yet, so it has no price; pick another";
  }
  const offered = offeredSpeeds(dcf);
  if (offered.length === 0) {
    errors.dcf ??= "This data center lists no valid speeds; pick another";
  } else if (!offered.includes(speed)) {
    errors.speed = `Choose one of this data center's speeds: ${speedList(offered)}`;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const rule = pricingRequestRule.safeParse({
    ports: [{ dcf: dcf.id, speed, durationUnit: term.durationUnit }],
    includeCrossConnect,
  });
  if (!rule.success) {
    return { ok: false, errors: errorsByField(fieldErrors(rule.error), PORT_RULE_FIELDS, "dcf") };
  }
  return { ok: true, value: { dcf, speedMbps: speed, term, includeCrossConnect } };
}

// ---------------------------------------------------------------------------------------------
// Layer 2 connection prices

export interface ConnectionPriceForm {
  srcDcf?: unknown;
  destDcf?: unknown;
  bandwidth?: unknown;
  classOfService?: unknown;
  duration?: unknown;
  durationUnit?: unknown;
}

export type ConnectionPriceFormField = keyof ConnectionPriceForm;

const CONNECTION_RULE_FIELDS: Readonly<Record<string, ConnectionPriceFormField>> = {
  srcDcf: "srcDcf",
  destDcf: "destDcf",
  bandwidth: "bandwidth",
  classOfService: "classOfService",
  duration: "duration",
  "duration.value": "duration",
  "duration.unit": "durationUnit",
};

const BANDWIDTH_RANGE = `from 1 Mbps to ${formatMbps(CONNECTION_BANDWIDTH_MAX_MBPS)} (100 Gbps, the fastest port)`;

/** Terms longer than this many units are no term a person means (and overflow nothing). */
const DURATION_MAX = 999;

/** A whole number typed into the form, with its range said in words when it is outside it. */
const wholeNumber = (label: string, range: { max: number; words: string }, unit?: string) => {
  const outside = `${label} must be ${range.words}`;
  return z
    .string({
      error: (iss) =>
        iss.input === undefined || iss.input === null
          ? `Enter the ${label.toLowerCase()}`
          : `${label} must be a whole number`,
    })
    .trim()
    .min(1, `Enter the ${label.toLowerCase()}`)
    .regex(/^\d+$/, `${label} must be a whole number${unit ? ` of ${unit}` : ""}, ${range.words}`)
    .transform(Number)
    .refine((n) => n >= 1 && n <= range.max, outside);
};

const connectionPriceFormRule = z.object({
  srcDcf: optionValue(
    "Choose the source data center",
    "Pick the source data center from the list",
  ).transform((value, ctx) => {
    const id = parseDcfRef(value);
    if (id === undefined) {
      ctx.addIssue({ code: "custom", message: "Pick the source data center from the list" });
      return z.NEVER;
    }
    return id;
  }),
  destDcf: optionValue(
    "Choose the destination data center",
    "Pick the destination data center from the list",
  ).transform((value, ctx) => {
    const id = parseDcfRef(value);
    if (id === undefined) {
      ctx.addIssue({ code: "custom", message: "Pick the destination data center from the list" });
      return z.NEVER;
    }
    return id;
  }),
  bandwidth: wholeNumber(
    "Bandwidth",
    { max: CONNECTION_BANDWIDTH_MAX_MBPS, words: BANDWIDTH_RANGE },
    "Mbps",
  ),
  classOfService: z.enum(CLASSES_OF_SERVICE, {
    error: `Class of service must be one of ${CLASSES_OF_SERVICE.join(", ")}`,
  }),
  duration: wholeNumber("Duration", { max: DURATION_MAX, words: `from 1 to ${DURATION_MAX}` }),
  durationUnit: z.enum(CONNECTION_DURATION_UNITS, {
    error: "Duration unit must be months or weeks",
  }),
});

export interface CheckedConnectionPrice {
  srcDcf: Dcf;
  destDcf: Dcf;
  config: ConnectionPriceConfig;
}

/** A data center reference as the form sent it, when it reads as one (else the shape rule says why). */
function dcfIdOf(value: unknown): string | undefined {
  return typeof value === "string" && value.length <= OPTION_VALUE_MAX
    ? parseDcfRef(value)
    : undefined;
}

/**
 * Checks the layer 2 modal's values: shapes (zod) and both DCFs (looked up in parallel within
 * the deadline) together, so every problem is answered in one go; then the provider's
 * connection rule.
 */
export async function checkConnectionPriceForm(
  directory: DcfDirectory,
  form: ConnectionPriceForm,
  deadlineMs = SUBMISSION_DEADLINE_MS,
): Promise<FormCheck<CheckedConnectionPrice, ConnectionPriceFormField>> {
  const parsed = connectionPriceFormRule.safeParse(form);
  const errors: Partial<Record<ConnectionPriceFormField, string>> = parsed.success
    ? {}
    : zodFieldErrors<ConnectionPriceFormField>(parsed.error);
  // The data centers are looked up even when another field is wrong: one answer, all problems.
  const srcId = dcfIdOf(form.srcDcf);
  const destId = dcfIdOf(form.destDcf);
  const [src, dest] = await Promise.all([
    srcId === undefined ? undefined : lookUpForForm(directory, srcId, deadlineMs),
    destId === undefined ? undefined : lookUpForForm(directory, destId, deadlineMs),
  ]);
  if (src && "error" in src) errors.srcDcf ??= src.error;
  if (dest && "error" in dest) errors.destDcf ??= dest.error;
  if (!parsed.success || !src || "error" in src || !dest || "error" in dest) {
    return { ok: false, errors };
  }
  const value = parsed.data;
  const config = {
    bandwidth: value.bandwidth,
    classOfService: value.classOfService,
    duration: { value: value.duration, unit: value.durationUnit },
    srcDcf: src.dcf.id,
    destDcf: dest.dcf.id,
  };
  const rule = pricingConnectionConfigRule.safeParse(config);
  if (!rule.success) {
    return {
      ok: false,
      errors: errorsByField(fieldErrors(rule.error), CONNECTION_RULE_FIELDS, "srcDcf"),
    };
  }
  return { ok: true, value: { srcDcf: src.dcf, destDcf: dest.dcf, config: rule.data } };
}

/** Prices one layer 2 connection (the body already passed the connection rule). */
export async function priceConnection(
  provider: ProviderApi,
  config: ConnectionPriceConfig,
  opts: CallOptions = {},
): Promise<PricingResult> {
  const checked = pricingRequestRule.safeParse({ connections: [config] });
  if (!checked.success) throw new PricingRequestError(fieldErrors(checked.error));
  return firstResult(await provider.priceConnections([config], opts));
}
