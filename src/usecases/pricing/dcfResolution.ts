// The data center a person means by what they typed on a command line ("AMS", "ironbridge-iad1",
// "equinix-ld5"): one, several to pick from, or none. The inline port price and the prefill of
// both price forms find data centers this way.
import { isReady, offeredSpeeds } from "../../domain/catalog/dcfs.js";
import type { CallOptions, Dcf, ProviderApi } from "../../provider/api.js";
import { airportCodes, isDeleted, lower } from "../shared/dcfFacts.js";

/**
 * Whether this DCF can price `speed`: ready, and the speed among its valid speeds. A DCF whose
 * speeds cannot be read is left to the provider to judge (the spec does not show their shape).
 */
export function canPrice(dcf: Dcf, speed: number): boolean {
  const offered = offeredSpeeds(dcf);
  return isReady(dcf) && (offered.length === 0 || offered.includes(speed));
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
