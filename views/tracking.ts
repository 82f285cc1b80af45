import type { KnownBlock } from "@slack/types";
import type { TrackedOrder } from "../src/jobs/index.js";
import { context, escapeMrkdwn, header, section } from "./blocks.js";
import { statusBadge } from "./format.js";
import type { Reply } from "./reply.js";
import { formatWhen } from "./time.js";

/** `/connect track`: the port orders the bot is following. */
export function trackedOrdersView(
  orders: readonly TrackedOrder[],
  timeZone: string | undefined,
): Reply {
  if (orders.length === 0) {
    return {
      text: "No port orders are being tracked.",
      blocks: [
        section(
          "No port orders are being tracked. Use the *Track* button of `/connect order &lt;orderId&gt;`.",
        ),
      ],
    };
  }
  const shown = orders.slice(0, 40);
  const blocks: KnownBlock[] = [
    header(`${orders.length} tracked port order${orders.length === 1 ? "" : "s"}`),
  ];
  for (const order of shown) {
    const loa = order.loaStatus ? ` · LOA ${escapeMrkdwn(order.loaStatus)}` : "";
    const next = order.nextCheckAt
      ? ` · next check ${formatWhen(order.nextCheckAt.toISOString(), timeZone) ?? "—"}`
      : "";
    const problem = order.lastError
      ? `\n:warning: last read failed: ${escapeMrkdwn(order.lastError)}`
      : "";
    blocks.push(
      section(
        `\`${escapeMrkdwn(order.orderId)}\` ${statusBadge(order.status)}${loa}\nin <#${order.channel}> for <@${order.requestedBy}> · started ${formatWhen(order.startedAt.toISOString(), timeZone) ?? "—"}${next}${problem}`,
      ),
    );
  }
  if (orders.length > shown.length)
    blocks.push(context(`…and ${orders.length - shown.length} more.`));
  blocks.push(
    context("Stop one with `/connect track stop &lt;orderId&gt;` (its owner or an approver)."),
  );
  return { text: `${orders.length} tracked port orders`, blocks };
}
