import type { KnownBlock } from "@slack/types";
import { TRACK_TARGET_LABEL, type TrackTargetKind } from "../../src/domain/tracking/statuses.js";
import type { TrackedOrder } from "../../src/orders/tracking/index.js";
import { context, escapeMrkdwn, header, section } from "../blocks.js";
import { loaStatusText, statusBadge } from "../format.js";
import type { Reply } from "../reply.js";
import { formatWhen } from "../time.js";

/** `/connect track stop <id>`'s answer: what stopped (named by its kind), or why nothing did. */
export function stopTrackingText(
  result: { ok: true; kind: TrackTargetKind } | { ok: false; reason: string },
  orderId: string,
): string {
  const id = `\`${escapeMrkdwn(orderId, 128)}\``;
  if (result.ok) return `Tracking stopped: ${TRACK_TARGET_LABEL[result.kind]} ${id}.`;
  return result.reason === "not_tracked"
    ? `Nothing is being tracked under ${id}. \`/connect track\` lists what is.`
    : "Only the person who started tracking this order, or an approver, can stop it.";
}

/** `/connect track`: what the bot is following (orders, ports, connections, IO-D services). */
export function trackedOrdersView(
  orders: readonly TrackedOrder[],
  timeZone: string | undefined,
): Reply {
  if (orders.length === 0) {
    return {
      text: "Nothing is being tracked.",
      blocks: [
        section(
          "Nothing is being tracked. Approved orders are tracked on their own; follow a port order with the *Track* button of `/connect order &lt;orderId&gt;`.",
        ),
      ],
    };
  }
  const shown = orders.slice(0, 40);
  const blocks: KnownBlock[] = [
    header(`${orders.length} tracked item${orders.length === 1 ? "" : "s"}`),
  ];
  for (const order of shown) {
    const label = TRACK_TARGET_LABEL[order.target.kind] ?? "Item";
    const loaWords = loaStatusText(order.loaStatus);
    const loa = loaWords ? ` · LOA ${loaWords}` : "";
    const waiting = order.waitingSince
      ? ` · waiting since ${formatWhen(order.waitingSince.toISOString(), timeZone) ?? "—"}`
      : "";
    const next = order.nextCheckAt
      ? ` · next check ${formatWhen(order.nextCheckAt.toISOString(), timeZone) ?? "—"}`
      : "";
    const problem = order.lastError
      ? `\n:warning: last read failed: ${escapeMrkdwn(order.lastError)}`
      : "";
    blocks.push(
      section(
        `${label} \`${escapeMrkdwn(order.orderId)}\` ${statusBadge(order.status)}${loa}${waiting}\nin <#${order.channel}> for <@${order.requestedBy}> · started ${formatWhen(order.startedAt.toISOString(), timeZone) ?? "—"}${next}${problem}`,
      ),
    );
  }
  if (orders.length > shown.length)
    blocks.push(context(`…and ${orders.length - shown.length} more.`));
  blocks.push(
    context("Stop one with `/connect track stop &lt;id&gt;` (its owner or an approver)."),
  );
  return { text: `${orders.length} tracked item${orders.length === 1 ? "" : "s"}`, blocks };
}
