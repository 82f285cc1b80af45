import { isSlackUserId, MAX_USER_ID } from "../domain/slackIds.js";
import type { SlackBlock } from "./notifier/notifier.js";
import { jobIdPart, QUEUE_NAMES, stateKey } from "./queues.js";
import { type JobPartOptions, outcomeCounter } from "./stepJob.js";

/**
 * Edge draft expiry reminders. The provider deletes an Edge draft 30 days after it was saved
 * (docs/provider/provider-api.md); a draft saved through the bot is remembered here, and its
 * creator gets a direct message 3 days and 1 day before (at 27 and 29 days), with Open and Delete
 * buttons. This is the producer side (remember, forget, checkDue) and the record; the reminder's
 * step runs where workers run (src/workers/draftReminders.ts), with src/orders' callbacks.
 *
 * - One delayed BullMQ job per reminder, with a deterministic id (`draft-<id>-d3`, `-d1`): saving
 *   the same draft twice, or two replicas, never queue a second one; the message goes through
 *   the notifier under a key of its own (`draft-reminder:d3`), so a re-run never posts twice.
 * - Times are on the provider's clock (`now`): the sandbox's in sandbox mode, which the
 *   playground moves forward. A job runs on real time, never before its time on that clock (a
 *   clock behind real time delays it again); `checkDue()` promotes the jobs due on that clock
 *   after it moved ahead, as the tracker's `checkNow` does for orders.
 * - No reminder for a draft already ordered or deleted: through the bot it is `forget`-ten
 *   (its jobs removed); anywhere else (the portal, an order placed from it), the provider's list
 *   no longer has it when the reminder is due (`draftExists`), and nothing is sent.
 */

const DAY_MS = 24 * 3_600_000;
/** The provider's retention of a draft (docs/provider/provider-api.md: "stored for 30 days"). */
export const DRAFT_RETENTION_DAYS = 30;
/** Days before deletion at which the creator is reminded. */
export const DRAFT_REMINDER_DAYS_LEFT = [3, 1] as const;

export interface DraftReminder {
  draftId: string;
  name: string;
  /** The Slack user who saved it: the reminder goes to their DM. */
  userId: string;
  daysLeft: number;
}

export interface DraftReminderCallbacks {
  /** Whether the provider still has the draft (false: ordered or deleted). */
  draftExists(draftId: string): Promise<boolean>;
  /** The reminder's message (built in views/, with its buttons and the sandbox label). */
  message(reminder: DraftReminder): { text: string; blocks: SlackBlock[] };
}

export interface DraftRemindersOptions extends JobPartOptions {
  /** The provider's clock (the sandbox's in sandbox mode). */
  now?: () => Date;
}

/** A reminder job's data (src/workers/draftReminders.ts reads it). */
export interface ReminderJob {
  draftId: string;
  daysLeft: number;
  /** When it is due, on the provider's clock (ms). */
  dueAt: number;
}

export function draftReminderJobId(draftId: string, daysLeft: number): string {
  return `draft-${jobIdPart(draftId)}-d${daysLeft}`;
}

export class DraftReminders {
  private readonly now: () => Date;
  private readonly count: (outcome: string) => void;

  constructor(private readonly options: DraftRemindersOptions) {
    this.now = options.now ?? (() => new Date());
    this.count = outcomeCounter(options.metrics, QUEUE_NAMES.drafts);
  }

  private recordKey(draftId: string): string {
    return stateKey(this.options.prefix, "drafts", jobIdPart(draftId));
  }

  private dueKey(): string {
    return stateKey(this.options.prefix, "drafts", "due");
  }

  /**
   * Remembers a draft saved through the bot and queues its reminders. `createdAt` is the
   * provider's (on its clock); reminders already past are not sent (a draft saved 28 days ago
   * gets only the 1-day one).
   */
  async remember(input: {
    draftId: string;
    name: string;
    userId: string;
    createdAt: Date;
  }): Promise<number> {
    if (!isSlackUserId(input.userId) || input.userId.length > MAX_USER_ID)
      throw new Error("a draft's creator must be a user id");
    const created = input.createdAt.getTime();
    if (!Number.isFinite(created)) throw new Error("a draft needs its creation time");
    const key = this.recordKey(input.draftId);
    const deletedAt = created + DRAFT_RETENTION_DAYS * DAY_MS;
    const now = this.now().getTime();
    await this.options.redis
      .multi()
      .hset(key, {
        id: input.draftId,
        name: input.name.slice(0, 200),
        user: input.userId,
        created: String(created),
        state: "open",
      })
      // Kept until the provider deletes the draft, a day more (real time runs no faster).
      .pexpire(key, Math.max(deletedAt - now, 0) + DAY_MS)
      .exec();
    let queued = 0;
    for (const daysLeft of DRAFT_REMINDER_DAYS_LEFT) {
      const dueAt = deletedAt - daysLeft * DAY_MS;
      if (dueAt <= now - DAY_MS) continue; // that day has passed
      const jobId = draftReminderJobId(input.draftId, daysLeft);
      await this.options.queue.add(
        "remind",
        { draftId: input.draftId, daysLeft, dueAt } satisfies ReminderJob,
        {
          jobId,
          delay: Math.max(0, dueAt - now),
          removeOnComplete: true,
          removeOnFail: { count: 100 },
          attempts: 5,
          backoff: { type: "exponential", delay: 30_000 },
        },
      );
      await this.options.redis.zadd(this.dueKey(), dueAt, jobId);
      queued++;
    }
    return queued;
  }

  /** A draft ordered or deleted through the bot: its reminders go. */
  async forget(draftId: string, why: "ordered" | "deleted"): Promise<void> {
    const key = this.recordKey(draftId);
    if (await this.options.redis.exists(key)) await this.options.redis.hset(key, "state", why);
    for (const daysLeft of DRAFT_REMINDER_DAYS_LEFT) {
      const jobId = draftReminderJobId(draftId, daysLeft);
      const job = await this.options.queue.getJob(jobId);
      // An active job finds the record no longer open and sends nothing.
      await job?.remove().catch(() => undefined);
      await this.options.redis.zrem(this.dueKey(), jobId);
    }
  }

  /**
   * Promotes the reminders due on the provider's clock (after the sandbox's clock moved ahead
   * of real time). Returns how many were promoted.
   */
  async checkDue(): Promise<number> {
    const ids = await this.options.redis.zrangebyscore(
      this.dueKey(),
      "-inf",
      String(this.now().getTime()),
    );
    let promoted = 0;
    for (const id of ids) {
      const job = await this.options.queue.getJob(id);
      if (!job) {
        await this.options.redis.zrem(this.dueKey(), id);
        continue;
      }
      if (await job.isDelayed()) {
        await job.promote().catch(() => undefined);
        promoted++;
      }
    }
    return promoted;
  }

  /**
   * The creator and name of a draft still `open` here (neither ordered, deleted nor gone), for
   * its reminder (src/workers/draftReminders.ts); undefined otherwise.
   */
  async openDraft(draftId: string): Promise<{ name: string; userId: string } | undefined> {
    const record = await this.options.redis.hgetall(this.recordKey(draftId));
    if (
      record.state !== "open" ||
      !record.user ||
      !isSlackUserId(record.user) ||
      record.user.length > MAX_USER_ID
    )
      return;
    return { name: record.name ?? draftId, userId: record.user };
  }

  /** The provider no longer has the draft (ordered or deleted elsewhere): no reminder. */
  async markGone(draftId: string): Promise<void> {
    await this.options.redis.hset(this.recordKey(draftId), "state", "gone");
  }

  /** A reminder's job is over (sent, skipped, invalid): it is no longer due. */
  async settle(jobId: string | undefined, outcome: string): Promise<void> {
    if (jobId) await this.options.redis.zrem(this.dueKey(), jobId);
    this.count(outcome);
  }

  /** The provider's clock (the sandbox's in sandbox mode). */
  providerNow(): Date {
    return this.now();
  }
}
