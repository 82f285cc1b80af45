// `/connect spend [YYYY-MM]` and its Export CSV button: the spend ledger (src/orders/ledger.ts)
// read from the placed approval records, shown, and exported to the person's DM as CSV.
import type { BlockAction, ButtonAction } from "@slack/bolt";
import { capBlocks, withSandboxLabel } from "../../../views/blocks.js";
import {
  SPEND_EXPORT_BUTTON,
  spendExportNotice,
  spendFileMessage,
  spendView,
} from "../../../views/spend.js";
import {
  type LedgerMonth,
  ledgerEntries,
  ledgerMonthOf,
  type MonthlySpend,
  monthlySpend,
  parseLedgerMonth,
} from "../../orders/ledger.js";
import { ledgerCsv, ledgerFileName } from "../../orders/ledgerCsv.js";
import type { Services } from "../../services.js";
import type { CommandHandler } from "../connect.js";
import { uploadToDirectMessage } from "../fileUpload.js";
import type { ListenerRegistry } from "../listenerTable.js";

export const SPEND_USAGE =
  "Usage: `/connect spend [YYYY-MM]`, e.g. `/connect spend 2026-11` (no month: this month).";

/** Every placed request, summed for the month (placed records: at most 1,000, the store's cap). */
export async function readSpend(services: Services, month: LedgerMonth): Promise<MonthlySpend> {
  const records = await services.approvals.store.findByStatus("placed");
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

/** Export CSV: the month's ledger, uploaded to the clicker's direct messages with the bot. */
export function registerSpendListeners(app: ListenerRegistry, services: Services): void {
  app.action<BlockAction<ButtonAction>>(
    SPEND_EXPORT_BUTTON,
    async ({ ack, body, action, client, respond }) => {
      await ack();
      const userId = body.user.id;
      const tell = (notice: ReturnType<typeof spendExportNotice>) =>
        respond({
          response_type: "ephemeral",
          replace_original: false,
          text: notice.text,
          blocks: capBlocks(withSandboxLabel(notice.blocks, services.sandbox)),
        }).catch((error: unknown) =>
          services.logger.warn({ err: error }, "spend: could not answer the export click"),
        );
      const month = parseLedgerMonth(action.value ?? "");
      if (!month) {
        await tell(
          spendExportNotice({
            ok: false,
            reason: "this button carries no month; run the command again.",
          }),
        );
        return;
      }
      try {
        const ledger = await readSpend(services, month);
        const message = spendFileMessage(month.key, ledger.entries.length, services.currency);
        const file = await uploadToDirectMessage(client, {
          userId,
          filename: ledgerFileName(month.key),
          title: `Spend ledger ${month.key}`,
          content: ledgerCsv(ledger),
          blocks: capBlocks(withSandboxLabel(message.blocks, services.sandbox)),
        });
        services.logger.info(
          {
            audit: "spend export",
            userId,
            month: month.key,
            rows: ledger.entries.length,
            fileId: file.fileId,
          },
          "spend ledger exported",
        );
        await tell(
          spendExportNotice({ ok: true, monthKey: month.key, rows: ledger.entries.length }),
        );
      } catch (error) {
        services.logger.warn({ err: error, userId, month: month.key }, "spend: export failed");
        await tell(
          spendExportNotice({
            ok: false,
            reason: "Slack did not take the file; try again in a minute.",
          }),
        );
      }
    },
  );
}
