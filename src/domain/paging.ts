/**
 * Paging of lists the provider returns in one go (ports, cloud routers, Edge): which items are
 * on a page and whether another follows. The use cases (src/usecases) cut the lists; the views
 * (views/list.ts re-exports these) draw the pages and their Previous/Next. Pure.
 */

/** Requests shown per page of App Home's *My requests* (cut by src/orders/appHome.ts, drawn by views/home/home.ts). */
export const HOME_PAGE_SIZE = 10;

/** One page of a list. `page` is zero-based, like `Reply.page.index`. */
export interface PageInfo {
  page: number;
  pageSize: number;
  hasNext: boolean;
  /** Length of the whole list, when known. */
  total?: number;
}

/**
 * Cuts a whole list into the page asked for, for lists the provider returns in one go (ports,
 * cloud routers, Edge). A page past the end is empty, not an error.
 */
export function paginate<T>(
  items: readonly T[],
  page: number,
  pageSize: number,
): { items: T[]; page: PageInfo } {
  const size = Math.max(1, Math.floor(pageSize));
  const index = Math.max(0, Math.floor(page));
  const start = index * size;
  return {
    items: items.slice(start, start + size),
    page: {
      page: index,
      pageSize: size,
      hasNext: start + size < items.length,
      total: items.length,
    },
  };
}
