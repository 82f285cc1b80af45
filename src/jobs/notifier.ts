import type { Block, KnownBlock } from "@slack/types";
import { DelayedError, type Job, type Queue } from "bullmq";
import type { Redis } from "ioredis";
import type { Logger } from "../log.js";
import type { Metrics } from "../metrics.js";
import { defineScript, jobIdPart, QUEUE_NAMES, stateKey } from "./queues.js";
import { classifySlackError, classifySlackResult, type SlackFailure } from "./slackFailure.js";

/**
 * Every Slack message of the background side goes through here.
 *
 * Design: a per-channel FIFO outbox in Redis, drained by ONE step job per channel.
 *
 * - Every message has a `key`, unique within its `scope` (one tracked order, one approval
 *   request, one quote). A scope's markers are the fields of one Redis hash that expires 14 days
 *   after the scope's last message, or later where a message asks (`keepForSeconds`): one small
 *   key per scope instead of one per message, which was most of what a tracked order cost.
 * - `post`/`update` run one Lua script: set the key's marker to `queued` (HSETNX: a key already
 *   queued, sent or dropped is a duplicate and is not queued again), append the message to the
 *   channel's outbox list, and, when the channel has no drainer, allocate a new drainer
 *   generation. The caller then adds the drain job `drain-<channel>-<generation>`.
 * - The drain job sends the head of the list, and only then (one script) marks the key `sent`
 *   (with the message ts, so a later update can refer to it) and pops the head. So a retried
 *   job or a second replica never sends a key twice once it is marked; the only duplicate left is
 *   a crash between Slack's answer and that script (at-least-once, as docs/DESIGN.md §5 asks).
 * - After each message the job moves itself to delayed for `perChannelIntervalMs` (Slack allows
 *   about one message per second per channel): channels drain in parallel (one job each), a
 *   channel never faster than its limit.
 * - On HTTP 429 the head stays where it is and the job is delayed by Retry-After: the queue
 *   waits, not the client (whose own retries are off), and later messages of the thread cannot
 *   overtake the rate-limited one. Order within a channel, and so within each thread, is the
 *   order of `post` calls, across 429s and restarts (the list is in Redis).
 * - When the outbox is empty, the job ends its generation in the same script that saw the list
 *   empty, so a concurrent `post` either sees the drainer (and its message is drained by it) or
 *   starts the next generation. Lost drain jobs (a crash between the script and the add, a job
 *   that failed) are re-created by `reconcile()`.
 * - `ok:false` errors that cannot succeed (channel_not_found, not_in_channel, invalid_blocks…)
 *   are logged, counted and dropped; transient failures retry with backoff, then are dropped.
 * - App Home (`refreshHome(userId)`): one outbox per person (`home<userId>`) holding at most
 *   one waiting refresh. The item carries no view: the injected `home` publisher renders the
 *   person's Home from the state at send time, so a burst of changes is one `views.publish`.
 *   Its drainer starts `homeDebounceMs` after the first change and waits as long after each
 *   publish: at most one publish per person per window, in order with nothing else.
 */

export type SlackBlock = KnownBlock | Block;

/** The part of WebClient's `chat` the notifier uses (pass `webClient.chat`). */
export interface SlackChatApi {
  postMessage(args: {
    channel: string;
    text: string;
    thread_ts?: string;
    blocks?: SlackBlock[];
  }): Promise<unknown>;
  update(args: {
    channel: string;
    ts: string;
    text: string;
    blocks?: SlackBlock[];
  }): Promise<unknown>;
}

export interface PostInput {
  /** What the message belongs to, e.g. `order:<id>:t<started>`: the keys' namespace. */
  scope: string;
  /** De-duplication key within the scope, e.g. `change:2:status:processing:loa:pending`. */
  key: string;
  /** Keep the scope's markers at least this long after this message (default and minimum: the
   * notifier's `markerTtlSeconds`); a later message never shortens it. */
  keepForSeconds?: number;
  channel: string;
  threadTs?: string;
  text: string;
  blocks?: SlackBlock[];
}

/**
 * An update of an existing message: by its `ts`, or by the `messageKey` of a message this
 * notifier posted in the same scope (resolved when the update is sent, after that post in the
 * same outbox).
 */
export type UpdateInput = {
  scope: string;
  key: string;
  keepForSeconds?: number;
  channel: string;
  text: string;
  blocks?: SlackBlock[];
} & ({ ts: string; messageKey?: undefined } | { messageKey: string; ts?: undefined });

export type EnqueueResult = { queued: true } | { queued: false; reason: "duplicate" };

export type MessageState =
  | { state: "queued" }
  | { state: "sent"; ts: string | undefined }
  | { state: "dropped"; reason: string };

export class NotifierInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NotifierInputError";
  }
}

/**
 * Renders a person's App Home from the current state and publishes it (`views.publish`);
 * returns Slack's result (a 429 or `ok:false` is handled like a message's).
 */
export type HomePublisher = (userId: string) => Promise<unknown>;

export interface NotifierOptions {
  /** A command connection (not a worker's). */
  redis: Redis;
  /** The notify queue (QUEUE_NAMES.notify). */
  queue: Queue;
  /** The key prefix shared with the queues (see stateKey). */
  prefix: string;
  logger: Logger;
  metrics?: Pick<Metrics, "jobOutcomes">;
  /** Needed only where drain jobs are processed. */
  slack?: SlackChatApi;
  /** Gap between two messages of one channel; Slack allows about 1 per second. Default 1100. */
  perChannelIntervalMs?: number;
  /** How long a scope's markers de-duplicate after its last message. Default 14 days. */
  markerTtlSeconds?: number;
  /** Transient failures of one message before it is dropped. Default 8. */
  maxAttempts?: number;
  /** Publishes a person's App Home; without it, `refreshHome` queues nothing. */
  home?: HomePublisher;
  /** App Home: a person's Home is published at most once per this window. Default 2000. */
  homeDebounceMs?: number;
  retryBaseMs?: number;
  retryMaxMs?: number;
}

interface OutboxItem {
  /** Scope; absent in items queued before scopes existed (their marker is a string key). */
  sc?: string;
  k: string;
  /** keepForSeconds, when longer than the default. */
  kf?: number;
  op: "post" | "update" | "home";
  ch: string;
  /** The person whose Home a `home` item refreshes. */
  u?: string;
  th?: string;
  ts?: string;
  mk?: string;
  text: string;
  blocks?: SlackBlock[];
  at: number;
}

export interface DrainJobData {
  channel: string;
  gen: string;
  failures?: number;
}

const CHANNEL_PATTERN = /^[A-Za-z0-9]{1,40}$/;
const USER_PATTERN = /^[UW][A-Z0-9]{2,30}$/;
/** A Home refresh's key in its scope `home:<user>`: one waiting refresh per person. */
const HOME_KEY = "refresh";
const TS_PATTERN = /^\d{1,12}(\.\d{1,9})?$/;
const MAX_KEY_LENGTH = 400;
const MAX_SCOPE_LENGTH = 200;
const MAX_KEEP_DAYS = 400;
/** How long a scope's markers de-duplicate after its last message unless one asks for longer. */
export const DEFAULT_MARKER_TTL_SECONDS = 14 * 24 * 3600;

/** Lua: gives KEYS[1] at least `ttl` seconds to live; never shortens a longer TTL. */
const KEEP_AT_LEAST = (ttl: string) =>
  `if redis.call('TTL', KEYS[1]) < tonumber(${ttl}) then redis.call('EXPIRE', KEYS[1], ${ttl}) end`;
/** Slack truncates/refuses longer texts (40,000 characters); keep room for the ellipsis. */
const MAX_TEXT_LENGTH = 39_000;

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

type SendOutcome = { kind: "sent"; ts: string | undefined } | SlackFailure;

/** Where a message's marker is: a field of its scope's hash, or (field "") a string key. */
interface MarkerRef {
  redisKey: string;
  field: string;
}

export class Notifier {
  private readonly redis: Redis;
  private readonly queue: Queue;
  private readonly prefix: string;
  private readonly logger: Logger;
  private readonly metrics?: Pick<Metrics, "jobOutcomes">;
  private readonly slack?: SlackChatApi;
  private readonly intervalMs: number;
  private readonly markerTtl: number;
  private readonly maxAttempts: number;
  private readonly retryBaseMs: number;
  private readonly retryMaxMs: number;
  private readonly home?: HomePublisher;
  private readonly homeDebounceMs: number;
  private readonly scripts: {
    enqueue: ReturnType<typeof defineScript>;
    head: ReturnType<typeof defineScript>;
    settle: ReturnType<typeof defineScript>;
    revive: ReturnType<typeof defineScript>;
  };

  constructor(options: NotifierOptions) {
    this.redis = options.redis;
    this.queue = options.queue;
    this.prefix = options.prefix;
    this.logger = options.logger;
    this.metrics = options.metrics;
    this.slack = options.slack;
    this.intervalMs = options.perChannelIntervalMs ?? 1_100;
    this.markerTtl = options.markerTtlSeconds ?? DEFAULT_MARKER_TTL_SECONDS;
    this.maxAttempts = options.maxAttempts ?? 8;
    this.retryBaseMs = options.retryBaseMs ?? 2_000;
    this.retryMaxMs = options.retryMaxMs ?? 5 * 60_000;
    this.home = options.home;
    this.homeDebounceMs = options.homeDebounceMs ?? 2_000;
    this.scripts = {
      enqueue: defineScript(this.redis, "jobsNotifierEnqueueV2", ENQUEUE, 6),
      head: defineScript(this.redis, "jobsNotifierHeadV1", HEAD, 3),
      settle: defineScript(this.redis, "jobsNotifierSettleV2", SETTLE, 2),
      revive: defineScript(this.redis, "jobsNotifierReviveV1", REVIVE, 3),
    };
  }

  /** Queues a message (a thread reply when `threadTs` is set). Duplicate keys are not queued. */
  async post(input: PostInput): Promise<EnqueueResult> {
    checkCommon(input);
    if (input.threadTs !== undefined && !TS_PATTERN.test(input.threadTs)) {
      throw new NotifierInputError("threadTs must be a Slack message ts");
    }
    return this.enqueue({
      sc: input.scope,
      k: input.key,
      kf: input.keepForSeconds,
      op: "post",
      ch: input.channel,
      th: input.threadTs,
      text: clip(input.text),
      blocks: input.blocks,
      at: Date.now(),
    });
  }

  /** Queues a chat.update of an existing message, in order with the channel's posts. */
  async update(input: UpdateInput): Promise<EnqueueResult> {
    checkCommon(input);
    if (input.ts !== undefined && !TS_PATTERN.test(input.ts)) {
      throw new NotifierInputError("ts must be a Slack message ts");
    }
    if (input.ts === undefined && !input.messageKey) {
      throw new NotifierInputError("update needs ts or messageKey");
    }
    return this.enqueue({
      sc: input.scope,
      k: input.key,
      kf: input.keepForSeconds,
      op: "update",
      ch: input.channel,
      ts: input.ts,
      mk: input.messageKey,
      text: clip(input.text),
      blocks: input.blocks,
      at: Date.now(),
    });
  }

  /**
   * Queues a refresh of a person's App Home, unless one is already waiting (it will show this
   * change too: the view is rendered when it is sent). Returns `duplicate` then.
   */
  async refreshHome(userId: string): Promise<EnqueueResult> {
    if (typeof userId !== "string" || !USER_PATTERN.test(userId)) {
      throw new NotifierInputError("userId must be a Slack user ID");
    }
    return this.enqueue({
      sc: homeScope(userId),
      k: HOME_KEY,
      op: "home",
      ch: homeOutbox(userId),
      u: userId,
      text: "App Home",
      at: Date.now(),
    });
  }

  /** What happened to a message: queued, sent (with its ts) or dropped; null if unknown. */
  async status(scope: string, key: string): Promise<MessageState | null> {
    return this.readMarker(scope, key);
  }

  /** Messages waiting in a channel's outbox. */
  async outboxLength(channel: string): Promise<number> {
    return this.redis.llen(this.outboxKey(channel));
  }

  /** Messages waiting in all outboxes (for the queue depth gauge). */
  async totalOutboxLength(): Promise<number> {
    const channels = await this.redis.smembers(this.channelsKey());
    if (channels.length === 0) return 0;
    const pipeline = this.redis.pipeline();
    for (const channel of channels) pipeline.llen(this.outboxKey(channel));
    const results = (await pipeline.exec()) ?? [];
    return results.reduce((sum, [, n]) => sum + (typeof n === "number" ? n : 0), 0);
  }

  /**
   * Re-creates the drain job of every channel that has queued messages but no live drain job
   * (lost between the enqueue script and the add, or failed). Returns how many were re-created.
   */
  async reconcile(): Promise<number> {
    let recreated = 0;
    const channels = await this.redis.smembers(this.channelsKey());
    for (const channel of channels) {
      const [action, gen] = (await this.scripts.revive(
        [this.drainerKey(channel), this.genKey(), this.outboxKey(channel)],
        [],
      )) as [number, string];
      if (action === 0) {
        // Nothing queued: a leftover channel entry (e.g. a drainer whose job was lost).
        const length = await this.redis.llen(this.outboxKey(channel));
        if (length === 0) {
          const drainerGen = await this.redis.get(this.drainerKey(channel));
          const alive = drainerGen ? await this.jobAlive(drainJobId(channel, drainerGen)) : false;
          if (!alive) {
            await this.redis.del(this.drainerKey(channel));
            await this.redis.srem(this.channelsKey(), channel);
          }
        }
        continue;
      }
      const jobId = drainJobId(channel, gen);
      if (action === 2 || !(await this.jobAlive(jobId))) {
        await this.replaceJob(jobId, { channel, gen });
        recreated += 1;
        this.logger.warn({ channel, jobId }, "notifier: re-created a lost drain job");
      }
    }
    return recreated;
  }

  /** The drain job's processor (one message per step). */
  async process(job: Job, token: string | undefined): Promise<string> {
    const data = parseDrainData(job.data);
    if (!data) {
      this.logger.error({ jobId: job.id }, "notifier: drain job with invalid data");
      return "invalid-job";
    }
    const slack = this.slack;
    if (!slack) throw new Error("notifier: no Slack client configured on this worker");
    const { channel, gen } = data;
    // Items that need no Slack call (already sent, unreadable) are settled in a loop; any Slack
    // call ends the step with a delay, so the channel's pace holds.
    for (;;) {
      const head = (await this.scripts.head(
        [this.drainerKey(channel), this.outboxKey(channel), this.channelsKey()],
        [gen, channel],
      )) as [string, string?];
      if (head[0] === "stale") return "stale";
      if (head[0] === "empty" || head[1] === undefined) return "drained";
      const raw = head[1];
      const item = parseItem(raw);
      if (!item) {
        await this.settle(channel, raw, undefined, undefined);
        this.count("dropped");
        this.logger.error({ channel }, "notifier: dropped an unreadable outbox entry");
        continue;
      }
      if (item.op === "home") {
        const outcome = await this.publishHome(item);
        await this.afterSend(job, token, data, raw, item, outcome);
      }
      const marker = await this.readMarker(item.sc, item.k);
      if (marker && marker.state !== "queued") {
        // Sent before a crash let the pop happen: never send a key twice.
        await this.settle(channel, raw, undefined, undefined);
        this.count("duplicate");
        continue;
      }
      const outcome = await this.send(slack, item);
      await this.afterSend(job, token, data, raw, item, outcome);
    }
  }

  private async afterSend(
    job: Job,
    token: string | undefined,
    data: DrainJobData,
    raw: string,
    item: OutboxItem,
    outcome: SendOutcome,
  ): Promise<never> {
    const log = { channel: item.ch, key: item.k, op: item.op };
    // A Home refresh leaves no marker (the next change must be able to queue the next one) and
    // paces its person's outbox by the debounce window.
    const home = item.op === "home";
    const settled = home ? undefined : item;
    const pace = home ? this.homeDebounceMs : this.intervalMs;
    switch (outcome.kind) {
      case "sent":
        await this.settle(item.ch, raw, settled, `sent|${outcome.ts ?? ""}`);
        this.count(item.op === "post" ? "posted" : item.op === "home" ? "published" : "updated");
        if (data.failures) await job.updateData({ channel: data.channel, gen: data.gen });
        return this.delay(job, token, pace);
      case "rate-limited":
        this.count("rate_limited");
        this.logger.info({ ...log, retryAfterMs: outcome.retryAfterMs }, "notifier: rate limited");
        return this.delay(job, token, Math.max(outcome.retryAfterMs, pace));
      case "permanent":
        await this.settle(item.ch, raw, settled, `dropped|${outcome.error}`);
        this.count("dropped");
        this.logger.warn(
          { ...log, error: outcome.error },
          "notifier: dropped a message Slack refuses",
        );
        if (data.failures) await job.updateData({ channel: data.channel, gen: data.gen });
        return this.delay(job, token, pace);
      case "transient": {
        const failures = (data.failures ?? 0) + 1;
        if (failures >= this.maxAttempts) {
          await this.settle(item.ch, raw, settled, `dropped|${outcome.detail.slice(0, 100)}`);
          this.count("failed");
          this.logger.error(
            { ...log, failures, detail: outcome.detail },
            "notifier: gave up on a message after repeated failures",
          );
          await job.updateData({ channel: data.channel, gen: data.gen });
          return this.delay(job, token, pace);
        }
        this.count("retry");
        this.logger.warn(
          { ...log, failures, detail: outcome.detail },
          "notifier: Slack call failed; will retry",
        );
        await job.updateData({ channel: data.channel, gen: data.gen, failures });
        const backoff = Math.min(this.retryBaseMs * 2 ** (failures - 1), this.retryMaxMs);
        return this.delay(job, token, backoff);
      }
    }
  }

  /**
   * Publishes the Home of a `home` item's person. Its marker goes first, so a change from now
   * on queues the next refresh (this one may have read the state just before that change).
   */
  private async publishHome(item: OutboxItem): Promise<SendOutcome> {
    const ref = this.markerRef(item.sc, item.k);
    await this.redis.hdel(ref.redisKey, ref.field);
    if (!this.home || !item.u) {
      return { kind: "permanent", error: "no_home_publisher", detail: "App Home is not set up" };
    }
    try {
      const result = await this.home(item.u);
      return classifySlackResult(result) ?? { kind: "sent", ts: undefined };
    } catch (error) {
      return classifySlackError(error);
    }
  }

  private async send(slack: SlackChatApi, item: OutboxItem): Promise<SendOutcome> {
    try {
      if (item.op === "post") {
        const result = await slack.postMessage({
          channel: item.ch,
          text: item.text,
          ...(item.th ? { thread_ts: item.th } : {}),
          ...(item.blocks ? { blocks: item.blocks } : {}),
        });
        return classifySlackResult(result) ?? { kind: "sent", ts: readTs(result) };
      }
      const ts = item.ts ?? (await this.resolveTs(item.sc, item.mk));
      if (ts === undefined) {
        return { kind: "permanent", error: "message_not_posted", detail: "unknown message key" };
      }
      const result = await slack.update({
        channel: item.ch,
        ts,
        text: item.text,
        ...(item.blocks ? { blocks: item.blocks } : {}),
      });
      return classifySlackResult(result) ?? { kind: "sent", ts };
    } catch (error) {
      return classifySlackError(error);
    }
  }

  private async resolveTs(
    scope: string | undefined,
    messageKey: string | undefined,
  ): Promise<string | undefined> {
    if (!messageKey) return undefined;
    const marker = await this.readMarker(scope, messageKey);
    return marker?.state === "sent" ? marker.ts : undefined;
  }

  /** A message's marker; a scoped key not found in its hash is looked for under its old name. */
  private async readMarker(scope: string | undefined, key: string): Promise<MessageState | null> {
    const ref = this.markerRef(scope, key);
    if (ref.field === "") return parseMarker(await this.redis.get(ref.redisKey));
    const value = await this.redis.hget(ref.redisKey, ref.field);
    if (value !== null) return parseMarker(value);
    return parseMarker(await this.redis.get(this.legacyMarkerKey(scope, key)));
  }

  /** Marks the item (when given) and pops the head of the channel's outbox if it is still `raw`. */
  private async settle(
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

  private async delay(job: Job, token: string | undefined, ms: number): Promise<never> {
    await job.moveToDelayed(Date.now() + ms, token);
    throw new DelayedError();
  }

  private async enqueue(item: OutboxItem): Promise<EnqueueResult> {
    const [action, gen] = (await this.scripts.enqueue(
      [
        this.markerRef(item.sc, item.k).redisKey,
        this.outboxKey(item.ch),
        this.drainerKey(item.ch),
        this.genKey(),
        this.channelsKey(),
        this.legacyMarkerKey(item.sc, item.k),
      ],
      [JSON.stringify(item), this.keepFor(item), item.ch, item.k],
    )) as [number, string];
    if (action === 0) {
      this.count("duplicate");
      return { queued: false, reason: "duplicate" };
    }
    if (action === 2) {
      try {
        await this.queue.add("drain", { channel: item.ch, gen } satisfies DrainJobData, {
          ...drainJobOptions(drainJobId(item.ch, gen)),
          // A Home refresh waits for the rest of a burst of changes.
          ...(item.op === "home" ? { delay: this.homeDebounceMs } : {}),
        });
      } catch (error) {
        // The message is safe in the outbox; reconcile() starts its drainer.
        this.logger.error(
          { channel: item.ch, err: errorText(error) },
          "notifier: could not add the drain job; the reconciler will",
        );
      }
    }
    return { queued: true };
  }

  private async jobAlive(jobId: string): Promise<boolean> {
    const job = await this.queue.getJob(jobId);
    if (!job) return false;
    const state = await job.getState();
    return state !== "completed" && state !== "failed" && state !== "unknown";
  }

  private async replaceJob(jobId: string, data: DrainJobData): Promise<void> {
    const old = await this.queue.getJob(jobId);
    if (old) await old.remove().catch(() => undefined);
    await this.queue.add("drain", data, drainJobOptions(jobId));
  }

  private count(outcome: string): void {
    this.metrics?.jobOutcomes.inc({ queue: QUEUE_NAMES.notify, outcome });
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

/** The notifier scope of a person's App Home refreshes. */
export function homeScope(userId: string): string {
  return `home:${userId}`;
}

/** The outbox of a person's App Home (never a channel id: those start with C, D, G). */
export function homeOutbox(userId: string): string {
  return `home${userId}`;
}

export function drainJobId(channel: string, gen: string): string {
  return `drain-${jobIdPart(channel)}-${gen}`;
}

function drainJobOptions(jobId: string) {
  return {
    jobId,
    removeOnComplete: true,
    removeOnFail: { age: 7 * 24 * 3600 },
    // Only unexpected errors (Redis) count as attempts; Slack failures are handled in the step.
    attempts: 10,
    backoff: { type: "exponential", delay: 1_000 },
  };
}

function checkCommon(input: PostInput | UpdateInput): void {
  const { scope, key, channel, text, keepForSeconds } = input;
  checkName("scope", scope, MAX_SCOPE_LENGTH);
  checkName("key", key, MAX_KEY_LENGTH);
  if (
    keepForSeconds !== undefined &&
    !(
      Number.isInteger(keepForSeconds) &&
      keepForSeconds > 0 &&
      keepForSeconds <= MAX_KEEP_DAYS * 24 * 3600
    )
  ) {
    throw new NotifierInputError(
      `keepForSeconds must be a whole number of seconds up to ${MAX_KEEP_DAYS} days`,
    );
  }
  if (typeof channel !== "string" || !CHANNEL_PATTERN.test(channel)) {
    throw new NotifierInputError("channel must be a Slack channel or user ID");
  }
  if (typeof text !== "string" || text.length === 0) {
    throw new NotifierInputError("text is required (it is the notification fallback)");
  }
}

function checkName(what: string, value: string, maxLength: number): void {
  if (typeof value !== "string" || value.length === 0 || value.length > maxLength) {
    throw new NotifierInputError(`${what} must be 1 to ${maxLength} characters`);
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f]/.test(value)) throw new NotifierInputError(`${what} must be one line`);
}

function clip(text: string): string {
  return text.length <= MAX_TEXT_LENGTH ? text : `${text.slice(0, MAX_TEXT_LENGTH - 1)}…`;
}

function parseMarker(value: string | null): MessageState | null {
  if (value === null) return null;
  if (value === "queued") return { state: "queued" };
  const bar = value.indexOf("|");
  const kind = bar === -1 ? value : value.slice(0, bar);
  const rest = bar === -1 ? "" : value.slice(bar + 1);
  if (kind === "sent") return { state: "sent", ts: rest || undefined };
  return { state: "dropped", reason: rest || "unknown" };
}

function parseItem(raw: string): OutboxItem | undefined {
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value !== "object" || value === null) return undefined;
    const item = value as Partial<OutboxItem>;
    if (typeof item.k !== "string" || typeof item.ch !== "string" || typeof item.text !== "string")
      return undefined;
    if (item.sc !== undefined && typeof item.sc !== "string") return undefined;
    if (item.kf !== undefined && typeof item.kf !== "number") return undefined;
    if (item.op !== "post" && item.op !== "update" && item.op !== "home") return undefined;
    if (item.u !== undefined && typeof item.u !== "string") return undefined;
    return item as OutboxItem;
  } catch {
    return undefined;
  }
}

function parseDrainData(data: unknown): DrainJobData | undefined {
  if (typeof data !== "object" || data === null) return undefined;
  const d = data as Partial<DrainJobData>;
  if (typeof d.channel !== "string" || typeof d.gen !== "string") return undefined;
  return {
    channel: d.channel,
    gen: d.gen,
    failures: typeof d.failures === "number" ? d.failures : undefined,
  };
}

function readTs(result: unknown): string | undefined {
  if (typeof result !== "object" || result === null) return undefined;
  const ts = (result as { ts?: unknown }).ts;
  return typeof ts === "string" ? ts : undefined;
}

export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
