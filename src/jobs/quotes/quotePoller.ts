import type { Queue } from "bullmq";
import type { Metrics } from "../../metrics.js";
import type { Notifier } from "../notifier/notifier.js";
import { jobIdPart, QUEUE_NAMES } from "../queues.js";
import { CHANNEL_ID } from "../slackIds.js";
import { outcomeCounter } from "../stepJob.js";

/**
 * Polls an asynchronous Edge quote (POST /v2/edge/price/search, then
 * GET /v2/edge/price/result/{responseId} until the result is there: the provider pushes
 * nothing). One step job per quote: each step reads once, then delays itself 1 s, 2 s, 4 s …
 * capped at 30 s, until the quote is ready, definitely failed, or the timeout (10 min) passes.
 * This is the producer side (`start`: one job per quote) and the poll's contract; the step runs
 * where workers run (src/workers/quotes.ts), with src/orders' `onReady`/`onFailed`, which build
 * and post the message (blocks with buttons).
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

export interface QuotePollerOptions {
  queue: Queue;
  metrics?: Pick<Metrics, "jobOutcomes">;
  notifier: Pick<Notifier, "post" | "update">;
  now?: () => Date;
  /** Give up after this long. Default 10 minutes. */
  timeoutMs?: number;
  /** First delay between reads; doubles per read. Default 1 s. */
  firstDelayMs?: number;
  /** Largest delay between reads. Default 30 s. */
  maxDelayMs?: number;
}

/** A poll job's data (src/workers/quotes.ts reads it, and writes `polls` back). */
export interface QuoteJobData extends QuoteStartInput {
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

/** The poll's pace and the clock, which the step (src/workers/quotes.ts) reads. */
export interface QuotePollSettings {
  now: () => Date;
  timeoutMs: number;
  firstDelayMs: number;
  maxDelayMs: number;
}

export class QuotePoller {
  readonly settings: QuotePollSettings;
  /** What the poll's callbacks post with (`QuoteContext.notifier`). */
  readonly notifier: Pick<Notifier, "post" | "update">;
  private readonly queue: Queue;
  private readonly count: (outcome: string) => void;

  constructor(options: QuotePollerOptions) {
    this.queue = options.queue;
    this.count = outcomeCounter(options.metrics, QUEUE_NAMES.quotes);
    this.notifier = options.notifier;
    this.settings = {
      now: options.now ?? (() => new Date()),
      timeoutMs: options.timeoutMs ?? 10 * 60_000,
      firstDelayMs: options.firstDelayMs ?? 1_000,
      maxDelayMs: options.maxDelayMs ?? 30_000,
    };
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
      startedAt: this.settings.now().getTime(),
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
}
