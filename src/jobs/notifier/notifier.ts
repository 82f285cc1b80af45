import type { Block, KnownBlock } from "@slack/types";
import type { Job } from "bullmq";
import { errorText } from "../errors.js";
import { jobIdPart, QUEUE_NAMES } from "../queues.js";
import {
  delayStep,
  findJob,
  type JobPartOptions,
  outcomeCounter,
  recreateIfLost,
  stepJobOptions,
} from "../stepJob.js";
import { burstWait, type Pace, type PacingSettings, paceAfter } from "./drainPacing.js";
import { type HomePublisher, homeItem, publishHome } from "./homeRefresh.js";
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
  KEPT_UPDATES_OUTBOX,
  type MessageState,
  Outbox,
  type OutboxItem,
  outboxOf,
  parseItem,
} from "./outbox.js";
import {
  type MessageRenderer,
  type RenderedUpdateInput,
  renderedItem,
  sendBurst,
  sendRendered,
} from "./renderedUpdate.js";
import { deliver, type SendOutcome } from "./slackDelivery.js";
import { STEP_GONE_ERRORS } from "./slackFailure.js";

/**
 * Every Slack message of the background side goes through here.
 *
 * Design: a per-channel FIFO outbox in Redis (outbox.ts), drained by ONE step job per channel.
 * Inputs are checked by notifierInput.ts, sent by slackDelivery.ts, paced by drainPacing.ts;
 * App Home refreshes are homeRefresh.ts'.
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
 *   waiting update per message, rendered by the injected `render` when it is sent, so the last
 *   update shows the state as it is then (renderedUpdate.ts). They have one outbox of their own
 *   for every channel (`KEPT_UPDATES_OUTBOX`), paced by chat.update's workspace-wide limit in
 *   bursts (drainPacing.ts): an update carries no order to keep with thread lines, so it never
 *   waits behind a channel's backlog of them (issue 29: after a mass settlement, messages stayed
 *   up to a minute behind their record while the approvals channel drained its replies).
 * - App Home (`refreshHome(userId)`): one outbox per person (`home<userId>`) holding at most
 *   one waiting refresh. The item carries no view: the injected `home` publisher renders the
 *   person's Home from the state at send time, so a burst of changes is one `views.publish`.
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

export interface NotifierOptions extends JobPartOptions {
  /** Needed only where drain jobs are processed. */
  slack?: SlackChatApi;
  /** Ends Workflow Builder steps (`complete` items); needed where drain jobs are processed. */
  functions?: SlackFunctionsApi;
  /** Gap between two messages of one channel; Slack allows about 1 per second. Default 1100. */
  perChannelIntervalMs?: number;
  /** How long a scope's markers de-duplicate after its last message. Default 14 days. */
  markerTtlSeconds?: number;
  /** Transient failures of one message before it is dropped. Default 8. */
  maxAttempts?: number;
  /** Publishes a person's App Home; without it, `refreshHome` queues nothing. */
  home?: HomePublisher;
  /**
   * The notifier's render port: renders a kept message (`updateRendered`) when its update is
   * sent, from the state then (renderedUpdate.ts). Without it, such updates are dropped as
   * `no_renderer`.
   */
  render?: MessageRenderer;
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

export interface DrainJobData {
  /** The outbox drained (outbox.ts `outboxOf`): a channel, `home<user>` or the kept updates'. */
  channel: string;
  gen: string;
  failures?: number;
}

export class Notifier {
  private readonly outbox: Outbox;
  private readonly pacing: PacingSettings;
  private readonly count: (outcome: string) => void;

  constructor(private readonly options: NotifierOptions) {
    this.outbox = new Outbox(
      options.redis,
      options.prefix,
      options.markerTtlSeconds ?? DEFAULT_MARKER_TTL_SECONDS,
    );
    this.pacing = {
      intervalMs: options.perChannelIntervalMs ?? 1_100,
      homeDebounceMs: options.homeDebounceMs ?? 2_000,
      updateIntervalMs: options.updateIntervalMs ?? 1_200,
      updateBurst: Math.max(1, options.updateBurst ?? 10),
      maxAttempts: options.maxAttempts ?? 8,
      retryBaseMs: options.retryBaseMs ?? 2_000,
      retryMaxMs: options.retryMaxMs ?? 5 * 60_000,
    };
    this.count = outcomeCounter(options.metrics, QUEUE_NAMES.notify);
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

  /** The drain job's processor (one message per step). */
  async process(job: Job, token: string | undefined): Promise<string> {
    const { logger, slack } = this.options;
    const data = parseDrainData(job.data);
    if (!data) {
      logger.error({ jobId: job.id }, "notifier: drain job with invalid data");
      return "invalid-job";
    }
    if (!slack) throw new Error("notifier: no Slack client configured on this worker");
    if (data.channel === KEPT_UPDATES_OUTBOX) return this.sendKeptUpdates(job, token, data, slack);
    const { channel, gen } = data;
    // Items that need no Slack call (already sent, unreadable) are settled in a loop; any Slack
    // call ends the step with a delay, so the channel's pace holds.
    for (;;) {
      const head = await this.outbox.head(channel, gen);
      if (head.kind === "stale") return "stale";
      if (head.kind === "empty") return "drained";
      const raw = head.raw;
      const item = parseItem(raw);
      if (!item) {
        await this.outbox.settle(channel, raw, undefined, undefined);
        this.count("dropped");
        logger.error({ channel }, "notifier: dropped an unreadable outbox entry");
        continue;
      }
      if (item.op === "home") {
        const outcome = await publishHome(this.outbox, this.options.home, item);
        await this.afterSend(job, token, data, raw, item, outcome);
      }
      if (item.op === "render") {
        const outcome = await sendRendered(this.outbox, slack, this.options.render, item);
        await this.afterSend(job, token, data, raw, item, outcome);
      }
      const marker = await this.outbox.readMarker(item.sc, item.k);
      if (marker && marker.state !== "queued") {
        // Sent before a crash let the pop happen: never send a key twice.
        await this.outbox.settle(channel, raw, undefined, undefined);
        this.count("duplicate");
        continue;
      }
      const outcome = await deliver(
        slack,
        item,
        (scope, key) => this.resolveTs(scope, key),
        this.options.functions,
      );
      if (item.op === "complete") await this.afterStepEnd(item, outcome);
      await this.afterSend(job, token, data, raw, item, outcome);
    }
  }

  /**
   * A step of the kept messages' updates (one outbox for all channels): a burst of them sent
   * together (renderedUpdate.ts `sendBurst`), each settled as `paceAfter` says, then the wait
   * `burstWait` decides. An update refused with a 429 or failing transiently stays queued for a
   * later burst; the burst's transient failures count as one (a Slack outage fails them all), and
   * the updates still failing after `maxAttempts` bursts are dropped. The wait is served before
   * the next step, which ends the drainer when nothing is left: a new burst never follows at once.
   */
  private async sendKeptUpdates(
    job: Job,
    token: string | undefined,
    data: DrainJobData,
    slack: SlackChatApi,
  ): Promise<string> {
    const head = await this.outbox.head(data.channel, data.gen);
    if (head.kind === "stale") return "stale";
    if (head.kind === "empty") return "drained";
    const { sent, unreadable } = await sendBurst(
      { outbox: this.outbox, slack, render: this.options.render },
      data.channel,
      this.pacing.updateBurst,
    );
    for (const raw of unreadable) {
      await this.outbox.settle(data.channel, raw, undefined, undefined);
      this.count("dropped");
      this.options.logger.error({ outbox: data.channel }, "notifier: dropped an unreadable update");
    }
    const failuresSoFar = data.failures ?? 0;
    const paces: Pace[] = [];
    for (const { raw, item, outcome } of sent) {
      const pace = paceAfter(outcome, item, failuresSoFar, this.pacing);
      await this.applyPace(data.channel, raw, item, pace);
      paces.push(pace);
    }
    await this.keepFailures(job, data, Math.max(0, ...paces.map((pace) => pace.failures)));
    return delayStep(job, token, burstWait(paces, this.pacing));
  }

  /** Carries out the pace decided for this outcome (drainPacing.ts); ends the step. */
  private async afterSend(
    job: Job,
    token: string | undefined,
    data: DrainJobData,
    raw: string,
    item: OutboxItem,
    outcome: SendOutcome,
  ): Promise<never> {
    const pace = paceAfter(outcome, item, data.failures ?? 0, this.pacing);
    await this.applyPace(data.channel, raw, item, pace);
    await this.keepFailures(job, data, pace.failures);
    return delayStep(job, token, pace.delayMs);
  }

  /**
   * What a pace (drainPacing.ts) does to the item in `outbox` (the one being drained): marked and
   * removed, or left queued; counted and logged. The caller carries out its wait.
   */
  private async applyPace(outbox: string, raw: string, item: OutboxItem, pace: Pace) {
    if (pace.marker !== undefined) {
      // A Home refresh or a rendered update leaves no marker (its marker went before rendering:
      // the next change must be able to queue the next one); it is only removed.
      const marked = item.op === "home" || item.op === "render" ? undefined : item;
      await this.outbox.settle(outbox, raw, marked, pace.marker);
    }
    this.count(pace.outcome);
    if (pace.log) {
      const log = { channel: item.ch, key: item.k, op: item.op, ...pace.log.fields };
      this.options.logger[pace.log.level](log, pace.log.message);
    }
  }

  /** Keeps the drain job's count of consecutive failures (in its data: a retried step sees it). */
  private async keepFailures(job: Job, data: DrainJobData, failures: number): Promise<void> {
    if (failures === (data.failures ?? 0)) return;
    const { channel, gen } = data;
    await job.updateData(failures ? { channel, gen, failures } : { channel, gen });
  }

  /**
   * Slack had ended the step already (the workflow was stopped, or timed out): the request goes
   * on, and its thread says that the workflow no longer waits for it (queued once, by key).
   */
  private async afterStepEnd(item: OutboxItem, outcome: SendOutcome): Promise<void> {
    const gone = item.step?.gone;
    if (outcome.kind !== "permanent" || !STEP_GONE_ERRORS.has(outcome.error) || !gone) return;
    await this.post({
      scope: item.sc ?? item.k,
      key: `${item.k}:gone`,
      channel: gone.channel,
      ...(gone.threadTs ? { threadTs: gone.threadTs } : {}),
      text: gone.text,
    });
  }

  private async resolveTs(
    scope: string | undefined,
    messageKey: string | undefined,
  ): Promise<string | undefined> {
    if (!messageKey) return undefined;
    const marker = await this.outbox.readMarker(scope, messageKey);
    return marker?.state === "sent" ? marker.ts : undefined;
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
          ...(item.op === "home" ? { delay: this.pacing.homeDebounceMs } : {}),
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

function parseDrainData(data: unknown): DrainJobData | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const d = data as Partial<DrainJobData>;
  if (typeof d.channel !== "string" || typeof d.gen !== "string") return undefined;
  return {
    channel: d.channel,
    gen: d.gen,
    failures: typeof d.failures === "number" ? d.failures : undefined,
  };
}
