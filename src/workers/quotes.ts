import type { Job } from "bullmq";
import {
  classifyQuoteFailure,
  delayStep,
  type JobPartOptions,
  outcomeCounter,
  QUEUE_NAMES,
  type QuoteCallbacks,
  type QuoteContext,
  type QuoteJobData,
  type QuotePoller,
  type QuoteRead,
  readProviderFailure,
} from "../jobs/index.js";

/**
 * A step of an Edge quote's poll (src/jobs/quotes/quotePoller.ts starts it: one job per quote):
 * reads the quote once with src/orders' `readQuote`, then hands the offers to `onReady`, or a
 * definite failure or the timeout to `onFailed` (src/orders/edge/callbacks.ts, called down from
 * here), else delays itself 1 s, 2 s, 4 s … capped at 30 s. Both callbacks may be called again
 * after a crash (at least once): they post under `ctx.notifyScope` and `ctx.notifyKey`.
 */
export class QuotePoll<R = unknown> {
  private readonly count: (outcome: string) => void;

  constructor(
    private readonly poller: Pick<QuotePoller, "settings" | "notifier">,
    private readonly callbacks: QuoteCallbacks<R>,
    private readonly part: Pick<JobPartOptions, "logger" | "metrics">,
  ) {
    this.count = outcomeCounter(part.metrics, QUEUE_NAMES.quotes);
  }

  /** The step job's processor. */
  async process(job: Job, token: string | undefined): Promise<string> {
    const data = parseJobData(job.data);
    if (!data) {
      this.part.logger.error({ jobId: job.id }, "quotes: job with invalid data");
      return "invalid-job";
    }
    const { callbacks } = this;
    const { now, timeoutMs } = this.poller.settings;
    const ctx = (polls: number): QuoteContext => ({
      responseId: data.responseId,
      channel: data.channel,
      threadTs: data.threadTs,
      userId: data.userId,
      request: data.request,
      notifyScope: `quote:${data.responseId}`,
      notifyKey: "outcome",
      polls,
      notifier: this.poller.notifier,
    });

    const elapsed = now().getTime() - data.startedAt;
    if (elapsed >= timeoutMs) {
      await callbacks.onFailed({ kind: "timeout", afterMs: timeoutMs }, ctx(data.polls));
      this.count("timeout");
      return "timeout";
    }

    const polls = data.polls + 1;
    let read: QuoteRead<R>;
    try {
      read = await callbacks.readQuote(data.responseId);
    } catch (error) {
      const failure = readProviderFailure(error);
      const definite =
        failure.httpStatus !== undefined ? classifyQuoteFailure(failure.httpStatus) : undefined;
      if (definite) {
        await callbacks.onFailed(definite, ctx(polls));
        this.count(`failed_${failure.httpStatus}`);
        return `failed:${failure.httpStatus}`;
      }
      this.part.logger.warn(
        { responseId: data.responseId, polls, httpStatus: failure.httpStatus, err: failure.detail },
        "quotes: reading the quote failed; will poll again",
      );
      this.count("read_failed");
      return this.again(job, token, data, polls, elapsed);
    }
    if (read.ready) {
      await callbacks.onReady(read.result, ctx(polls));
      this.count("ready");
      return "ready";
    }
    return this.again(job, token, data, polls, elapsed);
  }

  private async again(
    job: Job,
    token: string | undefined,
    data: QuoteJobData,
    polls: number,
    elapsed: number,
  ): Promise<never> {
    const { firstDelayMs, maxDelayMs, timeoutMs } = this.poller.settings;
    await job.updateData({ ...data, polls } satisfies QuoteJobData);
    const backoff = Math.min(firstDelayMs * 2 ** Math.min(polls - 1, 30), maxDelayMs);
    // Wake up at the timeout rather than a full interval after it.
    const delay = Math.max(1, Math.min(backoff, timeoutMs - elapsed));
    return delayStep(job, token, delay);
  }
}

function parseJobData(data: unknown): QuoteJobData | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const d = data as Partial<QuoteJobData>;
  if (
    typeof d.responseId !== "string" ||
    typeof d.channel !== "string" ||
    typeof d.userId !== "string" ||
    typeof d.startedAt !== "number"
  ) {
    return undefined;
  }
  return {
    responseId: d.responseId,
    channel: d.channel,
    threadTs: typeof d.threadTs === "string" ? d.threadTs : undefined,
    userId: d.userId,
    request: d.request,
    startedAt: d.startedAt,
    polls: typeof d.polls === "number" ? d.polls : 0,
  };
}
