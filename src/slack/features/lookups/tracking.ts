import type { WebClient } from "@slack/web-api";
import { escapeMrkdwn, sandboxLabelledBlocks } from "../../../../views/blocks.js";
import { COMMAND } from "../../../domain/commands.js";
import { TRACK_TARGET_LABEL } from "../../../domain/tracking/statuses.js";
import { nothingLeftToFollow } from "../../../domain/tracking/trackedOrder.js";
import type { OrderTracking } from "../../../usecases/orderLookup.js";
import type { LookupDeps } from "./index.js";

/**
 * The Track button of `/connect order`: the answer there is private, but progress belongs in
 * the channel, so tracking starts with a message in the channel whose thread the tracker fills.
 */
export function slackOrderTracking(services: LookupDeps, client: WebClient): OrderTracking {
  return {
    async track({ orderId, userId, channelId }) {
      const { companyUsername } = await services.identity();
      const existing = await services.jobs.tracker.get(orderId);
      if (existing?.open) {
        return {
          text: `${TRACK_TARGET_LABEL[existing.target.kind]} \`${escapeMrkdwn(orderId)}\` is already being tracked in <#${existing.channel}>.`,
        };
      }
      // Reading it first proves the order exists before anything is posted.
      const order = await services.provider.getPortOrder(companyUsername, orderId);
      // An Edge order is read as a port order, and named and finished as an Edge one.
      const edge = order.isEdgePort === true;
      const label = TRACK_TARGET_LABEL[edge ? "edge-order" : "port-order"];
      const named = `${label} \`${escapeMrkdwn(orderId)}\``;
      if (nothingLeftToFollow(order)) {
        return {
          text: `${named} is *${escapeMrkdwn(order.status ?? "", 60)}*: it has ended, and nothing is left to track. \`${COMMAND} order ${escapeMrkdwn(orderId)}\` shows it.`,
        };
      }
      const text = `:satellite: Tracking: ${named} (${escapeMrkdwn(order.portName ?? "unnamed")}) for <@${userId}>: *${escapeMrkdwn(order.status ?? "unknown")}*. Updates follow in this thread.`;
      const blocks = sandboxLabelledBlocks({ text }, services.sandbox);
      const posted = await client.chat.postMessage({
        channel: channelId,
        text,
        ...(blocks ? { blocks } : {}),
      });
      if (!posted.ts) throw new Error("Slack did not return the message ts");
      const started = await services.jobs.tracker.track({
        orderId,
        companyName: companyUsername,
        channel: channelId,
        threadTs: posted.ts,
        requestedBy: userId,
        ...(edge ? { kind: "edge" as const } : {}),
      });
      return {
        text: started.joined
          ? `${named} was already being tracked; you'll see its updates there too.`
          : `Tracking: ${named}. Every status and LOA change will be posted in the thread.`,
      };
    },
  };
}
