// "Order this" under a price opens an order form prefilled from the price (port order, layer 2):
// ack, read the pick, ask whether this person may order, then open.
import type {
  AllMiddlewareArgs,
  BlockAction,
  ButtonAction,
  SlackActionMiddlewareArgs,
} from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import type { OrderRequests } from "../../orders/requests.js";
import { groupMembersVia } from "./approvers.js";
import { orderRefusal } from "./orderRefusal.js";

/** Where the opened order form answers: the trigger to open it with, the person's channel. */
export interface OrderThisAt {
  triggerId: string;
  client: WebClient;
  channelId?: string;
  /** Answers the person privately under the price, leaving the price message as it is. */
  reply(reply: { text: string }): Promise<void>;
}

type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

/**
 * The "Order this" button under a price: acked at once; a value that does not parse (forged,
 * or from an older message) does nothing; the requester check comes before the form is
 * opened, so nobody fills a form in vain — a refusal is answered privately under the price.
 * `open` opens the order form prefilled with the pick.
 */
export function orderThisButton<P>(input: {
  services: { requests: Pick<OrderRequests, "mayRequest"> };
  parse: (value: unknown) => P | undefined;
  open: (pick: P, at: OrderThisAt) => Promise<void>;
}): (args: ButtonArgs) => Promise<void> {
  return async ({ ack, body, action, client, respond }) => {
    await ack();
    const pick = input.parse(action.value);
    if (!pick) return;
    const reply = async (r: { text: string }) => {
      await respond({ response_type: "ephemeral", replace_original: false, text: r.text });
    };
    const refusal = await orderRefusal(input.services, groupMembersVia(client), body.user.id);
    if (refusal) {
      await reply({ text: refusal.message });
      return;
    }
    const channelId = body.channel?.id ?? body.container?.channel_id;
    await input.open(pick, {
      triggerId: body.trigger_id,
      client,
      ...(channelId ? { channelId } : {}),
      reply,
    });
  };
}
