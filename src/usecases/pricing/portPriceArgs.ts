// `/connect price port <dcf words...> <speed> <term> [xc]`: the inline command's words read as a
// person means them, into a complete request, what is missing (the form asks for it), or what
// cannot be read (the person is told what to type).
import type { PortTerm } from "../../domain/catalog/portTerms.js";
import { speedMbps } from "../../domain/catalog/requestFacts.js";
import { DCF_QUERY_MAX } from "../shared/dcfDirectory.js";
import { readPortTerm } from "../shared/portTermReading.js";

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
