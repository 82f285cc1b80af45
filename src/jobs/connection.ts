import { Redis } from "ioredis";
import { within } from "../domain/deadline.js";

/**
 * Redis connections for the background side.
 *
 * Two kinds, because BullMQ and our own keys want opposite failure modes:
 * - worker connections (`maxRetriesPerRequest: null`, required by BullMQ): a worker's blocking
 *   commands must wait through a Redis restart rather than fail and lose their place;
 * - command connections (queues, outboxes, tracking records, the rate limiter): a command fails
 *   after a few reconnect attempts, so a Slack request that enqueues work while Redis is gone
 *   gets an error it can show instead of hanging past Slack's 3-second ack.
 */

export function createWorkerConnection(redisUrl: string, connectionName?: string): Redis {
  return new Redis(redisUrl, {
    maxRetriesPerRequest: null,
    connectionName,
    // Reconnect forever, but never more slowly than every 2 s: a restarted Redis is picked up fast.
    retryStrategy: (times) => Math.min(100 * 2 ** times, 2_000),
  });
}

export function createCommandConnection(redisUrl: string, connectionName?: string): Redis {
  return new Redis(redisUrl, {
    maxRetriesPerRequest: 3,
    connectionName,
    retryStrategy: (times) => Math.min(100 * 2 ** times, 2_000),
  });
}

/** Anything with BullMQ's `close()` (Worker, Queue, QueueEvents). */
export interface Closable {
  close(): Promise<void>;
}

/**
 * Closes `target`, giving up after `ms`. BullMQ's close can hang forever while Redis is gone (it
 * waits for a connection to finish its commands), and a SIGTERM handler must end in bounded
 * time. Resolves true when the close finished in time (errors count as finished: the target is
 * unusable either way), false when it timed out.
 */
export async function closeWithTimeout(target: Closable, ms: number): Promise<boolean> {
  const closed = target.close().then(
    () => true as const,
    () => true as const,
  );
  return within(closed, ms, () => false as const);
}

/** QUIT within `ms`, else drop the socket: pending commands then fail instead of hanging. */
export async function closeRedis(redis: Redis, ms: number): Promise<boolean> {
  if (redis.status === "end") return true;
  const clean = await closeWithTimeout({ close: () => redis.quit().then(() => undefined) }, ms);
  if (!clean) redis.disconnect();
  return clean;
}
