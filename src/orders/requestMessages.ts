import { approvalMessageView, supersededApprovalView } from "../../views/approvals/approvals.js";
import { personStepText } from "../../views/approvals/approvalThread.js";
import {
  requestCardReplyText,
  requestCardView,
  supersededCardView,
} from "../../views/approvals/requestCard.js";
import type { Reply } from "../../views/reply.js";
import { stateDm } from "../../views/requestState.js";
import type { ApprovalRequest, SlackRefs } from "../approvals/index.js";
import type { PostInput, SlackBlock } from "../jobs/index.js";
import type { LifecycleJobs } from "./lifecycle.js";
import { type RequestReadModel, readRequest } from "./readModel.js";
import type { RequestReads } from "./requestReads.js";
import type { DecidedAt } from "./requestResults.js";

/**
 * The two messages every request has and its thread: the approval message (in the approvals
 * channel, with the approvers' buttons) and the request card (where the request was asked),
 * kept showing the request as it is now.
 *
 * A change does not render them: it queues an update (src/jobs/notifier/renderedUpdate.ts) that
 * the notifier's drain renders from the read model when it sends it (`MessageRenderer`, below:
 * src/workers/notifier/renderedSend.ts calls it). At most one update waits per message, so
 * whoever changed the record and in whatever order their updates were queued, the last update
 * sent shows the latest state — the approval message never offers
 * Approve after the order was placed, nor *Look up again* after it was found.
 */

/** What a kept message shows: its fallback text and blocks, rendered when its update is sent. */
export interface RenderedMessage {
  text: string;
  blocks?: SlackBlock[];
}

/**
 * The render port of the notifier's drain: what a kept message shows now. src/orders owns it and
 * implements it (`requestMessageRenderer`, the read model worded by views/); src/workers calls
 * it down when it sends the message's update.
 * - `ref` is what `updateRendered` was given: `<what>:<id>`, e.g. `message:<request id>`.
 * - Undefined: nothing to show any more (the request is gone); the update is dropped, counted
 *   `dropped` with `nothing_to_render`.
 * - A throw (its store unreachable, say) is a transient failure: retried with backoff, the
 *   update still at the head of its outbox.
 */
export type MessageRenderer = (ref: string) => Promise<RenderedMessage | undefined>;

export interface RequestMessagesOptions {
  reads: RequestReads;
  notifier: LifecycleJobs["notifier"];
  /** Told of every change of a request (each one refreshes its messages). */
  changed: (record: ApprovalRequest) => Promise<void>;
  /** APPROVE_CONFIRM_FROM: the approval message's Approve asks first from this monthly amount. */
  approveConfirmFrom?: number;
}

/** What a rendered update names: `message:<id>` (approval message) or `card:<id>`. */
const APPROVAL_MESSAGE = "message";
const CARD = "card";

/** Where an approval message is (a post of it, kept or not). */
export type ApprovalMessageAt = Required<Pick<SlackRefs, "approvalChannel" | "approvalTs">>;

/** Where a request card is (a post of it, kept or not), and the permalink it shows, if any. */
export type CardAt = Required<Pick<SlackRefs, "cardChannel" | "cardTs">> &
  Pick<SlackRefs, "approvalLink">;

export class RequestMessages {
  constructor(private readonly options: RequestMessagesOptions) {}

  /**
   * A second post of a request's approval message lost to the place kept first (the form's post
   * and the reconciler's, approvalMessages.ts): it loses its buttons and points at the other.
   * Whether its update was queued (once per message).
   */
  async superseded(record: ApprovalRequest, at: ApprovalMessageAt): Promise<boolean> {
    const update = await this.options.notifier.update({
      scope: scopeOf(record),
      key: `superseded:${at.approvalTs}`,
      channel: at.approvalChannel,
      ts: at.approvalTs,
      ...supersededApprovalView(),
    });
    return update.queued;
  }

  /**
   * A second card of a request lost to the card kept first (the form's and the reconciler's,
   * requestCards.ts): it loses its Withdraw and points at the other. Whether its update was
   * queued (once per card).
   */
  async cardSuperseded(record: ApprovalRequest, at: CardAt): Promise<boolean> {
    const update = await this.options.notifier.update({
      scope: scopeOf(record),
      key: `card-superseded:${at.cardTs}`,
      channel: at.cardChannel,
      ts: at.cardTs,
      ...supersededCardView(),
    });
    return update.queued;
  }

  /**
   * A click on a message of this request in its kept approval message's channel that is not
   * that message: a stray post (the form's, whose place a crash never kept: docs/RELIABILITY.md),
   * superseded like any other. Only this request's own posts can be reached: Slack signs the
   * click and builds it from the message clicked, whose buttons carry this request's id.
   */
  async strayClicked(record: ApprovalRequest, at: DecidedAt): Promise<boolean> {
    const { approvalChannel, approvalTs } = record.slack;
    if ("home" in at || !approvalChannel || !approvalTs || !at.messageTs) return false;
    if (at.channel !== approvalChannel || at.messageTs === approvalTs) return false;
    return this.superseded(record, { approvalChannel, approvalTs: at.messageTs });
  }

  /** Posts the thread line of the person's step at `index` of the history (once per step). */
  async tellStep(record: ApprovalRequest, index: number): Promise<void> {
    const entry = record.history[index];
    const text = entry ? personStepText(record, entry) : undefined;
    if (!entry || !text) return;
    await this.postInThread(this.options.notifier, record, `h${index}:${entry.to}`, text);
  }

  /**
   * The step that approved this placement, said before its outcome. Usually the click's own
   * follow-up said it already (same key: not again); after a crash between the ack and that
   * follow-up, this keeps "Approved by …" above "Ordered".
   */
  async tellLastApproval(record: ApprovalRequest): Promise<void> {
    const index = record.history.findLastIndex((entry) => entry.to === "approved");
    if (index >= 0) await this.tellStep(record, index);
  }

  /**
   * After a change: queues the approval message's and the card's update (rendered when sent),
   * says a new state in the card's thread, and tells the change's listeners (App Home).
   */
  async refresh(id: string): Promise<void> {
    const { notifier } = this.options;
    const read = await this.options.reads.one(id);
    if (!read) return;
    const { record, model } = read;
    await this.options.changed(record);
    const { approvalChannel, approvalTs } = record.slack;
    if (approvalChannel && approvalTs) {
      await notifier.updateRendered({
        scope: scopeOf(record),
        key: `${APPROVAL_MESSAGE}:render`,
        channel: approvalChannel,
        ts: approvalTs,
        ref: `${APPROVAL_MESSAGE}:${record.id}`,
      });
    }
    const { cardChannel, cardTs } = record.slack;
    if (!cardChannel || !cardTs) return;
    // The step's reply in the card's thread, then the card's update. The update does not wait
    // for the reply (the notifier sends kept messages' updates apart from thread lines), so the
    // card may show the state a moment before its reply is in. Keyed by the step: said once.
    if (record.status !== "pending") {
      await notifier.post({
        scope: scopeOf(record),
        key: `card:step:${record.history.length}`,
        channel: cardChannel,
        threadTs: cardTs,
        text: requestCardReplyText(model),
      });
    }
    await notifier.updateRendered({
      scope: scopeOf(record),
      key: `${CARD}:render`,
      channel: cardChannel,
      ts: cardTs,
      ref: `${CARD}:${record.id}`,
    });
  }

  /**
   * Renders what a queued update names, from the request as it is now (the notifier calls this
   * when it sends the update). Undefined when the request is gone.
   */
  render(ref: string): Promise<Reply | undefined> {
    return renderRequestMessage(this.options.reads, ref, this.options.approveConfirmFrom);
  }

  /** The request card as it is rendered everywhere (its first post included). */
  cardView(record: ApprovalRequest): Reply {
    return requestCardOf(record, readRequest(record));
  }

  /** Posts in the request's thread; a request whose message was never posted has none. */
  async postInThread(
    notifier: Pick<LifecycleJobs["notifier"], "post">,
    record: ApprovalRequest,
    key: string,
    text: string,
  ): Promise<void> {
    const { approvalChannel: channel, approvalTs: threadTs } = record.slack;
    if (!channel || !threadTs) return;
    await notifier.post({ scope: scopeOf(record), key, channel, threadTs, text });
  }
}

/**
 * Renders what a queued update names (`message:<id>`, `card:<id>`) from the request as it is
 * now; undefined when the request is gone. Needs only the reads, so the notifier can be given
 * it before the lifecycle (and the jobs it drives) exist: `requestMessageRenderer`.
 */
export async function renderRequestMessage(
  reads: Pick<RequestReads, "one">,
  ref: string,
  approveConfirmFrom?: number,
): Promise<Reply | undefined> {
  const colon = ref.indexOf(":");
  const what = ref.slice(0, colon);
  const read = await reads.one(ref.slice(colon + 1));
  if (!read) return undefined;
  if (what === APPROVAL_MESSAGE) return approvalMessageView(read.model, { approveConfirmFrom });
  if (what === CARD) return requestCardOf(read.record, read.model);
  return undefined;
}

/** The request card of a record and its read model (its first post, each update, the reconciler's). */
export function requestCardOf(record: ApprovalRequest, model: RequestReadModel): Reply {
  const { approvalLink } = record.slack;
  return requestCardView(model, approvalLink ? { approvalLink } : {});
}

/** The notifier scope of everything said about one request. */
export function scopeOf(record: Pick<ApprovalRequest, "id">): string {
  return `approval:${record.id}`;
}

/**
 * The requester's direct message about their request, under `key` of its scope (sent once):
 * marked with the state it tells (views/requestState.ts `stateDm`), so whichever DM is their
 * last says where the request is.
 */
export function requesterDm(
  record: Pick<ApprovalRequest, "id" | "requester">,
  key: string,
  model: Parameters<typeof stateDm>[0],
  text: string,
): PostInput {
  const told = stateDm(model, text);
  return {
    scope: scopeOf(record),
    key,
    channel: record.requester.userId,
    text: told.text,
    ...(told.blocks ? { blocks: told.blocks } : {}),
  };
}
