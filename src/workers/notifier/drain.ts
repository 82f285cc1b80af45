import type { Job } from "bullmq";
import {
  DEFAULT_HOME_DEBOUNCE_MS,
  type DrainJobData,
  delayStep,
  type JobPartOptions,
  KEPT_UPDATES_OUTBOX,
  type Notifier,
  type Outbox,
  type OutboxItem,
  outcomeCounter,
  parseItem,
  QUEUE_NAMES,
  type SlackChatApi,
  type SlackFunctionsApi,
} from "../../jobs/index.js";
import type { AppHomePublisher } from "../../orders/appHome.js";
import type { MessageRenderer } from "../../orders/index.js";
import { burstWait, type Pace, type PacingSettings, paceAfter } from "./drainPacing.js";
import { publishHome } from "./homePublish.js";
import { sendBurst, sendRendered } from "./renderedSend.js";
import { deliver, type SendOutcome } from "./slackDelivery.js";
import { STEP_GONE_ERRORS } from "./slackFailure.js";

/**
 * The notifier's drain job (src/jobs/notifier/notifier.ts queues the messages and adds the
 * job): one step job per outbox sends its head and moves itself to delayed for the outbox's pace
 * (drainPacing.ts), so channels drain in parallel, each no faster than Slack allows, in the order
 * of their posts across 429s and restarts. Kept messages' updates go out in bursts, rendered by
 * src/orders' renderer when sent (renderedSend.ts); a person's App Home refresh is published by
 * src/orders' App Home publisher (homePublish.ts). A front door like a Slack listener: it calls
 * down into src/orders and src/jobs, and nothing below calls it.
 */

export interface NotifierDrainOptions {
  /** The producer side: its outbox, its tuning, and posts (a step Slack had already ended). */
  notifier: Notifier;
  /** The logger and metrics of the notify queue's part (`jobs.partOptions("notify")`). */
  part: Pick<JobPartOptions, "logger" | "metrics">;
  /**
   * WebClient's `chat` (with `rejectRateLimitedCalls: true` and `retryConfig: {retries: 0}`, so
   * a 429 comes back to the queue).
   */
  slack: SlackChatApi;
  /** WebClient's `functions`: ends Workflow Builder steps (`complete` items). */
  functions?: SlackFunctionsApi;
  /**
   * Renders a kept message (a request's approval message or card) from the latest state when its
   * update is sent: src/orders' `requestMessageRenderer`. Without it, such updates are dropped as
   * `no_renderer`.
   */
  render?: MessageRenderer;
  /** Renders and publishes a person's App Home (src/orders/appHome.ts); without it, refreshes
   * are dropped as `no_home_publisher`. */
  home?: AppHomePublisher;
}

export class NotifierDrain {
  private readonly outbox: Outbox;
  private readonly pacing: PacingSettings;
  private readonly count: (outcome: string) => void;
  private readonly logger: JobPartOptions["logger"];

  constructor(private readonly options: NotifierDrainOptions) {
    const settings = options.notifier.settings;
    this.outbox = options.notifier.outbox;
    this.logger = options.part.logger;
    this.pacing = {
      intervalMs: settings.perChannelIntervalMs ?? 1_100,
      homeDebounceMs: settings.homeDebounceMs ?? DEFAULT_HOME_DEBOUNCE_MS,
      updateIntervalMs: settings.updateIntervalMs ?? 1_200,
      updateBurst: Math.max(1, settings.updateBurst ?? 10),
      maxAttempts: settings.maxAttempts ?? 8,
      retryBaseMs: settings.retryBaseMs ?? 2_000,
      retryMaxMs: settings.retryMaxMs ?? 5 * 60_000,
    };
    this.count = outcomeCounter(options.part.metrics, QUEUE_NAMES.notify);
  }

  /** The drain job's processor (one message per step). */
  async process(job: Job, token: string | undefined): Promise<string> {
    const { logger } = this;
    const { slack } = this.options;
    const data = parseDrainData(job.data);
    if (!data) {
      logger.error({ jobId: job.id }, "notifier: drain job with invalid data");
      return "invalid-job";
    }
    if (data.channel === KEPT_UPDATES_OUTBOX) return this.sendKeptUpdates(job, token, data);
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
   * together (renderedSend.ts `sendBurst`), each settled as `paceAfter` says, then the wait
   * `burstWait` decides. An update refused with a 429 or failing transiently stays queued for a
   * later burst; the burst's transient failures count as one (a Slack outage fails them all), and
   * the updates still failing after `maxAttempts` bursts are dropped. The wait is served before
   * the next step, which ends the drainer when nothing is left: a new burst never follows at once.
   */
  private async sendKeptUpdates(
    job: Job,
    token: string | undefined,
    data: DrainJobData,
  ): Promise<string> {
    const { slack } = this.options;
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
      this.logger.error({ outbox: data.channel }, "notifier: dropped an unreadable update");
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
      this.logger[pace.log.level](log, pace.log.message);
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
    await this.options.notifier.post({
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
