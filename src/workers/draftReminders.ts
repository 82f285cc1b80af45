import type { Job } from "bullmq";
import {
  type DraftReminder,
  type DraftReminderCallbacks,
  type DraftReminders,
  delayStep,
  jobIdPart,
  type Notifier,
  type ReminderJob,
} from "../jobs/index.js";
import type { Logger } from "../log.js";

/**
 * An Edge draft's expiry reminder, when its job is due (src/jobs/draftReminders.ts queues it): on
 * the provider's clock, to the creator of a draft still open here and still at the provider
 * (src/orders' `draftExists`), worded by src/orders' `message`, sent once through the notifier
 * (scope `draft:<id>`, key `draft-reminder:d<days>`).
 */
export class DraftReminding {
  constructor(
    private readonly reminders: Pick<
      DraftReminders,
      "openDraft" | "markGone" | "settle" | "providerNow"
    >,
    private readonly callbacks: DraftReminderCallbacks,
    private readonly notifier: Pick<Notifier, "post">,
    private readonly logger: Logger,
  ) {}

  /** The worker's step: sends the reminder when due and the draft is still there. */
  async process(job: Job, token?: string): Promise<string> {
    const { draftId, daysLeft, dueAt } = job.data as Partial<ReminderJob>;
    if (typeof draftId !== "string" || typeof daysLeft !== "number" || typeof dueAt !== "number")
      return this.done(job, "invalid");
    const early = dueAt - this.reminders.providerNow().getTime();
    if (early > 0) {
      // Real time ran ahead of the provider's clock: wait for the clock.
      return delayStep(job, token, early);
    }
    const draft = await this.reminders.openDraft(draftId);
    if (!draft) return this.done(job, "skipped");
    if (!(await this.callbacks.draftExists(draftId))) {
      await this.reminders.markGone(draftId);
      return this.done(job, "skipped");
    }
    const reminder: DraftReminder = { draftId, ...draft, daysLeft };
    const message = this.callbacks.message(reminder);
    await this.notifier.post({
      scope: `draft:${jobIdPart(draftId)}`,
      key: `draft-reminder:d${daysLeft}`,
      channel: reminder.userId,
      text: message.text,
      blocks: message.blocks,
    });
    this.logger.info(
      { draftId, daysLeft, userId: reminder.userId },
      "edge draft expiry reminder sent",
    );
    return this.done(job, "reminded");
  }

  private async done(job: Job, outcome: string): Promise<string> {
    await this.reminders.settle(job.id, outcome);
    return outcome;
  }
}
