import type { Redis } from "ioredis";
import {
  isTrackTargetKind,
  type TrackTarget,
  type TrackTargetKind,
} from "../../domain/tracking/statuses.js";
import type { OrderKind } from "../../domain/tracking/trackedOrder.js";
import { defineScripts, type Script, type ScriptSpec, stateKey } from "../../jobs/queues.js";

/**
 * A tracker's durable record: the truth about what is tracked (the BullMQ job only runs its
 * steps). One small Redis hash per target plus an index of the open ones, each write one Lua
 * script: `track()` creates a record or joins the open one, a step saves only while its tracker
 * is open, the end removes it from the index.
 *
 * The layout is what crash recovery and older versions read, so it changes only by adding:
 * port and Edge orders keep the layout they had before other kinds were tracked (record
 * `tracker:order:<id>`, index member `<id>`, no `tk` field in older records); other kinds are
 * `tracker:<kind>:<id>`, member `<kind>|<id>`.
 */

export interface TrackedOrder {
  target: TrackTarget;
  /** The tracked id (the target's id; named for the port orders it first served). */
  orderId: string;
  companyName: string;
  channel: string;
  threadTs: string;
  statusMessageTs?: string;
  requestedBy: string;
  /** A port order's LOA flavour; "on-net" for other targets, where it means nothing. */
  kind: OrderKind;
  counterparty?: string;
  ref?: string;
  startedAt: Date;
  open: boolean;
  status?: string;
  loaStatus?: string;
  changes: number;
  checks: number;
  failures: number;
  lastError?: string;
  lastCheckAt?: Date;
  lastChangeAt?: Date;
  nextCheckAt?: Date;
  /** Since when the LOA status has had its current value. */
  loaSince?: Date;
  /** Weekly LOA reminders posted for the current LOA status. */
  reminders: number;
  /** Since when the status has waited on another company, a cloud or a partner to accept. */
  waitingSince?: Date;
  /** Reminders sent to the requester during that wait. */
  waitReminders: number;
  /** Others who asked to track the same target (joined). */
  watchers: string[];
  endReason?: string;
}

export const ORDER_KINDS: readonly OrderKind[] = ["on-net", "off-net", "edge"];

/** Record field names (a hash: each is a few bytes in Redis' listpack encoding). */
export const F = {
  orderId: "id",
  company: "company",
  channel: "channel",
  thread: "thread",
  line: "line",
  by: "by",
  kind: "kind",
  started: "started",
  state: "state",
  status: "status",
  loa: "loa",
  seq: "seq",
  checks: "checks",
  checkedAt: "checked",
  changedAt: "changed",
  loaSince: "loaSince",
  reminders: "reminders",
  failures: "failures",
  error: "error",
  next: "next",
  watchers: "watchers",
  endReason: "endReason",
  target: "tk",
  counterparty: "cp",
  ref: "ref",
  waitSince: "wsince",
  waitReminders: "wrem",
} as const;

/** Field updates of a step, by record field name. */
export type RecordUpdates = Record<string, string>;

/** KEYS: record, open index. ARGV: index member, startedMs, watcher, field/value pairs… */
const TRACK = `
if redis.call('HGET', KEYS[1], 'state') == 'open' then
  local w = redis.call('HGET', KEYS[1], 'watchers') or ''
  local owner = redis.call('HGET', KEYS[1], 'by') or ''
  if ARGV[3] ~= '' and ARGV[3] ~= owner and #w < 400
     and not string.find(',' .. w .. ',', ',' .. ARGV[3] .. ',', 1, true) then
    if w == '' then w = ARGV[3] else w = w .. ',' .. ARGV[3] end
    redis.call('HSET', KEYS[1], 'watchers', w)
  end
  return 0
end
redis.call('DEL', KEYS[1])
redis.call('HSET', KEYS[1], unpack(ARGV, 4))
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[1])
return 1
`;

/** KEYS: record. ARGV: started, field/value pairs… Saves only while this tracker is open. */
const SAVE = `
if redis.call('HGET', KEYS[1], 'state') ~= 'open' then return 0 end
if redis.call('HGET', KEYS[1], 'started') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
return 1
`;

/** KEYS: record, open index. ARGV: index member, started, ttlMs, field/value pairs… */
const END = `
if redis.call('HGET', KEYS[1], 'state') ~= 'open' then return 0 end
if redis.call('HGET', KEYS[1], 'started') ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'state', 'ended', unpack(ARGV, 4))
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`;

/** The record's scripts (a changed Lua gets a new version: replicas never run each other's). */
const SCRIPTS = {
  track: ["jobsTrackerTrackV1", TRACK, 2],
  save: ["jobsTrackerSaveV1", SAVE, 1],
  end: ["jobsTrackerEndV1", END, 2],
} as const satisfies Record<string, ScriptSpec>;

/** Port and Edge orders share one namespace: both are port orders at the provider. */
export function isOrderTarget(target: TrackTarget): boolean {
  return target.kind === "port-order" || target.kind === "edge-order";
}

/** The open index's member: the bare id for orders (older records), `<kind>|<id>` otherwise. */
function indexMember(target: TrackTarget): string {
  return isOrderTarget(target) ? target.id : `${target.kind}|${target.id}`;
}

/** The target an open index member names (a bare id: the order namespace). */
export function targetOfMember(member: string): TrackTarget {
  const bar = member.indexOf("|");
  const kind = bar > 0 ? member.slice(0, bar) : "";
  return isTrackTargetKind(kind)
    ? { kind, id: member.slice(bar + 1) }
    : { kind: "port-order", id: member };
}

/** Where a bare id is looked for: the order namespace first, then the other kinds. */
const LOOKUP_ORDER: readonly TrackTargetKind[] = ["port-order", "port", "layer2", "iod"];

export class TrackerRecords {
  private readonly scripts: Record<keyof typeof SCRIPTS, Script>;

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    /** How long an ended record is kept (for list/debugging). */
    private readonly endedRetentionMs: number,
  ) {
    this.scripts = defineScripts(redis, SCRIPTS);
  }

  /**
   * Creates the record of a target (true), or joins the open one (false): `requestedBy` is
   * added to its watchers unless it is the owner. `fields` are the new record's.
   */
  async create(
    target: TrackTarget,
    startedAt: number,
    requestedBy: string,
    fields: RecordUpdates,
  ): Promise<boolean> {
    const created = await this.scripts.track(
      [this.recordKey(target), this.indexKey()],
      [indexMember(target), startedAt, requestedBy, ...Object.entries(fields).flat()],
    );
    return created === 1;
  }

  /**
   * The record of a target (open or recently ended), or null. A bare id is a port or Edge order
   * first, then a port, a layer 2 connection or an IO-D service (ids are the provider's, unique).
   */
  async get(ref: string | TrackTarget): Promise<TrackedOrder | null> {
    if (typeof ref !== "string") return parseRecord(await this.redis.hgetall(this.recordKey(ref)));
    const pipeline = this.redis.pipeline();
    for (const kind of LOOKUP_ORDER) pipeline.hgetall(this.recordKey({ kind, id: ref }));
    for (const [, hash] of (await pipeline.exec()) ?? []) {
      const record = parseRecord(hash as Record<string, string>);
      if (record) return record;
    }
    return null;
  }

  /** Every open record, oldest first. */
  async list(): Promise<TrackedOrder[]> {
    const members = await this.openMembers();
    if (members.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const member of members) pipeline.hgetall(this.recordKey(targetOfMember(member)));
    const results = (await pipeline.exec()) ?? [];
    const out: TrackedOrder[] = [];
    for (const [, hash] of results) {
      const record = parseRecord(hash as Record<string, string>);
      if (record?.open) out.push(record);
    }
    return out;
  }

  /** The open index, oldest first (members: see targetOfMember). */
  openMembers(): Promise<string[]> {
    return this.redis.zrange(this.indexKey(), "0", "-1");
  }

  /** Drops an index member whose record is gone or ended. */
  async dropMember(member: string): Promise<void> {
    await this.redis.zrem(this.indexKey(), member);
  }

  /** Saves a step's updates, only while this tracker (this start) is open. */
  async save(record: TrackedOrder, updates: RecordUpdates): Promise<void> {
    await this.scripts.save(
      [this.recordKey(record.target)],
      [String(record.startedAt.getTime()), ...Object.entries(updates).flat()],
    );
  }

  /** Ends this tracker (false: it had ended, or another start replaced it). */
  async end(record: TrackedOrder, reason: string, fields: RecordUpdates): Promise<boolean> {
    const result = await this.scripts.end(
      [this.recordKey(record.target), this.indexKey()],
      [
        indexMember(record.target),
        String(record.startedAt.getTime()),
        this.endedRetentionMs,
        F.endReason,
        reason,
        ...Object.entries(fields).flat(),
      ],
    );
    return result === 1;
  }

  private recordKey(target: TrackTarget): string {
    const area = isOrderTarget(target) ? "order" : target.kind;
    return stateKey(this.prefix, "tracker", area, target.id);
  }

  private indexKey(): string {
    return stateKey(this.prefix, "tracker", "open");
  }
}

/**
 * What is being tracked, read from the tracker's records on `redis` (`prefix`: the jobs'):
 * App Home's renderer reads it, and is built before the jobs it is handed to.
 */
export function trackedReader(redis: Redis, prefix: string): { list(): Promise<TrackedOrder[]> } {
  // Reading never runs the scripts, so the retention of ended records does not matter here.
  const records = new TrackerRecords(redis, prefix, 0);
  return { list: () => records.list() };
}

function num(value: string | undefined): number | undefined {
  if (value === undefined || value === "") return undefined;
  const n = Number(value);
  return Number.isFinite(n) ? n : undefined;
}

function date(value: string | undefined): Date | undefined {
  const n = num(value);
  return n === undefined ? undefined : new Date(n);
}

/**
 * A record as written by this version or an older one: records from before other kinds were
 * tracked have no target field and are port orders, or Edge orders when their kind says edge.
 */
function parseRecord(hash: Record<string, string> | null | undefined): TrackedOrder | null {
  const id = hash?.[F.orderId];
  if (!hash || !id || !hash[F.started]) return null;
  const kind = ORDER_KINDS.includes(hash[F.kind] as OrderKind)
    ? (hash[F.kind] as OrderKind)
    : "on-net";
  const stored = hash[F.target];
  const targetKind: TrackTargetKind = isTrackTargetKind(stored)
    ? stored
    : kind === "edge"
      ? "edge-order"
      : "port-order";
  return {
    target: { kind: targetKind, id },
    orderId: id,
    companyName: hash[F.company] ?? "",
    channel: hash[F.channel] ?? "",
    threadTs: hash[F.thread] ?? "",
    statusMessageTs: hash[F.line] || undefined,
    requestedBy: hash[F.by] ?? "",
    kind,
    counterparty: hash[F.counterparty] || undefined,
    ref: hash[F.ref] || undefined,
    startedAt: new Date(num(hash[F.started]) ?? 0),
    open: hash[F.state] === "open",
    status: hash[F.status] || undefined,
    loaStatus: hash[F.loa] || undefined,
    changes: num(hash[F.seq]) ?? 0,
    checks: num(hash[F.checks]) ?? 0,
    failures: num(hash[F.failures]) ?? 0,
    lastError: hash[F.error] || undefined,
    lastCheckAt: date(hash[F.checkedAt]),
    lastChangeAt: date(hash[F.changedAt]),
    nextCheckAt: date(hash[F.next]),
    loaSince: date(hash[F.loaSince]),
    reminders: num(hash[F.reminders]) ?? 0,
    waitingSince: date(hash[F.waitSince]),
    waitReminders: num(hash[F.waitReminders]) ?? 0,
    watchers: (hash[F.watchers] ?? "").split(",").filter((w) => w !== ""),
    endReason: hash[F.endReason] || undefined,
  };
}
