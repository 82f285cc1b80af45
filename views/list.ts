import type { KnownBlock } from "@slack/types";
import type { PageInfo } from "../src/domain/paging.js";
import { capBlocks, context, escapeMrkdwn, LIMITS, truncate } from "./blocks.js";

/**
 * Paging and size budgets shared by the list views.
 */

/**
 * Blocks a view may use: the Slack layer appends an actions block (Share / Previous / Next)
 * and the sandbox label, and Slack refuses a message over 50 blocks.
 */
export const VIEW_BLOCKS = LIMITS.messageBlocks - 2;

/**
 * The items a view shows for a page: never more than the page size (or `max`, the most that
 * fits in one message), with `hasNext` set when some had to be held back.
 */
export function pageItems<T>(
  items: readonly T[],
  page: PageInfo,
  max: number,
): { shown: T[]; hasNext: boolean; first: number; index: number } {
  const size = Math.floor(page.pageSize) > 0 ? Math.floor(page.pageSize) : max;
  const limit = Math.min(size, max);
  const index = Math.max(0, Math.floor(page.page) || 0);
  return {
    shown: items.slice(0, limit),
    hasNext: page.hasNext || items.length > limit,
    // Numbered by the caller's page size: that is how the next page is fetched.
    first: index * size + 1,
    index,
  };
}

/** "Showing 11–20 of 34" for the page's footer. */
export function rangeText(first: number, count: number, total?: number): string {
  if (count === 0) return "Nothing on this page";
  const last = first + count - 1;
  const range = count === 1 ? `item ${first}` : `${first}–${last}`;
  return total !== undefined ? `Showing ${range} of ${total}` : `Showing ${range}`;
}

/**
 * Joins lines under a text limit, replacing the lines that do not fit with "…and N more", so a
 * long list never gets cut mid-line by truncation.
 */
export function linesWithin(
  lines: readonly string[],
  max: number = LIMITS.sectionText,
  more: (n: number) => string = (n) => `_…and ${n} more_`,
): string {
  const kept: string[] = [];
  let length = 0;
  for (const [i, line] of lines.entries()) {
    const remaining = lines.length - i - 1;
    const tail = remaining > 0 ? more(remaining).length + 1 : 0;
    if (length + line.length + 1 + tail > max) {
      if (kept.length === 0) {
        kept.push(truncate(line, Math.max(1, max - tail - 1)));
        if (remaining > 0) kept.push(more(remaining));
        return kept.join("\n");
      }
      kept.push(more(lines.length - i));
      return kept.join("\n");
    }
    kept.push(line);
    length += line.length + 1;
  }
  return kept.join("\n");
}

/** Caps a view at its block budget, saying what was left out. */
export function fitBlocks(blocks: KnownBlock[]): KnownBlock[] {
  return capBlocks(blocks, VIEW_BLOCKS);
}

/** The footer context of a list page. */
export function pageFooter(first: number, count: number, total?: number, hint?: string) {
  return hint
    ? context(rangeText(first, count, total), hint)
    : context(rangeText(first, count, total));
}

/** The notification text of a message (shown where blocks are not): escaped and kept short. */
export function fallbackText(text: string): string {
  return truncate(escapeMrkdwn(text), 500);
}
