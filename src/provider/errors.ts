// One error type for every way a provider call can fail. Callers branch on `kind`,
// `httpStatus` and `outcomeUnknown`; people see `userMessage`. Nothing here may carry the API
// key: texts that come from the provider are scrubbed by the client before they reach these
// factories, and no raw cause object (which could hold headers) is attached. Its code is
// "provider" (src/domain/errors.ts), which views/failures.ts words with `userMessage`.
import { CodedError } from "../domain/errors.js";
import { isRecord } from "../domain/records.js";

export type ProviderErrorKind = "http" | "timeout" | "network" | "invalid-response";

/** What the failing call was, as the client knows it. */
export interface ProviderCall {
  /** The operationId of the OpenAPI document, e.g. createPortOrder. */
  operation: string;
  /** Upper-case HTTP method. */
  method: string;
  /** The path template of the document, e.g. /api/company/{companyUsername}/ports/orders. */
  path: string;
  /** What the call is about in the user's words, e.g. "the port order". */
  subject: string;
  requestId?: string;
  /** How many attempts were made (retries included). */
  attempts?: number;
}

export interface ProviderErrorFields {
  operation: string;
  method: string;
  path: string;
  httpStatus: number | undefined;
  kind: ProviderErrorKind;
  outcomeUnknown: boolean;
  providerMessage: string | undefined;
  userMessage: string;
  requestId: string | undefined;
  attempts: number;
  /** Seconds the provider asked us to wait (429 Retry-After), when it said. */
  retryAfterSeconds: number | undefined;
  /** Low-level network code (ECONNREFUSED, ENOTFOUND, UND_ERR_SOCKET...) for network errors. */
  networkCode: string | undefined;
}

export class ProviderError extends CodedError implements ProviderErrorFields {
  override readonly name = "ProviderError";
  readonly operation: string;
  readonly method: string;
  readonly path: string;
  readonly httpStatus: number | undefined;
  readonly kind: ProviderErrorKind;
  /**
   * True when a request that is not idempotent (PUT/POST/PATCH/DELETE) may have reached the
   * provider and taken effect: it must be reconciled (looked up), never resent. False when it
   * certainly did not take effect, or for reads.
   */
  readonly outcomeUnknown: boolean;
  readonly providerMessage: string | undefined;
  /** Short, specific, human; safe to show in Slack. */
  readonly userMessage: string;
  readonly requestId: string | undefined;
  readonly attempts: number;
  readonly retryAfterSeconds: number | undefined;
  readonly networkCode: string | undefined;

  constructor(message: string, fields: ProviderErrorFields) {
    super("provider", message);
    this.operation = fields.operation;
    this.method = fields.method;
    this.path = fields.path;
    this.httpStatus = fields.httpStatus;
    this.kind = fields.kind;
    this.outcomeUnknown = fields.outcomeUnknown;
    this.providerMessage = fields.providerMessage;
    this.userMessage = fields.userMessage;
    this.requestId = fields.requestId;
    this.attempts = fields.attempts;
    this.retryAfterSeconds = fields.retryAfterSeconds;
    this.networkCode = fields.networkCode;
  }

  /** Plain fields for logs and JSON (no stack). */
  toJSON(): ProviderErrorFields & { name: string; message: string } {
    return {
      name: this.name,
      message: this.message,
      operation: this.operation,
      method: this.method,
      path: this.path,
      httpStatus: this.httpStatus,
      kind: this.kind,
      outcomeUnknown: this.outcomeUnknown,
      providerMessage: this.providerMessage,
      userMessage: this.userMessage,
      requestId: this.requestId,
      attempts: this.attempts,
      retryAfterSeconds: this.retryAfterSeconds,
      networkCode: this.networkCode,
    };
  }
}

export function isProviderError(x: unknown): x is ProviderError {
  return x instanceof ProviderError;
}

// ---------------------------------------------------------------------------------------------
// Reading error bodies

export const RAW_TEXT_LIMIT = 500;

function nonEmpty(x: unknown): string | undefined {
  return typeof x === "string" && x.trim() !== "" ? x.trim() : undefined;
}

function truncate(text: string, limit = RAW_TEXT_LIMIT): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

/**
 * The provider's own words from an error body. docs/provider/provider-notes.md: bodies come as
 * `{"error": {"message", "status", "statusCode"}}` or `{"code": 400, "message"}`; anything else
 * falls back to the raw text (truncated), and an empty body gives undefined.
 */
export function parseProviderMessage(body: string | undefined): string | undefined {
  const text = body?.trim();
  if (!text) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return truncate(text);
  }
  if (isRecord(parsed)) {
    const envelope = parsed.error;
    if (isRecord(envelope)) {
      const message = nonEmpty(envelope.message);
      if (message) return truncate(message);
    }
    const message = nonEmpty(parsed.message) ?? nonEmpty(envelope);
    if (message) return truncate(message);
  }
  if (typeof parsed === "string" && parsed.trim() !== "") return truncate(parsed.trim());
  return truncate(text);
}

/** Retry-After as seconds (delta-seconds or an HTTP date), or undefined when absent/unreadable. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now) / 1000));
}

// ---------------------------------------------------------------------------------------------
// Factories

const isWrite = (method: string) => method !== "GET" && method !== "HEAD";

function withoutFinalStop(message: string): string {
  return message.trim().replace(/[.\s]+$/, "");
}

/** "Speed 25000 is ..." → "speed 25000 is ...", but "DCF ..." stays; no trailing period. */
function asClause(message: string): string {
  const trimmed = withoutFinalStop(message);
  if (/^[A-Z][a-z]/.test(trimmed)) return trimmed[0]!.toLowerCase() + trimmed.slice(1);
  return trimmed;
}

function base(call: ProviderCall) {
  return {
    operation: call.operation,
    method: call.method,
    path: call.path,
    requestId: call.requestId,
    attempts: call.attempts ?? 1,
  };
}

function where(call: ProviderCall): string {
  return `provider ${call.operation} (${call.method} ${call.path})`;
}

/** The sentence that makes an unknown outcome actionable: look it up, do not resend. */
function mayHaveGoneThrough(subject = "it"): string {
  return `${subject} may still have gone through — check before trying again.`;
}

function seconds(ms: number): string {
  const s = ms / 1000;
  return Number.isInteger(s) ? `${s} s` : `${Number(s.toFixed(1))} s`;
}

function httpUserMessage(
  call: ProviderCall,
  status: number,
  providerMessage: string | undefined,
  retryAfterSeconds: number | undefined,
  outcomeUnknown: boolean,
): string {
  const said = providerMessage ? ` (${withoutFinalStop(providerMessage)})` : "";
  if (status === 401) {
    return "The provider rejected the API key (401): check PROVIDER_API_KEY and the key's role.";
  }
  if (status === 403) {
    return `The provider refused ${call.subject} for this API key (403)${said}: the key's user lacks that permission — ask the provider account's admin.`;
  }
  if (status === 429) {
    const wait = retryAfterSeconds !== undefined ? `in ${retryAfterSeconds} s` : "in a minute";
    return `The provider is limiting requests (429) — try again ${wait}.`;
  }
  if (status >= 500) {
    if (outcomeUnknown) {
      return `The provider's gateway answered ${status} for ${call.subject}; ${mayHaveGoneThrough()}`;
    }
    return `The provider answered ${status} for ${call.subject}${said} — try again in a minute.`;
  }
  if (isWrite(call.method)) {
    return providerMessage
      ? `The provider refused ${call.subject}: ${asClause(providerMessage)}.`
      : `The provider refused ${call.subject} (${status}).`;
  }
  return `The provider answered ${status} for ${call.subject}${said}.`;
}

/**
 * An HTTP answer that is not ok. The provider answered, so the outcome is known — except a
 * gateway's 502/504 to a write: the gateway gave up, the provider behind it may have acted.
 */
export function httpError(
  call: ProviderCall,
  status: number,
  body: string | undefined,
  retryAfterSeconds?: number,
): ProviderError {
  const providerMessage = parseProviderMessage(body);
  const outcomeUnknown = isWrite(call.method) && (status === 502 || status === 504);
  return new ProviderError(
    `${where(call)} answered ${status}${providerMessage ? `: ${providerMessage}` : ""}`,
    {
      ...base(call),
      httpStatus: status,
      kind: "http",
      outcomeUnknown,
      providerMessage,
      userMessage: httpUserMessage(
        call,
        status,
        providerMessage,
        retryAfterSeconds,
        outcomeUnknown,
      ),
      retryAfterSeconds,
      networkCode: undefined,
    },
  );
}

/** No answer within the timeout. A write was sent, so its outcome is unknown. */
export function timeoutError(call: ProviderCall, timeoutMs: number): ProviderError {
  const outcomeUnknown = isWrite(call.method);
  const limit = seconds(timeoutMs);
  return new ProviderError(`${where(call)} did not answer within ${timeoutMs} ms`, {
    ...base(call),
    httpStatus: undefined,
    kind: "timeout",
    outcomeUnknown,
    providerMessage: undefined,
    userMessage: outcomeUnknown
      ? `The provider did not answer within ${limit}; ${mayHaveGoneThrough(call.subject)}`
      : `The provider did not answer within ${limit}.`,
    retryAfterSeconds: undefined,
    networkCode: undefined,
  });
}

/** The caller gave up (its AbortSignal fired) before an answer came. */
export function cancelledError(call: ProviderCall, sent: boolean): ProviderError {
  const outcomeUnknown = sent && isWrite(call.method);
  return new ProviderError(`${where(call)} was cancelled by the caller`, {
    ...base(call),
    httpStatus: undefined,
    kind: "network",
    outcomeUnknown,
    providerMessage: undefined,
    userMessage: outcomeUnknown
      ? `The request to the provider was cancelled; ${mayHaveGoneThrough(call.subject)}`
      : "The request to the provider was cancelled.",
    retryAfterSeconds: undefined,
    networkCode: "ABORTED",
  });
}

// Failures that happen before a single byte of the request leaves this process.
const NOT_SENT_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EAI_FAIL",
  "EAI_NONAME",
  "ENETUNREACH",
  "EHOSTUNREACH",
  "EHOSTDOWN",
  "ENETDOWN",
  "EADDRNOTAVAIL",
  "UND_ERR_CONNECT_TIMEOUT",
  "ERR_INVALID_URL",
  "ERR_TLS_CERT_ALTNAME_INVALID",
  "CERT_HAS_EXPIRED",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
]);

/** True when a network failure with this code certainly happened before anything was sent. */
export function failedBeforeSending(code: string | undefined): boolean {
  return code !== undefined && NOT_SENT_CODES.has(code);
}

function networkUserMessage(call: ProviderCall, code: string | undefined, unknown: boolean) {
  if (code === "ECONNREFUSED") {
    return "Could not reach the provider (connection refused); nothing was sent — try again in a minute.";
  }
  if (code === "ENOTFOUND" || code === "EAI_NONAME" || code === "EAI_FAIL") {
    return "Could not reach the provider: its host name does not resolve — check PROVIDER_BASE_URL.";
  }
  if (failedBeforeSending(code)) {
    return `Could not reach the provider (${code}); nothing was sent — try again in a minute.`;
  }
  if (unknown) {
    return `The connection to the provider broke during ${call.subject}; ${mayHaveGoneThrough()}`;
  }
  return "The connection to the provider failed — try again in a minute.";
}

/** A connection failure: refused/DNS (certainly not sent) or reset (a write may have landed). */
export function networkError(call: ProviderCall, code: string | undefined): ProviderError {
  const outcomeUnknown = isWrite(call.method) && !failedBeforeSending(code);
  return new ProviderError(`${where(call)} failed: network error ${code ?? "(no code)"}`, {
    ...base(call),
    httpStatus: undefined,
    kind: "network",
    outcomeUnknown,
    providerMessage: undefined,
    userMessage: networkUserMessage(call, code, outcomeUnknown),
    retryAfterSeconds: undefined,
    networkCode: code,
  });
}

/**
 * A 2xx whose body cannot be read as the document promises. A write got through to the
 * provider, which answered "ok", but we cannot read what it made: reconcile, never resend.
 */
export function invalidResponseError(
  call: ProviderCall,
  httpStatus: number,
  detail: string,
  userMessage?: string,
): ProviderError {
  const outcomeUnknown = isWrite(call.method);
  return new ProviderError(`${where(call)} answered ${httpStatus} with ${detail}`, {
    ...base(call),
    httpStatus,
    kind: "invalid-response",
    outcomeUnknown,
    providerMessage: undefined,
    userMessage:
      userMessage ??
      (outcomeUnknown
        ? `The provider sent an unreadable answer for ${call.subject}; ${mayHaveGoneThrough()}`
        : `The provider sent an unreadable answer for ${call.subject} — try again in a minute.`),
    retryAfterSeconds: undefined,
    networkCode: undefined,
  });
}
