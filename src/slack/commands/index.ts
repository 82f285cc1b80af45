import type { CommandHandler, CommandHandlers } from "../connect.js";
import { help, whoami } from "./general.js";

/** Commands whose flows are still being built answer honestly instead of failing silently. */
const notYetAvailable: CommandHandler = async (ctx) => {
  await ctx.reply({
    text: `\`/connect ${ctx.name}\` is not available in this version yet.`,
    blocks: [
      {
        type: "section",
        text: {
          type: "mrkdwn",
          text: `\`/connect ${ctx.name}\` is not available in this version yet.`,
        },
      },
    ],
    problem: true,
  });
};

/** Every subcommand of the registry has exactly one handler (the type makes it so). */
export const commandHandlers: CommandHandlers = {
  help,
  whoami,
  dcf: notYetAvailable,
  ports: notYetAvailable,
  port: notYetAvailable,
  order: notYetAvailable,
  asn: notYetAvailable,
  routers: notYetAvailable,
  "edge locations": notYetAvailable,
  "edge orders": notYetAvailable,
  "edge drafts": notYetAvailable,
  "price port": notYetAvailable,
  "price l2": notYetAvailable,
  "port order": notYetAvailable,
  l2: notYetAvailable,
  iod: notYetAvailable,
  "edge quote": notYetAvailable,
  approvals: notYetAvailable,
};
