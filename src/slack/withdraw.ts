import type { App } from "@slack/bolt";
import { ACTION_WITHDRAW, withdrawnView, withdrawRefusedText } from "../../views/approvals.js";
import { describeFailure } from "../../views/failures.js";
import { policyView } from "../../views/policy.js";
import { problemReply, type Reply } from "../../views/reply.js";
import { APPROVAL_ID_PATTERN, defaultPolicy } from "../approvals/index.js";
import { COMMAND } from "../domain/commands.js";
import type { Services } from "../services.js";
import type { CommandHandler } from "./connect.js";
import { tellPrivately } from "./kit/index.js";
import type { ListenerRegistry } from "./listenerTable.js";

/**
 * The requester's Withdraw (the button on their confirmation, and anywhere else it is shown:
 * App Home, the request card — one action id, ACTION_WITHDRAW, one listener) and
 * `/connect withdraw <requestId>`; and `/connect policy`.
 *
 * A withdrawal is the store's `cancel` by the requester (pending → cancelled, the name
 * released, "withdrawn by the requester" in the history), then the lifecycle's follow-up: the
 * thread says so and the approval message loses its buttons, through the ordered notifier like
 * every other update of that message.
 */

export type WithdrawOutcome = { ok: true; reply: Reply } | { ok: false; text: string };

/** Withdraws a request for `userId`, who must be its requester and it must still be waiting. */
export async function withdrawRequest(
  services: Services,
  requestId: string,
  userId: string,
): Promise<WithdrawOutcome> {
  if (!APPROVAL_ID_PATTERN.test(requestId)) {
    return {
      ok: false,
      text: `:no_entry: \`${requestId.replace(/[^a-z0-9_]/gi, "").slice(0, 40)}\` is not a request id: it looks like \`apr_…\` (the id is on your confirmation and on the request).`,
    };
  }
  const withdrawn = await services.orders.withdraw(requestId, userId);
  if (!withdrawn.ok) {
    services.logger.info(
      { audit: "approval", approvalId: requestId, by: userId, action: "withdraw" },
      `withdraw refused: ${withdrawn.reason}`,
    );
    return { ok: false, text: withdrawRefusedText(withdrawn) };
  }
  services.logger.info(
    { audit: "approval", approvalId: requestId, by: userId, action: "withdraw" },
    "withdrawn",
  );
  // Recorded: the thread and the approval message follow (the notifier retries on its own).
  await services.orders
    .followUp(withdrawn.record)
    .catch((error: unknown) =>
      services.logger.error({ err: error, approvalId: requestId }, "withdraw follow-up failed"),
    );
  return { ok: true, reply: withdrawnView(withdrawn.record) };
}

/** `/connect withdraw <requestId>`. */
export const withdrawCommand: CommandHandler = async (ctx) => {
  if (ctx.args.length !== 1) {
    await ctx.reply(
      problemReply(
        `Usage: \`${COMMAND} withdraw <requestId>\` — the request id (\`apr_…\`) is on your confirmation and on the request.`,
      ),
    );
    return;
  }
  const outcome = await withdrawRequest(ctx.services, ctx.args[0] ?? "", ctx.userId);
  await ctx.reply(outcome.ok ? outcome.reply : problemReply(outcome.text));
};

/** `/connect policy`: who approves what, in words. */
export const showPolicy: CommandHandler = async (ctx) => {
  const settings = ctx.services.approvals;
  await ctx.reply(
    policyView(settings.policy ?? defaultPolicy(settings.approvers), {
      fromFile: settings.policy !== undefined,
      allowSelfApproval: settings.allowSelfApproval,
    }),
  );
};

type ActionArgs = Parameters<Parameters<App["action"]>[1]>[0];

export function registerWithdrawListeners(app: ListenerRegistry, services: Services): void {
  app.action(ACTION_WITHDRAW, async ({ ack, body, action, client, respond }: ActionArgs) => {
    await ack();
    if (body.type !== "block_actions" || !("value" in action) || typeof action.value !== "string")
      return;
    const userId = body.user.id;
    // On the requester's own (ephemeral) confirmation the answer replaces it, button and all;
    // anywhere else (a card in a channel, App Home) it is said to them privately.
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
  });
}
