import { helpView } from "../../../views/help.js";
import { whoamiView } from "../../../views/whoami.js";
import { COMMANDS } from "../commandRegistry.js";
import type { CommandHandler } from "../connect.js";

export const help: CommandHandler = async (ctx) => {
  await ctx.reply(helpView(COMMANDS));
};

export const whoami: CommandHandler = async (ctx) => {
  const identity = await ctx.services.identity();
  await ctx.reply(whoamiView(identity, ctx.userId));
};
