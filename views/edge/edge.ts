import type { KnownBlock } from "@slack/types";
import { COMMAND } from "../../src/domain/commands.js";
import type { PageInfo } from "../../src/domain/paging.js";
import type { components } from "../../src/provider/generated/provider.js";
import { context, divider, escapeMrkdwn, header, section } from "../blocks.js";
import { code, formatSpeed, statusBadge, textOr } from "../format.js";
import { fallbackText, fitBlocks, linesWithin, pageFooter, pageItems } from "../list.js";
import type { Reply } from "../reply.js";
import { formatWhen } from "../time.js";
import { draftActionsBlock } from "./edgeDrafts.js";

type Schemas = components["schemas"];
type EdgeLocation = Schemas["EdgeLocation"];
type EdgeOrderListItem = Schemas["EdgeOrderListItem"];
/** A draft; the v2 orders list names the countdown `daysUntilDelete`, the drafts list `deleteIn`. */
export type EdgeDraft = Schemas["DraftOrder"] & { daysUntilDelete?: number };

/** Locations per page: one line each, in a few sections. */
export const EDGE_LOCATION_PAGE_SIZE = 60;
const LOCATIONS_PER_SECTION = 30;
/** Orders and drafts per page: one section and one divider each. */
export const EDGE_ITEM_PAGE_SIZE = 10;
const EDGE_ITEM_MAX_PER_PAGE = 12;

/** Drafts about to be deleted get a warning from this many days left. */
export const DRAFT_WARNING_DAYS = 3;

function locationLine(location: EdgeLocation): string {
  // The spec shows only "city and country"; a `name` is used when both are missing.
  const extra = location as { name?: unknown };
  const parts = [location.city, location.country].filter(
    (p): p is string => typeof p === "string" && p.trim() !== "",
  );
  const text =
    parts.length > 0 ? parts.join(", ") : typeof extra.name === "string" ? extra.name : "";
  return `• ${text ? escapeMrkdwn(text) : "—"}`;
}

/** `/connect edge locations`: where Edge (off-net) ports are offered, one page. */
export function edgeLocationsView(locations: readonly EdgeLocation[], page: PageInfo): Reply {
  const { shown, hasNext, first, index } = pageItems(locations, page, EDGE_LOCATION_PAGE_SIZE);
  const pageRef = { index, hasNext };
  if (shown.length === 0) {
    const text = index > 0 ? "No more Edge locations." : "No Edge locations are offered right now.";
    return { text, blocks: [section(text)], page: pageRef };
  }
  const blocks: KnownBlock[] = [header("Edge locations")];
  for (let i = 0; i < shown.length; i += LOCATIONS_PER_SECTION) {
    blocks.push(section(linesWithin(shown.slice(i, i + LOCATIONS_PER_SECTION).map(locationLine))));
  }
  blocks.push(
    pageFooter(first, shown.length, page.total, `Get a price with \`${COMMAND} edge quote\`.`),
  );
  return {
    text: fallbackText(
      `Edge locations: ${shown.map((l) => [l.city, l.country].filter(Boolean).join(", ")).join("; ")}`,
    ),
    blocks: fitBlocks(blocks),
    page: pageRef,
  };
}

function daysLeft(days: unknown): number | undefined {
  return typeof days === "number" && Number.isFinite(days) ? Math.ceil(days) : undefined;
}

/** "deleted in 2 days" in plain words; undefined when not known. */
export function countdownWords(days: unknown): string | undefined {
  const n = daysLeft(days);
  if (n === undefined) return undefined;
  return n <= 0 ? "deleted today" : n === 1 ? "deleted in 1 day" : `deleted in ${n} days`;
}

/** The countdown for a message, with a warning when deletion is near. */
export function deletionCountdown(days: unknown): string | undefined {
  const words = countdownWords(days);
  const n = daysLeft(days);
  if (words === undefined || n === undefined) return undefined;
  return n <= DRAFT_WARNING_DAYS ? `:warning: *${words}*` : words;
}

function edgeItemSummary(item: EdgeOrderListItem, timeZone: string | undefined, now: Date): string {
  const created = formatWhen(item.createdAt, timeZone, now);
  const first = [
    `*${textOr(item.portName, "Unnamed")}*`,
    item.objectType ? escapeMrkdwn(item.objectType) : undefined,
    statusBadge(item.status),
  ];
  const second = [
    typeof item.speed === "number" ? formatSpeed(item.speed) : undefined,
    created ? `created ${created}` : undefined,
    deletionCountdown(item.daysUntilDelete),
    item.id ? `ID ${code(item.id)}` : undefined,
  ];
  return [first, second].map((p) => p.filter(Boolean).join(" · ")).join("\n");
}

/** `/connect edge orders`: Edge draft orders, orders and ports, one page. */
export function edgeOrdersView(
  items: readonly EdgeOrderListItem[],
  page: PageInfo,
  timeZone?: string,
  now: Date = new Date(),
): Reply {
  const { shown, hasNext, first, index } = pageItems(items, page, EDGE_ITEM_MAX_PER_PAGE);
  const pageRef = { index, hasNext };
  if (shown.length === 0) {
    const text = index > 0 ? "No more Edge orders." : "No Edge orders, drafts or ports yet.";
    return {
      text,
      blocks: [section(`${text}${index > 0 ? "" : ` Start with \`${COMMAND} edge quote\`.`}`)],
      page: pageRef,
    };
  }
  const blocks: KnownBlock[] = [header("Edge orders")];
  for (const item of shown) blocks.push(section(edgeItemSummary(item, timeZone, now)), divider());
  blocks.pop();
  blocks.push(pageFooter(first, shown.length, page.total));
  return {
    text: fallbackText(
      `Edge orders: ${shown.map((i) => `${i.portName ?? i.id ?? "?"} (${i.status ?? "?"})`).join(", ")}`,
    ),
    blocks: fitBlocks(blocks),
    page: pageRef,
  };
}

function draftSummary(draft: EdgeDraft, timeZone: string | undefined, now: Date): string {
  const created = formatWhen(draft.createdAt, timeZone, now);
  const countdown = deletionCountdown(draft.deleteIn ?? draft.daysUntilDelete);
  const first = [
    `*${textOr(draft.name, "Draft order")}*`,
    typeof draft.speed === "number" ? formatSpeed(draft.speed) : undefined,
    draft.status ? statusBadge(draft.status) : undefined,
  ];
  const second = [countdown, created ? `saved ${created}` : undefined, `ID ${code(draft.id)}`];
  return [first, second].map((p) => p.filter(Boolean).join(" · ")).join("\n");
}

/** `/connect edge drafts`: Edge draft orders with the days until they are deleted, one page. */
export function edgeDraftsView(
  drafts: readonly EdgeDraft[],
  page: PageInfo,
  timeZone?: string,
  now: Date = new Date(),
): Reply {
  const { shown, hasNext, first, index } = pageItems(drafts, page, EDGE_ITEM_MAX_PER_PAGE);
  const pageRef = { index, hasNext };
  if (shown.length === 0) {
    const text = index > 0 ? "No more Edge drafts." : "No Edge draft orders.";
    return { text, blocks: [section(text)], page: pageRef };
  }
  const blocks: KnownBlock[] = [header("Edge draft orders")];
  for (const draft of shown) {
    blocks.push(section(draftSummary(draft, timeZone, now)));
    // Rename / Re-quote / Order / Delete (handled in src/slack/features/edge/draftButtons.ts).
    if (draft.id) blocks.push(draftActionsBlock(draft));
    blocks.push(divider());
  }
  blocks.pop();
  const soon = shown.filter((d) => {
    const days = daysLeft(d.deleteIn ?? d.daysUntilDelete);
    return days !== undefined && days <= DRAFT_WARNING_DAYS;
  }).length;
  blocks.push(
    pageFooter(
      first,
      shown.length,
      page.total,
      "Drafts are deleted automatically 30 days after they are saved.",
    ),
  );
  if (soon > 0) {
    blocks.splice(
      1,
      0,
      context(
        `:warning: ${soon} ${soon === 1 ? "draft is" : "drafts are"} deleted within ${DRAFT_WARNING_DAYS} days: order ${soon === 1 ? "it" : "them"} soon or ${soon === 1 ? "it is" : "they are"} lost.`,
      ),
    );
  }
  return {
    text: fallbackText(
      `Edge drafts: ${shown.map((d) => `${d.name ?? d.id} (${countdownWords(d.deleteIn ?? d.daysUntilDelete) ?? "?"})`).join(", ")}`,
    ),
    blocks: fitBlocks(blocks),
    page: pageRef,
  };
}
