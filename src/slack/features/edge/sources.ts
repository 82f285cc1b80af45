// Reading back what a quote's or a draft's buttons stand for (checked again against the current
// Edge lists and the provider), and queuing a saved draft's reminders: shared by the Edge
// listeners.

import type { WebClient } from "@slack/web-api";
import { draftGoneWords, draftNoticeText } from "../../../../views/edge/edgeDrafts.js";
import type { EdgeQuotationRequest } from "../../../domain/catalog/edge.js";
import { QuoteNoLongerOffered } from "../../../domain/errors.js";
import type { DraftOrder } from "../../../provider/api.js";
import { type EdgeCatalogueCache, edgeCatalogue } from "../../../usecases/edge/catalogue.js";
import { findDraft } from "../../../usecases/edge/drafts.js";
import {
  type EdgeOrderSource,
  sourceFromDraft,
  sourceFromQuote,
} from "../../../usecases/edge/order.js";
import { checkEdgeQuoteForm, loadQuote, type QuoteRef } from "../../../usecases/edge/quote.js";
import type { Where } from "../../kit/index.js";
import type { EdgeDeps } from "./index.js";
import { AFTER_ACK_MS, tell } from "./support.js";

export interface EdgeSources {
  catalogue: EdgeCatalogueCache;
  requestOf(ref: QuoteRef, timeoutMs: number): Promise<EdgeQuotationRequest>;
  quoteSource(ref: QuoteRef, signal: AbortSignal): Promise<EdgeOrderSource>;
  draftSource(draftId: string, signal: AbortSignal): Promise<EdgeOrderSource>;
  rememberDraft(draft: DraftOrder, userId: string): Promise<void>;
}

export function edgeSources(services: EdgeDeps): EdgeSources {
  const { logger } = services;
  const catalogue = edgeCatalogue(services);

  /** The request a quote's buttons stand for, checked again against the current Edge lists. */
  async function requestOf(ref: QuoteRef, timeoutMs: number): Promise<EdgeQuotationRequest> {
    const check = checkEdgeQuoteForm(await catalogue.get(timeoutMs), ref.form);
    if (!check.ok) {
      const problems = Object.values(check.errors).join("; ");
      throw new QuoteNoLongerOffered(
        `the provider no longer offers this quote's choices (${problems}); request a new quote.`,
      );
    }
    return check.request;
  }

  /**
   * Its creator is reminded 3 days and 1 day before the provider deletes it (30 days). A failure
   * here loses only the reminders, never the saved draft: logged, not told as a failed save.
   */
  async function rememberDraft(draft: DraftOrder, userId: string): Promise<void> {
    const created = draft.createdAt ? new Date(draft.createdAt) : services.clock.now();
    await services.jobs.draftReminders
      .remember({
        draftId: draft.id,
        name: draft.name ?? "Draft order",
        userId,
        createdAt: Number.isFinite(created.getTime()) ? created : services.clock.now(),
      })
      .catch((error: unknown) =>
        logger.warn({ err: error, draftId: draft.id }, "edge: draft reminders not queued"),
      );
  }

  async function quoteSource(ref: QuoteRef, signal: AbortSignal): Promise<EdgeOrderSource> {
    const [request, quote] = await Promise.all([
      requestOf(ref, AFTER_ACK_MS),
      loadQuote(services, ref.responseId, ref.discountCode, signal),
    ]);
    return sourceFromQuote(request, quote);
  }

  async function draftSource(draftId: string, signal: AbortSignal): Promise<EdgeOrderSource> {
    const draft = await findDraft(services, draftId, signal);
    if (!draft) throw new QuoteNoLongerOffered(draftGoneWords(draftId));
    const source = sourceFromDraft(draft);
    if (!source.ok) throw new QuoteNoLongerOffered(source.message);
    return source.source;
  }

  return { catalogue, requestOf, quoteSource, draftSource, rememberDraft };
}

/** The draft, or undefined once the person is told it is gone (ordered or deleted meanwhile). */
export async function draftOrGone(
  services: EdgeDeps,
  client: WebClient,
  where: Where,
  draftId: string,
  signal: AbortSignal,
): Promise<DraftOrder | undefined> {
  const draft = await findDraft(services, draftId, signal);
  if (!draft) {
    await tell(client, services, where, { text: draftNoticeText("not-found", { id: draftId }) });
  }
  return draft;
}
