import { approvalMessageView } from "../../views/approvals.js";
import { personStepText } from "../../views/approvalThread.js";
import type { OrderProgress } from "../../views/orderProgress.js";
import type { Reply } from "../../views/reply.js";
import { requestCardReplyText, requestCardView } from "../../views/requestCard.js";
import type { ApprovalRequest, ApprovalStore } from "../approvals/index.js";
import type { LifecycleJobs } from "./lifecycle.js";
import type { LifecycleNotes } from "./lifecycleNotes.js";
import type { ProgressStore } from "./progress.js";

/**
 * The two messages every request has and its thread: the approval message (in the approvals
 * channel, with the approvers' buttons) and the request card (where the request was asked),
 * kept showing the request as it is now. Apart from lifecycle.ts because how a message follows
 * the record (versions, ordered writers, the re-read after enqueueing) is one concern of its
 * own, whatever step caused the change.
 */

/** A stale message update is followed by a fresh one at most this many times per call. */
const MAX_REFRESH_ROUNDS = 3;

export interface RequestMessagesOptions {
  get: ApprovalStore["get"];
  notes: LifecycleNotes;
  progress: ProgressStore;
  jobs: () => Promise<LifecycleJobs>;
  /** Told of every change of a request (each one refreshes its messages). */
  changed: (record: ApprovalRequest) => Promise<void>;
  /** APPROVE_CONFIRM_FROM: the approval message's Approve asks first from this monthly amount. */
  approveConfirmFrom?: number;
}

export class RequestMessages {
  constructor(private readonly options: RequestMessagesOptions) {}

  /** Posts the thread line of the person's step at `index` of the history (once per step). */
  async tellStep(record: ApprovalRequest, index: number): Promise<void> {
    const entry = record.history[index];
    const text = entry ? personStepText(record, entry) : undefined;
    if (!entry || !text) return;
    const jobs = await this.options.jobs();
    await this.postInThread(jobs.notifier, record, `h${index}:${entry.to}`, text);
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
   * Updates the approval message and the request card to the request as it is now (its record,
   * and for a placed order what tracking said), and says a new state in the card's thread. Two
   * writers (a click, a placement or tracking job) may render concurrently and enqueue out of
   * order; the notifier sends in enqueue order, so after enqueueing, the record is read again:
   * if it moved on meanwhile, the newer state is enqueued after ours. The last update queued
   * therefore shows the latest state, on both messages, from the same read.
   */
  async refresh(id: string): Promise<void> {
    const jobs = await this.options.jobs();
    let state = await this.readState(id);
    // Every change of a request comes through here (each step updates its message).
    if (state) await this.options.changed(state.record);
    let previous: string | undefined;
    for (let round = 0; state && round < MAX_REFRESH_ROUNDS; round += 1) {
      const { record, lookUp, progress, version } = state;
      const key = previous ? `${version}:after:${previous}` : version;
      const { approvalChannel: channel, approvalTs: ts } = record.slack;
      if (channel && ts) {
        const view = approvalMessageView(record, {
          lastLookUp: lookUp?.kind,
          progress,
          approveConfirmFrom: this.options.approveConfirmFrom,
        });
        await jobs.notifier.update({
          ...messageAt(record, channel, ts, view),
          key: `message:${key}`,
        });
      }
      await this.updateCard(jobs, record, progress, key);
      const latest = await this.readState(id);
      if (!latest || latest.version === version) return;
      previous = version;
      state = latest;
    }
  }

  /** The request card as it is rendered everywhere (its first post included). */
  cardView(record: ApprovalRequest, progress?: OrderProgress) {
    const { approvalLink } = record.slack;
    return requestCardView(record, {
      ...(progress ? { progress } : {}),
      ...(approvalLink ? { approvalLink } : {}),
    });
  }

  /** Posts in the request's thread; a request whose message was never posted has none. */
  async postInThread(
    notifier: LifecycleJobs["notifier"],
    record: ApprovalRequest,
    key: string,
    text: string,
  ): Promise<void> {
    const { approvalChannel: channel, approvalTs: threadTs } = record.slack;
    if (!channel || !threadTs) return;
    await notifier.post({ scope: scopeOf(record), key, channel, threadTs, text });
  }

  /** The request as it is now and its version (what changes it: steps, look-ups, tracking). */
  private async readState(id: string) {
    const record = await this.options.get(id);
    if (!record) return undefined;
    const lookUp =
      record.status === "unknown" ? await this.options.notes.lastLookUp(record) : undefined;
    const tracked = record.status === "placed" ? await this.options.progress.get(id) : undefined;
    const version = `r${record.history.length}${lookUp ? `l${lookUp.count}` : ""}${tracked ? `p${tracked.n}` : ""}`;
    return { record, lookUp, progress: tracked?.progress, version };
  }

  /**
   * The request card (where the request was asked, or the requester's DM; posted by the Slack
   * layer at submission): updated in place, and each step of the record said in its thread.
   */
  private async updateCard(
    jobs: LifecycleJobs,
    record: ApprovalRequest,
    progress: OrderProgress | undefined,
    key: string,
  ): Promise<void> {
    const { cardChannel: channel, cardTs: ts } = record.slack;
    if (!channel || !ts) return;
    const view = this.cardView(record, progress);
    // The step's reply first, then the card: a reader who opens the thread sees the card's
    // state as its last word. Keyed by the step, so a repeated refresh says it once.
    if (record.status !== "pending") {
      await jobs.notifier.post({
        scope: scopeOf(record),
        key: `card:step:${record.history.length}`,
        channel,
        threadTs: ts,
        text: requestCardReplyText(record, undefined),
      });
    }
    await jobs.notifier.update({ ...messageAt(record, channel, ts, view), key: `card:${key}` });
  }
}

/** A message of the request's to update in place with `view` (the caller adds the key). */
function messageAt(record: ApprovalRequest, channel: string, ts: string, view: Reply) {
  return { scope: scopeOf(record), channel, ts, text: view.text, blocks: view.blocks };
}

/** The notifier scope of everything said about one request. */
export function scopeOf(record: Pick<ApprovalRequest, "id">): string {
  return `approval:${record.id}`;
}
