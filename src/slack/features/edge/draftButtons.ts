import { draftNoticeText } from "../../../../views/edge/edgeDrafts.js";
import {
  edgeLoadingModal,
  edgeProblemModal,
  renameDraftModal,
} from "../../../../views/edge/edgeModals.js";
import { edgeOrderModal } from "../../../../views/edge/edgeOrderModal.js";
import { requestMbps } from "../../../domain/catalog/edge.js";
import { QuoteNoLongerOffered } from "../../../domain/errors.js";
import { draftSavedBy, findDraft } from "../../../usecases/edge/drafts.js";
import type { EdgeOrderSource } from "../../../usecases/edge/order.js";
import { refreshCountry } from "../../../usecases/edge/quote.js";
import { modalOpener } from "../../kit/index.js";
import type { EdgeDeps } from "./index.js";
import { draftButtonListener } from "./onButton.js";
import { requestEdgeQuote } from "./requestQuote.js";
import { draftOrGone, type EdgeSources } from "./sources.js";
import { AFTER_ACK_MS, audit, openThenShow, tell } from "./support.js";

/** Order (a draft): the order form, made from the draft as the provider has it now. */
export function orderDraftButton(services: EdgeDeps, sources: EdgeSources) {
  return draftButtonListener(services, async ({ body, client }, where, draftId) => {
    await openThenShow(
      services,
      modalOpener(client, body.trigger_id, services.sandbox),
      edgeLoadingModal("Order an Edge port", "Reading the draft from the provider…"),
      async () => {
        let source: EdgeOrderSource;
        try {
          source = await sources.draftSource(draftId, AbortSignal.timeout(AFTER_ACK_MS));
        } catch (error) {
          if (error instanceof QuoteNoLongerOffered) {
            return edgeProblemModal("Order an Edge port", error.message);
          }
          throw error;
        }
        const speedMbps = requestMbps(source.request);
        return edgeOrderModal({
          source,
          currency: services.currency,
          metadata: { ...(where.channelId ? { channelId: where.channelId } : {}), draftId },
          ...(speedMbps !== undefined ? { speedMbps } : {}),
        });
      },
    );
  });
}

/** Quote again: the draft's request quoted again, with the country as the provider lists it. */
export function requoteDraftButton(services: EdgeDeps, sources: EdgeSources) {
  return draftButtonListener(services, async ({ client }, where, draftId) => {
    const source = await sources.draftSource(draftId, AbortSignal.timeout(AFTER_ACK_MS));
    // The country object as the provider lists it today, when it still does.
    const lists = await sources.catalogue.get(AFTER_ACK_MS).catch(() => undefined);
    await requestEdgeQuote({
      services,
      client,
      request: refreshCountry(lists, source.request),
      where,
    });
  });
}

/** Rename (a draft): the rename form, with the draft's current name. */
export function renameDraftButton(services: EdgeDeps) {
  return draftButtonListener(services, async ({ body, client }, where, draftId) => {
    await openThenShow(
      services,
      modalOpener(client, body.trigger_id, services.sandbox),
      edgeLoadingModal("Rename Edge draft", "Reading the draft from the provider…"),
      async () => {
        const draft = await findDraft(services, draftId, AbortSignal.timeout(AFTER_ACK_MS));
        if (!draft) {
          return edgeProblemModal(
            "Rename Edge draft",
            draftNoticeText("not-found", { id: draftId }),
          );
        }
        return renameDraftModal({
          draft,
          metadata: where.channelId ? { channelId: where.channelId } : {},
        });
      },
    );
  });
}

/** Delete (a draft): only by whoever saved it; its reminders go with it. */
export function deleteDraftButton(services: EdgeDeps) {
  const { logger } = services;
  return draftButtonListener(services, async ({ client }, where, draftId) => {
    const signal = AbortSignal.timeout(AFTER_ACK_MS);
    const draft = await draftOrGone(services, client, where, draftId, signal);
    if (!draft) return;
    const savedBy = draftSavedBy(draft);
    if (savedBy !== where.userId) {
      audit(services, "draft delete refused", { userId: where.userId, draftId });
      await tell(client, services, where, {
        text: draftNoticeText(savedBy ? "not-owner" : "no-owner", draft),
      });
      return;
    }
    await services.provider.deleteDraft(draftId, { signal });
    audit(services, "draft deleted", { userId: where.userId, draftId });
    await services.jobs.draftReminders
      .forget(draftId, "deleted")
      .catch((error: unknown) =>
        logger.warn({ err: error, draftId }, "edge: draft reminders not removed"),
      );
    await tell(client, services, where, { text: draftNoticeText("deleted", draft) });
  });
}
