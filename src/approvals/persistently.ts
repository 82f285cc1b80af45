import { setTimeout as sleep } from "node:timers/promises";
import { ApprovalInputError, ApprovalRecordError } from "./types.js";

/**
 * Retrying a write to the approvals store across a Redis outage, for facts that exist nowhere
 * else once this process lets go of them: the provider's answer to a placement, the Slack
 * message a request was posted as. ioredis queues commands while it reconnects and fails them
 * when the connection drops; each failure is followed by a wait (100 ms, doubling, at most 2 s)
 * and another try, until `timeoutMs` has passed. What the store refuses to write or cannot
 * read is not retried: no outage causes it, and none ends it.
 */
export interface PersistentlyOptions {
  /** What is being written, for the log: "record the provider's answer". */
  what: string;
  timeoutMs: number;
  /** Told every tenth failure, so an outage is in the log without a line per try. */
  warn: (failures: number, error: unknown) => void;
}

/**
 * How long posting a request waits out a Redis outage to record where its Slack messages are
 * (the approval message, the request card): after the form is answered, so nobody waits on it.
 */
export const SLACK_REFS_WRITE_TIMEOUT_MS = 2 * 60_000;

const RETRY_BASE_MS = 100;
const RETRY_MAX_MS = 2_000;

export async function persistently<T>(
  write: () => Promise<T>,
  options: PersistentlyOptions,
): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  for (let failures = 0; ; failures++) {
    try {
      return await write();
    } catch (error) {
      const delay = Math.min(RETRY_BASE_MS * 2 ** failures, RETRY_MAX_MS);
      if (!mayHeal(error) || Date.now() + delay > deadline) throw error;
      if (failures % 10 === 0) options.warn(failures + 1, error);
      await sleep(delay);
    }
  }
}

/** Errors that retrying cannot fix: what the store refuses to write or cannot read. */
function mayHeal(error: unknown): boolean {
  return !(error instanceof ApprovalInputError || error instanceof ApprovalRecordError);
}
