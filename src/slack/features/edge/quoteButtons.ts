import { labelledModal } from "../../../../views/blocks.js";
import {
  type EdgeModalMetadata,
  edgeDiscountModal,
  edgeLoadingModal,
} from "../../../../views/edgeModals.js";
import { edgeOrderModal } from "../../../../views/edgeOrderModal.js";
import {
  draftSavedMessage,
  EDGE_QUOTE_BUTTONS,
  enquirySentMessage,
} from "../../../../views/edgeQuote.js";
import { type EdgeQuotationRequest, requestMbps, tenGigabitRequest } from "../../../domain/edge.js";
import type { Services } from "../../../services.js";
import { draftBody } from "../../../usecases/edge/drafts.js";
import { loadQuote } from "../../../usecases/edge/quote.js";
import type { ListenerRegistry } from "../../listenerTable.js";
import { onQuoteButton } from "./onButton.js";
import { requestEdgeQuote } from "./requestQuote.js";
import type { EdgeSources } from "./sources.js";
import { AFTER_ACK_MS, audit, inThread, openThenShow, threadOf } from "./support.js";

export function registerQuoteButtons(
  app: ListenerRegistry,
  services: Services,
  sources: EdgeSources,
): void {
  onQuoteButton(app, services, EDGE_QUOTE_BUTTONS.order, async ({ body, client }, where, ref) => {
    const metadata: EdgeModalMetadata = {
      ...(where.channelId ? { channelId: where.channelId } : {}),
      ...(threadOf(body) ? { threadTs: threadOf(body) } : {}),
      ref,
    };
    await openThenShow(
      services,
      client,
      body.trigger_id,
      edgeLoadingModal("Order an Edge port", "Reading the quote from the provider…"),
      async () => {
        const source = await sources.quoteSource(ref, AbortSignal.timeout(AFTER_ACK_MS));
        const speedMbps = requestMbps(source.request);
        return edgeOrderModal({
          source,
          metadata,
          currency: services.currency,
          ...(speedMbps !== undefined ? { speedMbps } : {}),
        });
      },
    );
  });

  onQuoteButton(
    app,
    services,
    EDGE_QUOTE_BUTTONS.discount,
    async ({ body, client }, where, ref) => {
      await client.views.open({
        trigger_id: body.trigger_id,
        view: labelledModal(
          edgeDiscountModal({
            ...(where.channelId ? { channelId: where.channelId } : {}),
            ...(threadOf(body) ? { threadTs: threadOf(body) } : {}),
            ref,
          }),
          services.sandbox,
        ),
      });
    },
  );

  onQuoteButton(
    app,
    services,
    EDGE_QUOTE_BUTTONS.saveDraft,
    async ({ body, client }, where, ref) => {
      const signal = AbortSignal.timeout(AFTER_ACK_MS);
      const [request, quote, drafts] = await Promise.all([
        sources.requestOf(ref, AFTER_ACK_MS),
        loadQuote(services, ref.responseId, ref.discountCode, signal),
        services.provider.listDrafts({ signal }),
      ]);
      // A second click (or a colleague's) finds the draft already saved instead of a duplicate.
      const existing = drafts.find((d) => {
        const payload = (d.edgePayload ?? {}) as Record<string, unknown>;
        return (
          payload.responseId === ref.responseId &&
          (payload.discountCode ?? undefined) === (ref.discountCode ?? undefined)
        );
      });
      const draft =
        existing ??
        (await services.provider.createDraft(draftBody({ request, quote, savedBy: where.userId }), {
          signal,
        }));
      if (!existing) {
        audit(services, "draft saved", { userId: where.userId, draftId: draft.id });
        await sources.rememberDraft(draft, where.userId);
      }
      await inThread(
        services,
        client,
        where,
        threadOf(body),
        draftSavedMessage(draft, where.userId),
      );
    },
  );

  /** A button that passes the quote's request on to the provider, then says so in the thread. */
  const enquiryButton = (
    actionId: string,
    kind: "ten-gig" | "support",
    auditLine: string,
    send: (request: EdgeQuotationRequest, signal: AbortSignal) => Promise<unknown>,
  ) =>
    onQuoteButton(app, services, actionId, async ({ body, client }, where, ref) => {
      const request = await sources.requestOf(ref, AFTER_ACK_MS);
      await send(request, AbortSignal.timeout(AFTER_ACK_MS));
      audit(services, auditLine, { userId: where.userId, responseId: ref.responseId });
      await inThread(
        services,
        client,
        where,
        threadOf(body),
        enquirySentMessage(kind, where.userId),
      );
    });

  enquiryButton(EDGE_QUOTE_BUTTONS.tenGig, "ten-gig", "10 Gbps offer asked", (request, signal) =>
    services.provider.sendEdgeSelect(tenGigabitRequest(request), { signal }),
  );
  enquiryButton(EDGE_QUOTE_BUTTONS.support, "support", "support contacted", (request, signal) =>
    services.provider.sendEdgeEnquiry(request, { signal }),
  );

  onQuoteButton(app, services, EDGE_QUOTE_BUTTONS.retry, async ({ client }, where, ref) => {
    const request = await sources.requestOf(ref, AFTER_ACK_MS);
    await requestEdgeQuote({ services, client, request, where });
  });
}
