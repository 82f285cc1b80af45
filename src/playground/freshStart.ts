import type { Redis } from "ioredis";
import type { Logger } from "../log.js";
import { deleteKeysMatching, literalPattern } from "../redis/keys.js";

/**
 * The local playground (no Slack token, no PROVIDER_BASE_URL) starts an embedded sandbox that
 * holds nothing of the previous run: approvals, trackers and queues left in Redis from that run
 * would point at orders, ports and Slack messages that no longer exist (`/connect approvals`
 * listing requests with no message to act on). So the playground's keys belong to one run: they
 * live under their own prefix, which nothing else uses, and are removed at start-up.
 */
export const PLAYGROUND_REDIS_PREFIX = "connect-playground";

/** Removes the keys under `prefix:` (only those) and says how many went. */
export async function startPlaygroundAfresh(
  redis: Redis,
  prefix: string,
  logger: Logger,
): Promise<number> {
  const removed = await deleteKeysMatching(redis, `${literalPattern(prefix)}:*`);
  logger.info(
    { prefix, removed },
    `playground starts afresh: removed ${removed} Redis key${removed === 1 ? "" : "s"} of the previous run`,
  );
  return removed;
}
