// A button of the Edge feature: acked at once, then the work; any failure is told to the person
// privately (a quote or draft no longer usable in its own words, anything else as a failure).
import type {
  AllMiddlewareArgs,
  BlockAction,
  ButtonAction,
  SlackActionMiddlewareArgs,
} from "@slack/bolt";
import { escapeMrkdwn } from "../../../../views/blocks.js";
import { parseQuoteRef } from "../../../../views/edge/edgeQuote.js";
import { describeFailure } from "../../../../views/failures.js";
import { QuoteNoLongerOffered } from "../../../domain/errors.js";
import type { QuoteRef } from "../../../usecases/edge/quote.js";
import type { Where } from "../../kit/index.js";
import type { EdgeDeps } from "./index.js";
import { failureWords, tell, whereOf } from "./support.js";

export type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;
type ButtonListener = (args: ButtonArgs) => Promise<void>;

/** The listener of a button: ack, then the work, with any failure told to the person privately. */
export function buttonListener(
  services: EdgeDeps,
  work: (args: ButtonArgs, where: Where) => Promise<void>,
): ButtonListener {
  const { logger } = services;
  return async (args) => {
    await args.ack();
    const where = whereOf(args.body);
    try {
      await work(args, where);
    } catch (error) {
      (error instanceof QuoteNoLongerOffered ? logger.info : logger.warn).call(
        logger,
        { err: error, actionId: args.action.action_id },
        "edge: button failed",
      );
      await tell(args.client, services, where, {
        text:
          error instanceof QuoteNoLongerOffered
            ? describeFailure(error)
            : `:warning: ${escapeMrkdwn(`That didn't work: ${failureWords(error)}`)}`,
      });
    }
  };
}

/** A button under a quote: its value is the quote's reference; a value that isn't one is ignored. */
export function quoteButtonListener(
  services: EdgeDeps,
  work: (args: ButtonArgs, where: Where, ref: QuoteRef) => Promise<void>,
): ButtonListener {
  return buttonListener(services, async (args, where) => {
    const ref = parseQuoteRef(args.action.value);
    if (ref) await work(args, where, ref);
  });
}

/** A draft's button: its value is the draft's id; a click without one is ignored. */
export function draftButtonListener(
  services: EdgeDeps,
  work: (args: ButtonArgs, where: Where, draftId: string) => Promise<void>,
): ButtonListener {
  return buttonListener(services, async (args, where) => {
    const draftId = args.action.value;
    if (draftId) await work(args, where, draftId);
  });
}
