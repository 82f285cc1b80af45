import { helpView } from "../../../views/help.js";
import { whoamiView } from "../../../views/whoami.js";
import { COMMANDS } from "../../domain/commands.js";
import { exampleIds } from "../../usecases/helpExamples.js";
import type { CommandHandler } from "../connect.js";

export const help: CommandHandler = async (ctx) => {
  const ids = await exampleIds(ctx.services);
  await ctx.reply(
    helpView(COMMANDS, {
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
