import type { Block, KnownBlock } from "@slack/types";
import { errorText } from "../errors.js";
import { jobIdPart, QUEUE_NAMES } from "../queues.js";
import {
  findJob,
  type JobPartOptions,
  outcomeCounter,
  recreateIfLost,
  stepJobOptions,
} from "../stepJob.js";
import { homeItem } from "./homeRefresh.js";
import {
  type CompleteStepInput,
  completeStepItem,
  type PostInput,
  postItem,
  type UpdateInput,
  updateItem,
} from "./notifierInput.js";
import {
  DEFAULT_MARKER_TTL_SECONDS,
  type MessageState,
  Outbox,
  type OutboxItem,
  outboxOf,
} from "./outbox.js";
import { type RenderedUpdateInput, renderedItem } from "./renderedUpdate.js";

/**
 * Every Slack message of the background side goes through here.
 *
 * Design: a per-channel FIFO outbox in Redis (outbox.ts), drained by ONE step job per channel.
 * This is the producer side (queueing, the drain job's add, the repair of lost drain jobs), which
 * any process may use; inputs are checked by notifierInput.ts. The drain job itself runs where
 * workers run: src/workers/notifier (drain.ts, sent by slackDelivery.ts, paced by drainPacing.ts).
 *
 * - Every message has a `key`, unique within its `scope` (one tracked order, one approval
 *   request, one quote). A scope's markers are the fields of one Redis hash that expires 14 days
 *   after the scope's last message, or later where a message asks (`keepForSeconds`): one small
 *   key per scope instead of one per message, which was most of what a tracked order cost.
 * - `post`/`update` run one Lua script: set the key's marker to `queued` (HSETNX: a key already
 *   queued, sent or dropped is a duplicate and is not queued again), append the message to the
 *   channel's outbox list, and, when the channel has no drainer, allocate a new drainer
 *   generation. The caller then adds the drain job `drain-<channel>-<generation>`.
 * - The drain job sends the head of the list, and only then (one script) marks the key `sent`
 *   (with the message ts, so a later update can refer to it) and pops the head. So a retried
 *   job or a second replica never sends a key twice once it is marked; the only duplicate left is
 *   a crash between Slack's answer and that script (at-least-once, as docs/DESIGN.md §5 asks).
 * - After each message the job moves itself to delayed for `perChannelIntervalMs` (Slack allows
 *   about one message per second per channel): channels drain in parallel (one job each), a
 *   channel never faster than its limit.
 * - On HTTP 429 the head stays where it is and the job is delayed by Retry-After: the queue
 *   waits, not the client (whose own retries are off), and later messages of the thread cannot
 *   overtake the rate-limited one. Order within a channel, and so within each thread, is the
 *   order of `post` calls, across 429s and restarts (the list is in Redis).
 * - When the outbox is empty, the job ends its generation in the same script that saw the list
 *   empty, so a concurrent `post` either sees the drainer (and its message is drained by it) or
 *   starts the next generation. Lost drain jobs (a crash between the script and the add, a job
 *   that failed) are re-created by `reconcile()`.
 * - `ok:false` errors that cannot succeed (channel_not_found, not_in_channel, invalid_blocks…)
 *   are logged, counted and dropped; transient failures retry with backoff, then are dropped.
 * - Kept messages (`updateRendered`: a request's approval message and card): at most one
 *   waiting update per message, rendered by the drain's renderer (src/orders'
 *   `requestMessageRenderer`) when it is sent, so the last update shows the state as it is then
 *   (renderedUpdate.ts). They have one outbox of their own for every channel
 *   (`KEPT_UPDATES_OUTBOX`), paced by chat.update's workspace-wide limit in bursts
 *   (src/workers/notifier/drainPacing.ts): an update carries no order to keep with thread lines,
 *   so it never waits behind a channel's backlog of them (issue 29: after a mass settlement, messages stayed
 *   up to a minute behind their record while the approvals channel drained its replies).
 * - App Home (`refreshHome(userId)`): one outbox per person (`home<userId>`) holding at most
 *   one waiting refresh. The item carries no view: the drain's App Home publisher (src/orders)
 *   renders the person's Home from the state at send time, so a burst of changes is one
 *   `views.publish`.
 *   Its drainer starts `homeDebounceMs` after the first change and waits as long after each
 *   publish: at most one publish per person per window, in order with nothing else.
 */

export type SlackBlock = KnownBlock | Block;

/** What callers ask for; checked and made outbox items in notifierInput.ts. */
export type { CompleteStepInput, PostInput, UpdateInput } from "./notifierInput.js";

/** The part of WebClient's `chat` the notifier uses (pass `webClient.chat`). */
export interface SlackChatApi {
  postMessage(args: {
    channel: string;
    text: string;
    thread_ts?: string;
    blocks?: SlackBlock[];
  }): Promise<unknown>;
  update(args: {
    channel: string;
    ts: string;
    text: string;
    blocks?: SlackBlock[];
  }): Promise<unknown>;
}

/**
 * The part of WebClient's `functions` the notifier uses (pass `webClient.functions`): ending a
 * Workflow Builder step, with the step's own token (`token` overrides the client's).
 */
export interface SlackFunctionsApi {
  completeSuccess(args: {
    token: string;
    function_execution_id: string;
    outputs: Record<string, unknown>;
  }): Promise<unknown>;
  completeError(args: {
    token: string;
    function_execution_id: string;
    error: string;
  }): Promise<unknown>;
}

export type EnqueueResult = { queued: true } | { queued: false; reason: "duplicate" };

/**
 * The notifier's tuning, given to startJobs (`notifierSettings`). The producer uses the marker
 * TTL and the Home debounce; the rest is the drain's (src/workers/notifier), read from
 * `notifier.settings` where drain jobs are processed.
 */
export interface NotifierSettings {
  /** Gap between two messages of one channel; Slack allows about 1 per second. Default 1100. */
  perChannelIntervalMs?: number;
  /** How long a scope's markers de-duplicate after its last message. Default 14 days. */
  markerTtlSeconds?: number;
  /** Transient failures of one message before it is dropped. Default 8. */
  maxAttempts?: number;
  /**
   * Kept messages' updates: on average one per this, across all channels (chat.update is Slack's
   * Tier 3, about 50 a minute per workspace). Default 1200.
   */
  updateIntervalMs?: number;
  /** Kept messages' updates sent back to back before their outbox waits (Tier 3 tolerates
   * bursts). Default 10. */
  updateBurst?: number;
  /** App Home: a person's Home is published at most once per this window. Default 2000. */
  homeDebounceMs?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
}

/** App Home: at most one publish per person per this window, unless tuned. */
export const DEFAULT_HOME_DEBOUNCE_MS = 2_000;

export interface NotifierOptions extends JobPartOptions, NotifierSettings {}

export interface DrainJobData {
  /** The outbox drained (outbox.ts `outboxOf`): a channel, `home<user>` or the kept updates'. */
  channel: string;
  gen: string;
  failures?: number;
}

export class Notifier {
  /** The outboxes in Redis: the drain (src/workers/notifier) reads and settles them. */
  readonly outbox: Outbox;
  private readonly homeDebounceMs: number;
  private readonly count: (outcome: string) => void;

  constructor(private readonly options: NotifierOptions) {
    this.outbox = new Outbox(
      options.redis,
      options.prefix,
      options.markerTtlSeconds ?? DEFAULT_MARKER_TTL_SECONDS,
    );
    this.homeDebounceMs = options.homeDebounceMs ?? DEFAULT_HOME_DEBOUNCE_MS;
    this.count = outcomeCounter(options.metrics, QUEUE_NAMES.notify);
  }

  /** The tuning it was built with (the drain's pace and retries are read from here). */
  get settings(): NotifierSettings {
    return this.options;
  }

  /** Queues a message (a thread reply when `threadTs` is set). Duplicate keys are not queued. */
  async post(input: PostInput): Promise<EnqueueResult> {
    return this.enqueue(postItem(input));
  }

  /** Queues a chat.update of an existing message, in order with the channel's posts. */
  async update(input: UpdateInput): Promise<EnqueueResult> {
    return this.enqueue(updateItem(input));
  }

  /**
   * Queues the end of a Workflow Builder step. Its key counts once like a message's: however
   * often a request's end is seen (replicas, retries, restarts), the step is ended once.
   */
  async completeStep(input: CompleteStepInput): Promise<EnqueueResult> {
    return this.enqueue(completeStepItem(input));
  }

  /**
   * Queues an update of a message rendered when it is sent (renderedUpdate.ts), unless one is
   * already waiting for the same key (it will show this change too). Returns `duplicate` then.
   */
  async updateRendered(input: RenderedUpdateInput): Promise<EnqueueResult> {
    return this.enqueue(renderedItem(input));
  }

  /**
   * Queues a refresh of a person's App Home, unless one is already waiting (it will show this
   * change too: the view is rendered when it is sent). Returns `duplicate` then.
   */
  async refreshHome(userId: string): Promise<EnqueueResult> {
    return this.enqueue(homeItem(userId));
  }

  /** What happened to a message: queued, sent (with its ts) or dropped; null if unknown. */
  status(scope: string, key: string): Promise<MessageState | null> {
    return this.outbox.readMarker(scope, key);
  }

  /** Messages waiting in a channel's outbox. */
  outboxLength(channel: string): Promise<number> {
    return this.outbox.length(channel);
  }

  /** Messages waiting in all outboxes (for the queue depth gauge). */
  totalOutboxLength(): Promise<number> {
    return this.outbox.totalLength();
  }

  /**
   * Re-creates the drain job of every channel that has queued messages but no live drain job
   * (lost between the enqueue script and the add, or failed). Returns how many were re-created.
   */
  async reconcile(): Promise<number> {
    let recreated = 0;
    for (const channel of await this.outbox.channels()) {
      const { action, gen } = await this.outbox.revive(channel);
      if (action === 0) {
        // Nothing queued: a leftover channel entry (e.g. a drainer whose job was lost).
        if ((await this.outbox.length(channel)) === 0) {
          const drainerGen = await this.outbox.drainer(channel);
          const drainJob = drainerGen ? drainJobId(channel, drainerGen) : undefined;
          const alive = drainJob ? (await findJob(this.options.queue, drainJob)).live : false;
          if (!alive) await this.outbox.dropChannel(channel);
        }
        continue;
      }
      const jobId = drainJobId(channel, gen);
      const found = await recreateIfLost(this.options.queue, jobId, () =>
        this.options.queue.add("drain", { channel, gen }, drainJobOptions(jobId)),
      );
      if (found.recreated) {
        recreated += 1;
        this.options.logger.warn({ channel, jobId }, "notifier: re-created a lost drain job");
      }
    }
    return recreated;
  }

  private async enqueue(item: OutboxItem): Promise<EnqueueResult> {
    const { action, gen } = await this.outbox.enqueue(item);
    if (action === 0) {
      this.count("duplicate");
      return { queued: false, reason: "duplicate" };
    }
    if (action === 2) {
      // A drain job per outbox: a channel's, a person's Home, or the kept messages' updates.
      const outbox = outboxOf(item);
      try {
        await this.options.queue.add("drain", { channel: outbox, gen } satisfies DrainJobData, {
          ...drainJobOptions(drainJobId(outbox, gen)),
          // A Home refresh waits for the rest of a burst of changes.
          ...(item.op === "home" ? { delay: this.homeDebounceMs } : {}),
        });
      } catch (error) {
        // The message is safe in the outbox; reconcile() starts its drainer.
        this.options.logger.error(
          { channel: item.ch, err: errorText(error) },
          "notifier: could not add the drain job; the reconciler will",
        );
      }
    }
    return { queued: true };
  }
}

export function drainJobId(channel: string, gen: string): string {
  return `drain-${jobIdPart(channel)}-${gen}`;
}

function drainJobOptions(jobId: string) {
  return stepJobOptions(jobId, {
    keepFailedDays: 7,
    // Only unexpected errors (Redis) count as attempts; Slack failures are handled in the step.
    attempts: 10,
    backoff: { type: "exponential", delay: 1_000 },
  });
}
