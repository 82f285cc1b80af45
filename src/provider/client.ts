// The one place that creates the openapi-fetch client of the provider API. Cross-cutting
// concerns live here: a middleware names the operation and adds the bearer key; a custom
// `fetch` does the per-attempt timeout, retries (safe reads only), logging, metrics and turns
// every failure into a ProviderError. Callers therefore only ever see successful data.

import { setTimeout as sleep } from "node:timers/promises";
import createClient, { type Client, type Middleware } from "openapi-fetch";
import { currentRequestId, newRequestId } from "../context.js";
import { type Logger, REDACTION_MARK, scrubSecrets } from "../log.js";
import type { Metrics } from "../metrics.js";
import {
  cancelledError,
  httpError,
  invalidResponseError,
  networkError,
  type ProviderCall,
  type ProviderError,
  parseRetryAfter,
  timeoutError,
} from "./errors.js";
import type { paths } from "./generated/provider.js";
import { type OperationId, operationIdFor, providerCallFor } from "./operations.js";

// ---------------------------------------------------------------------------------------------
// Options

export interface RetryOptions {
  /** Attempts in all for a safe read (GET), the first included. Writes get exactly one. */
  attempts: number;
  baseDelayMs: number;
  /** Cap of a backoff delay, and of a Retry-After we are willing to wait for. */
  maxDelayMs: number;
}

export interface AttemptInfo {
  operation: string;
  method: string;
  /** The request path (no query). */
  path: string;
  attempt: number;
  requestId: string;
}

export interface ProviderClientOptions {
  baseUrl: string;
  apiKey: string;
  /**
   * The other configured secrets (Slack tokens, signing secret): a provider that echoes what
   * it was sent could hand one back in an error text. The API key is always included.
   */
  secrets?: readonly string[];
  logger: Logger;
  /** Per attempt; default 15 000. */
  timeoutMs?: number;
  retry?: Partial<RetryOptions>;
  metrics?: Pick<Metrics, "providerCalls" | "providerLatency">;
  /**
   * Awaited before every attempt (retries included): the place for a provider rate limiter
   * shared by replicas. Its time does not count against the request timeout.
   */
  beforeRequest?: (attempt: AttemptInfo) => Promise<void>;
  /** The transport, for tests; default globalThis.fetch. */
  fetch?: typeof globalThis.fetch;
}

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_RETRY: RetryOptions = { attempts: 3, baseDelayMs: 200, maxDelayMs: 5_000 };

export type ProviderClient = Client<paths>;

// ---------------------------------------------------------------------------------------------
// The client

interface CallInfo extends ProviderCall {
  requestId: string;
}

type Attempt =
  | { ok: true; response: Response }
  | { ok: false; error: ProviderError; retryable: boolean; retryAfterMs?: number };

const RETRYABLE_STATUS = new Set([429, 502, 503, 504]);

/** POSTs that only read (the price calculation): identical ones in flight are shared. */
const READ_ONLY_POSTS: ReadonlySet<string> = new Set(["calculatePricing"]);

/** A read's answer, kept whole so every caller sharing it gets a Response of its own. */
interface SharedAnswer {
  status: number;
  statusText: string;
  headers: Array<[string, string]>;
  text: string;
}

/** One read in flight, shared by `waiting` callers. */
interface SharedRead {
  answer: Promise<SharedAnswer>;
  waiting: number;
  cancel: () => void;
}

/** `work`, or `cancelled()` thrown as soon as `signal` aborts (the work itself goes on). */
function untilAborted<T>(
  work: Promise<T>,
  signal: AbortSignal,
  cancelled: () => Error,
): Promise<T> {
  if (signal.aborted) return Promise.reject(cancelled());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelled());
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
const NO_BODY_STATUS = new Set([204, 205, 304]);

function errorCode(error: unknown): string | undefined {
  // undici wraps the socket error: TypeError("fetch failed", { cause: { code } }).
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    if (typeof e === "object" && e !== null) {
      const code = (e as { code?: unknown }).code;
      if (typeof code === "string") return code;
      e = (e as { cause?: unknown }).cause;
    } else break;
  }
  return undefined;
}

/** The status of an attempt in logs and metrics: the HTTP status, or what went wrong instead. */
function outcomeLabel(outcome: { status?: number; error?: ProviderError }): number | string {
  const { error } = outcome;
  if (!error || error.kind === "http") return outcome.status ?? "network";
  if (error.networkCode === "ABORTED") return "cancelled";
  return error.kind;
}

// Describe the original body; the rebuilt response carries the decoded text instead.
const STALE_BODY_HEADERS = ["content-length", "content-encoding", "transfer-encoding"];

/** How a request is named in logs, metrics and errors; a path outside the document is "unknown". */
function callInfo(method: string, path: string, operation: OperationId | undefined): CallInfo {
  const named = operation
    ? providerCallFor(operation)
    : { operation: "unknown", method, path, subject: "the request" };
  return { ...named, requestId: currentRequestId() ?? newRequestId() };
}

function checkedBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new Error(`Provider base URL is not a URL: ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new Error(`Provider base URL must be http(s): ${url.origin}`);
  }
  return baseUrl;
}

export function createProviderClient(options: ProviderClientOptions): ProviderClient {
  const apiKey = options.apiKey.trim();
  if (apiKey === "") throw new Error("The provider API key is empty (PROVIDER_API_KEY)");
  const baseUrl = checkedBaseUrl(options.baseUrl);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retry: RetryOptions = { ...DEFAULT_RETRY, ...options.retry };
  const transport = options.fetch ?? globalThis.fetch;
  const { logger, metrics, beforeRequest } = options;

  // A provider may echo the request (headers included) in an error text: strip the key and
  // every other configured secret from what came back before it goes into a ProviderError.
  // This is the one door provider text has into an error (its message, providerMessage and
  // userMessage), so whatever is logged, posted or stored from an error is already clean.
  const secrets = [apiKey, ...(options.secrets ?? [])];
  const scrub = (text: string) => scrubSecrets(text.split(apiKey).join(REDACTION_MARK), secrets);

  const calls = new WeakMap<Request, CallInfo>();

  const naming: Middleware = {
    onRequest({ request, schemaPath }) {
      const operation = operationIdFor(request.method, schemaPath);
      calls.set(request, callInfo(request.method, schemaPath, operation));
      request.headers.set("Authorization", `Bearer ${apiKey}`);
      return request;
    },
  };

  function record(
    call: CallInfo,
    attempt: number,
    requestId: string,
    path: string,
    started: number,
    outcome: { status?: number; error?: ProviderError },
  ) {
    const ms = Math.round(performance.now() - started);
    const status = outcomeLabel(outcome);
    metrics?.providerCalls.inc({
      operation: call.operation,
      method: call.method,
      status: String(status),
    });
    metrics?.providerLatency.observe({ operation: call.operation }, ms / 1000);
    const line = {
      requestId,
      operation: call.operation,
      method: call.method,
      path,
      status,
      ms,
      attempt,
    };
    if (outcome.error) {
      logger.warn(
        {
          ...line,
          kind: outcome.error.kind,
          outcomeUnknown: outcome.error.outcomeUnknown,
          providerMessage: outcome.error.providerMessage,
          networkCode: outcome.error.networkCode,
        },
        "provider request failed",
      );
    } else if (call.method === "GET") {
      logger.debug(line, "provider request");
    } else {
      logger.info(line, "provider request");
    }
  }

  async function attemptOnce(
    request: Request,
    call: CallInfo,
    attempt: number,
    requestId: string,
    path: string,
  ): Promise<Attempt> {
    const errCall: ProviderCall = { ...call, requestId, attempts: attempt };
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([request.signal, timeout]);
    const headers = new Headers(request.headers);
    headers.set("X-Request-Id", requestId);
    const started = performance.now();
    let response: Response | undefined;
    try {
      response = await transport(request, { signal, headers });
      const text = NO_BODY_STATUS.has(response.status) ? "" : await response.text();
      if (response.ok) {
        if (text.trim() !== "") JSON.parse(text);
        record(call, attempt, requestId, path, started, { status: response.status });
        const rebuiltHeaders = new Headers(response.headers);
        for (const name of STALE_BODY_HEADERS) rebuiltHeaders.delete(name);
        const rebuilt = new Response(text === "" ? null : text, {
          status: response.status,
          statusText: response.statusText,
          headers: rebuiltHeaders,
        });
        return { ok: true, response: rebuilt };
      }
      const retryAfterSeconds = parseRetryAfter(response.headers.get("retry-after"));
      const error = httpError(errCall, response.status, scrub(text), retryAfterSeconds);
      record(call, attempt, requestId, path, started, { status: response.status, error });
      const retryAfterMs = retryAfterSeconds === undefined ? undefined : retryAfterSeconds * 1000;
      // A Retry-After longer than we are willing to wait is honoured by not retrying early.
      const waitable = retryAfterMs === undefined || retryAfterMs <= retry.maxDelayMs;
      return {
        ok: false,
        error,
        retryable: RETRYABLE_STATUS.has(response.status) && waitable,
        retryAfterMs,
      };
    } catch (thrown) {
      let error: ProviderError;
      let retryable = false;
      if (timeout.aborted) {
        error = timeoutError(errCall, timeoutMs);
      } else if (request.signal.aborted) {
        error = cancelledError(errCall, true);
      } else if (response?.ok && thrown instanceof SyntaxError) {
        error = invalidResponseError(errCall, response.status, "a body that is not JSON");
      } else {
        error = networkError(errCall, errorCode(thrown));
        retryable = true;
      }
      record(call, attempt, requestId, path, started, { status: response?.status, error });
      return { ok: false, error, retryable: retryable && !request.signal.aborted };
    }
  }

  async function providerFetch(input: Request): Promise<Response> {
    const path = new URL(input.url).pathname;
    const call = calls.get(input) ?? callInfo(input.method, path, undefined);
    const safeRead = call.method === "GET";
    const maxAttempts = safeRead ? Math.max(1, retry.attempts) : 1;

    for (let attempt = 1; ; attempt++) {
      const requestId = `${call.requestId}.${attempt}`;
      if (input.signal.aborted)
        throw cancelledError({ ...call, requestId, attempts: attempt - 1 }, false);
      await beforeRequest?.({
        operation: call.operation,
        method: call.method,
        path,
        attempt,
        requestId,
      });
      // A GET has no body, so a clone per attempt is cheap; writes are sent once, as they are.
      const request = maxAttempts > 1 ? input.clone() : input;
      const result = await attemptOnce(request, call, attempt, requestId, path);
      if (result.ok) return result.response;
      if (!safeRead || !result.retryable || attempt >= maxAttempts) throw result.error;

      const backoff = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1));
      const delay = result.retryAfterMs ?? Math.random() * backoff; // full jitter
      try {
        await sleep(delay, undefined, { signal: input.signal });
      } catch {
        throw cancelledError({ ...call, requestId, attempts: attempt }, false);
      }
    }
  }

  // Identical reads in flight at once are sent once and answered to every caller: a burst of
  // one form submitted ten times (a double click, a retrying network, ten people) asks the
  // provider for its data center, ports and price once, not ten times, so the burst fits the
  // shared rate limit within Slack's 3 s and its name reservation decides (issue 29). Only
  // reads: GETs, and the price calculation, a POST that changes nothing.
  const inFlight = new Map<string, SharedRead>();

  async function sharedReadFetch(input: Request): Promise<Response> {
    const call = calls.get(input) ?? callInfo(input.method, new URL(input.url).pathname, undefined);
    const isRead =
      input.method === "GET" ||
      (call.operation !== undefined && READ_ONLY_POSTS.has(call.operation));
    if (!isRead) return providerFetch(input);
    const body = input.method === "GET" ? "" : await input.clone().text();
    const key = `${input.method} ${input.url} ${body}`;
    let shared = inFlight.get(key);
    if (!shared) {
      // Detached from this caller's signal: one caller giving up must not fail the others; once
      // every caller has given up, the read is cancelled (and a later one asks afresh).
      const controller = new AbortController();
      const detached = new Request(input, { signal: controller.signal });
      calls.set(detached, call);
      const read: SharedRead = {
        waiting: 0,
        cancel: () => controller.abort(),
        answer: providerFetch(detached)
          .then(async (response) => ({
            status: response.status,
            statusText: response.statusText,
            headers: [...response.headers],
            text: await response.text(),
          }))
          .finally(() => {
            if (inFlight.get(key) === read) inFlight.delete(key);
          }),
      };
      shared = read;
      inFlight.set(key, read);
    }
    const read = shared;
    read.waiting += 1;
    const answer = await untilAborted(read.answer, input.signal, () => {
      read.waiting -= 1;
      if (read.waiting === 0) {
        if (inFlight.get(key) === read) inFlight.delete(key);
        read.cancel();
      }
      return cancelledError({ ...call, requestId: call.requestId, attempts: 0 }, false);
    });
    return new Response(answer.text === "" ? null : answer.text, {
      status: answer.status,
      statusText: answer.statusText,
      headers: answer.headers,
    });
  }

  const client = createClient<paths>({ baseUrl, fetch: sharedReadFetch });
  client.use(naming);
  return client;
}
