import { problemReply } from "../../../../views/reply.js";
import { COMMAND } from "../../../domain/commands.js";
import type { CommandOf, CommandTable } from "../../connect.js";
import type { WithdrawDeps } from "./index.js";
import { withdrawRequest } from "./withdrawRequest.js";

/** `/connect withdraw <requestId>`. */
export const withdrawCommand: CommandOf<WithdrawDeps> = async (ctx, deps) => {
  if (ctx.args.length !== 1) {
    // `<…>` is a link to Slack: the placeholder is written escaped, as help's are.
    await ctx.reply(
      problemReply(
        `Usage: \`${COMMAND} withdraw &lt;requestId&gt;\` — the request id (\`apr_…\`) is on your confirmation and on the request.`,
      ),
    );
    return;
  }
  const outcome = await withdrawRequest(deps, ctx.args[0] ?? "", ctx.userId);
  await ctx.reply(outcome.ok ? outcome.reply : problemReply(outcome.text));
};

/** The `/connect` subcommands this feature answers (the table in src/slack/commandTable.ts). */
export const withdrawCommands = { withdraw: withdrawCommand } satisfies CommandTable<WithdrawDeps>;
