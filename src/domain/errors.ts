/**
 * One error module (issue 21), after bolt-js's CodedError: every failure a person may hear about
 * carries a `code` every layer can branch on, and views/failures.ts words each code once
 * (`describeFailure`). Pure: no I/O, so the layers below raise these and views read them.
 */

/** What went wrong, in the terms callers branch on. */
export type ErrorCode =
  /** The provider refused or failed a call; `userMessage` says what, in its words. */
  | "provider"
  /** Redis (approvals, tracking, names) did not answer: nobody's fault, nothing changed. */
  | "storage_unavailable"
  /** Refused for who asked (not a fault of the bot); the message says why. */
  | "blocked"
  /** A bounded wait ran out (Slack's 3 s, a provider call): nothing was decided. */
  | "timeout"
  /** The bot's own pacing of provider calls refused one before sending it: nothing was sent. */
  | "rate_limited"
  /** What a person acted on (an Edge quote, a draft) is no longer offered; the message says what to do. */
  | "no_longer_offered";

export class CodedError extends Error {
  readonly code: ErrorCode;

  constructor(code: ErrorCode, message: string) {
    super(message);
    this.code = code;
  }
}

/** True for a CodedError (of `code`, when given), also across module copies (by shape). */
export function isCodedError(error: unknown, code?: ErrorCode): error is CodedError {
  if (!(error instanceof Error)) return false;
  const found = (error as { code?: unknown }).code;
  return code === undefined ? isErrorCode(found) : found === code;
}

const ERROR_CODES: ReadonlySet<unknown> = new Set<ErrorCode>([
  "provider",
  "storage_unavailable",
  "blocked",
  "timeout",
  "rate_limited",
  "no_longer_offered",
]);

function isErrorCode(value: unknown): value is ErrorCode {
  return ERROR_CODES.has(value);
}

/** A command refused for who asked (not an error of the bot). */
export class BlockedError extends CodedError {
  constructor(message: string) {
    super("blocked", message);
    this.name = "BlockedError";
  }
}

/** Raised when a bounded call (src/domain/deadline.ts's withDeadline) did not answer in time. */
export class DeadlineExceededError extends CodedError {
  constructor(readonly ms: number) {
    super("timeout", `no answer within ${ms} ms`);
    this.name = "DeadlineExceededError";
  }
}

/**
 * The words of a rate-limited call, once: views/failures.ts shows them for code `rate_limited`,
 * and the error carries them as `userMessage` for the layers that may not import views (a
 * placement stores them on the request).
 */
export const RATE_LIMITED_MESSAGE =
  "The bot is sending too many requests to the provider right now; nothing was sent. Try again in a minute.";

/**
 * The provider rate limiter (src/provider/rateLimit.ts) refused a call before sending it: the next
 * free slot is further away than a caller may wait. It carries ProviderError's `outcomeUnknown:
 * false` and `userMessage`, so the readers of provider failures (placement, `providerWords`)
 * know nothing reached the provider: an order refused here is failed, not escalated as unknown.
 */
export class RateLimitWaitTooLongError extends CodedError {
  readonly outcomeUnknown = false;
  readonly userMessage = RATE_LIMITED_MESSAGE;

  constructor(readonly waitMs: number) {
    super(
      "rate_limited",
      `The provider rate limit is saturated: the next free slot is ${Math.ceil(waitMs / 1000)} s away.`,
    );
    this.name = "RateLimitWaitTooLongError";
  }
}

/**
 * An Edge quote or draft that can't be used any more (expired, deleted, its choices no longer
 * offered); its message, plain words for the person, says what to do instead.
 */
export class QuoteNoLongerOffered extends CodedError {
  constructor(message: string) {
    super("no_longer_offered", message);
    this.name = "QuoteNoLongerOffered";
  }
}

/**
 * What a provider failure says, read by its shape (src/provider/errors.ts's ProviderError, code
 * `provider`, and the errors worded like it: the rate limiter's refusal before sending):
 * `userMessage` is for a person; `providerMessage` is the provider's own text, outside text to
 * escape. Undefined for an error without words. The one reader of a ProviderError's words for
 * the layers above it.
 */
export function providerWords(
  error: unknown,
): { userMessage: string; providerMessage?: string } | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { userMessage, providerMessage } = error as {
    userMessage?: unknown;
    providerMessage?: unknown;
  };
  if (typeof userMessage !== "string") return undefined;
  return {
    userMessage,
    ...(typeof providerMessage === "string" && providerMessage !== "" ? { providerMessage } : {}),
  };
}

/**
 * The error code of a Slack Web API refusal (`not_in_channel`, `not_found`…: the `data.error`
 * of @slack/web-api's platform error), if that is what `error` is. The one reader of it.
 */
export function slackErrorCode(error: unknown): string | undefined {
  const data = (error as { data?: { error?: unknown } } | null)?.data;
  return typeof data?.error === "string" ? data.error : undefined;
}

/** Redis did not answer a command; `cause` is ioredis's own error, for the log. */
export class StorageUnavailableError extends CodedError {
  constructor(override readonly cause: Error) {
    super("storage_unavailable", `storage unavailable: ${cause.message}`);
    this.name = "StorageUnavailableError";
  }
}

/**
 * ioredis's ways of saying Redis is out of reach: it gives up on a command after its retries
 * (MaxRetriesPerRequestError) or refuses it on a closed connection. Read from the error's name
 * and message because ioredis exports no error codes for these.
 */
function isRedisUnreachable(error: Error): boolean {
  return (
    error.name === "MaxRetriesPerRequestError" ||
    /Connection is closed|ECONNREFUSED|Stream isn't writeable/.test(error.message)
  );
}

/** Redis unreachable, raised as StorageUnavailableError or still ioredis's own error. */
export function isStorageUnavailable(error: unknown): boolean {
  if (isCodedError(error, "storage_unavailable")) return true;
  return error instanceof Error && isRedisUnreachable(error);
}

/**
 * Runs a Redis call and raises StorageUnavailableError when Redis is out of reach, so the layers
 * above branch on a code, not on ioredis's wording. Other errors pass through unchanged.
 */
export async function storageCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof Error && !isCodedError(error) && isRedisUnreachable(error)) {
      throw new StorageUnavailableError(error);
    }
    throw error;
  }
}
