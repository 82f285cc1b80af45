import type { BlockAction, ButtonAction, SlackActionMiddlewareArgs } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import { capBlocks, withSandboxLabel } from "../../../../views/blocks.js";
import { moneyRefusal } from "../../../../views/moneyAccess.js";
import { spendExportNotice, spendFileMessage } from "../../../../views/spend/spend.js";
import { parseLedgerMonth } from "../../../orders/spend/ledger.js";
import { ledgerCsv, ledgerFileName } from "../../../orders/spend/ledgerCsv.js";
import { groupMembersVia } from "../../kit/index.js";
import { spendFor } from "./command.js";
import { uploadToDirectMessage } from "./fileUpload.js";
import type { SpendDeps } from "./index.js";

type ExportClick = Pick<
  SlackActionMiddlewareArgs<BlockAction<ButtonAction>>,
  "ack" | "body" | "action" | "respond"
> & { client: WebClient };

/**
 * Export CSV: the month's ledger, uploaded to the clicker's direct messages with the bot; the
 * click is answered privately where it was made (done, or why not).
 */
export function exportButton(services: SpendDeps) {
  return async ({ ack, body, action, client, respond }: ExportClick) => {
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
      // Checked again at the click: the button says only which month, never who may see it.
      const { sight, ledger } = await spendFor(services, groupMembersVia(client), userId, month);
      if (sight.sees === "own" && ledger.entries.length === 0) {
        services.logger.info(
          { audit: "spend export", userId, month: month.key, outcome: "blocked" },
          "spend export refused: not a spend viewer, and nothing of their own",
        );
        await tell(moneyRefusal(sight, "Exporting the team's ledger"));
        return;
      }
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
          scope: sight.sees,
          fileId: file.fileId,
        },
        "spend ledger exported",
      );
      await tell(spendExportNotice({ ok: true, monthKey: month.key, rows: ledger.entries.length }));
    } catch (error) {
      services.logger.warn({ err: error, userId, month: month.key }, "spend: export failed");
      await tell(
        spendExportNotice({
          ok: false,
          reason: "Slack did not take the file; try again in a minute.",
        }),
      );
    }
  };
}
