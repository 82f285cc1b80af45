import { policyView } from "../../../../views/general/policy.js";
import { whoamiView } from "../../../../views/general/whoami.js";
import { helpView } from "../../../../views/help.js";
import type { ApprovalSettings } from "../../../approvals/index.js";
import { commandsFor } from "../../../domain/commands.js";
import type { Logger } from "../../../log.js";
import type { OrderRequests } from "../../../orders/requests.js";
import { type ExampleIdDeps, exampleIds } from "../../../usecases/helpExamples.js";
import type { CommandOf, CommandTable } from "../../connect.js";
import { moneySightOf, orderRefusal } from "../../kit/index.js";

// The general commands: what the bot can do (help), who it is (whoami) and who approves what
// (policy). Read-only, no listeners of their own.

/** What the general commands use, handed over by src/slack/commandTable.ts. */
export type GeneralDeps = ExampleIdDeps & {
  approvals: ApprovalSettings;
  requests: Pick<OrderRequests, "moneySight" | "mayRequest">;
  logger: Logger;
};

/** `/connect help`: the commands this person may use, in the words that fit what they see. */
export const help: CommandOf<GeneralDeps> = async (ctx, deps) => {
  const [ids, sight, refusal] = await Promise.all([
    exampleIds(deps),
    moneySightOf(deps, ctx.groups, ctx.userId),
    orderRefusal(deps, ctx.groups, ctx.userId),
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

export const whoami: CommandOf<GeneralDeps> = async (ctx, deps) => {
  const identity = await deps.identity();
  await ctx.reply(whoamiView(identity, ctx.userId));
};

/** `/connect policy`: who approves what, in words. */
export const policy: CommandOf<GeneralDeps> = async (ctx, deps) => {
  const settings = deps.approvals;
  await ctx.reply(
    policyView(ctx.requests.policy(), {
      fromFile: settings.policy !== undefined,
      allowSelfApproval: settings.allowSelfApproval,
      ...directoryOf(settings),
    }),
  );
};

/** The last check of the configured users and groups against Slack, when one ran. */
function directoryOf(settings: ApprovalSettings) {
  const directory = settings.directory?.latest();
  return directory ? { directory } : {};
}

/** The `/connect` subcommands this feature answers (the table in src/slack/commandTable.ts). */
export const generalCommands = { help, whoami, policy } satisfies CommandTable<GeneralDeps>;
