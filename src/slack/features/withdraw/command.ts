import { problemReply } from "../../../../views/reply.js";
import { COMMAND } from "../../../domain/commands.js";
import type { CommandHandler, CommandHandlers } from "../../connect.js";
import { withdrawRequest } from "./withdrawRequest.js";

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

/** The `/connect` subcommands this feature answers (the table in src/slack/commandTable.ts). */
export const withdrawCommands = { withdraw: withdrawCommand } satisfies Partial<CommandHandlers>;
