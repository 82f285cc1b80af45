import { Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "../log.js";
import { closeRedis, closeWithTimeout } from "./connection.js";
import { errorText } from "./errors.js";
import { QUEUE_NAMES, type QueueName, queuePrefix } from "./queues.js";

/**
 * The BullMQ side of startJobs: one queue per kind of work (always: any process may enqueue) and
 * their bounded shutdown. The workers that process them are src/workers' (runner.ts), above the
 * lifecycle: here only the queues things are enqueued on.
 */

export type WorkerKind = "notify" | "tracking" | "quotes" | "placement" | "drafts" | "maintenance";

/** The queue of each kind of work. */
export const QUEUE_OF: Record<WorkerKind, QueueName> = {
  notify: QUEUE_NAMES.notify,
  tracking: QUEUE_NAMES.tracking,
  quotes: QUEUE_NAMES.quotes,
  placement: QUEUE_NAMES.placement,
  drafts: QUEUE_NAMES.drafts,
  maintenance: QUEUE_NAMES.maintenance,
};

/**
 * BullMQ logs every job event to a stream of 10,000 entries per queue by default (stored in
 * the queue's meta, read by its scripts), for QueueEvents listeners. Nothing here listens, and
 * with thousands of tracked orders that stream was a sixth of their Redis memory (npm run
 * bench); a short tail stays for debugging.
 */
const EVENTS_KEPT = 100;

/** Every kind's queue, on the command connection. */
export function createQueues(
  connection: Redis,
  prefix: string,
  logger: Logger,
): Record<WorkerKind, Queue> {
  return Object.fromEntries(
    (Object.keys(QUEUE_OF) as WorkerKind[]).map((kind) => {
      const queue = new Queue(QUEUE_OF[kind], {
        connection,
        prefix: queuePrefix(prefix, QUEUE_OF[kind]),
        streams: { events: { maxLen: EVENTS_KEPT } },
      });
      queue.on("error", (error) =>
        logger.warn({ queue: QUEUE_OF[kind], err: errorText(error) }, "jobs: queue error"),
      );
      return [kind, queue];
    }),
  ) as Record<WorkerKind, Queue>;
}

export interface Running {
  queues: Record<WorkerKind, Queue>;
  /** The worker connection (src/workers' workers run on it), then the command connection. */
  connections: [Redis, Redis];
}

/**
 * Closes the queues, then the connections, within about `timeoutMs`. The workers on the worker
 * connection are closed first by whoever started them (src/workers: stops run in reverse).
 */
export async function closeQueues(
  { queues, connections }: Running,
  timeoutMs: number,
): Promise<{ clean: boolean }> {
  const started = Date.now();
  const left = () => Math.max(0, timeoutMs - (Date.now() - started));
  const queuesClosed = await Promise.all(
    Object.values(queues).map((queue) => closeWithTimeout(queue, left() / 2)),
  );
  const redisClosed = await Promise.all(connections.map((redis) => closeRedis(redis, left() / 2)));
  return { clean: queuesClosed.every(Boolean) && redisClosed.every(Boolean) };
}
