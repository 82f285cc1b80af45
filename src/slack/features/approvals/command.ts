import { approvalsListView } from "../../../../views/approvals/approvalsList.js";
import { editDistance } from "../../../domain/commandSuggestion.js";
import { cachedGroups } from "../../../orders/deciders.js";
import type { CommandOf, CommandTable } from "../../connect.js";
import { moneySightOf } from "../../kit/index.js";
import type { ApprovalDeps } from "./index.js";

/**
 * `/connect approvals [all]`: what waits on an approver (or the last 90 days). The requests
 * waiting for a decision are listed to whoever sees them (as before); a placement that went
 * wrong only to those who may take its next step (approverWork.ts, the lifecycle API's check).
 */
export const listApprovals: CommandOf<ApprovalDeps> = async (ctx, deps) => {
  const first = ctx.args[0]?.toLowerCase();
  const scope = first === "all" ? "all" : "pending";
  if (ctx.args.length > (scope === "all" ? 1 : 0)) {
    // "al", "lal": a typo of `all` is offered back, as a mistyped command is.
    const meant =
      ctx.args.length === 1 && first && editDistance(first, "all") <= 1
        ? " Did you mean `/connect approvals all`?"
        : "";
    await ctx.reply({
      text: `Usage: \`/connect approvals [all]\`.${meant}`,
      blocks: [],
      problem: true,
    });
    return;
  }
  // Everyone's requests and amounts are for those who may see the money; others see their own.
  // One Slack look-up per user group for the whole list, not one per request checked.
  const groups = cachedGroups(ctx.groups);
  const sight = await moneySightOf(deps, groups, ctx.userId);
  const shown = await deps.requests.approvalsList({
    by: ctx.userId,
    groups,
    scope,
    seesAll: sight.sees === "all",
  });
  const links = new Map<string, string>();
  await Promise.all(
    shown.slice(0, 40).map(async ({ record }) => {
      if (!record.slack.approvalChannel || !record.slack.approvalTs) return;
      const link = await ctx.permalink(record.slack.approvalChannel, record.slack.approvalTs);
      if (link) links.set(record.id, link);
    }),
  );
  const models = shown.map((item) => item.model);
  await ctx.reply(approvalsListView(models, links, scope, sight));
};

/** The `/connect` subcommands this feature answers (the table in src/slack/commandTable.ts). */
export const approvalCommands = { approvals: listApprovals } satisfies CommandTable<ApprovalDeps>;
