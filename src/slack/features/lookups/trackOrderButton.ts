import type { BlockAction, ButtonAction, SlackActionMiddlewareArgs } from "@slack/bolt";
import { sandboxLabelledBlocks } from "../../../../views/blocks.js";
import { describeFailure } from "../../../../views/failures.js";
import { ACTION_ORDER_TRACK } from "../../../../views/lookups/orders.js";
import { COMMAND } from "../../../domain/commands.js";
import { type OrderTracking, requestOrderTracking } from "../../../usecases/orderLookup.js";
import { parseRecordId } from "../../../usecases/ports.js";
import type { LookupDeps } from "./index.js";

// The Track button of `/connect order`: starts tracking the order in the channel (tracking.ts)
// and answers the clicker privately.

/** What the Track button says while no tracker is plugged in. */
export function trackingUnavailableText(orderId: string): string {
  return `Tracking starts once background jobs are enabled for this bot; until then, check the order again with \`${COMMAND} order ${orderId}\`.`;
}

type TrackClick = Pick<
  SlackActionMiddlewareArgs<BlockAction<ButtonAction>>,
  "ack" | "body" | "action" | "respond"
>;

/**
 * The Track button's listener. The jobs work plugs its tracker in through `tracking`; until
 * then the person is told that tracking is not running — nothing pretends to track.
 */
export function onTrackOrder(services: LookupDeps, tracking?: OrderTracking) {
  return async ({ ack, body, action, respond }: TrackClick): Promise<void> => {
    await ack();
    const id = parseRecordId([action.value ?? ""]);
    const userId = body.user.id;
    const channelId = body.channel?.id ?? body.container?.channel_id ?? "";
    let text: string;
    try {
      if (!id.ok) {
        text = ":warning: This Track button carries no order id; run the order look-up again.";
      } else {
        const outcome = await requestOrderTracking(tracking, {
          orderId: id.id,
          userId,
          channelId,
        });
        text = outcome.started ? outcome.text : trackingUnavailableText(id.id);
      }
      services.logger.info(
        {
          audit: "action",
          action: ACTION_ORDER_TRACK,
          userId,
          channelId,
          orderId: id.ok ? id.id : undefined,
        },
        "track order clicked",
      );
    } catch (error) {
      services.logger.warn({ err: error, action: ACTION_ORDER_TRACK }, "could not start tracking");
      text = describeFailure(error);
    }
    const blocks = sandboxLabelledBlocks({ text }, services.sandbox);
    await respond({
      response_type: "ephemeral",
      replace_original: false,
      text,
      ...(blocks ? { blocks } : {}),
    }).catch((error: unknown) =>
      services.logger.warn({ err: error }, "could not answer the Track click"),
    );
  };
}
