import { approvalsListView } from "../../../../views/approvals/approvalsList.js";
import type { ApprovalRequest } from "../../../approvals/index.js";
import { editDistance } from "../../../domain/commandSuggestion.js";
import { type ApproverWork, approverWork } from "../../../orders/approverWork.js";
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
  const settings = deps.approvals;
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
  const seen = (record: ApprovalRequest) =>
    sight.sees === "all" || record.requester.userId === ctx.userId;
  const listed =
    scope === "all"
      ? // Someone who sees only their own reads more, to find 41 of theirs.
        await auditTrail(deps, sight.sees === "all" ? 41 : 1000, seen)
      : await approverWork(
          { store: settings.store, read: (records) => deps.orders.readMany(records) },
          async (record) =>
            seen(record) &&
            (record.status === "pending" ||
              (await deps.requests.mayDecide(record, { by: ctx.userId, groups }))),
        );
  const shown = listed.slice(0, 41);
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

/** The last 90 days, newest first, as the read model shows them (how each placed order ended). */
async function auditTrail(
  deps: ApprovalDeps,
  limit: number,
  seen: (record: ApprovalRequest) => boolean,
): Promise<ApproverWork[]> {
  const records = (
    await deps.approvals.store.list({ since: new Date(Date.now() - 90 * 24 * 3600_000), limit })
  )
    .filter(seen)
    // One more than the list shows, so it can say there are more.
    .slice(0, 41);
  const models = await deps.orders.readMany(records);
  return records.flatMap((record, i) => {
    const model = models[i];
    return model ? [{ record, model }] : [];
  });
}

/** The `/connect` subcommands this feature answers (the table in src/slack/commandTable.ts). */
export const approvalCommands = { approvals: listApprovals } satisfies CommandTable<ApprovalDeps>;
