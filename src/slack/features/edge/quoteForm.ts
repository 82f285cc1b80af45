// The Edge quote form's listeners: the country changed (show Post code when that country needs
// one), the country options load (searched as the person types) and the submission, which
// requests the quote.
import type {
  AllMiddlewareArgs,
  BlockAction,
  ExternalSelectAction,
  SlackActionMiddlewareArgs,
  SlackOptionsMiddlewareArgs,
  SlackViewMiddlewareArgs,
  StaticSelectAction,
  ViewSubmitAction,
} from "@slack/bolt";
import { labelledModal } from "../../../../views/blocks.js";
import {
  countryOptions,
  EDGE_QUOTE_BLOCKS,
  EDGE_QUOTE_FIELD_BLOCKS,
  EDGE_QUOTE_VIEW,
  edgeQuoteModal,
  parseEdgeMetadata,
} from "../../../../views/edge/edgeModals.js";
import { matchCountries, pickCountry } from "../../../usecases/edge/catalogue.js";
import { checkEdgeQuoteForm } from "../../../usecases/edge/quote.js";
import { blockErrors, whereFormOpened } from "../../kit/index.js";
import { hasBlock, readEdgeQuoteForm } from "./formValues.js";
import type { EdgeDeps } from "./index.js";
import { requestEdgeQuote } from "./requestQuote.js";
import type { EdgeSources } from "./sources.js";
import { AFTER_ACK_MS, failureWords, IN_SLACK_WINDOW_MS } from "./support.js";

type CountryChangedArgs = SlackActionMiddlewareArgs<
  BlockAction<StaticSelectAction | ExternalSelectAction>
> &
  AllMiddlewareArgs;
type CountryOptionsArgs = Pick<SlackOptionsMiddlewareArgs<"block_suggestion">, "ack" | "payload">;
type SubmitArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/** The country changed: show Post code when that country needs one (Singapore), else hide it. */
export function quoteCountryChanged(services: EdgeDeps, sources: EdgeSources) {
  const { logger } = services;
  return async ({ ack, body, action, client }: CountryChangedArgs): Promise<void> => {
    await ack();
    const view = body.view;
    if (!view || view.callback_id !== EDGE_QUOTE_VIEW) return;
    try {
      const lists = await sources.catalogue.get(AFTER_ACK_MS);
      const country = pickCountry(lists, action.selected_option?.value);
      const shown = hasBlock(view, EDGE_QUOTE_BLOCKS.postCode);
      if (shown === (country?.postCodeRequired ?? false)) return;
      await client.views.update({
        view_id: view.id,
        hash: view.hash,
        view: labelledModal(
          edgeQuoteModal({
            catalogue: lists,
            metadata: parseEdgeMetadata(view.private_metadata),
            ...(country ? { country } : {}),
          }),
          services.sandbox,
        ),
      });
    } catch (error) {
      // hash_conflict: a newer change already updated the modal; that one wins.
      logger.warn({ err: error }, "edge: could not update the quote form");
    }
  };
}

/** More than 100 countries: searched as the person types (bounded: Slack waits 3 seconds). */
export function quoteCountryOptions(services: Pick<EdgeDeps, "logger">, sources: EdgeSources) {
  const { logger } = services;
  return async ({ ack, payload }: CountryOptionsArgs): Promise<void> => {
    const typed = typeof payload.value === "string" ? payload.value : "";
    try {
      const lists = await sources.catalogue.get(IN_SLACK_WINDOW_MS);
      await ack({ options: countryOptions(matchCountries(lists.countries, typed)) });
    } catch (error) {
      logger.warn({ err: error }, "edge: country options load had no answer");
      await ack({ options: [] });
    }
  };
}

/** The quote form submitted: checked against the provider's lists, then the quote requested. */
export function quoteFormSubmitted(services: EdgeDeps, sources: EdgeSources) {
  const { logger } = services;
  return async ({ ack, body, view, client }: SubmitArgs): Promise<void> => {
    let check: ReturnType<typeof checkEdgeQuoteForm>;
    try {
      check = checkEdgeQuoteForm(
        await sources.catalogue.get(IN_SLACK_WINDOW_MS),
        readEdgeQuoteForm(view.state?.values),
      );
    } catch (error) {
      logger.warn({ err: error }, "edge: could not check the quote form");
      await ack({
        response_action: "errors",
        errors: {
          [EDGE_QUOTE_BLOCKS.country]:
            `Couldn't check the form with the provider: ${failureWords(error)}`.slice(0, 300),
        },
      });
      return;
    }
    if (!check.ok) {
      await ack({
        response_action: "errors",
        errors: blockErrors(check.errors, EDGE_QUOTE_FIELD_BLOCKS, view, "country"),
      });
      return;
    }
    await ack();
    const metadata = parseEdgeMetadata(view.private_metadata);
    await requestEdgeQuote({
      services,
      client,
      request: check.request,
      where: whereFormOpened(body.user.id, metadata),
    });
  };
}
