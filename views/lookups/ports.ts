import type { KnownBlock } from "@slack/types";
import { speedMbps } from "../../src/domain/catalog/requestFacts.js";
import { COMMAND } from "../../src/domain/commands.js";
import type { PageInfo } from "../../src/domain/paging.js";
import { isSet } from "../../src/domain/timestamps.js";
import type { components } from "../../src/provider/generated/provider.js";
import { context, divider, escapeMrkdwn, fields, header, section } from "../blocks.js";
import { metroLabel } from "../dcf.js";
import {
  code,
  DASH,
  formatMbps,
  formatSpeed,
  percentOf,
  statusBadge,
  statusHint,
  textOr,
  yesNo,
} from "../format.js";
import { fallbackText, fitBlocks, linesWithin, pageFooter, pageItems } from "../list.js";
import type { Reply } from "../reply.js";
import { formatWhen } from "../time.js";

type Schemas = components["schemas"];
type Port = Schemas["Port"];
type PortConnection = Schemas["PortConnection"];
type PortCapabilities = Schemas["PortCapabilities"];

/** Ports per page: one section and one divider each. */
export const PORT_PAGE_SIZE = 10;
const PORT_MAX_PER_PAGE = 12;

function portName(port: Port): string {
  return textOr(port.name, "Unnamed port");
}

function portSpeed(port: Port): string {
  const mbps = speedMbps(port.speed);
  return mbps !== undefined ? formatSpeed(mbps) : textOr(port.speed?.name);
}

function isDeleted(port: Port): boolean {
  return port.deleted === true || isSet(port.deletedAt);
}

/** "2,500 Mbps used (25%) · 7,500 Mbps free (75%) of 10,000 Mbps", or undefined. */
export function capacityText(port: Port): string | undefined {
  const capacity = port.capacity;
  const num = (x: unknown) => (typeof x === "number" && Number.isFinite(x) ? x : undefined);
  let total = num(capacity?.total) ?? num(port.speed?.value);
  let used = num(capacity?.utilised);
  let free = num(capacity?.remaining);
  if (used === undefined && free === undefined) return undefined;
  if (total === undefined && used !== undefined && free !== undefined) total = used + free;
  if (used === undefined && total !== undefined && free !== undefined) used = total - free;
  if (free === undefined && total !== undefined && used !== undefined) free = total - used;
  const part = (value: number | undefined, word: string) => {
    if (value === undefined) return undefined;
    const pct = percentOf(value, total);
    return `${formatMbps(value)} ${word}${pct ? ` (${pct})` : ""}`;
  };
  const parts = [part(used, "used"), part(free, "free")].filter(Boolean).join(" · ");
  return total !== undefined ? `${parts} of ${formatMbps(total)}` : parts;
}

/** Where the port is: "Equinix AM3 · Amsterdam (AMS)". */
function portLocation(port: Port): string {
  const dcf = port.dataCenterFacility;
  const place = dcf?.name
    ? escapeMrkdwn(dcf.name)
    : port.dataCenterFacilityId
      ? `DCF ${code(port.dataCenterFacilityId)}`
      : undefined;
  const metroId = port.metroId ?? port.metro?.id;
  const metro =
    port.metro?.name || port.metro?.code
      ? metroLabel(port.metro, metroId)
      : metroId
        ? `metro ${code(metroId)}`
        : undefined;
  return [place, metro].filter(Boolean).join(" · ") || DASH;
}

function services(port: Port): string | undefined {
  const list = Array.isArray(port.supportedServices)
    ? port.supportedServices.filter((s): s is string => typeof s === "string")
    : [];
  return list.length > 0 ? escapeMrkdwn(list.join(", ")) : undefined;
}

function connectionList(port: Port): PortConnection[] {
  return Array.isArray(port.connections)
    ? port.connections.filter((c): c is PortConnection => typeof c === "object" && c !== null)
    : [];
}

/** "3 connections (2 ACTIVE, 1 ERROR)". */
export function connectionsSummary(port: Port): string {
  const connections = connectionList(port);
  if (connections.length === 0) return "No connections";
  const byStatus = new Map<string, number>();
  for (const c of connections) {
    const status = typeof c.status === "string" && c.status ? c.status : "no status";
    byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
  }
  const counts = [...byStatus].map(([status, n]) => `${n} ${escapeMrkdwn(status)}`).join(", ");
  const noun = connections.length === 1 ? "connection" : "connections";
  return `${connections.length} ${noun} (${counts})`;
}

function portSummary(port: Port): string {
  const first = [
    `*${portName(port)}*`,
    statusBadge(port.status),
    port.linkState ? `link ${statusBadge(port.linkState)}` : undefined,
    isDeleted(port) ? ":wastebasket: deleted" : undefined,
  ];
  const second = [
    portSpeed(port),
    textOr(port.type, ""),
    port.isEdgePort === true ? "Edge" : "",
    portLocation(port),
    services(port) ? `Services: ${services(port)}` : undefined,
  ];
  const capacity = capacityText(port);
  return [
    first.filter(Boolean).join("  ·  "),
    second.filter(Boolean).join(" · "),
    capacity ? `Capacity: ${capacity}` : undefined,
    `${connectionsSummary(port)}  ·  ID ${code(port.id)}`,
  ]
    .filter(Boolean)
    .join("\n");
}

/** `/connect ports`: the company's ports, one page. */
export function portListView(ports: readonly Port[], page: PageInfo): Reply {
  const { shown, hasNext, first, index } = pageItems(ports, page, PORT_MAX_PER_PAGE);
  const pageRef = { index, hasNext };
  if (shown.length === 0) {
    const text = index > 0 ? "No more ports." : "Your company has no ports yet.";
    const hint = `Order one with \`${COMMAND} port order\`.`;
    return {
      text,
      blocks: [section(`${text} ${index > 0 ? "" : hint}`.trim())],
      page: pageRef,
    };
  }
  const blocks: KnownBlock[] = [header("Ports")];
  for (const port of shown) {
    blocks.push(section(portSummary(port)), divider());
  }
  blocks.pop();
  blocks.push(
    pageFooter(
      first,
      shown.length,
      page.total,
      `Details: \`${COMMAND} port ${escapeMrkdwn("<portId>")}\``,
    ),
  );
  return {
    text: fallbackText(`Ports: ${shown.map((p) => p.name ?? p.id).join(", ")}`),
    blocks: fitBlocks(blocks),
    page: pageRef,
  };
}

/** The IO-D line: enabled, not enabled, or unknown when the port info call failed. */
export function iodCapability(capabilities: PortCapabilities | undefined): string {
  if (!capabilities || typeof capabilities.capabilities !== "object" || !capabilities.capabilities)
    return ":grey_question: IO-D capability unknown (the port info call failed)";
  return capabilities.capabilities.giaStandardV1 === true
    ? ":white_check_mark: IO-D enabled"
    : ":heavy_minus_sign: Not IO-D enabled";
}

function vlanRanges(port: Port): string | undefined {
  const ranges = port.vlanRanges ?? port.vlanRange;
  if (!Array.isArray(ranges) || ranges.length === 0) return undefined;
  const text = ranges
    .filter((r) => typeof r === "object" && r !== null)
    .map((r) =>
      r.start !== undefined && r.end !== undefined && r.start !== r.end
        ? `${r.start}–${r.end}`
        : String(r.start ?? r.end ?? DASH),
    )
    .join(", ");
  return text || undefined;
}

function cosMapping(port: Port): string | undefined {
  const mapping = port.cosMapping;
  if (typeof mapping !== "object" || mapping === null) return undefined;
  const lines = Object.entries(mapping as Record<string, unknown>).map(([cos, values]) => {
    const list = Array.isArray(values) ? values.map(String).join(", ") : String(values ?? "");
    return `${escapeMrkdwn(cos)}: ${list ? escapeMrkdwn(list) : DASH}`;
  });
  return lines.length > 0 ? lines.join("\n") : undefined;
}

function connectionLine(c: PortConnection): string {
  const type = c.typeFriendly || c.type;
  return [
    `• *${textOr(c.name, "Unnamed connection")}*`,
    statusBadge(c.status),
    typeof c.speed === "number" ? formatMbps(c.speed) : undefined,
    type ? escapeMrkdwn(type) : undefined,
    c.id ? code(c.id) : undefined,
  ]
    .filter(Boolean)
    .join(" · ");
}

function linkState(port: Port, tz: string | undefined, now: Date): string | undefined {
  if (!port.linkState) return undefined;
  const since =
    port.linkState.toUpperCase() === "UP" ? formatWhen(port.linkStateUpSince, tz, now) : undefined;
  return since ? `${statusBadge(port.linkState)} since ${since}` : statusBadge(port.linkState);
}

/** `/connect port <portId>`: one port in full, with its IO-D capability. */
export function portDetailView(
  port: Port,
  capabilities: PortCapabilities | undefined,
  timeZone: string | undefined,
  now: Date = new Date(),
): Reply {
  const dcf = port.dataCenterFacility;
  const hint = statusHint(port.status);
  const blocks: KnownBlock[] = [
    header(`Port ${port.name ?? port.id}`),
    section(
      [
        `${statusBadge(port.status)}${hint ? ` — ${hint}` : ""}${isDeleted(port) ? "  ·  :wastebasket: deleted" : ""}`,
        iodCapability(capabilities),
      ].join("\n"),
    ),
    fields([
      ["Port ID", code(port.id)],
      ["Speed", portSpeed(port)],
      ["Link state", linkState(port, timeZone, now)],
      ["Type", port.type ? escapeMrkdwn(port.type) : undefined],
      [
        "Data center",
        dcf?.name || dcf?.username
          ? [
              dcf.name ? escapeMrkdwn(dcf.name) : undefined,
              dcf.username ? code(dcf.username) : undefined,
            ]
              .filter(Boolean)
              .join(" ")
          : port.dataCenterFacilityId
            ? code(port.dataCenterFacilityId)
            : undefined,
      ],
      ["Metro", port.metro || port.metroId ? metroLabel(port.metro, port.metroId) : undefined],
      ["Capacity", capacityText(port)],
      ["Supported services", services(port)],
      ["Edge port", yesNo(port.isEdgePort)],
      ["Service status", port.serviceStatus ? escapeMrkdwn(port.serviceStatus) : undefined],
    ]),
  ];
  const times = fields([
    ["Created", formatWhen(port.createdAt, timeZone, now)],
    ["First active", formatWhen(port.firstActiveAt, timeZone, now)],
    ["Status changed", formatWhen(port.activeChangedAt, timeZone, now)],
    ["Deleted", isSet(port.deletedAt) ? formatWhen(port.deletedAt, timeZone, now) : undefined],
    ["Media", port.mediaType ? escapeMrkdwn(port.mediaType) : undefined],
  ]);
  if (times.fields && times.fields.length > 0) blocks.push(times);
  const vlans = vlanRanges(port);
  const cos = cosMapping(port);
  if (vlans || cos) {
    blocks.push(
      fields([
        ["VLAN ranges", vlans],
        ["Class of service mapping", cos],
      ]),
    );
  }
  const connections = connectionList(port);
  blocks.push(divider());
  blocks.push(
    section(
      connections.length > 0
        ? `*Connections* — ${connectionsSummary(port)}\n${linesWithin(connections.map(connectionLine), 2900)}`
        : "*Connections* — none",
    ),
  );
  const ids = (
    [
      ["DCF id", port.dataCenterFacilityId],
      ["metro id", port.metroId],
      ["location id", port.locationId],
      ["company id", port.companyId],
    ] as const
  )
    .filter(([, id]) => typeof id === "string" && id !== "")
    .map(([label, id]) => `${label} ${code(id as string)}`);
  if (ids.length > 0) blocks.push(context(ids.join(" · ")));
  blocks.push(
    context(
      capabilities?.capabilities?.giaStandardV1 === true
        ? `Request Internet On-Demand on this port with \`${COMMAND} iod\`.`
        : `Connect it to another port with \`${COMMAND} l2\`.`,
    ),
  );
  return {
    text: fallbackText(`Port ${port.name ?? port.id}: ${port.status ?? DASH}, ${portSpeed(port)}`),
    blocks: fitBlocks(blocks),
  };
}
