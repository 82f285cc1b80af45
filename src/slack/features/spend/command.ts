// `/connect spend [YYYY-MM]` and its Export CSV button: the spend ledger (src/orders/ledger.ts)
// read from the placed approval records and shown; exportButton.ts exports it to the person's DM as CSV.

import { spendView } from "../../../../views/spend.js";

import {
  type LedgerMonth,
  ledgerEntries,
  ledgerMonthOf,
  type MonthlySpend,
  monthlySpend,
  parseLedgerMonth,
} from "../../../orders/ledger.js";

import type { Services } from "../../../services.js";
import type { CommandHandler, CommandHandlers } from "../../connect.js";

export const SPEND_USAGE =
  "Usage: `/connect spend [YYYY-MM]`, e.g. `/connect spend 2026-11` (no month: this month).";

/**
 * Every placed request as the read model shows it (tracking included: an order the provider
 * cancelled is not a commitment), summed for the month (at most 1,000, the store's cap).
 */
export async function readSpend(services: Services, month: LedgerMonth): Promise<MonthlySpend> {
  const records = await services.orders.readMany(
    await services.approvals.store.findByStatus("placed"),
  );
  return monthlySpend(ledgerEntries(records, services.currency), month, services.currency);
}

export const spend: CommandHandler = async (ctx) => {
  const [word, ...rest] = ctx.args;
  const month = word === undefined ? ledgerMonthOf(new Date()) : parseLedgerMonth(word);
  if (rest.length > 0 || !month) {
    const what = rest.length > 0 ? "Give one month at most." : "That is not a month.";
    await ctx.reply({ text: `${what} ${SPEND_USAGE}`, blocks: [], problem: true });
    return;
  }
  await ctx.reply(spendView(await readSpend(ctx.services, month)));
};

/** The `/connect` subcommands this feature answers (the table in src/slack/commandTable.ts). */
export const spendCommands = { spend } satisfies Partial<CommandHandlers>;
