import { type PageInfo, paginate } from "../domain/paging.js";
import type { MetroCapability } from "../provider/api.js";
import { companyMetros, type DcfDeps } from "./dcf.js";
import type { PageRequest } from "./ports.js";

/**
 * `/connect metros [text]`: the metros the company can use and whether a business-to-business
 * layer 2 connection can be ordered there (the provider's metro capabilities, with the regions a
 * B2B request names). Read through the DCF search's metro cache.
 */

export type MetroDeps = DcfDeps;

export interface MetroPage {
  metros: MetroCapability[];
  page: PageInfo;
  /** The text the list was narrowed by, as typed (trimmed); empty for all. */
  query: string;
}

/** Longest text matched against a metro's name, code or country. */
export const METRO_QUERY_MAX = 60;

function matches(metro: MetroCapability, query: string): boolean {
  const needle = query.toLowerCase();
  return [metro.name, metro.code, metro.country, metro.id].some(
    (field) => typeof field === "string" && field.toLowerCase().includes(needle),
  );
}

/** One page of the company's metros (deleted ones left out), by name; paging is ours. */
export async function listMetros(
  deps: MetroDeps,
  request: PageRequest & { text?: string },
): Promise<MetroPage> {
  const query = (request.text ?? "").trim().slice(0, METRO_QUERY_MAX);
  const { companyUsername } = await deps.identity();
  // The capability call answers MetroCapability records; the DCF search keeps them as Metros.
  const all = (await companyMetros(deps, companyUsername)) as MetroCapability[];
  const live = all.filter((m) => m.deleted !== true && (!query || matches(m, query)));
  const sorted = [...live].sort((a, b) => (a.name ?? a.id).localeCompare(b.name ?? b.id));
  const { items, page } = paginate(sorted, request.page, request.pageSize);
  return { metros: items, page, query };
}
