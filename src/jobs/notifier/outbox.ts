import type { Redis } from "ioredis";
import { defineScripts, type Script, type ScriptSpec, stateKey } from "../queues.js";
import type { SlackBlock } from "./notifier.js";

/**
 * The notifier's Redis side: one FIFO outbox (a list) per channel (and one per person's Home,
 * one for all kept messages' updates: `outboxOf`), the markers that make each message key count
 * once, and the drainer generation of each outbox. Every step that must be
 * atomic is one Lua script: queueing (marker + append + drainer), reading the head (an empty
 * outbox ends its generation in the same step, so a concurrent post either sees the drainer or
 * starts the next one), settling (mark + pop). Names and layout are what a restarted or older
 * replica reads: `<prefix>:{notifier}:{outbox,drainer}:<channel>`, `…:generation`, `…:channels`,
 * markers in `…:m:<scope>` (older ones `…:key:<scope>:<key>`).
 */

/** How long a scope's markers de-duplicate after its last message unless one asks for longer. */
export const DEFAULT_MARKER_TTL_SECONDS = 14 * 24 * 3600;

export type MessageState =
  | { state: "queued" }
  | { state: "sent"; ts: string | undefined; channel?: string }
  | { state: "dropped"; reason: string };

/** One queued message (or Home refresh), as stored in the outbox list (JSON). */
export interface OutboxItem {
  /** Scope; absent in items queued before scopes existed (their marker is a string key). */
  sc?: string;
  k: string;
  /** keepForSeconds, when longer than the default. */
  kf?: number;
  op: "post" | "update" | "home" | "complete" | "render";
  ch: string;
  /** The person whose Home a `home` item refreshes. */
  u?: string;
  /** What a `render` item renders when it is sent (renderedUpdate.ts), e.g. `message:<id>`. */
  r?: string;
  th?: string;
  /** A post whose marker keeps the channel Slack answered with (PostInput `keepChannel`). */
  kc?: 1;
  ts?: string;
  mk?: string;
  /** `complete`: the Workflow Builder step (function execution) this item ends. */
  step?: StepEnd;
  text: string;
  blocks?: SlackBlock[];
  at: number;
}

/**
 * How a `complete` item ends a Workflow Builder step: `functions.completeSuccess` with the
 * outputs, or `functions.completeError` with the error, called with the step-scoped token Slack
 * gave the step (the bot's own token cannot end it). `gone` is the thread line posted instead
 * when Slack has already ended the step (the workflow no longer waits), worded by the caller.
 */
export interface StepEnd {
  executionId: string;
  token: string;
  outputs?: Record<string, string | number>;
  error?: string;
  gone?: { channel: string; threadTs?: string; text: string };
}

/** Lua: gives KEYS[1] at least `ttl` seconds to live; never shortens a longer TTL. */
const KEEP_AT_LEAST = (ttl: string) =>
  `if redis.call('TTL', KEYS[1]) < tonumber(${ttl}) then redis.call('EXPIRE', KEYS[1], ${ttl}) end`;

/**
 * KEYS: the scope's markers, outbox, drainer, generation counter, channel set, the key's marker
 * as it was named before scopes (a duplicate too, until those have expired).
 * ARGV: item, ttl, channel, key.
 */
const ENQUEUE = `
if redis.call('EXISTS', KEYS[6]) == 1 then return {0, ''} end
if redis.call('HSETNX', KEYS[1], ARGV[4], 'queued') == 0 then return {0, ''} end
${KEEP_AT_LEAST("ARGV[2]")}
redis.call('RPUSH', KEYS[2], ARGV[1])
redis.call('SADD', KEYS[5], ARGV[3])
local gen = redis.call('GET', KEYS[3])
if gen then return {1, gen} end
gen = tostring(redis.call('INCR', KEYS[4]))
redis.call('SET', KEYS[3], gen)
return {2, gen}
`;

/**
 * KEYS: drainer, outbox, channel set. ARGV: generation, channel.
 * The head of the outbox for the current generation; an empty outbox ends the generation.
 */
const HEAD = `
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return {'stale'} end
local item = redis.call('LINDEX', KEYS[2], 0)
if not item then
  redis.call('DEL', KEYS[1])
  redis.call('SREM', KEYS[3], ARGV[2])
  return {'empty'}
end
return {'item', item}
`;

/**
 * KEYS: the marker's key, outbox. ARGV: item, marker value, ttl, field (empty: a string key, for
 * items queued before scopes). Marks the message and pops it if at the head.
 */
const SETTLE = `
if ARGV[4] == '' then
  redis.call('SET', KEYS[1], ARGV[2], 'EX', ARGV[3])
else
  redis.call('HSET', KEYS[1], ARGV[4], ARGV[2])
  ${KEEP_AT_LEAST("ARGV[3]")}
end
if redis.call('LINDEX', KEYS[2], 0) == ARGV[1] then redis.call('LPOP', KEYS[2]) end
return 1
`;

/** KEYS: drainer, generation counter, outbox. Starts a generation if none and there is work. */
const REVIVE = `
if redis.call('LLEN', KEYS[3]) == 0 then return {0, ''} end
local gen = redis.call('GET', KEYS[1])
if gen then return {1, gen} end
gen = tostring(redis.call('INCR', KEYS[2]))
redis.call('SET', KEYS[1], gen)
return {2, gen}
`;

/**
 * The outbox of every kept message's update (`render` items, renderedUpdate.ts), whatever its
 * channel: `chat.update` is limited per workspace (Slack's Tier 3, about 50 a minute with bursts),
 * not per channel like `chat.postMessage`, and an update never has to wait for a thread line (it
 * renders the state when sent, so it has no order to keep with them). Never a channel id (those
 * start with C, D or G) nor a person's Home outbox (`home<user>`).
 */
export const KEPT_UPDATES_OUTBOX = "kept-updates";

/**
 * The outbox an item is queued in, drained by one step job each: its channel's, a person's Home
 * (its `ch` names that outbox), or all kept messages' updates. An item queued before the updates
 * had their own outbox stays in its channel's and is sent from there.
 */
export function outboxOf(item: Pick<OutboxItem, "op" | "ch">): string {
  return item.op === "render" ? KEPT_UPDATES_OUTBOX : item.ch;
}

/** The outbox's scripts (a changed Lua gets a new version: replicas never run each other's). */
const SCRIPTS = {
  enqueue: ["jobsNotifierEnqueueV2", ENQUEUE, 6],
  head: ["jobsNotifierHeadV1", HEAD, 3],
  settle: ["jobsNotifierSettleV2", SETTLE, 2],
  revive: ["jobsNotifierReviveV1", REVIVE, 3],
} as const satisfies Record<string, ScriptSpec>;

/**
 * What queueing (or reviving) did: 0 nothing (a duplicate; an empty outbox), 1 the channel's
 * drainer `gen` will take it, 2 a new drainer generation `gen` was started (add its job).
 */
export type DrainerAction = { action: 0 | 1 | 2; gen: string };

export type Head = { kind: "stale" } | { kind: "empty" } | { kind: "item"; raw: string };

/** Where a message's marker is: a field of its scope's hash, or (field "") a string key. */
interface MarkerRef {
  redisKey: string;
  field: string;
}

export class Outbox {
  private readonly scripts: Record<keyof typeof SCRIPTS, Script>;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** How long a scope's markers de-duplicate after its last message, at least. */
    private readonly markerTtl: number,
  ) {
    this.scripts = defineScripts(redis, SCRIPTS);
  }

  /** Queues an item unless its key is already marked (queued, sent or dropped). */
  async enqueue(item: OutboxItem): Promise<DrainerAction> {
    const [action, gen] = (await this.scripts.enqueue(
      [
        this.markerRef(item.sc, item.k).redisKey,
        this.outboxKey(outboxOf(item)),
        this.drainerKey(outboxOf(item)),
        this.genKey(),
        this.channelsKey(),
        this.legacyMarkerKey(item.sc, item.k),
      ],
      [JSON.stringify(item), this.keepFor(item), outboxOf(item), item.k],
    )) as [0 | 1 | 2, string];
    return { action, gen };
  }

  /** The head of a channel's outbox for drainer `gen`; an empty outbox ends that generation. */
  async head(channel: string, gen: string): Promise<Head> {
    const head = (await this.scripts.head(
      [this.drainerKey(channel), this.outboxKey(channel), this.channelsKey()],
      [gen, channel],
    )) as [string, string?];
    if (head[0] === "stale") return { kind: "stale" };
    if (head[0] === "empty" || head[1] === undefined) return { kind: "empty" };
    return { kind: "item", raw: head[1] };
  }

  /** Marks the item (when given) and pops the head of the channel's outbox if it is still `raw`. */
  async settle(
    channel: string,
    raw: string,
    item: OutboxItem | undefined,
    marker: string | undefined,
  ): Promise<void> {
    if (item === undefined || marker === undefined) {
      await this.redis.lrem(this.outboxKey(channel), 1, raw);
      return;
    }
    const ref = this.markerRef(item.sc, item.k);
    await this.scripts.settle(
      [ref.redisKey, this.outboxKey(channel)],
      [raw, marker, this.keepFor(item), ref.field],
    );
  }

  /** Starts a drainer generation for a channel with queued messages and none. */
  async revive(channel: string): Promise<DrainerAction> {
    const [action, gen] = (await this.scripts.revive(
      [this.drainerKey(channel), this.genKey(), this.outboxKey(channel)],
      [],
    )) as [0 | 1 | 2, string];
    return { action, gen };
  }

  /** A message's marker; a scoped key not found in its hash is looked for under its old name. */
  async readMarker(scope: string | undefined, key: string): Promise<MessageState | null> {
    const ref = this.markerRef(scope, key);
    if (ref.field === "") return parseMarker(await this.redis.get(ref.redisKey));
    const value = await this.redis.hget(ref.redisKey, ref.field);
    if (value !== null) return parseMarker(value);
    return parseMarker(await this.redis.get(this.legacyMarkerKey(scope, key)));
  }

  /** Removes an item's marker, so that its key can be queued again (a Home refresh). */
  async unmark(item: OutboxItem): Promise<void> {
    const ref = this.markerRef(item.sc, item.k);
    await this.redis.hdel(ref.redisKey, ref.field);
  }

  /** The first `count` entries of an outbox, oldest first (a burst of kept messages' updates). */
  first(outbox: string, count: number): Promise<string[]> {
    return this.redis.lrange(this.outboxKey(outbox), 0, count - 1);
  }

  /** Messages waiting in a channel's outbox. */
  length(channel: string): Promise<number> {
    return this.redis.llen(this.outboxKey(channel));
  }

  /** Messages waiting in all outboxes. */
  async totalLength(): Promise<number> {
    const channels = await this.channels();
    if (channels.length === 0) return 0;
    const pipeline = this.redis.pipeline();
    for (const channel of channels) pipeline.llen(this.outboxKey(channel));
    const results = (await pipeline.exec()) ?? [];
    return results.reduce((sum, [, n]) => sum + (typeof n === "number" ? n : 0), 0);
  }

  /** The channels that have (or had, until their drainer ended) queued messages. */
  channels(): Promise<string[]> {
    return this.redis.smembers(this.channelsKey());
  }

  /** The channel's drainer generation, if it has one. */
  drainer(channel: string): Promise<string | null> {
    return this.redis.get(this.drainerKey(channel));
  }

  /** Forgets a channel whose outbox is empty and whose drainer is gone. */
  async dropChannel(channel: string): Promise<void> {
    await this.redis.del(this.drainerKey(channel));
    await this.redis.srem(this.channelsKey(), channel);
  }

  /** How long the item's scope keeps its markers (never less than the default). */
  private keepFor(item: OutboxItem): number {
    return Math.max(this.markerTtl, item.kf ?? 0);
  }

  private markerRef(scope: string | undefined, key: string): MarkerRef {
    if (scope === undefined) return { redisKey: this.legacyMarkerKey(scope, key), field: "" };
    return { redisKey: stateKey(this.prefix, "notifier", "m", scope), field: key };
  }
  /**
   * Before scopes (up to 2026-11-25) each marker was a string key named `<scope>:<key>`. They
   * are still honoured (de-duplication, an update's messageKey) until they have expired, 14 days
   * after an upgrade; this fallback can go then.
   */
  private legacyMarkerKey(scope: string | undefined, key: string): string {
    return stateKey(this.prefix, "notifier", "key", scope === undefined ? key : `${scope}:${key}`);
  }
  private outboxKey(channel: string): string {
    return stateKey(this.prefix, "notifier", "outbox", channel);
  }
  private drainerKey(channel: string): string {
    return stateKey(this.prefix, "notifier", "drainer", channel);
  }
  private genKey(): string {
    return stateKey(this.prefix, "notifier", "generation");
  }
  private channelsKey(): string {
    return stateKey(this.prefix, "notifier", "channels");
  }
}

/**
 * A marker as stored: `queued`, `sent|<ts>`, `sent|<ts>|<channel>` (a post that asked to keep
 * its channel, `kc`) or `dropped|<reason>`.
 */
export function parseMarker(value: string | null): MessageState | null {
  if (value === null) return null;
  if (value === "queued") return { state: "queued" };
  const bar = value.indexOf("|");
  const kind = bar === -1 ? value : value.slice(0, bar);
  const rest = bar === -1 ? "" : value.slice(bar + 1);
  if (kind === "sent") {
    const [ts, channel] = rest.split("|");
    return { state: "sent", ts: ts || undefined, ...(channel ? { channel } : {}) };
  }
  return { state: "dropped", reason: rest || "unknown" };
}

/** An outbox entry as stored; undefined when it cannot be read (it is dropped). */
export function parseItem(raw: string): OutboxItem | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== "object" || value === null) return undefined;
    const item = value as Partial<OutboxItem>;
    if (typeof item.k !== "string" || typeof item.ch !== "string" || typeof item.text !== "string")
      return undefined;
    if (item.sc !== undefined && typeof item.sc !== "string") return undefined;
    if (item.kf !== undefined && typeof item.kf !== "number") return undefined;
    const ops: readonly unknown[] = ["post", "update", "home", "complete", "render"];
    if (!ops.includes(item.op)) return undefined;
    if (item.op === "complete" && !isStepEnd(item.step)) return undefined;
    if (item.u !== undefined && typeof item.u !== "string") return undefined;
    if (item.r !== undefined && typeof item.r !== "string") return undefined;
    return item as OutboxItem;
  } catch {
    return undefined;
  }
}

function isStepEnd(value: unknown): value is StepEnd {
  if (typeof value !== "object" || value === null) return false;
  const step = value as Partial<StepEnd>;
  return (
    typeof step.executionId === "string" &&
    typeof step.token === "string" &&
    (typeof step.error === "string" || (typeof step.outputs === "object" && step.outputs !== null))
  );
}
