import { isRecord } from "../../domain/records.js";

/**
 * Reads what a failed provider call says, structurally, so jobs work with the client's
 * ProviderError (src/provider/errors.ts: httpStatus, outcomeUnknown, userMessage) and with any
 * other throw (a bug, a Redis error) without importing the client.
 */
export interface ProviderFailure {
  /** The provider's HTTP answer, when it answered. */
  httpStatus: number | undefined;
  /**
   * true: a non-idempotent call may have taken effect; false: it certainly did not (or it was
   * answered); undefined: not a provider error at all, so nothing is known.
   */
  outcomeUnknown: boolean | undefined;
  /** Short, safe to show in Slack (the client's userMessage), else a generic sentence. */
  userMessage: string;
  /** For logs: the error's message, bounded. */
  detail: string;
}

export function readProviderFailure(error: unknown): ProviderFailure {
  const record = isRecord(error) ? error : {};
  const httpStatus = typeof record.httpStatus === "number" ? record.httpStatus : undefined;
  const outcomeUnknown =
    typeof record.outcomeUnknown === "boolean" ? record.outcomeUnknown : undefined;
  const userMessage =
    typeof record.userMessage === "string" && record.userMessage.trim() !== ""
      ? record.userMessage
      : "The provider call failed unexpectedly.";
  const detail = (error instanceof Error ? error.message : String(error)).slice(0, 300);
  return { httpStatus, outcomeUnknown, userMessage, detail };
}
