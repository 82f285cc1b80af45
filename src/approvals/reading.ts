import { decodeRecord, pairsToFields } from "./codec.js";
import type { Refusal } from "./results.js";
import { ApprovalRecordError, type ApprovalRequest } from "./types.js";

/**
 * Turning what Redis answered into records. A record that cannot be read is a value where a step
 * answers (`invalid-record`, so the person is told) and is skipped, and reported, where a list
 * answers (one bad record must not hide the others). Anything else unexpected is thrown.
 */

/** The record a script returned as field/value pairs, or the refusal when it cannot be read. */
export function decodeReply(
  id: string,
  pairs: unknown,
): ApprovalRequest | Extract<Refusal, { reason: "invalid-record" }> {
  try {
    return decodeRecord(id, pairsToFields(pairs));
  } catch (error) {
    if (error instanceof ApprovalRecordError)
      return { ok: false, reason: "invalid-record", id, error };
    throw error;
  }
}

/** The record a step starts from, or the refusal when there is none or it cannot be read. */
export async function readForStep(
  id: string,
  get: (id: string) => Promise<ApprovalRequest | null>,
): Promise<ApprovalRequest | Refusal> {
  try {
    return (await get(id)) ?? { ok: false, reason: "not-found", id };
  } catch (error) {
    if (error instanceof ApprovalRecordError)
      return { ok: false, reason: "invalid-record", id, error };
    throw error;
  }
}

/**
 * The records of `ids` from their HGETALL replies, in order: expired ones (the indexes are
 * trimmed lazily) are left out, unreadable ones told to `onInvalidRecord` and left out.
 */
export function decodeMany(
  ids: readonly string[],
  replies: readonly unknown[],
  onInvalidRecord: (error: ApprovalRecordError) => void,
): ApprovalRequest[] {
  const records: ApprovalRequest[] = [];
  ids.forEach((id, index) => {
    const fields = replies[index];
    // Expired between the index read and now (the indexes are trimmed lazily).
    if (!isFields(fields) || Object.keys(fields).length === 0) return;
    try {
      records.push(decodeRecord(id, fields));
    } catch (decodeError) {
      if (!(decodeError instanceof ApprovalRecordError)) throw decodeError;
      onInvalidRecord(decodeError);
    }
  });
  return records;
}

function isFields(value: unknown): value is Record<string, string> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
