import { slackErrorCode } from "../../domain/errors.js";
import { isRecord } from "../../domain/records.js";

/**
 * What a failed Slack Web API call means for the outbox: wait and retry the same message
 * (rate limited), retry later with backoff (transient), or drop it (it can never succeed).
 *
 * Read structurally (no import of @slack/web-api): the notifier takes any `chat` implementation,
 * and WebClient's errors are recognised by their documented `code` values.
 */
export type SlackFailure =
  | { kind: "rate-limited"; retryAfterMs: number; detail: string }
  | { kind: "permanent"; error: string; detail: string }
  | { kind: "transient"; detail: string };

/** Slack has ended the step already: the request goes on, the workflow no longer waits. */
export const STEP_GONE_ERRORS: ReadonlySet<string> = new Set([
  "execution_not_in_running_state",
  "function_execution_not_found",
]);

/**
 * `ok:false` errors that no retry can fix: the channel or message is gone, the bot is not in it,
 * or the message itself is invalid. Auth errors (invalid_auth, token_revoked, missing_scope) are
 * NOT here: they are an operator's mistake that gets fixed, so those messages wait (bounded).
 */
export const PERMANENT_SLACK_ERRORS: ReadonlySet<string> = new Set([
  "channel_not_found",
  "not_in_channel",
  "is_archived",
  "invalid_blocks",
  "invalid_blocks_format",
  "invalid_attachments",
  "msg_too_long",
  "msg_blocks_too_long",
  "no_text",
  "too_many_attachments",
  "invalid_arguments",
  "invalid_arg_name",
  "invalid_metadata_format",
  "invalid_metadata_schema",
  "message_not_found",
  "cant_update_message",
  "edit_window_closed",
  "restricted_action",
  "restricted_action_read_only_channel",
  "restricted_action_thread_only_channel",
  "restricted_action_non_threadable_channel",
  "thread_reply_not_allowed",
  "cannot_reply_to_message",
  "duplicate_message_not_found",
  // functions.completeSuccess / completeError: the step was ended already (by Slack: the
  // workflow was cancelled or timed out), or the outputs do not fit the step's definition.
  ...STEP_GONE_ERRORS,
  "parameter_validation_failed",
]);

const DEFAULT_RETRY_AFTER_MS = 5_000;

function retryAfterMsFrom(seconds: unknown): number {
  const n = typeof seconds === "string" ? Number.parseInt(seconds, 10) : seconds;
  return typeof n === "number" && Number.isFinite(n) && n >= 0
    ? Math.max(1_000, n * 1_000)
    : DEFAULT_RETRY_AFTER_MS;
}

function fromPlatformError(error: string, data: Record<string, unknown>): SlackFailure {
  if (error === "ratelimited" || error === "rate_limited") {
    const meta = isRecord(data.response_metadata) ? data.response_metadata : {};
    return { kind: "rate-limited", retryAfterMs: retryAfterMsFrom(meta.retryAfter), detail: error };
  }
  if (PERMANENT_SLACK_ERRORS.has(error)) return { kind: "permanent", error, detail: error };
  return { kind: "transient", detail: error };
}

/** Classifies a thrown error of a `chat.*` call. */
export function classifySlackError(thrown: unknown): SlackFailure {
  if (!isRecord(thrown)) return { kind: "transient", detail: String(thrown) };
  const code = thrown.code;
  if (code === "slack_webapi_rate_limited_error") {
    return {
      kind: "rate-limited",
      retryAfterMs: retryAfterMsFrom(thrown.retryAfter),
      detail: "HTTP 429",
    };
  }
  if (code === "slack_webapi_platform_error" && isRecord(thrown.data)) {
    const error = slackErrorCode(thrown) ?? "unknown_error";
    return fromPlatformError(error, thrown.data);
  }
  if (code === "slack_webapi_http_error") {
    const status = typeof thrown.statusCode === "number" ? thrown.statusCode : 0;
    if (status === 429) {
      const headers = isRecord(thrown.headers) ? thrown.headers : {};
      return {
        kind: "rate-limited",
        retryAfterMs: retryAfterMsFrom(headers["retry-after"]),
        detail: "HTTP 429",
      };
    }
    return { kind: "transient", detail: `HTTP ${status}` };
  }
  const message = thrown instanceof Error ? thrown.message : "unknown error";
  return { kind: "transient", detail: message.slice(0, 200) };
}

/** Classifies a result that came back without throwing (a fake or a client that does not throw). */
export function classifySlackResult(result: unknown): SlackFailure | undefined {
  if (!isRecord(result) || result.ok !== false) return undefined;
  const error = typeof result.error === "string" ? result.error : "unknown_error";
  return fromPlatformError(error, result);
}
