import type { KnownBlock } from "@slack/types";
import { speedMbps } from "../../src/domain/catalog/requestFacts.js";
import { COMMAND } from "../../src/domain/commands.js";
import { ORDER_KIND_LABEL } from "../../src/domain/orderKinds.js";
import { isSet } from "../../src/domain/timestamps.js";
import { nextLoaStep } from "../../src/domain/tracking/loa.js";
import { statusEnding } from "../../src/domain/tracking/statuses.js";
import type { components } from "../../src/provider/generated/provider.js";
import {
  actions,
  button,
  context,
  escapeMrkdwn,
  fields,
  header,
  plainFromMrkdwn,
  section,
} from "../blocks.js";
import { metroLabel } from "../dcf.js";
import {
  code,
  DASH,
  formatSpeed,
  loaStatusText,
  statusBadge,
  statusHint,
  textOr,
  yesNo,
} from "../format.js";
import { fallbackText, fitBlocks } from "../list.js";
import type { Reply } from "../reply.js";
import { formatWhen } from "../time.js";

type Schemas = components["schemas"];
type PortOrder = Schemas["PortOrderRead"];

// The LOA rules and their words are src/domain/tracking/loa.ts's (one answer for the tracker, this view
// and the placement message); offered here too, beside the view that shows them.

/** action_id of the order view's Track button; its value is the order id. */
export const ACTION_ORDER_TRACK = "order_track";

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

/** An Edge order is a port order at the provider (`isEdgePort`), and an Edge port order to people. */
function orderLabel(order: PortOrder): string {
  return ORDER_KIND_LABEL[order.isEdgePort === true ? "edge" : "port"];
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
    header(`${orderLabel(order)} ${order.portName ?? order.id}`),
    section(`${statusBadge(order.status)}${hint ? ` — ${hint}` : ""}`),
    fields([
      ["Order ID", code(order.id)],
      ["Port name", textOr(order.portName)],
      ["LOA status", loaStatusText(order.loaStatus) ?? DASH],
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
      `${orderLabel(order)} ${order.portName ?? order.id}: ${order.status ?? DASH}, LOA status ${plainFromMrkdwn(loaStatusText(order.loaStatus) ?? DASH)}`,
    ),
    blocks: fitBlocks(blocks),
  };
}
