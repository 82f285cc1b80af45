import type { Job, Queue } from "bullmq";
import type { Logger } from "../../log.js";
import type { Metrics } from "../../metrics.js";
import type { Notifier } from "../notifier/notifier.js";
import { jobIdPart, QUEUE_NAMES } from "../queues.js";
import { CHANNEL_ID } from "../slackIds.js";
import { delayStep, outcomeCounter } from "../stepJob.js";
import { readProviderFailure } from "./providerFailure.js";

/**
 * Polls an asynchronous Edge quote (POST /v2/edge/price/search, then
 * GET /v2/edge/price/result/{responseId} until the result is there: the provider pushes
 * nothing). One step job per quote: each step reads once, then delays itself 1 s, 2 s, 4 s …
 * capped at 30 s, until the quote is ready, definitely failed, or the timeout (10 min) passes.
 * The Slack layer's `onReady`/`onFailed` build and post the message (blocks with buttons).
 *
 * Both callbacks are called at least once: a worker that dies after calling one and before the
 * job completes calls it again on the retry, so they should post with `ctx.notifyScope` and
 * `ctx.notifyKey` (the notifier de-duplicates by key).
 */

/** What reading a quote gave: not ready yet, or the provider's result (opaque here). */
export type QuoteRead<R> = { ready: false } | { ready: true; result: R };

export type ReadQuote<R> = (responseId: string) => Promise<QuoteRead<R>>;

export interface QuoteStartInput {
  /** The responseId of POST /v2/edge/price/search (the quoteKey). */
  responseId: string;
  channel: string;
  threadTs?: string;
  /** Who asked (for an ephemeral answer or a mention). */
  userId: string;
  /** The quotation request as sent, echoed to the callbacks (kept small: it lives in the job). */
  request: unknown;
}

export interface QuoteContext extends QuoteStartInput {
  /** The notification scope of this quote, and a key for the outcome within it, so a repeated
   * callback never posts twice. */
  notifyScope: string;
  notifyKey: string;
  /** How many reads it took. */
  polls: number;
  notifier: Pick<Notifier, "post" | "update">;
}

export interface QuoteCallbacks<R> {
  readQuote: ReadQuote<R>;
  onReady: (result: R, ctx: QuoteContext) => Promise<void>;
  onFailed: (failure: QuoteFailure, ctx: QuoteContext) => Promise<void>;
}

export interface QuotePollerOptions<R> {
  queue: Queue;
  logger: Logger;
  metrics?: Pick<Metrics, "jobOutcomes">;
  notifier: Pick<Notifier, "post" | "update">;
  /** Needed only where quote jobs are processed. */
  callbacks?: QuoteCallbacks<R>;
  now?: () => Date;
  /** Give up after this long. Default 10 minutes. */
  timeoutMs?: number;
  /** First delay between reads; doubles per read. Default 1 s. */
  firstDelayMs?: number;
  /** Largest delay between reads. Default 30 s. */
  maxDelayMs?: number;
}

interface QuoteJobData extends QuoteStartInput {
  startedAt: number;
  polls: number;
}

const MAX_REQUEST_BYTES = 16 * 1024;

export class QuoteInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "QuoteInputError";
  }
}

/**
 * How an Edge quote ended without offers, as a kind: the adapter words it (views/edge/edgeQuote.ts
 * quoteFailureText), so the job layer holds no user-facing text.
 * - `timeout`: not ready after the poller's timeout (`afterMs`).
 * - `not-configured`, `expired`, `provider-error`: the provider's definite quotation errors
 *   (HTTP 400, 404, 500; docs/provider/provider-api.md, Errors).
 * - `partners-failed`: a result whose status is a failed one (read by the adapter's onReady).
 */
export type QuoteFailure =
  | { kind: "timeout"; afterMs: number }
  | { kind: "not-configured"; httpStatus: 400 }
  | { kind: "expired"; httpStatus: 404 }
  | { kind: "provider-error"; httpStatus: 500 }
  | { kind: "partners-failed"; providerStatus?: string };

/**
 * The provider's definite Edge quotation errors (polling again would give the same answer), or
 * undefined: anything else (a timeout, 502/503, a network error) is treated as a hiccup and the
 * polling goes on until the timeout.
 */
export function classifyQuoteFailure(httpStatus: number): QuoteFailure | undefined {
  switch (httpStatus) {
    case 400:
      return { kind: "not-configured", httpStatus };
    case 404:
      return { kind: "expired", httpStatus };
    case 500:
      return { kind: "provider-error", httpStatus };
    default:
      return undefined;
  }
}

export function quoteJobId(responseId: string): string {
  return `quote-${jobIdPart(responseId)}`;
}

export class QuotePoller<R = unknown> {
  private readonly queue: Queue;
  private readonly logger: Logger;
  private readonly count: (outcome: string) => void;
  private readonly notifier: Pick<Notifier, "post" | "update">;
  private readonly callbacks?: QuoteCallbacks<R>;
  private readonly now: () => Date;
  private readonly timeoutMs: number;
  private readonly firstDelayMs: number;
  private readonly maxDelayMs: number;

  constructor(options: QuotePollerOptions<R>) {
    this.queue = options.queue;
    this.logger = options.logger;
    this.count = outcomeCounter(options.metrics, QUEUE_NAMES.quotes);
    this.notifier = options.notifier;
    this.callbacks = options.callbacks;
    this.now = options.now ?? (() => new Date());
    this.timeoutMs = options.timeoutMs ?? 10 * 60_000;
    this.firstDelayMs = options.firstDelayMs ?? 1_000;
    this.maxDelayMs = options.maxDelayMs ?? 30_000;
  }

  /** Starts polling; false when this quote is already being polled. */
  async start(input: QuoteStartInput): Promise<{ started: boolean }> {
    if (typeof input.responseId !== "string" || !/^\S{1,200}$/.test(input.responseId)) {
      throw new QuoteInputError("responseId must be 1–200 characters without spaces");
    }
    if (!CHANNEL_ID.test(input.channel ?? "")) {
      throw new QuoteInputError("channel must be a Slack channel ID");
    }
    const requestBytes = Buffer.byteLength(JSON.stringify(input.request ?? null));
    if (requestBytes > MAX_REQUEST_BYTES) {
      throw new QuoteInputError(`request is too large to keep in a job (${requestBytes} bytes)`);
    }
    const jobId = quoteJobId(input.responseId);
    const existing = await this.queue.getJob(jobId);
    if (existing) {
      const state = await existing.getState();
      if (state !== "completed" && state !== "failed") return { started: false };
      await existing.remove().catch(() => undefined);
    }
    const data: QuoteJobData = {
      responseId: input.responseId,
      channel: input.channel,
      threadTs: input.threadTs,
      userId: input.userId,
      request: input.request ?? null,
      startedAt: this.now().getTime(),
      polls: 0,
    };
    await this.queue.add("poll", data, {
      jobId,
      removeOnComplete: { age: 3600 },
      removeOnFail: { age: 7 * 24 * 3600 },
      attempts: 5,
      backoff: { type: "exponential", delay: 1_000 },
    });
    this.count("started");
    return { started: true };
  }

  /** Whether jobs can be processed here (the callbacks were given): src/workers starts a worker. */
  get canProcess(): boolean {
    return this.callbacks !== undefined;
  }

  /** The step job's processor. */
  async process(job: Job, token: string | undefined): Promise<string> {
    const data = parseJobData(job.data);
    if (!data) {
      this.logger.error({ jobId: job.id }, "quotes: job with invalid data");
      return "invalid-job";
    }
    const callbacks = this.callbacks;
    if (!callbacks) throw new Error("quotes: no readQuote/onReady/onFailed on this worker");
    const ctx = (polls: number): QuoteContext => ({
      responseId: data.responseId,
      channel: data.channel,
      threadTs: data.threadTs,
      userId: data.userId,
      request: data.request,
      notifyScope: `quote:${data.responseId}`,
      notifyKey: "outcome",
      polls,
      notifier: this.notifier,
    });

    const elapsed = this.now().getTime() - data.startedAt;
    if (elapsed >= this.timeoutMs) {
      await callbacks.onFailed({ kind: "timeout", afterMs: this.timeoutMs }, ctx(data.polls));
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
      this.logger.warn(
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
    await job.updateData({ ...data, polls } satisfies QuoteJobData);
    const backoff = Math.min(this.firstDelayMs * 2 ** Math.min(polls - 1, 30), this.maxDelayMs);
    // Wake up at the timeout rather than a full interval after it.
    const delay = Math.max(1, Math.min(backoff, this.timeoutMs - elapsed));
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
