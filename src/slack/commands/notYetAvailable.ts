import type { CommandHandler } from "../connect.js";

/** Commands whose flows are still being built answer honestly instead of failing silently. */
export const notYetAvailable: CommandHandler = async (ctx) => {
  const text = `\`/connect ${ctx.name}\` is not available in this version yet.`;
  await ctx.reply({
    text,
    blocks: [{ type: "section", text: { type: "mrkdwn", text } }],
    problem: true,
  });
};
