import { helpView } from "../../../../views/help.js";
import { policyView } from "../../../../views/policy.js";
import { whoamiView } from "../../../../views/whoami.js";
import { commandsFor } from "../../../domain/commands.js";
import { exampleIds } from "../../../usecases/helpExamples.js";
import type { CommandContext, CommandHandler, CommandHandlers } from "../../connect.js";
import { moneySightOf, orderRefusal } from "../../kit/index.js";

// The general commands: what the bot can do (help), who it is (whoami) and who approves what
// (policy). Read-only, no listeners of their own.

/** `/connect help`: the commands this person may use, in the words that fit what they see. */
export const help: CommandHandler = async (ctx) => {
  const [ids, sight, refusal] = await Promise.all([
    exampleIds(ctx.services),
    moneySightOf(ctx.services, ctx.client, ctx.userId),
    orderRefusal(ctx.services, ctx.client, ctx.userId),
  ]);
  const access = { mayRequest: refusal?.kind !== "blocked", seesMoney: sight.sees === "all" };
  await ctx.reply(
    helpView(commandsFor(access), {
      "<portId>": ids.portId,
      "<connectionId>": ids.connectionId,
      "<serviceId>": ids.serviceId,
    }),
  );
};

export const whoami: CommandHandler = async (ctx) => {
  const identity = await ctx.services.identity();
  await ctx.reply(whoamiView(identity, ctx.userId));
};

/** `/connect policy`: who approves what, in words. */
export const policy: CommandHandler = async (ctx) => {
  const settings = ctx.services.approvals;
  await ctx.reply(
    policyView(ctx.services.requests.policy(), {
      fromFile: settings.policy !== undefined,
      allowSelfApproval: settings.allowSelfApproval,
      ...directoryOf(settings),
    }),
  );
};

/** The last check of the configured users and groups against Slack, when one ran. */
function directoryOf(settings: CommandContext["services"]["approvals"]) {
  const directory = settings.directory?.latest();
  return directory ? { directory } : {};
}

/** The `/connect` subcommands this feature answers (the table in src/slack/commandTable.ts). */
export const generalCommands = { help, whoami, policy } satisfies Partial<CommandHandlers>;
