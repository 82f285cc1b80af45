import { type PageInfo, paginate } from "../../domain/paging.js";
import type {
  DraftOrder,
  EdgeLocation,
  EdgeOrderListItem,
  EdgeOrderQuery,
  ProviderApi,
} from "../../provider/api.js";
import type { PageRequest } from "../ports.js";

/**
 * The Edge (off-net) lists: where Edge ports are offered, and the v2 list of Edge draft
 * orders, orders and ports. The v2 list pages on the provider's side (page and size work only
 * together); the locations come in one go and are paged here.
 */

export type EdgeDeps = { provider: ProviderApi };

/** A draft; the v2 list names the countdown `daysUntilDelete`, the drafts call `deleteIn`. */
export type EdgeDraft = DraftOrder & { daysUntilDelete?: number };

export interface EdgeLocationPage {
  locations: EdgeLocation[];
  page: PageInfo;
}

export interface EdgeOrderPage {
  items: EdgeOrderListItem[];
  page: PageInfo;
}

export interface EdgeDraftPage {
  drafts: EdgeDraft[];
  page: PageInfo;
}

/** The drafts' status in the v2 list (docs/provider/provider-api.md: "status (DRAFT in the service)"). */
export const DRAFT_STATUS = "DRAFT";

export async function listEdgeLocations(
  deps: EdgeDeps,
  request: PageRequest,
): Promise<EdgeLocationPage> {
  const locations = await deps.provider.listEdgeLocations();
  const { items, page } = paginate(locations, request.page, request.pageSize);
  return { locations: items, page };
}

/**
 * One page of the v2 list. Its pages start at 1 (not shown by the spec; the sandbox's and the
 * portal's do). With a total, it decides whether more follow; without one, a full page does.
 */
async function edgeListPage(
  deps: EdgeDeps,
  request: PageRequest,
  status?: string,
): Promise<{ items: EdgeOrderListItem[]; page: PageInfo }> {
  const index = Math.max(0, Math.floor(request.page));
  const size = Math.max(1, Math.floor(request.pageSize));
  const query: EdgeOrderQuery = {
    page: String(index + 1),
    size: String(size),
    ...(status ? { status } : {}),
  };
  const result = await deps.provider.listEdgeOrders(query);
  // A provider that ignored page and size sent the whole list: page it here instead.
  if (result.items.length > size) {
    const { items, page } = paginate(result.items, index, size);
    return { items, page };
  }
  const hasNext =
    result.total !== undefined ? (index + 1) * size < result.total : result.items.length >= size;
  return {
    items: result.items,
    page: {
      page: index,
      pageSize: size,
      hasNext,
      ...(result.total !== undefined ? { total: result.total } : {}),
    },
  };
}

/** Edge draft orders, orders and ports, as the provider lists them. */
export async function listEdgeOrders(deps: EdgeDeps, request: PageRequest): Promise<EdgeOrderPage> {
  return edgeListPage(deps, request);
}

function isDraft(item: EdgeOrderListItem): boolean {
  const kind = item.objectType?.toUpperCase() ?? "";
  return kind === "" || kind.includes("DRAFT");
}

/** A draft as the v2 list shows it, in the draft record's words (its name is `portName`). */
export function draftFromListItem(item: EdgeOrderListItem): EdgeDraft {
  return {
    id: item.id ?? "",
    ...(item.portName !== undefined ? { name: item.portName } : {}),
    ...(item.speed !== undefined ? { speed: item.speed } : {}),
    ...(item.status !== undefined ? { status: item.status } : {}),
    ...(item.createdAt !== undefined ? { createdAt: item.createdAt } : {}),
    ...(item.updatedAt !== undefined ? { updatedAt: item.updatedAt } : {}),
    ...(item.companyId !== undefined ? { companyId: item.companyId } : {}),
    ...(item.edgePayload ? { edgePayload: item.edgePayload } : {}),
    ...(item.daysUntilDelete !== undefined ? { daysUntilDelete: item.daysUntilDelete } : {}),
  };
}

/**
 * Edge draft orders with the days until they are deleted: the v2 list filtered by the draft
 * status. Items of another kind that share the status are left out (the filter is on status,
 * not on the kind of record).
 */
export async function listEdgeDrafts(deps: EdgeDeps, request: PageRequest): Promise<EdgeDraftPage> {
  const { items, page } = await edgeListPage(deps, request, DRAFT_STATUS);
  return { drafts: items.filter(isDraft).map(draftFromListItem), page };
}
