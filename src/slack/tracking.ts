import type { WebClient } from "@slack/web-api";
import { escapeMrkdwn, sandboxLabelledBlocks } from "../../views/blocks.js";
import { trackedOrdersView } from "../../views/tracking.js";
import { canApprove } from "../approvals/index.js";
import type { Services } from "../services.js";
import type { OrderTracking } from "../usecases/orderLookup.js";
import { groupMembersVia } from "./approvals.js";
import type { CommandHandler } from "./connect.js";

/**
 * The Track button of `/connect order`: the answer there is private, but progress belongs in
 * the channel, so tracking starts with a message in the channel whose thread the tracker fills.
 */
export function slackOrderTracking(services: Services, client: WebClient): OrderTracking {
  return {
    async track({ orderId, userId, channelId }) {
      const { companyUsername } = await services.identity();
      const existing = await services.jobs.tracker.get(orderId);
      if (existing?.open) {
        return {
          text: `Port order \`${escapeMrkdwn(orderId)}\` is already being tracked in <#${existing.channel}>.`,
        };
      }
      // Reading it first proves the order exists before anything is posted.
      const order = await services.provider.getPortOrder(companyUsername, orderId);
      const text = `:satellite: Tracking port order \`${escapeMrkdwn(orderId)}\` (${escapeMrkdwn(order.portName ?? "unnamed")}) for <@${userId}>: *${escapeMrkdwn(order.status ?? "unknown")}*. Updates follow in this thread.`;
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
      });
      return {
        text: started.joined
          ? `Port order \`${escapeMrkdwn(orderId)}\` was already being tracked; you'll see its updates there too.`
          : `Tracking port order \`${escapeMrkdwn(orderId)}\`: every status and LOA change will be posted in the thread.`,
      };
    },
  };
}

/** `/connect track` lists tracked orders; `/connect track stop <orderId>` stops one (owner or approver). */
export const track: CommandHandler = async (ctx) => {
  const tracker = ctx.services.jobs.tracker;
  if (ctx.args[0]?.toLowerCase() === "stop") {
    const orderId = ctx.args[1];
    if (!orderId || ctx.args.length > 2) {
      await ctx.reply({
        text: "Usage: `/connect track stop &lt;orderId&gt;`",
        blocks: [],
        problem: true,
      });
      return;
    }
    const settings = ctx.services.approvals;
    const result = await tracker.stop(orderId, ctx.userId, {
      isApprover: async (userId) =>
        (
          await canApprove({
            userId,
            requesterId: "",
            approvers: settings.approvers,
            groupMembers: groupMembersVia(ctx.client),
            allowSelfApproval: true,
          })
        ).allowed,
    });
    const text = result.ok
      ? `Stopped tracking port order \`${escapeMrkdwn(orderId)}\`.`
      : result.reason === "not-tracked"
        ? `Port order \`${escapeMrkdwn(orderId)}\` is not being tracked.`
        : "Only the person who started tracking this order, or an approver, can stop it.";
    await ctx.reply({ text, blocks: [], problem: !result.ok });
    return;
  }
  const open = (await tracker.list()).filter((t) => t.open);
  await ctx.reply(trackedOrdersView(open, await ctx.timeZone()));
};
