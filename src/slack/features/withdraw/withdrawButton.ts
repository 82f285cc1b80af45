import type { App } from "@slack/bolt";
import { describeFailure } from "../../../../views/failures.js";
import { tellPrivately } from "../../kit/index.js";
import type { WithdrawDeps } from "./index.js";
import { type WithdrawOutcome, withdrawRequest } from "./withdrawRequest.js";

type ActionArgs = Parameters<Parameters<App["action"]>[1]>[0];

/**
 * The Withdraw button, wherever it is shown (the requester's confirmation, the request card,
 * App Home's *My requests*): one action id, one listener. On the requester's own (ephemeral)
 * confirmation a withdrawal replaces it, button and all; anywhere else the answer is told
 * privately (in Home, which has no channel, that is the requester's DM).
 */
export function withdrawButton(services: WithdrawDeps) {
  return async ({ ack, body, action, client, respond }: ActionArgs) => {
    await ack();
    if (body.type !== "block_actions" || !("value" in action) || typeof action.value !== "string")
      return;
    const userId = body.user.id;
    const onConfirmation = body.container?.is_ephemeral === true;
    let outcome: WithdrawOutcome;
    try {
      outcome = await withdrawRequest(services, action.value, userId);
    } catch (error) {
      services.logger.error({ err: error, action: "withdraw" }, "withdraw failed");
      outcome = { ok: false, text: describeFailure(error) };
    }
    const answer = outcome.ok ? outcome.reply : { text: outcome.text, blocks: [] };
    try {
      if (onConfirmation && outcome.ok) {
        await respond({ replace_original: true, text: answer.text, blocks: answer.blocks });
      } else {
        await tellPrivately(
          client,
          services,
          { userId: userId, channelId: body.channel?.id },
          answer,
        );
      }
    } catch (error) {
      services.logger.warn({ err: error }, "could not answer a withdraw click");
    }
  };
}
