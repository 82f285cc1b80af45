import { labelledModal } from "../../../../views/blocks.js";
import { draftSavedMessage } from "../../../../views/edge/edgeDrafts.js";
import {
  type EdgeModalMetadata,
  edgeDiscountModal,
  edgeLoadingModal,
} from "../../../../views/edge/edgeModals.js";
import { edgeOrderModal } from "../../../../views/edge/edgeOrderModal.js";
import { enquirySentMessage } from "../../../../views/edge/edgeQuote.js";
import {
  type EdgeQuotationRequest,
  requestMbps,
  tenGigabitRequest,
} from "../../../domain/catalog/edge.js";
import { draftBody } from "../../../usecases/edge/drafts.js";
import { loadQuote } from "../../../usecases/edge/quote.js";
import { modalOpener } from "../../kit/index.js";
import type { EdgeDeps } from "./index.js";
import { quoteButtonListener } from "./onButton.js";
import { requestEdgeQuote } from "./requestQuote.js";
import type { EdgeSources } from "./sources.js";
import { AFTER_ACK_MS, audit, inThread, openThenShow, threadOf } from "./support.js";

/** Order: the order form, made from the quote as the provider has it now. */
export function orderQuoteButton(services: EdgeDeps, sources: EdgeSources) {
  return quoteButtonListener(services, async ({ body, client }, where, ref) => {
    const metadata: EdgeModalMetadata = {
      ...(where.channelId ? { channelId: where.channelId } : {}),
      ...(threadOf(body) ? { threadTs: threadOf(body) } : {}),
      ref,
    };
    await openThenShow(
      services,
      modalOpener(client, body.trigger_id, services.sandbox),
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
}

/** Apply a discount code: the code's form. */
export function discountButton(services: EdgeDeps) {
  return quoteButtonListener(services, async ({ body, client }, where, ref) => {
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
  });
}

/** Save as draft: the quote kept with the provider (once, however often it is clicked). */
export function saveDraftButton(services: EdgeDeps, sources: EdgeSources) {
  return quoteButtonListener(services, async ({ body, client }, where, ref) => {
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
    await inThread(services, client, where, threadOf(body), draftSavedMessage(draft, where.userId));
  });
}

/** A button that passes the quote's request on to the provider, then says so in the thread. */
function enquiryButton(
  services: EdgeDeps,
  sources: EdgeSources,
  kind: "ten-gig" | "support",
  auditLine: string,
  send: (request: EdgeQuotationRequest, signal: AbortSignal) => Promise<unknown>,
) {
  return quoteButtonListener(services, async ({ body, client }, where, ref) => {
    const request = await sources.requestOf(ref, AFTER_ACK_MS);
    await send(request, AbortSignal.timeout(AFTER_ACK_MS));
    audit(services, auditLine, { userId: where.userId, responseId: ref.responseId });
    await inThread(services, client, where, threadOf(body), enquirySentMessage(kind, where.userId));
  });
}

/** Ask for 10 Gbps: the quote's request sent to the provider's Edge Select desk. */
export function tenGigButton(services: EdgeDeps, sources: EdgeSources) {
  return enquiryButton(services, sources, "ten-gig", "10 Gbps offer asked", (request, signal) =>
    services.provider.sendEdgeSelect(tenGigabitRequest(request), { signal }),
  );
}

/** Contact support: the quote's request sent to the provider as an enquiry. */
export function supportButton(services: EdgeDeps, sources: EdgeSources) {
  return enquiryButton(services, sources, "support", "support contacted", (request, signal) =>
    services.provider.sendEdgeEnquiry(request, { signal }),
  );
}

/** Try again: the same request quoted again. */
export function retryQuoteButton(services: EdgeDeps, sources: EdgeSources) {
  return quoteButtonListener(services, async ({ client }, where, ref) => {
    const request = await sources.requestOf(ref, AFTER_ACK_MS);
    await requestEdgeQuote({ services, client, request, where });
  });
}
