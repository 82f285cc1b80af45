import { z } from "zod";
import type { Logger } from "../log.js";
import type { DcfSearchResult, ProviderApi, Schemas } from "../provider/api.js";
import type { IdentityLookup } from "../provider/identity.js";

/**
 * Searching data center facilities (DCFs) a page at a time, with their metros named.
 * The search answers with DCF records that carry only a metro id, so metro names come from the
 * metro capabilities call, cached per process: metros change rarely, and without the cache every
 * search (and every Next click) would cost two provider calls.
 */

export type Metro = Schemas["Metro"];

export type DcfDeps = { provider: ProviderApi; identity: IdentityLookup; logger: Logger } & {
  /** The clock of the metro cache (tests). */
  now?: () => number;
};

export interface DcfSearchInput {
  /** The person's words; empty or absent lists every facility. */
  text?: string;
  /** Zero-based page. */
  page: number;
  pageSize: number;
}

export interface DcfSearchPage {
  query: string;
  dcfs: DcfSearchResult[];
  /** Every metro the company can see (empty when they could not be had). */
  metros: Metro[];
  page: { page: number; pageSize: number; hasNext: boolean; total?: number };
}

/** How long metro names are reused before they are asked for again. */
export const METRO_CACHE_MS = 5 * 60_000;

/** Longest search text taken: a person types a name, a city or an airport code. */
export const DCF_QUERY_MAX = 100;

const queryText = z
  .string()
  .transform((s) => s.trim().replace(/\s+/g, " "))
  .pipe(z.string().max(DCF_QUERY_MAX));

export type DcfQueryCheck = { ok: true; query: string } | { ok: false; problem: "too-long" };

/** The search words from the command's arguments. */
export function parseDcfQuery(args: readonly string[]): DcfQueryCheck {
  const parsed = queryText.safeParse(args.join(" "));
  return parsed.success ? { ok: true, query: parsed.data } : { ok: false, problem: "too-long" };
}

interface CachedMetros {
  at: number;
  metros: Promise<Metro[]>;
}

// Keyed by the provider client, so two bots in one process (tests, replicas in one node) never
// share names from another provider.
const metroCache = new WeakMap<ProviderApi, Map<string, CachedMetros>>();

/** The company's metros, from the cache when fresh; a failed call is not cached. */
export function companyMetros(deps: DcfDeps, companyUsername: string): Promise<Metro[]> {
  const now = deps.now?.() ?? Date.now();
  let byCompany = metroCache.get(deps.provider);
  if (!byCompany) {
    byCompany = new Map();
    metroCache.set(deps.provider, byCompany);
  }
  const cached = byCompany.get(companyUsername);
  if (cached && now - cached.at < METRO_CACHE_MS) return cached.metros;
  const metros = deps.provider.listMetroCapabilities(companyUsername);
  const entry = { at: now, metros };
  byCompany.set(companyUsername, entry);
  metros.catch(() => {
    if (byCompany.get(companyUsername) === entry) byCompany.delete(companyUsername);
  });
  return metros;
}

/** Metro names are decoration: without them the view shows metro ids, so failure is logged only. */
async function metrosOrNone(deps: DcfDeps): Promise<Metro[]> {
  try {
    const { companyUsername } = await deps.identity();
    return await companyMetros(deps, companyUsername);
  } catch (error) {
    deps.logger.warn({ err: error }, "dcf search: metro names unavailable, showing metro ids");
    return [];
  }
}

/**
 * One page of facilities matching the text. The provider's pages start at 1 (the spec does not
 * say; the sandbox and the portal do) and carry no total, so a full page means "maybe more".
 */
export async function searchFacilities(
  deps: DcfDeps,
  input: DcfSearchInput,
): Promise<DcfSearchPage> {
  const query = input.text?.trim() ?? "";
  const page = Math.max(0, Math.floor(input.page));
  const pageSize = Math.max(1, Math.floor(input.pageSize));
  const [dcfs, metros] = await Promise.all([
    deps.provider.searchDcfs({
      ...(query ? { text: query } : {}),
      page: page + 1,
      pageSize,
    }),
    metrosOrNone(deps),
  ]);
  return {
    query,
    // A provider that ignores pageSize must not overflow the message.
    dcfs: dcfs.slice(0, pageSize),
    metros,
    page: { page, pageSize, hasNext: dcfs.length >= pageSize },
  };
}
