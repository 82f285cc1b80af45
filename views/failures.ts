// The one place a failure is worded for a person (issue 21): by its code (src/domain/errors.ts),
// never a stack trace, never a secret.
import { isCodedError, isStorageUnavailable, RATE_LIMITED_MESSAGE } from "../src/domain/errors.js";
import { escapeMrkdwn } from "./blocks.js";

export const STORAGE_UNAVAILABLE_TEXT =
  ":hourglass: Temporarily unavailable: I can't reach my storage right now, so nothing was changed. Try again in a minute.";

export const TOOK_TOO_LONG_TEXT =
  ":hourglass: That took too long (the provider or my storage was slow), so nothing was changed. Try again in a minute.";

const OUR_SIDE =
  ":warning: Something went wrong on our side; the error is logged. Try again in a minute.";

/** A short message for any failure a person should hear about. */
export function describeFailure(error: unknown): string {
  if (isStorageUnavailable(error)) return STORAGE_UNAVAILABLE_TEXT;
  if (isCodedError(error, "provider")) {
    // A provider's userMessage can quote the provider's own words: outside text, escaped.
    const said = (error as { userMessage?: unknown }).userMessage;
    return `:warning: ${escapeMrkdwn(typeof said === "string" ? said : error.message)}`;
  }
  if (isCodedError(error, "blocked")) return `:no_entry: ${error.message}`;
  if (isCodedError(error, "timeout")) return TOOK_TOO_LONG_TEXT;
  if (isCodedError(error, "rate_limited")) return `:hourglass: ${RATE_LIMITED_MESSAGE}`;
  // Plain words for the person, which may quote a name they typed: escaped.
  if (isCodedError(error, "no_longer_offered")) return `:warning: ${escapeMrkdwn(error.message)}`;
  return OUR_SIDE;
}
