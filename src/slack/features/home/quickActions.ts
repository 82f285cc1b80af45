import type { App, RespondFn } from "@slack/bolt";
import type { KnownBlock } from "@slack/types";
import { HOME_QUICK_ACTIONS } from "../../../../views/home/home.js";
import type { createConnectRouter } from "../../connect.js";

/**
 * `/connect` run with plain inputs (src/slack/connect.ts `createConnectRouter().run`, injected
 * by listeners.ts): Home answers privately only.
 */
export type RunCommand = (
  input: Parameters<ReturnType<typeof createConnectRouter>["run"]>[0] & { mode: "ephemeral" },
) => Promise<unknown>;

type ActionArgs = Parameters<Parameters<App["action"]>[1]>[0];

/**
 * Home's quick actions run the `/connect` command they name through the injected router, so
 * they open the same forms and give the same answers; only the commands Home offers.
 */
export function quickActions(run: RunCommand) {
  return async ({ ack, body, action, client }: ActionArgs) => {
    await ack();
    if (body.type !== "block_actions" || !("value" in action)) return;
    // Only the commands Home offers: a button value is not a command line to trust.
    const quick = HOME_QUICK_ACTIONS.find((q) => q.command === action.value);
    if (!quick) return;
    const userId = body.user.id;
    // No channel in Home: answers (a price, a problem) go to the person's DM with the bot.
    const respond = (async (message: Parameters<RespondFn>[0]) => {
      const shown = (typeof message === "string" ? { text: message } : message) as {
        text?: string;
        blocks?: KnownBlock[];
      };
      return client.chat.postMessage({
        channel: userId,
        text: shown.text ?? "",
        ...(shown.blocks ? { blocks: shown.blocks } : {}),
      });
    }) as unknown as RespondFn;
    await run({
      text: quick.command,
      page: 0,
      userId,
      channelId: userId,
      triggerId: body.trigger_id,
      respond,
      client,
      mode: "ephemeral",
    });
  };
}
