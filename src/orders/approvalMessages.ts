import { approvalMessageView } from "../../views/approvals/approvals.js";
import type { ApprovalRequest, ApprovalStore } from "../approvals/index.js";
import type { Notifier } from "../jobs/notifier/notifier.js";
import type { Logger } from "../log.js";
import {
  emptyRequestCardsReport,
  type RequestCards,
  type RequestCardsReport,
} from "./requestCards.js";
import { scopeOf } from "./requestMessages.js";
import type { RequestReads } from "./requestReads.js";

/**
 * Requests that have no approval message: stored (their name reserved) but never posted
 * — the process died between `requests.submit` and the Slack kit's post, or the post's place was
 * never kept. Nobody sees them in the approvals channel, their name stays taken and nothing else
 * ends them; run on the maintenance schedule (src/workers' `runMaintenance`, given it by
 * src/bot.ts), this posts each one older than `graceMs` once and keeps where it is.
 *
 * - The post goes through the notifier's outbox under the request's scope and ONE key
 *   (`approval-message`): however many replicas or runs queue it, it is sent once (the marker's
 *   HSETNX), and its marker keeps the message's ts. Rendered from the read model when queued.
 * - A later run finds the marker `sent` and keeps the place with `keepApprovalMessage` (the
 *   first kept place wins, the form's or this one's); kept, the request's messages and Home are
 *   refreshed (rendered as they are now). If another place was kept first (the form's post
 *   outlived the grace period), this message loses its buttons and points at the kept one.
 * - A post Slack refused for good (channel_not_found, not_in_channel…) is `dropped`: logged as
 *   an error and counted on each run, never posted again (the key is taken), so nothing loops
 *   hot. The request stays in the approvers' App Home (*Waiting on me*), where it can be decided.
 * - Such a request may be decided in App Home before its message is posted: approved, placed,
 *   its outcome unknown. Those of the last `DECIDED_LOOKBACK_MS` get their message too (rendered
 *   as they are: no Approve on a placed one), and a placed one that was never tracked (its
 *   placement found no thread to track in) is tracked in that message's thread once its place is
 *   kept, on this run or a later one (`trackPlaced`: nothing for a target already tracked).
 * - The same candidates (read once) are handed to `cards` (requestCards.ts): a request whose
 *   approval message is kept but whose card was never posted gets its card.
 */

/** The notifier key of the approval message this reconciler posts (one per request). */
export const RECONCILED_MESSAGE_KEY = "approval-message";

/** More than the form's own post and the 2 minutes its place is retried through an outage. */
export const DEFAULT_APPROVAL_MESSAGE_GRACE_MS = 3 * 60_000;

/**
 * How far back decided requests without a message are looked for: past a weekend without
 * workers, and within the 7 days an ended tracker is kept (so `trackPlaced` never restarts one
 * that ended).
 */
export const DECIDED_LOOKBACK_MS = 2 * 24 * 3600_000;

/** Decided, not ended: a thread is still to come (a placement's outcome, tracking). */
const DECIDED_NOT_ENDED = ["approved", "executing", "unknown", "placed"] as const;

export interface ApprovalMessagesOptions {
  store: Pick<ApprovalStore, "findByStatus" | "list" | "get" | "keepApprovalMessage">;
  reads: Pick<RequestReads, "of">;
  notifier: Pick<Notifier, "post" | "status">;
  /** Refreshes a request's messages and Home (OrderLifecycle `refreshMessage`). */
  refresh: (id: string) => Promise<void>;
  /**
   * Tracks a placed request that never was, in its (now kept) approval message's thread
   * (OrderLifecycle `trackPlaced`); whether tracking started.
   */
  trackPlaced: (record: ApprovalRequest) => Promise<boolean>;
  /**
   * Takes the buttons off a post that lost to the place kept first (OrderLifecycle
   * `approvalMessageSuperseded`); whether an update was queued (once per message).
   */
  superseded: (
    record: ApprovalRequest,
    at: { approvalChannel: string; approvalTs: string },
  ) => Promise<boolean>;
  /** Posts the cards a crash never did (requestCards.ts); none: cards are not reconciled. */
  cards?: Pick<RequestCards, "reconcile">;
  /** The approvals channel; without one nothing can be posted (and nothing is). */
  channel: string | undefined;
  approveConfirmFrom?: number;
  /** How old a pending request without a message must be (its form may still be posting it). */
  graceMs?: number;
  now?: () => Date;
  logger: Pick<Logger, "info" | "warn" | "error">;
}

/** What one run did (the maintenance report's `maintenance` entry). */
export type ApprovalMessagesReport = {
  approvalMessagesQueued: number;
  approvalMessagesKept: number;
  approvalMessagesSuperseded: number;
  approvalMessagesRefused: number;
  /** Placed requests tracked once their reconciled message's place was kept. */
  placedTracked: number;
} & RequestCardsReport;

export class ApprovalMessages {
  private readonly graceMs: number;
  private readonly now: () => Date;

  constructor(private readonly options: ApprovalMessagesOptions) {
    this.graceMs = options.graceMs ?? DEFAULT_APPROVAL_MESSAGE_GRACE_MS;
    this.now = options.now ?? (() => new Date());
  }

  /** One pass over the requests without a message (safe to run on several replicas at once). */
  async reconcile(): Promise<ApprovalMessagesReport> {
    const report: ApprovalMessagesReport = {
      approvalMessagesQueued: 0,
      approvalMessagesKept: 0,
      approvalMessagesSuperseded: 0,
      approvalMessagesRefused: 0,
      placedTracked: 0,
      ...emptyRequestCardsReport(),
    };
    const { channel } = this.options;
    if (!channel) return report;
    const before = this.now().getTime() - this.graceMs;
    for (const record of await this.candidates()) {
      if (Date.parse(record.createdAt) > before) continue;
      // A decided request whose form posted its message needs nothing of this but tracking.
      const posted = record.status !== "pending" && record.slack.approvalTs;
      const outcome = posted ? undefined : await this.reconcileOne(record, channel);
      if (outcome) report[outcome] += 1;
      if (record.status === "placed" && (await this.trackIfOurs(record))) {
        report.placedTracked += 1;
      }
      const card = await this.options.cards?.reconcile(record);
      if (card) report[card] += 1;
    }
    return report;
  }

  /** Every pending request, and the recent decided ones not yet ended (see the top). */
  private async candidates(): Promise<ApprovalRequest[]> {
    const { store } = this.options;
    const since = new Date(this.now().getTime() - DECIDED_LOOKBACK_MS);
    const decided = await Promise.all(
      DECIDED_NOT_ENDED.map((status) => store.list({ status, since, limit: 1000 })),
    );
    return [...(await store.findByStatus("pending")), ...decided.flat()];
  }

  /**
   * A placed request whose kept approval message is this reconciler's: tracked, unless it
   * already is. One whose form posted its message was tracked by its placement: left alone.
   */
  private async trackIfOurs(placed: ApprovalRequest): Promise<boolean> {
    const marker = await this.options.notifier.status(scopeOf(placed), RECONCILED_MESSAGE_KEY);
    if (marker?.state !== "sent" || !marker.ts) return false;
    const now = await this.options.store.get(placed.id);
    if (now?.status !== "placed" || now.slack.approvalTs !== marker.ts) return false;
    return this.options.trackPlaced(now);
  }

  private async reconcileOne(
    record: ApprovalRequest,
    channel: string,
  ): Promise<keyof ApprovalMessagesReport | undefined> {
    const { notifier, logger } = this.options;
    const scope = scopeOf(record);
    const marker = await notifier.status(scope, RECONCILED_MESSAGE_KEY);
    if (marker?.state === "queued") return undefined;
    if (marker?.state === "dropped") {
      if (record.slack.approvalTs) return undefined;
      logger.error(
        { approvalId: record.id, channel, reason: marker.reason },
        "approval message could not be posted for good; the request waits in App Home only",
      );
      return "approvalMessagesRefused";
    }
    if (marker?.state === "sent") {
      if (!marker.ts) return undefined;
      const kept = record.slack.approvalTs
        ? record
        : await this.options.store.keepApprovalMessage(record.id, {
            approvalChannel: channel,
            approvalTs: marker.ts,
          });
      if (!kept) return undefined;
      if (kept.slack.approvalTs === marker.ts) {
        if (record.slack.approvalTs) return undefined;
        logger.warn(
          { approvalId: record.id, channel, ts: marker.ts },
          "posted the approval message of a request that had none",
        );
        await this.options.refresh(record.id);
        return "approvalMessagesKept";
      }
      // Another message of this request was kept first: this one must not offer buttons.
      const superseded = await this.options.superseded(kept, {
        approvalChannel: channel,
        approvalTs: marker.ts,
      });
      return superseded ? "approvalMessagesSuperseded" : undefined;
    }
    if (record.slack.approvalTs) return undefined;
    const view = approvalMessageView(await this.options.reads.of(record), {
      approveConfirmFrom: this.options.approveConfirmFrom,
    });
    const queued = await notifier.post({
      scope,
      key: RECONCILED_MESSAGE_KEY,
      channel,
      text: view.text,
      blocks: view.blocks,
    });
    if (!queued.queued) return undefined;
    logger.warn(
      { approvalId: record.id, channel, createdAt: record.createdAt },
      "a request has no approval message: posting it",
    );
    return "approvalMessagesQueued";
  }
}
