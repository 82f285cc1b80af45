import type { KnownBlock } from "@slack/types";
import { isLoaSettled, statusEnding } from "../src/domain/statuses.js";
import type { components } from "../src/provider/generated/provider.js";
import { speedMbps } from "../src/provider/rules.js";
import { COMMAND } from "../src/slack/commandRegistry.js";
import {
  actions,
  button,
  context,
  escapeMrkdwn,
  fields,
  header,
  plainFromMrkdwn,
  section,
} from "./blocks.js";
import { isOffNet, isProviderSuppliedLoa, metroLabel } from "./dcf.js";
import {
  code,
  DASH,
  formatSpeed,
  loaStatusWords,
  statusBadge,
  statusHint,
  textOr,
  yesNo,
} from "./format.js";
import { fallbackText, fitBlocks } from "./list.js";
import type { Reply } from "./reply.js";
import { formatWhen, isSet } from "./time.js";

type Schemas = components["schemas"];
type PortOrder = Schemas["PortOrderRead"];

/** action_id of the order view's Track button; its value is the order id. */
export const ACTION_ORDER_TRACK = "order_track";

/** The kind of DCF, which decides how the LOA for the cross connect arrives. */
export type LoaKind = "on-net" | "provider-supplied" | "off-net" | "unknown";

/**
 * How the order's LOA will arrive. Edge ports are off-net by definition; otherwise the embedded
 * DCF's tags tell. Without the DCF's tags there is no telling, and the view says so.
 */
export function loaKind(order: PortOrder): LoaKind {
  if (order.isEdgePort === true) return "off-net";
  const dcf = order.dataCenterFacility;
  const tags = dcf?.tags;
  const locationTags = dcf?.costbookLocation?.tags;
  if (isOffNet(tags) || isOffNet(locationTags)) return "off-net";
  if (!Array.isArray(tags)) return "unknown";
  if (isProviderSuppliedLoa(tags)) return "provider-supplied";
  return "on-net";
}

const LOA_STEPS: Record<LoaKind, string> = {
  "on-net":
    "On-net data center: the person who placed the order gets an email from the provider; upload the LOA in reply to it. The LOA is available in about 24 hours.",
  "provider-supplied":
    "The provider supplies the LOA: it uploads the LOA to the port, then you install the cross connect.",
  "off-net":
    "Off-net (extended) location: the provider orders the interconnect through a partner and forwards the partner's LOA — expect 4–6 weeks. It can also be downloaded from the port order.",
  unknown:
    "It depends on the data center, whose kind the order does not say. On-net: upload the LOA in reply to the order email (about 24 hours). Provider-supplied LOA: the provider uploads it. Off-net (extended): 4–6 weeks through a partner.",
};

/** Ended without a port: failed or cancelled (the status rules), or cancelled by its flags. */
function didNotGoThrough(order: PortOrder): boolean {
  const ending = statusEnding("port-order", order.status);
  return (
    order.cancelled === true ||
    isSet(order.cancelledAt) ||
    ending === "failed" ||
    ending === "cancelled"
  );
}

/** The next LOA step in words, or why there is none. */
export function nextLoaStep(order: PortOrder): string {
  if (didNotGoThrough(order)) return "None — the order did not go through.";
  if (isLoaSettled(order.loaStatus)) return "None — the LOA step is complete.";
  return LOA_STEPS[loaKind(order)];
}

function orderSpeed(order: PortOrder): string {
  const mbps = speedMbps(order.speed);
  return mbps !== undefined ? formatSpeed(mbps) : textOr(order.speed?.name);
}

function dcfText(order: PortOrder): string | undefined {
  const dcf = order.dataCenterFacility;
  const parts = [
    dcf?.name ? escapeMrkdwn(dcf.name) : undefined,
    dcf?.username ? code(dcf.username) : undefined,
  ].filter(Boolean);
  if (parts.length > 0) return parts.join(" ");
  return order.dataCenterFacilityId ? code(order.dataCenterFacilityId) : undefined;
}

function cancelledText(order: PortOrder, timeZone: string | undefined, now: Date) {
  const when = isSet(order.cancelledAt) ? formatWhen(order.cancelledAt, timeZone, now) : undefined;
  if (order.cancelled === true || when) {
    const by = order.cancelledBy ? ` by ${escapeMrkdwn(order.cancelledBy)}` : "";
    return `Yes${by}${when ? `, ${when}` : ""}`;
  }
  return yesNo(order.cancelled);
}

function newPort(order: PortOrder): string | undefined {
  const port = order.port;
  if (statusEnding("port-order", order.status) !== "success" || !port || (!port.id && !port.name))
    return undefined;
  const parts = [
    `*${textOr(port.name, "New port")}*`,
    typeof port.speed === "number" ? formatSpeed(port.speed) : undefined,
    port.status ? statusBadge(port.status) : undefined,
    port.id ? `ID ${code(port.id)}` : undefined,
  ].filter(Boolean);
  const more = port.id ? `\nSee it with \`${COMMAND} port ${escapeMrkdwn(port.id)}\`.` : "";
  return `:tada: *New port:* ${parts.join(" · ")}${more}`;
}

/** `/connect order <orderId>`: a port order's status and LOA step, with a Track button. */
export function portOrderView(
  order: PortOrder,
  timeZone: string | undefined,
  now: Date = new Date(),
): Reply {
  const hint = statusHint(order.status);
  const created = formatWhen(order.createdAt, timeZone, now);
  const blocks: KnownBlock[] = [
    header(`Port order ${order.portName ?? order.id}`),
    section(`${statusBadge(order.status)}${hint ? ` — ${hint}` : ""}`),
    fields([
      ["Order ID", code(order.id)],
      ["Port name", textOr(order.portName)],
      ["LOA status", loaStatusWords(order.loaStatus) ?? DASH],
      [
        "Created",
        [order.createdBy ? `by ${escapeMrkdwn(order.createdBy)}` : undefined, created]
          .filter(Boolean)
          .join(", ") || undefined,
      ],
      ["Data center", dcfText(order)],
      ["Speed", orderSpeed(order)],
      ["Metro", order.metro || order.metroId ? metroLabel(order.metro, order.metroId) : undefined],
      ["Edge port", yesNo(order.isEdgePort) ?? DASH],
      ["Cancelled", cancelledText(order, timeZone, now) ?? DASH],
    ]),
    section(`*Next LOA step:* ${nextLoaStep(order)}`),
  ];
  if (order.message)
    blocks.push(section(`*Message from the provider:* ${escapeMrkdwn(order.message)}`));
  const port = newPort(order);
  if (port) blocks.push(section(port));
  blocks.push(actions("order_actions", [button("Track", ACTION_ORDER_TRACK, order.id)]));
  const updated = formatWhen(order.updatedAt, timeZone, now);
  if (updated) blocks.push(context(`Last updated ${updated}`));
  return {
    text: fallbackText(
      `Port order ${order.portName ?? order.id}: ${order.status ?? DASH}, LOA status ${plainFromMrkdwn(loaStatusWords(order.loaStatus) ?? DASH)}`,
    ),
    blocks: fitBlocks(blocks),
  };
}
