import type { AllMiddlewareArgs, SlackViewMiddlewareArgs, ViewSubmitAction } from "@slack/bolt";
import {
  EDGE_DISCOUNT_BLOCK,
  EDGE_DISCOUNT_INPUT,
  parseEdgeMetadata,
} from "../../../../views/edge/edgeModals.js";
import { quoteReadyMessage } from "../../../../views/edge/edgeQuote.js";
import type { EdgeQuotationRequest } from "../../../domain/catalog/edge.js";
import { withDeadline } from "../../../domain/deadline.js";
import { QuoteNoLongerOffered } from "../../../domain/errors.js";
import { isProviderError } from "../../../provider/errors.js";
import { checkDiscountCode, loadQuote } from "../../../usecases/edge/quote.js";
import { typedValue, type Where, whereFormOpened } from "../../kit/index.js";
import type { EdgeDeps } from "./index.js";
import type { EdgeSources } from "./sources.js";
import { audit, failureWords, IN_SLACK_WINDOW_MS, inThread, tell } from "./support.js";

type SubmitArgs = SlackViewMiddlewareArgs<ViewSubmitAction> & AllMiddlewareArgs;

/** A discount code submitted: the provider checks it; the discounted quote goes in the thread. */
export function discountSubmitted(services: EdgeDeps, sources: EdgeSources) {
  const { logger } = services;
  return async ({ ack, body, view, client }: SubmitArgs): Promise<void> => {
    const metadata = parseEdgeMetadata(view.private_metadata);
    const ref = metadata.ref;
    const fail = (message: string) =>
      ack({ response_action: "errors", errors: { [EDGE_DISCOUNT_BLOCK]: message.slice(0, 300) } });
    if (!ref) {
      await fail("This form lost its quote; use the button under the quote again.");
      return;
    }
    const code = checkDiscountCode(
      ref.responseId,
      typedValue(view.state?.values, EDGE_DISCOUNT_BLOCK, EDGE_DISCOUNT_INPUT),
    );
    if (!code.ok) {
      await fail(code.message);
      return;
    }
    let discounted: Awaited<ReturnType<typeof loadQuote>>;
    let request: EdgeQuotationRequest;
    try {
      // The provider decides whether the code is valid: asked before answering the form, so a
      // wrong code is shown next to the field.
      [discounted, request] = await withDeadline(IN_SLACK_WINDOW_MS, () =>
        Promise.all([
          loadQuote(services, ref.responseId, code.code, AbortSignal.timeout(IN_SLACK_WINDOW_MS)),
          sources.requestOf(ref, IN_SLACK_WINDOW_MS),
        ]),
      );
    } catch (error) {
      if (isProviderError(error) && error.httpStatus === 404) {
        await fail(
          `"${code.code}" isn't a valid discount code for this quote (or the quote has expired).`,
        );
      } else {
        await fail(
          error instanceof QuoteNoLongerOffered
            ? error.message
            : `Couldn't apply the code: ${failureWords(error)}`,
        );
      }
      return;
    }
    await ack();
    const where: Where = whereFormOpened(body.user.id, metadata);
    audit(services, "discount applied", { userId: where.userId, responseId: ref.responseId });
    try {
      await inThread(
        services,
        client,
        where,
        metadata.threadTs,
        quoteReadyMessage({
          quote: discounted,
          request,
          requestedBy: where.userId,
          ref: { ...ref, discountCode: code.code },
          currency: services.currency,
        }),
      );
    } catch (error) {
      logger.warn({ err: error }, "edge: could not post the discounted quote");
      await tell(client, services, where, {
        text: ":warning: The code is valid, but I couldn't post the new prices; try again.",
      });
    }
  };
}
