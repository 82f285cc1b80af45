import type { Redis } from "ioredis";

/**
 * Closing the background side's Redis connections and BullMQ parts in bounded time. The
 * connections themselves are made by the one factory, src/redis/topology.ts (`connect("workers" |
 * "commands", name)`), which says why the two kinds fail differently.
 */

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
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), Math.max(0, ms));
  });
  const closed = target.close().then(
    () => true as const,
    () => true as const,
  );
  try {
    return await Promise.race([closed, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** QUIT within `ms`, else drop the socket: pending commands then fail instead of hanging. */
export async function closeRedis(redis: Redis, ms: number): Promise<boolean> {
  if (redis.status === "end") return true;
  const clean = await closeWithTimeout({ close: () => redis.quit().then(() => undefined) }, ms);
  if (!clean) redis.disconnect();
  return clean;
}
