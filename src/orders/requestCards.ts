import { cardInDmText } from "../../views/approvals/requestCard.js";
import type { ApprovalRequest } from "../approvals/index.js";
import {
  CARD_NOT_HERE_ERRORS,
  type CardInDmReason,
  type CardSetting,
  requestCardPlace,
} from "../domain/requestCardPlace.js";
import type { Notifier } from "../jobs/notifier/notifier.js";
import type { Logger } from "../log.js";
import { type CardAt, requestCardOf, scopeOf } from "./requestMessages.js";
import type { RequestReads } from "./requestReads.js";

/**
 * Request cards a crash never posted. The Slack kit posts a request's card right after its
 * approval message (src/slack/kit/requestCard.ts); a SIGKILL between the two, Slack or Redis
 * failing then, or an approval message posted by the reconciler (approvalMessages.ts) leaves the
 * request with no card, the one place its requester watches. Run by that reconciler on each of
 * its candidates past the grace period (it reads the store once), this posts the card of a
 * request whose approval message is kept and whose card is not, where the kit would have
 * (src/domain/requestCardPlace.ts), unless `ORDER_UPDATES` is `off`.
 *
 * - Through the notifier's outbox, under the request's scope and ONE key per place
 *   (`request-card` in the channel asked in, `request-card-dm` in the requester's DM): however
 *   many replicas or runs queue it, it is sent once. Rendered from the read model when queued.
 *   The DM post is to the user id and keeps the D… channel Slack answers with in its marker
 *   (`keepChannel`): the card's updates must name it.
 * - A later run finds the marker `sent` and keeps the place with `keep` (the store's
 *   `keepCard`: the first kept card wins, the form's or this one's), then refreshes the
 *   request's messages so the card shows the state as it is now. A card that lost to one kept
 *   first loses its Withdraw and points at the other (`superseded`).
 * - A channel card Slack refused as not here (`CARD_NOT_HERE_ERRORS`) is posted to the DM on
 *   the next run, with the sentence saying why (once per person and channel). Any other refusal
 *   is logged as an error and counted on each run, never retried (the key is taken).
 */

/** The notifier key of the card this reconciler posts in the channel the request was asked in. */
export const RECONCILED_CARD_KEY = "request-card";
/** The notifier key of the card this reconciler posts in the requester's DM. */
export const RECONCILED_CARD_DM_KEY = "request-card-dm";
/** The sentence before a DM card saying why it is not in the channel (once per request). */
const CARD_DM_NOTICE_KEY = "request-card-dm-notice";

export interface RequestCardsOptions {
  reads: Pick<RequestReads, "of">;
  notifier: Pick<Notifier, "post" | "status">;
  /** Keeps where the card is unless one is kept already; the record as it is then. */
  keep: (id: string, at: CardAt) => Promise<ApprovalRequest | null>;
  /** Refreshes a request's messages and Home (OrderLifecycle `refreshMessage`). */
  refresh: (id: string) => Promise<void>;
  /** Takes the Withdraw off a card that lost to one kept first; whether an update was queued. */
  superseded: (record: ApprovalRequest, at: CardAt) => Promise<boolean>;
  /** Whether the requester is still to be told why their card is in their DM (30 days). */
  firstCardNotice: (userId: string, where: string) => Promise<boolean>;
  /** The approvals channel: a request asked there has its card in the DM. */
  approvalsChannel: string | undefined;
  /** ORDER_UPDATES. */
  setting: CardSetting | undefined;
  logger: Pick<Logger, "info" | "warn" | "error">;
}

/** What one run did with cards (part of the maintenance report's `maintenance` entry). */
export type RequestCardsReport = {
  cardsQueued: number;
  cardsKept: number;
  cardsSuperseded: number;
  cardsRefused: number;
};

export function emptyRequestCardsReport(): RequestCardsReport {
  return { cardsQueued: 0, cardsKept: 0, cardsSuperseded: 0, cardsRefused: 0 };
}

export class RequestCards {
  constructor(private readonly options: RequestCardsOptions) {}

  /** One request past the grace period: its missing card queued, kept or reported. */
  async reconcile(record: ApprovalRequest): Promise<keyof RequestCardsReport | undefined> {
    if (!record.slack.approvalTs || record.slack.cardTs) return undefined;
    const place = requestCardPlace({
      asked: record.requester.channelId,
      approvalsChannel: this.options.approvalsChannel,
      setting: this.options.setting,
    });
    if (!place) return undefined;
    if (place.to === "dm") return this.inDm(record, place.reason);
    const marker = await this.options.notifier.status(scopeOf(record), RECONCILED_CARD_KEY);
    if (!marker) return this.queue(record, RECONCILED_CARD_KEY, place.channel);
    if (marker.state === "queued") return undefined;
    if (marker.state === "sent") {
      return this.keepSent(record, marker.ts, marker.channel ?? place.channel);
    }
    if (CARD_NOT_HERE_ERRORS.has(marker.reason)) return this.inDm(record, "not-in-channel");
    return this.refused(record, place.channel, marker.reason);
  }

  private async inDm(
    record: ApprovalRequest,
    reason: CardInDmReason | undefined,
  ): Promise<keyof RequestCardsReport | undefined> {
    const { notifier, logger } = this.options;
    const requester = record.requester.userId;
    const marker = await notifier.status(scopeOf(record), RECONCILED_CARD_DM_KEY);
    if (!marker) {
      if (reason) await this.tellWhyInDm(record, reason);
      return this.queue(record, RECONCILED_CARD_DM_KEY, requester);
    }
    if (marker.state === "queued") return undefined;
    if (marker.state === "dropped") return this.refused(record, requester, marker.reason);
    if (!marker.channel) {
      // Sent by a replica that keeps no channel in its markers: a DM card's updates need the
      // D… channel, which nothing else knows. Said, not kept.
      logger.warn(
        { approvalId: record.id, ts: marker.ts },
        "a request card was posted to the requester's DM but its channel is unknown; not kept",
      );
      return undefined;
    }
    return this.keepSent(record, marker.ts, marker.channel);
  }

  private async queue(
    record: ApprovalRequest,
    key: string,
    channel: string,
  ): Promise<keyof RequestCardsReport | undefined> {
    const view = requestCardOf(record, await this.options.reads.of(record));
    const queued = await this.options.notifier.post({
      scope: scopeOf(record),
      key,
      channel,
      text: view.text,
      blocks: view.blocks,
      // Posted to a user id, the card lands in a D… channel its updates must name.
      ...(key === RECONCILED_CARD_DM_KEY ? { keepChannel: true } : {}),
    });
    if (!queued.queued) return undefined;
    this.options.logger.warn(
      { approvalId: record.id, channel, createdAt: record.createdAt },
      "a request has no card: posting it",
    );
    return "cardsQueued";
  }

  /** The requester's one sentence on why the card is in their DM, before the card. */
  private async tellWhyInDm(record: ApprovalRequest, reason: CardInDmReason): Promise<void> {
    const asked = record.requester.channelId;
    const requester = record.requester.userId;
    const where = reason === "setting" ? "setting" : (asked ?? "");
    if (!(await this.options.firstCardNotice(requester, where))) return;
    await this.options.notifier.post({
      scope: scopeOf(record),
      key: CARD_DM_NOTICE_KEY,
      channel: requester,
      text: cardInDmText(reason, asked),
    });
  }

  private async keepSent(
    record: ApprovalRequest,
    ts: string | undefined,
    channel: string,
  ): Promise<keyof RequestCardsReport | undefined> {
    if (!ts) return undefined;
    const at: CardAt = { cardChannel: channel, cardTs: ts };
    const kept = await this.options.keep(record.id, at);
    if (!kept) return undefined;
    if (kept.slack.cardTs !== ts) {
      // The form's card was kept first (it outlived the grace period): this one must not offer
      // Withdraw nor go on saying "waiting for approval".
      return (await this.options.superseded(kept, at)) ? "cardsSuperseded" : undefined;
    }
    this.options.logger.warn(
      { approvalId: record.id, channel, ts },
      "posted the card of a request that had none",
    );
    // Rendered when it was queued: the request may have moved on since.
    await this.options.refresh(record.id);
    return "cardsKept";
  }

  private refused(
    record: ApprovalRequest,
    channel: string,
    reason: string,
  ): keyof RequestCardsReport {
    this.options.logger.error(
      { approvalId: record.id, channel, reason },
      "request card could not be posted for good; the requester has the approvals thread and DMs",
    );
    return "cardsRefused";
  }
}
