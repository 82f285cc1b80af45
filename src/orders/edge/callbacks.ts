import type { KnownBlock } from "@slack/types";
import { capBlocks, withSandboxLabel } from "../../../views/blocks.js";
import { draftExpiryReminder } from "../../../views/edge/edgeDrafts.js";
import {
  type Message,
  quoteAnsweredRootMessage,
  quoteFailedMessage,
  quoteFailureText,
  quoteReadyMessage,
} from "../../../views/edge/edgeQuote.js";
import type { EdgeQuotationRequest } from "../../domain/catalog/edge.js";
import type {
  DraftReminderCallbacks,
  QuoteCallbacks,
  QuoteContext,
  QuoteFailure,
} from "../../jobs/index.js";
import type { Logger } from "../../log.js";
import type { ProviderApi } from "../../provider/api.js";
import { quoteStatus, readQuoteResult } from "../../provider/edgeResponses.js";
import { quoteRef, readStoredRequest } from "../../usecases/edge/quote.js";

/**
 * An Edge quote poll's collaborators (src/workers/quotes.ts calls them; the contract is
 * src/jobs/quotes/quotePoller.ts'): read the result, then post the offers (or why there are
 * none) in the quote's thread and mark the thread root. Posts go through the notifier with the job's key, so a retried job never posts twice.
 *
 * Here, below the Slack adapter, because they word what they post with views/ (which
 * src/usecases may not import) and the adapter is never called from a job.
 * Wiring (src/backgroundWiring.ts `edgeJobParts`, for src/bot.ts): `startWorkers(jobs, { ...,
 *   quotes: edgeQuoteCallbacks({ provider, … }) })`.
 */
export function edgeQuoteCallbacks(services: {
  provider: Pick<ProviderApi, "getEdgeQuoteResult">;
  logger: Pick<Logger, "info" | "warn">;
  /** Requests made against the sandbox say so in every message. */
  sandbox: boolean;
  /** The ISO 4217 code the offers' amounts are labelled with (`PRICE_CURRENCY`). */
  currency: string;
}): QuoteCallbacks<unknown> {
  const label = (blocks: KnownBlock[]) => capBlocks(withSandboxLabel(blocks, services.sandbox));

  async function post(ctx: QuoteContext, message: Message): Promise<void> {
    await ctx.notifier.post({
      scope: ctx.notifyScope,
      key: ctx.notifyKey,
      channel: ctx.channel,
      ...(ctx.threadTs ? { threadTs: ctx.threadTs } : {}),
      text: message.text,
      blocks: label(message.blocks),
    });
  }

  /** The "Quote requested…" root says how it ended, so the channel shows it without opening the thread. */
  async function markRoot(
    ctx: QuoteContext,
    request: EdgeQuotationRequest | undefined,
    outcome: "ready" | "failed",
  ): Promise<void> {
    if (!ctx.threadTs || !request) return;
    const message = quoteAnsweredRootMessage({
      request,
      requestedBy: ctx.userId,
      responseId: ctx.responseId,
      outcome,
    });
    try {
      await ctx.notifier.update({
        scope: ctx.notifyScope,
        key: `${ctx.notifyKey}:root`,
        channel: ctx.channel,
        ts: ctx.threadTs,
        text: message.text,
        blocks: label(message.blocks),
      });
    } catch (error) {
      // The offers are already on their way; a stale root is only cosmetic.
      services.logger.warn(
        { err: error, responseId: ctx.responseId },
        "edge quote: root not updated",
      );
    }
  }

  async function failed(failure: QuoteFailure, ctx: QuoteContext): Promise<void> {
    const request = readStoredRequest(ctx.request);
    await post(
      ctx,
      quoteFailedMessage({
        message: quoteFailureText(failure),
        requestedBy: ctx.userId,
        ...(request ? { ref: quoteRef(ctx.responseId, request) } : {}),
      }),
    );
    await markRoot(ctx, request, "failed");
  }

  return {
    async readQuote(responseId) {
      const body = await services.provider.getEdgeQuoteResult(responseId);
      return quoteStatus(body) === "pending" ? { ready: false } : { ready: true, result: body };
    },

    async onReady(result, ctx) {
      const quote = readQuoteResult(ctx.responseId, result);
      if (quote.status === "failed") {
        await failed(
          {
            kind: "partners-failed",
            ...(quote.providerStatus ? { providerStatus: quote.providerStatus } : {}),
          },
          ctx,
        );
        return;
      }
      const request = readStoredRequest(ctx.request);
      if (!request) {
        services.logger.warn(
          { responseId: ctx.responseId },
          "edge quote: the job's request could not be read; posting the offers without buttons",
        );
      }
      await post(
        ctx,
        quoteReadyMessage({
          quote,
          requestedBy: ctx.userId,
          currency: services.currency,
          ...(request ? { request, ref: quoteRef(ctx.responseId, request) } : {}),
        }),
      );
      await markRoot(ctx, request, "ready");
      services.logger.info(
        { responseId: ctx.responseId, offers: quote.offers.length, polls: ctx.polls },
        "edge quote ready",
      );
    },

    async onFailed(failure, ctx) {
      await failed(failure, ctx);
      services.logger.info({ responseId: ctx.responseId, polls: ctx.polls }, "edge quote failed");
    },
  };
}

/**
 * The Edge draft reminders' collaborators (src/workers/draftReminders.ts calls them; the record
 * and the jobs are src/jobs/draftReminders.ts'): whether the provider
 * still lists the draft (ordered or deleted ones are not: no reminder), and the message.
 */
export function edgeDraftReminderCallbacks(services: {
  provider: Pick<ProviderApi, "listDrafts">;
  sandbox: boolean;
}): DraftReminderCallbacks {
  return {
    async draftExists(draftId) {
      const drafts = await services.provider.listDrafts({ signal: AbortSignal.timeout(20_000) });
      return drafts.some((draft) => draft.id === draftId);
    },
    message(reminder) {
      const message = draftExpiryReminder(reminder);
      return {
        text: message.text,
        blocks: capBlocks(withSandboxLabel(message.blocks, services.sandbox)),
      };
    },
  };
}
