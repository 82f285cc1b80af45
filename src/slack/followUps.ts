import PQueue from "p-queue";
import { within } from "../domain/deadline.js";

export interface FollowUpLaneOptions {
  /** Follow-ups running at once (each waits on the provider and on Slack most of its time). */
  concurrency: number;
  /** Follow-ups allowed to wait for a slot; past this a request is told the bot is busy. */
  maxWaiting: number;
}

/**
 * 5,000 waiting is a burst no workspace sends by hand; at the few hundred follow-ups a second
 * one process completes (npm run bench), the last would start within about 20 seconds.
 */
export const FOLLOW_UP_DEFAULTS: FollowUpLaneOptions = { concurrency: 8, maxWaiting: 5_000 };

export const BUSY_TEXT =
  ":hourglass: I'm handling a lot of requests right now, so this one was not started. Try again in a minute.";

/**
 * The work a `/connect` request does after its ack (provider calls, building and sending the
 * answer), run a bounded number at a time in arrival order.
 *
 * Why: acks and follow-ups share one event loop. Unbounded, a burst of requests starts every
 * follow-up at once; their provider responses and answers then interleave with the next
 * requests' acks, and acks queue behind work that has 30 minutes (a response_url) instead of
 * Slack's 3 seconds. Bounded, a new request's ack waits for at most a few follow-up steps,
 * the provider sees at most `concurrency` calls from this process, and a burst past
 * `maxWaiting` is refused with a message instead of holding memory without limit.
 */
export class FollowUpLane {
  private readonly queue: PQueue;
  private readonly maxWaiting: number;

  constructor(options: FollowUpLaneOptions = FOLLOW_UP_DEFAULTS) {
    this.queue = new PQueue({ concurrency: options.concurrency });
    this.maxWaiting = options.maxWaiting;
  }

  /** False when a new follow-up would be refused; check before acking, to say so in the ack. */
  hasRoom(): boolean {
    return this.queue.size < this.maxWaiting;
  }

  /** Follow-ups waiting for a slot, and running. */
  get load(): { waiting: number; running: number } {
    return { waiting: this.queue.size, running: this.queue.pending };
  }

  /**
   * Runs `work` when a slot is free; resolves when it has finished. `work` handles its own
   * failures (it answers the person); one that throws anyway rejects this promise only.
   */
  run(work: () => Promise<unknown>): Promise<void> {
    return this.queue.add(async () => {
      await work();
    });
  }

  /**
   * Shutdown, once no new requests arrive: every queued request was acked and is owed its
   * answer, so wait for all of it, up to `timeoutMs`.
   */
  async drain(timeoutMs: number): Promise<void> {
    await within(this.queue.onIdle(), timeoutMs, () => undefined);
  }
}
