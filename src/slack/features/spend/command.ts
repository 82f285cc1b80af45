// `/connect spend [YYYY-MM]` and its Export CSV button: the spend ledger (src/orders/spend/ledger.ts)
// read from the placed approval records and shown; exportButton.ts exports it to the person's DM as CSV.

import { moneyRefusal } from "../../../../views/moneyAccess.js";
import { spendView } from "../../../../views/spend/spend.js";
import type { GroupMembers, MoneySight } from "../../../approvals/index.js";

import {
  type LedgerMonth,
  ledgerEntries,
  ledgerMonthOf,
  type MonthlySpend,
  monthlySpend,
  parseLedgerMonth,
} from "../../../orders/spend/ledger.js";
import type { CommandOf, CommandTable } from "../../connect.js";
import { moneySightOf } from "../../kit/index.js";
import type { SpendDeps } from "./index.js";

export const SPEND_USAGE =
  "Usage: `/connect spend [YYYY-MM]`, e.g. `/connect spend 2026-11` (no month: this month).";

/**
 * Every placed request as the read model shows it (tracking included: an order the provider
 * cancelled is not a commitment), summed for the month (at most 1,000, the store's cap); with
 * `requester`, only theirs (what someone who may not see the team's money sees).
 */
export async function readSpend(
  services: SpendDeps,
  month: LedgerMonth,
  requester?: string,
): Promise<MonthlySpend> {
  const placed = await services.approvals.store.findByStatus("placed");
  const records = await services.orders.readMany(
    requester === undefined ? placed : placed.filter((r) => r.requester.userId === requester),
  );
  return monthlySpend(ledgerEntries(records, services.currency), month, services.currency);
}

/** The month's ledger as this person may see it: the team's, or their own orders only. */
export async function spendFor(
  services: SpendDeps,
  groups: GroupMembers,
  userId: string,
  month: LedgerMonth,
): Promise<{ sight: MoneySight; ledger: MonthlySpend }> {
  const sight = await moneySightOf(services, groups, userId);
  const ledger = await readSpend(services, month, sight.sees === "all" ? undefined : userId);
  return { sight, ledger };
}

export const spend: CommandOf<SpendDeps> = async (ctx, deps) => {
  const [word, ...rest] = ctx.args;
  const month = word === undefined ? ledgerMonthOf(new Date()) : parseLedgerMonth(word);
  if (rest.length > 0 || !month) {
    const what = rest.length > 0 ? "Give one month at most." : "That is not a month.";
    await ctx.reply({ text: `${what} ${SPEND_USAGE}`, blocks: [], problem: true });
    return;
  }
  const { sight, ledger } = await spendFor(deps, ctx.groups, ctx.userId, month);
  // Someone who may see only their own, with nothing of theirs: told what they may see.
  if (sight.sees === "own" && ledger.entries.length === 0) {
    await ctx.reply(moneyRefusal(sight, "The team's spend ledger"));
    return;
  }
  await ctx.reply(spendView(ledger, sight));
};

/** The `/connect` subcommands this feature answers (the table in src/slack/commandTable.ts). */
export const spendCommands = { spend } satisfies CommandTable<SpendDeps>;
