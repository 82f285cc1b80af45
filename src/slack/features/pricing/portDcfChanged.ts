// The port price form's data center changed: the form is rebuilt with that data center's speeds,
// and only those, keeping what the person already chose (term, cross connect, a speed the new
// data center offers). A newer change updates the form over this one (the view hash).
import type { BlockAction, ExternalSelectAction, SlackActionMiddlewareArgs } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import { labelledModal } from "../../../../views/blocks.js";
import {
  type PortPriceModalInput,
  PRICE_PORT_NOTE_BLOCK,
  parseMetadata,
  portPriceModal,
} from "../../../../views/pricing/pricingModals.js";
import { ProviderError } from "../../../provider/errors.js";
import type { DcfDirectory } from "../../../usecases/shared/dcfDirectory.js";
import { parseDcfRef } from "../../../usecases/shared/dcfFacts.js";
import { readPortTerm } from "../../../usecases/shared/portTermReading.js";
import type { PricingDeps } from "./index.js";
import { readPortPriceForm } from "./readForms.js";

type Args = Pick<
  SlackActionMiddlewareArgs<BlockAction<ExternalSelectAction>>,
  "ack" | "body" | "action"
> & { client: WebClient };

export function portDcfChanged(directory: DcfDirectory, services: PricingDeps) {
  const { logger } = services;
  return async ({ ack, body, action, client }: Args): Promise<void> => {
    await ack();
    const view = body.view;
    if (!view) return;
    const metadata = parseMetadata(view.private_metadata);
    const current = readPortPriceForm(view.state?.values);
    const id = parseDcfRef(action.selected_option?.value);
    let chosen: PortPriceModalInput["chosen"];
    if (action.selected_option && !id) {
      chosen = { problem: "Pick a data center from the list (type part of its name)" };
    } else if (id) {
      try {
        const dcf = await directory.byId(id);
        chosen = dcf ? { dcf } : { problem: "That data center is no longer listed; pick another" };
      } catch (error) {
        logger.warn({ err: error }, "could not load the chosen data center");
        chosen = {
          problem: `Couldn't load its speeds: ${error instanceof ProviderError ? error.userMessage : "try again"}`,
        };
      }
    }
    const term = typeof current.term === "string" ? readPortTerm(current.term) : undefined;
    const speed = typeof current.speed === "string" ? Number(current.speed) : undefined;
    const note = view.blocks.find(
      (b) => (b as { block_id?: string }).block_id === PRICE_PORT_NOTE_BLOCK,
    ) as { text?: { text?: unknown } } | undefined;
    try {
      await client.views.update({
        view_id: view.id,
        hash: view.hash,
        view: labelledModal(
          portPriceModal({
            metadata,
            ...(chosen ? { chosen } : {}),
            ...(typeof note?.text?.text === "string" ? { note: note.text.text } : {}),
            ...(term?.kind === "term" ? { term: term.term } : {}),
            includeCrossConnect: current.includeCrossConnect === true,
            // Keep the person's speed when the new DCF offers it; else the command's.
            ...(speed !== undefined && Number.isSafeInteger(speed)
              ? { speedMbps: speed }
              : metadata.speedMbps !== undefined
                ? { speedMbps: metadata.speedMbps }
                : {}),
          }),
          services.sandbox,
        ),
      });
    } catch (error) {
      // hash_conflict: a newer change already updated the modal; that one wins.
      logger.warn({ err: error }, "could not update the port price form");
    }
  };
}
