// The data center select of every form (port price, layer 2 price, port order): a short-lived
// cache of DCF records and the options search, answered within Slack's 3 seconds.
import { DCF_SEARCH_MIN } from "../../domain/catalog/dcfs.js";
import { withDeadline } from "../../domain/deadline.js";
import { DeadlineExceededError } from "../../domain/errors.js";
import { IN_SLACK_WINDOW_MS } from "../../domain/slackBudget.js";
import type { CallOptions, Dcf, ProviderApi } from "../../provider/api.js";
import { airportCodes, isDeleted, lower } from "./dcfFacts.js";
import { userMessageOf } from "./providerMessage.js";

/** Longest data center text searched for; anything longer is a paste mistake. */
export const DCF_QUERY_MAX = 100;

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
export const OPTIONS_DEADLINE_MS = IN_SLACK_WINDOW_MS;

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
