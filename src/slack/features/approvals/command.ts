import { approvalsListView } from "../../../../views/approvals/approvalsList.js";
import type { CommandOf, CommandTable } from "../../connect.js";
import { moneySightOf } from "../../kit/index.js";
import type { ApprovalDeps } from "./index.js";

/** `/connect approvals [all]`: what is waiting for a decision (or the last 90 days). */
export const listApprovals: CommandOf<ApprovalDeps> = async (ctx, deps) => {
  const settings = deps.approvals;
  const scope = ctx.args[0]?.toLowerCase() === "all" ? "all" : "pending";
  if (ctx.args.length > (scope === "all" ? 1 : 0)) {
    await ctx.reply({ text: "Usage: `/connect approvals [all]`", blocks: [], problem: true });
    return;
  }
  // Everyone's requests and amounts are for those who may see the money; others see their own.
  const sight = await moneySightOf(deps, ctx.groups, ctx.userId);
  const listed =
    scope === "all"
      ? await settings.store.list({
          since: new Date(Date.now() - 90 * 24 * 3600_000),
          limit: sight.sees === "all" ? 41 : 1000,
        })
      : await settings.store.listPending();
  const pending =
    sight.sees === "all" ? listed : listed.filter((r) => r.requester.userId === ctx.userId);
  const links = new Map<string, string>();
  await Promise.all(
    pending.slice(0, 40).map(async (record) => {
      if (!record.slack.approvalChannel || !record.slack.approvalTs) return;
      const link = await ctx.permalink(record.slack.approvalChannel, record.slack.approvalTs);
      if (link) links.set(record.id, link);
    }),
  );
  // The read model: the audit trail shows how each placed order ended, as every surface does.
  const models = await deps.orders.readMany(pending.slice(0, 41));
  await ctx.reply(approvalsListView(models, links, scope, sight));
};

/** The `/connect` subcommands this feature answers (the table in src/slack/commandTable.ts). */
export const approvalCommands = { approvals: listApprovals } satisfies CommandTable<ApprovalDeps>;
