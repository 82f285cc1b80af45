// `/connect port order`: the order form, opened at once (it needs nothing loaded: the data
// center is searched as the person types). There is no inline form of an order.
import { problemReply } from "../../../../views/reply.js";
import { BlockedError } from "../../../domain/errors.js";
import type { CommandOf, CommandTable } from "../../connect.js";
import { orderRefusal } from "../../kit/index.js";
import { portOrderForm } from "./formState.js";
import type { PortOrderDeps } from "./index.js";

export const portOrder: CommandOf<PortOrderDeps> = async (ctx, deps) => {
  const refusal = await orderRefusal(deps, ctx.groups, ctx.userId);
  if (refusal?.kind === "setup") {
    await ctx.reply(problemReply(refusal.message));
    return;
  }
  // The router answers it and records the run as "blocked".
  if (refusal) throw new BlockedError(refusal.message);
  if (!ctx.triggerId) {
    await ctx.reply(problemReply("Type `/connect port order` to open the order form."));
    return;
  }
  try {
    await ctx.openModal(portOrderForm(deps, { channelId: ctx.channelId }));
  } catch (error) {
    deps.logger.warn({ err: error }, "could not open the port order form");
    await ctx.reply(
      problemReply("Couldn't open the order form (Slack refused it); run the command again."),
    );
  }
};

/** The `/connect` subcommands this feature answers (the table in src/slack/commandTable.ts). */
export const portOrderCommands = { "port order": portOrder } satisfies CommandTable<PortOrderDeps>;
