import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from "@slack/bolt";
import {
  EDGE_ORDER_BLOCKS,
  EDGE_ORDER_INPUTS,
  parseEdgeMetadata,
} from "../../../../views/edge/edgeModals.js";
import { withDeadline } from "../../../domain/deadline.js";
import { QuoteNoLongerOffered } from "../../../domain/errors.js";
import { buildEdgeOrder, takenPortNames } from "../../../usecases/edge/order.js";
import {
  blockErrors,
  selectedValue,
  submitFromForm,
  submittedReply,
  typedValue,
  type Where,
  whereFormOpened,
} from "../../kit/index.js";
import type { EdgeDeps } from "./index.js";
import type { EdgeSources } from "./sources.js";
import { failureWords, IN_SLACK_WINDOW_MS, tell } from "./support.js";

type SubmitArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/** The Edge order form submitted: checked again on the server, then submitted for approval. */
export function edgeOrderSubmitted(services: EdgeDeps, sources: EdgeSources) {
  const { logger } = services;
  return async ({ ack, body, view, client }: SubmitArgs): Promise<void> => {
    const metadata = parseEdgeMetadata(view.private_metadata);
    const fail = (block: string, message: string) =>
      ack({ response_action: "errors", errors: { [block]: message.slice(0, 300) } });
    const values = view.state?.values;
    let check: ReturnType<typeof buildEdgeOrder>;
    try {
      const signal = AbortSignal.timeout(IN_SLACK_WINDOW_MS);
      // Everything is read again on the server: the quote (or draft) the modal was made from,
      // the names already in use, who the bot orders as.
      const [source, takenNames, identity] = await withDeadline(IN_SLACK_WINDOW_MS, () =>
        Promise.all([
          metadata.draftId
            ? sources.draftSource(metadata.draftId, signal)
            : metadata.ref
              ? sources.quoteSource(metadata.ref, signal)
              : Promise.reject(
                  new QuoteNoLongerOffered("This form lost its quote; use the Order button again."),
                ),
          takenPortNames(services, signal),
          services.identity(),
        ]),
      );
      check = buildEdgeOrder({
        source,
        offerKey: selectedValue(values, EDGE_ORDER_BLOCKS.offer, EDGE_ORDER_INPUTS.offer),
        portName: typedValue(values, EDGE_ORDER_BLOCKS.portName, EDGE_ORDER_INPUTS.portName),
        takenNames,
        identity,
        currency: services.currency,
        requester: whereFormOpened(body.user.id, metadata),
      });
    } catch (error) {
      logger.warn({ err: error }, "edge: could not check the order form");
      await fail(
        EDGE_ORDER_BLOCKS.portName,
        error instanceof QuoteNoLongerOffered
          ? error.message
          : `Couldn't check the order with the provider: ${failureWords(error)}`,
      );
      return;
    }
    if (!check.ok) {
      await ack({
        response_action: "errors",
        errors: blockErrors(check.errors, EDGE_ORDER_BLOCKS, view, "portName"),
      });
      return;
    }
    const where: Where = whereFormOpened(body.user.id, metadata);
    try {
      const outcome = await submitFromForm({
        services,
        client,
        submission: check.submission,
        // The name was free when checked above; another request may have taken it since.
        answerForm: (nameError) =>
          nameError ? fail(EDGE_ORDER_BLOCKS.portName, nameError) : ack(),
      });
      // Answered next to the port name; the form stays open.
      if (!outcome.ok && outcome.field === "name") return;
      await tell(
        client,
        services,
        where,
        outcome.ok ? submittedReply(outcome) : { text: `:no_entry: ${outcome.message}` },
      );
    } catch (error) {
      logger.error({ err: error }, "edge: could not submit the order for approval");
      await tell(client, services, where, {
        text: ":warning: Couldn't submit the order for approval; nothing was ordered. Try again in a minute.",
      });
    }
  };
}
