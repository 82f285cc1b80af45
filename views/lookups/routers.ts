import type { KnownBlock } from "@slack/types";
import type { PageInfo } from "../../src/domain/paging.js";
import { isSet } from "../../src/domain/timestamps.js";
import type { components } from "../../src/provider/generated/provider.js";
import { divider, escapeMrkdwn, header, section } from "../blocks.js";
import { code, formatNumber, formatTerm, statusBadge, textOr } from "../format.js";
import { fallbackText, fitBlocks, linesWithin, pageFooter, pageItems } from "../list.js";
import type { Reply } from "../reply.js";

type Schemas = components["schemas"];
type CloudRouter = Schemas["CloudRouter"];
type CloudRouterSite = Schemas["CloudRouterSite"];
type CloudRouterPeer = Schemas["CloudRouterPeer"];

/** Routers per page: each takes a summary, a sites section and a divider. */
export const ROUTER_PAGE_SIZE = 5;
const ROUTER_MAX_PER_PAGE = 10;

const DELETED = ":wastebasket: deleted";

/** "500 Mbps" from {rate, unit}. */
export function rateLimitText(rateLimit: CloudRouterSite["rateLimit"]): string | undefined {
  if (typeof rateLimit?.rate !== "number") return undefined;
  return `${formatNumber(rateLimit.rate)} ${rateLimit.unit ? escapeMrkdwn(rateLimit.unit) : "Mbps"}`;
}

/** "GOLD 20% · SILVER 30%" from [{name, value}]. */
export function classesOfService(list: CloudRouterSite["classOfService"]): string | undefined {
  if (!Array.isArray(list)) return undefined;
  const parts = list
    .filter((c) => typeof c === "object" && c !== null)
    .map((c) => `${textOr(c.name, "?")} ${typeof c.value === "number" ? `${c.value}%` : "—"}`);
  return parts.length > 0 ? parts.join(" · ") : undefined;
}

// Sites carry deleted_at (snake case) and peers show no deletion field in the spec; both
// spellings are read, and the epoch means "not deleted".
function deletedMark(record: object): string | undefined {
  const r = record as { deletedAt?: unknown; deleted_at?: unknown; deleted?: unknown };
  return r.deleted === true || isSet(r.deletedAt) || isSet(r.deleted_at) ? DELETED : undefined;
}

function peerLine(peer: CloudRouterPeer): string {
  return [
    `      ↳ peer ${textOr(peer.type, "")}`.trimEnd(),
    typeof peer.asn === "number" ? `AS ${peer.asn}` : undefined,
    peer.externalIp ? code(peer.externalIp) : undefined,
    peer.status ? statusBadge(peer.status) : undefined,
    deletedMark(peer),
  ]
    .filter(Boolean)
    .join(" · ");
}

function siteLines(site: CloudRouterSite): string[] {
  const portId = site.portId ?? site.port_id;
  const line = [
    `• *${textOr(site.name, "Unnamed site")}*`,
    portId ? `port ${code(portId)}` : undefined,
    rateLimitText(site.rateLimit),
    classesOfService(site.classOfService),
    site.redundancySiteType ? escapeMrkdwn(site.redundancySiteType) : undefined,
    site.status ? statusBadge(site.status) : undefined,
    deletedMark(site),
  ]
    .filter(Boolean)
    .join(" · ");
  const peers = Array.isArray(site.peers)
    ? site.peers.filter((p) => typeof p === "object" && p !== null)
    : [];
  return [line, ...peers.map(peerLine)];
}

/**
 * A router's bandwidth, which the provider gives as text ("a number followed by a unit, for
 * example in MB": "1500MB" is 1,500 Mbps), in the units network engineers use; anything else as
 * it came.
 */
function bandwidthText(bandwidth: string): string {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(mb|mbps|mbit\/s|m|gb|gbps|gbit\/s|g)\s*$/i.exec(bandwidth);
  if (!match) return escapeMrkdwn(bandwidth);
  const value = Number(match[1]);
  const unit = (match[2] ?? "").toLowerCase().startsWith("g") ? "Gbps" : "Mbps";
  return `${formatNumber(value)} ${unit}`;
}

function routerSummary(router: CloudRouter): string {
  const duration = router.duration;
  const sites = Array.isArray(router.sites) ? router.sites : [];
  const first = [
    `*${textOr(router.name, "Unnamed cloud router")}*`,
    statusBadge(router.status),
    deletedMark(router),
  ];
  const second = [
    router.bandwidth ? `Bandwidth ${bandwidthText(router.bandwidth)}` : undefined,
    duration ? `Duration ${formatTerm(duration.quantity, duration.unit)}` : undefined,
    `${sites.length} ${sites.length === 1 ? "site" : "sites"}`,
    `ID ${code(router.id)}`,
  ];
  return [first.filter(Boolean).join("  ·  "), second.filter(Boolean).join(" · ")].join("\n");
}

/** `/connect routers`: cloud routers with their sites and peers, one page. */
export function cloudRoutersView(routers: readonly CloudRouter[], page: PageInfo): Reply {
  const { shown, hasNext, first, index } = pageItems(routers, page, ROUTER_MAX_PER_PAGE);
  const pageRef = { index, hasNext };
  if (shown.length === 0) {
    const text = index > 0 ? "No more cloud routers." : "Your company has no cloud routers.";
    return { text, blocks: [section(text)], page: pageRef };
  }
  const blocks: KnownBlock[] = [header("Cloud routers")];
  for (const router of shown) {
    blocks.push(section(routerSummary(router)));
    const sites = Array.isArray(router.sites)
      ? router.sites.filter((s) => typeof s === "object" && s !== null)
      : [];
    if (sites.length > 0) {
      blocks.push(section(linesWithin(sites.flatMap(siteLines))));
    }
    blocks.push(divider());
  }
  blocks.pop();
  blocks.push(pageFooter(first, shown.length, page.total));
  return {
    text: fallbackText(`Cloud routers: ${shown.map((r) => r.name ?? r.id).join(", ")}`),
    blocks: fitBlocks(blocks),
    page: pageRef,
  };
}
