// `/connect edge quote`: the Edge quote form, opened from the command.

import { edgeLoadingModal, edgeQuoteModal } from "../../../../views/edge/edgeModals.js";
import { problemReply } from "../../../../views/reply.js";
import { edgeCatalogue } from "../../../usecases/edge/catalogue.js";
import type { CommandOf, CommandTable } from "../../connect.js";
import type { EdgeDeps } from "./index.js";
import { AFTER_ACK_MS, openThenShow } from "./support.js";

/** `/connect edge quote`: the quote form, filled from the provider's Edge lists. */
export const edgeQuote: CommandOf<EdgeDeps> = async (ctx, deps) => {
  if (!ctx.triggerId) {
    await ctx.reply(problemReply("Run `/connect edge quote` to open the Edge quote form."));
    return;
  }
  await openThenShow(
    deps,
    ctx.openModal,
    edgeLoadingModal("Edge port quote", "Loading the Edge countries, bandwidths and terms…"),
    async () =>
      edgeQuoteModal({
        catalogue: await edgeCatalogue(deps).get(AFTER_ACK_MS),
        metadata: { channelId: ctx.channelId },
      }),
  );
};

/** The `/connect` subcommands this feature answers (the table in src/slack/commandTable.ts). */
export const edgeCommands = { "edge quote": edgeQuote } satisfies CommandTable<EdgeDeps>;
