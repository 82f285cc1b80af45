import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import { defineScript } from "../redis/scripts.js";

/** BullMQ queue names: one queue per kind of background work. */
export const QUEUE_NAMES = {
  /** Per-channel Slack outboxes, drained one message at a time. */
  notify: "notify",
  /** One long-lived step job per tracked port order. */
  tracking: "order-tracking",
  /** Polls of the asynchronous Edge quote. */
  quotes: "edge-quotes",
  /** Placing approved orders with the provider. */
  placement: "placement",
  /** Edge draft expiry reminders: one delayed job per reminder. */
  drafts: "edge-draft-reminders",
  /** Reconcilers (lost jobs, stuck placements), run on a schedule. */
  maintenance: "jobs-maintenance",
} as const;

export type QueueName = (typeof QUEUE_NAMES)[keyof typeof QUEUE_NAMES];

export const DEFAULT_PREFIX = "connect";

/**
 * Where the background side keeps its state: `<prefix>:{<area>}:…`. The area is a Redis Cluster
 * hash tag, so every key one script touches (an area's scripts never reach into another area)
 * is in one slot; BullMQ's keys are `<prefix>:{<queue>}:<queue>:…` (queuePrefix), and no key of
 * an area has the queue's name right after the tag, so the two never collide even where an area
 * and a queue share a name (`placement`: the journal lives in the queue's slot). One SCAN of
 * `<prefix>:*` finds everything (tests delete their run that way; src/redis/layout/README.md).
 */
export function stateKey(prefix: string, area: string, ...parts: string[]): string {
  return [prefix, `{${area}}`, ...parts].join(":");
}

/**
 * The BullMQ prefix of one queue: its own hash tag (BullMQ's scripts touch many keys of a queue
 * at once; BullMQ's documented way on a Redis Cluster is a prefix in braces, one per queue so the
 * queues spread over the cluster's nodes).
 */
export function queuePrefix(prefix: string, queue: QueueName): string {
  return `${prefix}:{${queue}}`;
}

const SAFE_ID_PART = /^[A-Za-z0-9._-]{1,100}$/;

/**
 * A BullMQ job id part from an outside id (order id, quote response id, channel). BullMQ refuses
 * ids that are integers or contain ":"; outside ids are not ours to trust, so anything unusual is
 * replaced by a hash (the job's data keeps the real id).
 */
export function jobIdPart(id: string): string {
  return SAFE_ID_PART.test(id)
    ? id
    : `h${createHash("sha256").update(id).digest("hex").slice(0, 32)}`;
}

/** A defined script's caller (see defineScript). */
export type Script = ReturnType<typeof defineScript>;

/** A script to define: its ioredis command name (with a version), its Lua, its key count. */
export type ScriptSpec = readonly [name: string, lua: string, numberOfKeys: number];

/**
 * Defines a part's scripts at once: `{ field: [name, lua, numberOfKeys] }` → callers by field.
 * The names are the ioredis commands (and versions) scripts are known by: changing a script's
 * Lua means a new name, so replicas of two versions never run each other's.
 */
export function defineScripts<K extends string>(
  redis: Redis,
  scripts: Record<K, ScriptSpec>,
): Record<K, Script> {
  const entries = Object.entries(scripts) as [K, ScriptSpec][];
  return Object.fromEntries(
    entries.map(([field, [name, lua, keys]]) => [field, defineScript(redis, name, lua, keys)]),
  ) as Record<K, Script>;
}
