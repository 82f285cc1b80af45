// Requesting an Edge quote (the form, "Request the quote again", a draft's Re-quote): start it
// at the provider, post "Quote requested…" as a thread root and hand the polling to the jobs.
import type { WebClient } from "@slack/web-api";
import { escapeMrkdwn } from "../../../../views/blocks.js";
import { quoteRequestedMessage } from "../../../../views/edge/edgeQuote.js";
import type { EdgeQuotationRequest } from "../../../domain/catalog/edge.js";
import type { Where } from "../../kit/index.js";
import type { EdgeDeps } from "./index.js";
import { AFTER_ACK_MS, audit, labelled, quoteFailureWords, tell } from "./support.js";

/**
 * Starts an asynchronous quote, posts "Quote requested…" as a thread root in the channel and
 * hands the polling to the jobs; the offers (or why there are none) follow in the thread.
 */
export async function requestEdgeQuote(input: {
  services: EdgeDeps;
  client: WebClient;
  request: EdgeQuotationRequest;
  where: Where;
}): Promise<void> {
  const { services, client, request, where } = input;
  let responseId: string;
  try {
    const started = await services.provider.startEdgeQuote(request, {
      signal: AbortSignal.timeout(AFTER_ACK_MS),
    });
    responseId = started.responseId;
  } catch (error) {
    services.logger.warn({ err: error }, "edge: quote request failed");
    await tell(client, services, where, {
      text: `:warning: Couldn't request the Edge quote: ${escapeMrkdwn(quoteFailureWords(error))}`,
    });
    return;
  }
  const root = quoteRequestedMessage({ request, requestedBy: where.userId, responseId });
  const blocks = labelled(services, root.blocks);
  let channel: string | undefined;
  let threadTs: string | undefined;
  for (const target of [where.channelId, where.userId]) {
    if (!target) continue;
    try {
      const posted = await client.chat.postMessage({ channel: target, text: root.text, blocks });
      channel = posted.channel ?? target;
      threadTs = posted.ts;
      break;
    } catch (error) {
      // Not in that channel: the person's DM instead, so the quote is not lost.
      services.logger.warn({ err: error, channel: target }, "edge: could not post the quote root");
    }
  }
  if (!channel) return;
  try {
    await services.jobs.quotePoller.start({
      responseId,
      channel,
      ...(threadTs ? { threadTs } : {}),
      userId: where.userId,
      request,
    });
  } catch (error) {
    services.logger.error({ err: error, responseId }, "edge: could not start polling the quote");
    await tell(client, services, where, {
      text: ":warning: The quote was requested, but I couldn't start checking for its result; request it again in a minute.",
    });
    return;
  }
  audit(services, "quote requested", { userId: where.userId, responseId });
}
