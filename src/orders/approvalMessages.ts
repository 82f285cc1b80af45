import { approvalMessageView } from "../../views/approvals/approvals.js";
import type { ApprovalRequest, ApprovalStore } from "../approvals/index.js";
import type { Notifier } from "../jobs/notifier/notifier.js";
import type { Logger } from "../log.js";
import { scopeOf } from "./requestMessages.js";
import type { RequestReads } from "./requestReads.js";

/**
 * Pending requests that have no approval message: stored (their name reserved) but never posted
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
 */

/** The notifier key of the approval message this reconciler posts (one per request). */
export const RECONCILED_MESSAGE_KEY = "approval-message";

/** More than the form's own post and the 2 minutes its place is retried through an outage. */
export const DEFAULT_APPROVAL_MESSAGE_GRACE_MS = 3 * 60_000;

export interface ApprovalMessagesOptions {
  store: Pick<ApprovalStore, "findByStatus" | "keepApprovalMessage">;
  reads: Pick<RequestReads, "of">;
  notifier: Pick<Notifier, "post" | "status">;
  /** Refreshes a request's messages and Home (OrderLifecycle `refreshMessage`). */
  refresh: (id: string) => Promise<void>;
  /**
   * Takes the buttons off a post that lost to the place kept first (OrderLifecycle
   * `approvalMessageSuperseded`); whether an update was queued (once per message).
   */
  superseded: (
    record: ApprovalRequest,
    at: { approvalChannel: string; approvalTs: string },
  ) => Promise<boolean>;
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
};

export class ApprovalMessages {
  private readonly graceMs: number;
  private readonly now: () => Date;

  constructor(private readonly options: ApprovalMessagesOptions) {
    this.graceMs = options.graceMs ?? DEFAULT_APPROVAL_MESSAGE_GRACE_MS;
    this.now = options.now ?? (() => new Date());
  }

  /** One pass over the pending requests (safe to run on several replicas at once). */
  async reconcile(): Promise<ApprovalMessagesReport> {
    const report: ApprovalMessagesReport = {
      approvalMessagesQueued: 0,
      approvalMessagesKept: 0,
      approvalMessagesSuperseded: 0,
      approvalMessagesRefused: 0,
    };
    const { channel } = this.options;
    if (!channel) return report;
    const before = this.now().getTime() - this.graceMs;
    for (const record of await this.options.store.findByStatus("pending")) {
      if (Date.parse(record.createdAt) > before) continue;
      const outcome = await this.reconcileOne(record, channel);
      if (outcome) report[outcome] += 1;
    }
    return report;
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
      "a pending request has no approval message: posting it",
    );
    return "approvalMessagesQueued";
  }
}
