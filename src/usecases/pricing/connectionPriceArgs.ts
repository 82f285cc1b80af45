// `/connect price l2 <source> <destination> [bandwidth]`: the words of a layer 2 price read as a
// person means them ("ams lon 500", "ironbridge-iad1 to docklands 1G"), for the form to open
// with. The data centers are found the way an inline port price finds them (resolveDcf).
import { isReady } from "../../domain/catalog/dcfs.js";
import { speedMbps } from "../../domain/catalog/requestFacts.js";
import type { CallOptions, Dcf, ProviderApi } from "../../provider/api.js";
import { resolveDcf } from "./dcfResolution.js";

export interface ConnectionPriceArgs {
  src?: string;
  dest?: string;
  bandwidthMbps?: number;
  /** The words could not be split into two data centers ("a b c" without "to"). */
  unsplit?: string;
}

const SEPARATORS = new Set(["to", "->", "→", "-"]);

/**
 * Reads `<source> [to] <destination> [bandwidth]`: the last word is the bandwidth when it reads
 * as one (500, 1G, "1 Gbps"); two words left are the two ends; more are split at "to" (or a
 * quoted name keeps its spaces: `"ironbridge iad1" lon`).
 */
export function parseConnectionPriceArgs(args: readonly string[]): ConnectionPriceArgs {
  const words = args.filter((a) => a.trim() !== "");
  let bandwidthMbps: number | undefined;
  const last = words.at(-1);
  const unit = words.at(-1);
  const number = words.at(-2);
  if (number !== undefined && unit !== undefined && /^\d+(\.\d+)?$/.test(number)) {
    const joined = speedMbps(`${number}${unit}`);
    if (joined !== undefined && /^[a-z/]+$/i.test(unit)) {
      bandwidthMbps = joined;
      words.splice(-2, 2);
    }
  }
  if (bandwidthMbps === undefined && last !== undefined && /^\d/.test(last)) {
    const read = speedMbps(last);
    if (read !== undefined) {
      bandwidthMbps = read;
      words.pop();
    }
  }
  const out: ConnectionPriceArgs = bandwidthMbps !== undefined ? { bandwidthMbps } : {};
  const at = words.findIndex((w) => SEPARATORS.has(w.toLowerCase()));
  if (at > 0 && at < words.length - 1) {
    return { ...out, src: words.slice(0, at).join(" "), dest: words.slice(at + 1).join(" ") };
  }
  if (words.length === 1) return { ...out, src: words[0] };
  if (words.length === 2) return { ...out, src: words[0], dest: words[1] };
  if (words.length > 2) return { ...out, unsplit: words.join(" ") };
  return out;
}

/** One end as typed, found: the data center chosen, and how many matched. */
export type ConnectionEnd =
  | { kind: "one"; query: string; dcf: Dcf; matched: number }
  | { kind: "none"; query: string };

/**
 * The data center a typed end means: the one match, or among several the first ready one (the
 * form shows it chosen and says how many matched, so the person can pick another).
 */
export async function findConnectionEnd(
  provider: ProviderApi,
  query: string,
  opts: CallOptions = {},
): Promise<ConnectionEnd> {
  const found = await resolveDcf(provider, query, opts);
  if (found.kind === "one") return { kind: "one", query, dcf: found.dcf, matched: 1 };
  if (found.kind === "several" && !found.partial) {
    const first = found.candidates.find(isReady) ?? found.candidates[0];
    if (first) return { kind: "one", query, dcf: first, matched: found.candidates.length };
  }
  return { kind: "none", query };
}
