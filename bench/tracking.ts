// Benchmark 2: tracking many port orders over 8 simulated weeks. The sandbox and the Slack
// stand-in run in a child process (their CPU is not the worker's); this process runs the jobs
// (tracker + notifier workers) as `npm run worker` would. The tracker's schedule is in wall-clock
// time, so the bench gives it a simulated now() in step with the sandbox clock and runs each
// order's next check when it falls due in simulated time (promoting its delayed step job).

import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { pathToFileURL } from "node:url";
import { Redis } from "ioredis";
import { baseIntervalMs, DAY_MS, MINUTE_MS, startJobs, stateKey } from "../src/jobs/index.js";
import { createLogger } from "../src/log.js";
import { buildTracker } from "../src/orders/tracking/index.js";
import {
  DEFAULT_PROVIDER_REQUESTS_PER_SECOND,
  limiterSpacingMs,
} from "../src/provider/rateLimit.js";
import type { OrderKind } from "../src/sandbox/model.js";
import { Prng } from "../src/sandbox/random.js";
import { orderStages } from "../src/sandbox/timeline.js";
import { STANDIN_IDS } from "../src/standin/index.js";
import {
  type Distribution,
  deleteKeys,
  distribution,
  envInt,
  memoryUnder,
  printTable,
  recordBenchmark,
  round,
  startChild,
  waitUntil,
} from "./common.js";

interface PlacedOrder {
  id: string;
  kind: OrderKind;
  loaDays: number;
  createdAtMs: number;
  threadTs: string;
}

interface Detection {
  orderId: string;
  seq: number;
  detectedAtMs: number;
  /** When the read that saw it fell due: the bench may run a read up to a tenth of its
   * interval late (it batches due reads), where the tracker's own timer fires on time. */
  dueAtMs: number;
}

export interface TrackingFigures {
  orders: number;
  onNet: number;
  offNet: number;
  simulatedDays: number;
  /** Orders were placed at random moments over this many first days (0: all at the start). */
  arrivalDays: number;
  trackerConcurrency: number;
  /** Worker processes (replicas); CPU figures are their sum. Absent in older results: 1. */
  workers?: number;
  providerRequests: number;
  requestsPerOrderPerSimulatedDay: number;
  requestsPerOpenOrderDay: number;
  polls: number;
  pollsFiredByRealTimers: number;
  naiveOneMinuteRequests: number;
  naiveToActualRatio: number;
  /** Provider reads in simulated time, as they fell due and as the shared limiter sends them. */
  demand: LimiterReplay;
  lag: {
    /** Simulated minutes from the sandbox's change to the tracker's read that saw it. */
    minutes: Distribution;
    /** That lag over the schedule's interval at the order's age when it changed. */
    ofInterval: Distribution;
    /** The same to the moment the read fell due (the bench's batching lateness taken out). */
    atDueOfInterval: Distribution;
    /** Real ms from the step that saw changes until its posts left the outbox. */
    postRealMs: Distribution;
  };
  /** MEMORY USAGE of the run's keys, once every order was placed and read once. */
  redis: {
    ordersMeasured: number;
    openOrders: number;
    /** An open order's own keys, plus its share of the queues' and indexes' keys. */
    bytesPerOpenOrder: number;
    keysPerOpenOrder: number;
    sharedBytes: number;
    /** What a finished order leaves: its ended record and notification markers, until they
     * expire (markers after 14 days of real time, which compressed time never reaches). */
    bytesPerDoneOrder: number;
    keysPerDoneOrder: number;
    bytesAllOverOrdersPlaced: number;
    /** INFO used_memory delta over the orders placed: a shared server, so noisy. */
    bytesPerOrderInfoDelta: number;
    /** An open order's own bytes by kind of key (step job, tracker record, markers…); absent
     * from results recorded before it was measured. */
    openBytesByKind?: Record<string, { keys: number; bytes: number }>;
  };
  cpu: {
    secondsTotal: number;
    secondsPer1000Polls: number;
    /** Where the rest of the machine's time went: the sandbox with the Slack stand-in, Redis,
     * and the bench itself (promoting due checks, reading records). */
    servicesSeconds: number;
    redisSeconds: number;
    benchSeconds: number;
  };
  notifications: {
    expectedChanges: number;
    changePosts: number;
    ordersWithExactlyOnce: number;
    ordersWithProblems: number;
    problems: string[];
    finalPosts: number;
    reminders: number;
  };
  realSeconds: number;
}

/** The status each change post must show, in order (the sandbox's stages after "created"). */
const EXPECTED_CHANGES = ["*allocated*", "*processing*", "*RECEIVED*"];

/** A number from Redis' INFO text (`name:value` lines), 0 when absent. */
function infoField(info: string, name: string): number {
  return Number(new RegExp(`^${name}:([\\d.]+)`, "m").exec(info)?.[1] ?? 0);
}

const usedMemory = async (redis: Redis) => infoField(await redis.info("memory"), "used_memory");
const redisCpuSeconds = async (redis: Redis) => {
  const info = await redis.info("cpu");
  return infoField(info, "used_cpu_user") + infoField(info, "used_cpu_sys");
};

/**
 * Redis per order once every order has been placed and read once: each key counts for the order
 * its name carries (record, step job, notification markers, status line); the rest (queues,
 * indexes) is shared among the open orders.
 */
async function measureRedis(
  redis: Redis,
  prefix: string,
  openIds: ReadonlySet<string>,
  placedIds: ReadonlySet<string>,
  usedMemoryBefore: number,
): Promise<TrackingFigures["redis"]> {
  const groups = await memoryUnder(redis, prefix, (k) => {
    const id = /(?:order:|track-)([^:]+)/.exec(k)?.[1];
    if (!id || !placedIds.has(id)) return "shared";
    return openIds.has(id) ? `open ${keyKind(k.slice(prefix.length))}` : "done";
  });
  const group = (name: string) => groups.get(name) ?? { keys: 0, bytes: 0 };
  const openByKind = Object.fromEntries(
    [...groups].filter(([name]) => name.startsWith("open ")).map(([n, g]) => [n.slice(5), g]),
  );
  const open = Object.values(openByKind).reduce(
    (sum, g) => ({ keys: sum.keys + g.keys, bytes: sum.bytes + g.bytes }),
    { keys: 0, bytes: 0 },
  );
  const done = group("done");
  const shared = group("shared");
  const placed = placedIds.size;
  const per = (n: number, orders: number, digits = 0) => round(n / Math.max(orders, 1), digits);
  return {
    ordersMeasured: placed,
    openOrders: openIds.size,
    bytesPerOpenOrder: per(open.bytes + shared.bytes, openIds.size),
    keysPerOpenOrder: per(open.keys + shared.keys, openIds.size, 2),
    sharedBytes: shared.bytes,
    bytesPerDoneOrder: per(done.bytes, placed - openIds.size),
    keysPerDoneOrder: per(done.keys, placed - openIds.size, 2),
    bytesAllOverOrdersPlaced: per(open.bytes + done.bytes + shared.bytes, placed),
    bytesPerOrderInfoDelta: per((await usedMemory(redis)) - usedMemoryBefore, placed),
    openBytesByKind: Object.fromEntries(
      Object.entries(openByKind).map(([kind, g]) => [
        kind,
        { keys: per(g.keys, openIds.size, 2), bytes: per(g.bytes, openIds.size) },
      ]),
    ),
  };
}

/** What a key of an order is, from its name without the run's prefix:
 * `:{order-tracking}:order-tracking:track-<id>` is the step job, `:{tracker}:order:<id>` the
 * record, `:{notifier}:…` notification markers (the area in braces: src/jobs/queues.ts). */
function keyKind(name: string): string {
  const parts = name.split(":").filter(Boolean);
  const area = parts[0]?.replace(/^\{|\}$/g, "");
  if (area === "notifier") return "notification markers";
  if (area === "tracker") return "tracker record";
  const job = parts.findIndex((part) => part.startsWith("track-"));
  if (job >= 0) return parts.length > job + 1 ? `step job ${parts[job + 1]}` : "step job";
  return parts.slice(0, 2).join(":");
}

export interface LimiterReplay {
  limitPerSecond: number;
  averagePerSecond: number;
  /** Reads falling due in the busiest sliding second, and calendar seconds over the limit. */
  busiestSecondDue: number;
  secondsOverLimitDue: number;
  busiestMinuteDue: number;
  /** The same reads at the limiter's slots: never more than the limit in any second. */
  busiestSecondSent: number;
  /** Reads the limiter held back, and by how much (simulated ms). */
  delayed: number;
  delayMs: Distribution;
}

/**
 * Replays the reads' due moments through the shared limiter's arithmetic (each read takes the
 * next free slot, `limiterSpacingMs` apart, as the Redis GCRA does): what the provider would
 * see per second, and how much later than due the limit makes each read.
 */
export function replayThroughLimiter(dueTimes: readonly number[], limit: number): LimiterReplay {
  const due = Float64Array.from(dueTimes).sort();
  const spacing = limiterSpacingMs(limit);
  const sent = new Float64Array(due.length);
  const delays: number[] = [];
  let nextSlot = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < due.length; i++) {
    const at = Math.max(due[i]!, nextSlot);
    sent[i] = at;
    if (at > due[i]!) delays.push(at - due[i]!);
    nextSlot = at + spacing;
  }
  const busiest = (times: Float64Array, windowMs: number) => {
    let best = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while (times[i]! - times[j]! >= windowMs) j++;
      best = Math.max(best, i - j + 1);
    }
    return best;
  };
  const perSecond = new Map<number, number>();
  for (const t of due)
    perSecond.set(Math.floor(t / 1000), (perSecond.get(Math.floor(t / 1000)) ?? 0) + 1);
  const spanSeconds = due.length > 0 ? (due[due.length - 1]! - due[0]!) / 1000 : 0;
  return {
    limitPerSecond: limit,
    averagePerSecond: round(due.length / Math.max(spanSeconds, 1), 3),
    busiestSecondDue: busiest(due, 1000),
    secondsOverLimitDue: [...perSecond.values()].filter((n) => n > limit).length,
    busiestMinuteDue: busiest(due, MINUTE_MS),
    busiestSecondSent: busiest(sent, 1000),
    delayed: delays.length,
    delayMs: distribution(delays, 0),
  };
}

export async function runTracking(): Promise<TrackingFigures> {
  const count = envInt("BENCH_TRACK_ORDERS", 100);
  const offNetEvery = envInt("BENCH_TRACK_OFFNET_EVERY", 4);
  const concurrency = envInt("BENCH_TRACK_CONCURRENCY", 20);
  // Worker replicas (as `npm run worker` scaled out). One by default: on this 2-core machine two
  // took longer (300 orders: 295 s, 2.31 CPU s per 1,000 polls; one: 277 s, 1.75).
  const workerCount = envInt("BENCH_TRACK_WORKERS", 1);
  // 10 days: the off-net orders placed last (LOA 4-6 weeks) still finish inside the 8 weeks.
  const arrivalDays = envInt("BENCH_TRACK_ARRIVAL_DAYS", 10, 0);
  const simulatedDays = 56;
  const t0 = Date.UTC(2026, 0, 5, 9, 0, 0);
  const endMs = t0 + simulatedDays * DAY_MS;
  const prefix = `bench:${randomBytes(6).toString("hex")}`;
  const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const redis = new Redis(redisUrl);
  const services = await startChild("services", {
    BENCH_SANDBOX_START: String(t0),
    BENCH_SEED: "42",
  });
  const { sandboxUrl, companyName, slackApiUrl, botToken } = services.ready as Record<
    string,
    string
  >;
  let simNow = t0;
  const usedMemoryBefore = await usedMemory(redis);
  const workers = await Promise.all(
    Array.from({ length: workerCount }, () =>
      startChild("worker", {
        BENCH_SANDBOX_START: String(t0),
        BENCH_SANDBOX_URL: sandboxUrl!,
        BENCH_SLACK_API_URL: slackApiUrl!,
        BENCH_BOT_TOKEN: botToken!,
        BENCH_REDIS_PREFIX: prefix,
        BENCH_TRACK_CONCURRENCY: String(concurrency),
      }),
    ),
  );
  // This process only produces (as the HTTP process does with WORKERS=false): it starts the
  // trackers, runs due checks and reads records.
  const jobs = await startJobs({
    redisUrl,
    prefix,
    logger: createLogger({ level: "warn", destination: createWriteStream("/dev/null") }),
    now: () => new Date(simNow),
  });
  // The tracker (src/orders/tracking) on the jobs' queue, producing only here (no src/workers).
  const tracker = buildTracker(jobs, { now: () => new Date(simNow) });
  const realStart = performance.now();
  const benchCpuStart = process.cpuUsage();
  try {
    const channel = STANDIN_IDS.approvals;
    // When each order is placed: at seeded random moments over the first `arrivalDays`, as a
    // team's orders arrive (0: every order at the start, the worst burst).
    const arrivalDraw = Prng.derive(42, "bench-tracking-arrivals");
    const arrivals = Array.from(
      { length: count },
      () => t0 + Math.floor(arrivalDraw.next() * arrivalDays * DAY_MS),
    ).sort((a, b) => a - b);
    const orders: PlacedOrder[] = [];
    const byId = new Map<string, PlacedOrder>();
    type Stats = { cpu: { user: number; system: number } };
    const cpuSeconds = (s: Stats) => (s.cpu.user + s.cpu.system) / 1e6;
    const workersCpu = async () => {
      const stats = await Promise.all(workers.map((w) => w.ask<Stats>("stats")));
      return stats.reduce((sum, s) => sum + cpuSeconds(s), 0);
    };
    const workerCpuStart = await workersCpu();
    const servicesCpuStart = cpuSeconds(await services.ask<Stats>("stats"));
    const redisCpuStart = await redisCpuSeconds(redis);
    const key = (id: string) => stateKey(prefix, "tracker", "order", id);
    type Row = { checks: number; next: number; open: boolean; seq: number };
    const read = async (ids: string[]): Promise<Map<string, Row>> => {
      const pipeline = redis.pipeline();
      for (const id of ids) pipeline.hmget(key(id), "checks", "next", "state", "seq");
      const rows = (await pipeline.exec()) ?? [];
      const out = new Map<string, Row>();
      ids.forEach((id, i) => {
        const [checks, next, state, seq] = (rows[i]?.[1] ?? []) as Array<string | null>;
        out.set(id, {
          checks: Number(checks ?? 0),
          next: Number(next ?? 0),
          open: state === "open",
          seq: Number(seq ?? 0),
        });
      });
      return out;
    };

    /** Tracking step jobs waiting or running (BullMQ's wait and active lists). */
    const waitKey = jobs.queues.tracking.toKey("wait");
    const activeKey = jobs.queues.tracking.toKey("active");
    const stepsQueued = async (): Promise<number> => {
      const lengths = (await redis.pipeline().llen(waitKey).llen(activeKey).exec()) ?? [];
      return lengths.reduce((sum, [, n]) => sum + (typeof n === "number" ? n : 1), 0);
    };

    const state = new Map<string, Row>();
    /** A check may run this late: a tenth of the interval due at the order's age then. */
    const allowance = (id: string, atMs: number) =>
      baseIntervalMs(atMs - byId.get(id)!.createdAtMs) / 10;
    const detections: Detection[] = [];
    const postDelays: number[] = [];
    /** Simulated moment each provider read fell due (a placed order's first read: at once). */
    const dueTimes: number[] = [];
    let promotions = 0;
    let memoryMeasured: TrackingFigures["redis"] | undefined;

    while (simNow <= endMs) {
      // Orders whose moment has come are placed and tracked: their first read runs at once, by
      // itself (promoting it as well could read twice).
      const fresh = new Set<string>();
      let arriving = 0;
      while (orders.length + arriving < count && arrivals[orders.length + arriving]! <= simNow) {
        arriving += 1;
      }
      if (arriving > 0) {
        const placed = await services.ask<PlacedOrder[]>("createOrders", {
          count: arriving,
          firstIndex: orders.length,
          offNetEvery,
          channel,
        });
        for (const order of placed) {
          orders.push(order);
          byId.set(order.id, order);
          state.set(order.id, { checks: 0, next: simNow, open: true, seq: 0 });
          fresh.add(order.id);
          await tracker.track({
            orderId: order.id,
            companyName: companyName!,
            channel,
            threadTs: order.threadTs,
            requestedBy: STANDIN_IDS.requester,
            kind: order.kind === "OFF_NET" ? "off-net" : "on-net",
          });
        }
      }
      const due = [...state].filter(([, row]) => row.open && row.next <= simNow).map(([id]) => id);
      if (due.length > 0) {
        for (const id of due) dueTimes.push(state.get(id)!.next);
        const promoted = await Promise.all(
          due.filter((id) => !fresh.has(id)).map((id) => tracker.checkNow(id)),
        );
        promotions += promoted.filter(Boolean).length;
        // Only the steps still running are read again, so waiting costs little.
        const rows = new Map<string, Row>();
        let pending = due;
        // No step is done the moment it is promoted (each reads the provider over HTTP): the
        // first look comes one interval later rather than at once.
        const intervalMs = due.length > 50 ? 10 : 2;
        await new Promise((resolve) => setTimeout(resolve, intervalMs));
        let looks = 0;
        await waitUntil(
          async () => {
            // While steps are still queued or running, a big batch's records need not all be
            // read again: two list lengths say so (every fifth look reads them regardless).
            looks += 1;
            if (pending.length > 20 && looks % 5 !== 0 && (await stepsQueued()) > 0) return false;
            const read_ = await read(pending);
            pending = pending.filter((id) => {
              const row = read_.get(id)!;
              const finished = !row.open || row.checks > state.get(id)!.checks;
              if (finished) rows.set(id, row);
              return !finished;
            });
            return pending.length === 0;
          },
          // A step takes a few ms: small batches are looked at often, big ones less so.
          { timeoutMs: 120_000, intervalMs, what: `${due.length} tracking steps` },
        );
        let changed = false;
        for (const id of due) {
          const before = state.get(id)!;
          const row = rows.get(id)!;
          for (let seq = before.seq + 1; seq <= row.seq; seq++) {
            detections.push({ orderId: id, seq, detectedAtMs: simNow, dueAtMs: before.next });
            changed = true;
          }
          if (!row.open && before.open) {
            detections.push({
              orderId: id,
              seq: EXPECTED_CHANGES.length + 1,
              detectedAtMs: simNow,
              dueAtMs: before.next,
            });
            changed = true;
          }
          state.set(id, row);
        }
        if (changed) {
          const t = performance.now();
          await waitUntil(async () => (await jobs.notifier.totalOutboxLength()) === 0, {
            timeoutMs: 120_000,
            intervalMs: 5,
            what: "the outbox to drain",
          });
          postDelays.push(performance.now() - t);
        }
        if (!memoryMeasured && orders.length === count) {
          const openIds = new Set([...state].filter(([, row]) => row.open).map(([id]) => id));
          memoryMeasured = await measureRedis(
            redis,
            prefix,
            openIds,
            new Set(byId.keys()),
            usedMemoryBefore,
          );
        }
      }
      const open = [...state].filter(([, row]) => row.open);
      if (open.length === 0 && orders.length === count) break;
      // Wait as long as no check gets later than its allowance: every check due by then runs
      // together. The next arrival gets the shortest allowance (a new order's first interval).
      const nextArrival =
        orders.length < count ? arrivals[orders.length]! : Number.POSITIVE_INFINITY;
      let earliest = nextArrival;
      let latest = nextArrival + baseIntervalMs(0) / 10;
      for (const [id, row] of open) {
        earliest = Math.min(earliest, row.next);
        latest = Math.min(latest, row.next + allowance(id, row.next));
      }
      const target = Math.min(Math.max(latest, earliest, simNow + 1), endMs + 1);
      if (Math.floor((target - t0) / DAY_MS) > Math.floor((simNow - t0) / DAY_MS)) {
        process.stderr.write(
          `tracking: day ${Math.floor((target - t0) / DAY_MS)}, ${orders.length} placed, ${open.length} open, ${dueTimes.length} reads, ${round((performance.now() - realStart) / 1000, 0)} s\n`,
        );
      }
      // The sandbox's clock and the worker's now() move together (nothing runs in between).
      await Promise.all([
        services.ask("advance", { ms: target - simNow }),
        ...workers.map((w) => w.ask("setNow", { ms: target })),
      ]);
      simNow = target;
    }
    const workerCpu = (await workersCpu()) - workerCpuStart;
    const servicesCpu = cpuSeconds(await services.ask<Stats>("stats")) - servicesCpuStart;
    const redisCpu = (await redisCpuSeconds(redis)) - redisCpuStart;
    const benchCpuUsed = process.cpuUsage(benchCpuStart);
    const benchCpu = (benchCpuUsed.user + benchCpuUsed.system) / 1e6;
    await waitUntil(async () => (await jobs.notifier.totalOutboxLength()) === 0, {
      timeoutMs: 120_000,
      what: "the last posts",
    });

    const providerRequests = await services.ask<number>("requestCount");
    // Every poll is one order read: the first (at once), the promoted ones, and any a real
    // BullMQ timer fired on its own.
    const polls = providerRequests;
    const demand = replayThroughLimiter(dueTimes, DEFAULT_PROVIDER_REQUESTS_PER_SECOND);
    // Every order is placed and read before the loop ends (count ≥ 1), so this was measured.
    if (!memoryMeasured) throw new Error("tracking bench: Redis was never measured");

    // Lag: from the sandbox's change (its timeline) to the read that saw it.
    const lagMinutes: number[] = [];
    const lagOfInterval: number[] = [];
    const lagAtDueOfInterval: number[] = [];
    for (const d of detections) {
      const order = byId.get(d.orderId)!;
      const stage = orderStages(order.kind, order.loaDays)[d.seq];
      if (!stage) continue;
      const changedAt = order.createdAtMs + stage.afterMs;
      const lag = d.detectedAtMs - changedAt;
      lagMinutes.push(lag / MINUTE_MS);
      lagOfInterval.push(lag / baseIntervalMs(stage.afterMs));
      // A change between the read's due moment and the bench running it: as measured.
      const lagAtDue = d.dueAtMs >= changedAt ? d.dueAtMs - changedAt : lag;
      lagAtDueOfInterval.push(lagAtDue / baseIntervalMs(stage.afterMs));
    }
    // Naive: every order read once a minute from creation until it is done.
    let naive = 0;
    let openOrderDays = 0;
    let orderDays = 0;
    for (const order of orders) {
      const stages = orderStages(order.kind, order.loaDays);
      const life = Math.min(stages[stages.length - 1]!.afterMs, endMs - order.createdAtMs);
      naive += Math.ceil(life / MINUTE_MS);
      openOrderDays += life / DAY_MS;
      orderDays += (endMs - order.createdAtMs) / DAY_MS;
    }

    // Every change posted exactly once, in order, in its thread.
    const threads = await services.ask<Record<string, string[]>>("threads", { channel });
    const problems: string[] = [];
    let changePosts = 0;
    let finals = 0;
    let reminders = 0;
    let exact = 0;
    for (const order of orders) {
      const replies = threads[order.threadTs] ?? [];
      const final = replies.filter((t) => t.startsWith(":white_check_mark:"));
      const reminder = replies.filter((t) => t.startsWith(":calendar:"));
      const changes = replies.slice(1).filter((t) => !final.includes(t) && !reminder.includes(t));
      changePosts += changes.length;
      finals += final.length;
      reminders += reminder.length;
      const inOrder =
        changes.length === EXPECTED_CHANGES.length &&
        changes.every((t, i) => t.includes(EXPECTED_CHANGES[i]!));
      if (inOrder && final.length === 1 && replies[replies.length - 1] === final[0]) exact += 1;
      else if (problems.length < 10) {
        problems.push(
          `${order.id} (${order.kind}): ${replies.length} replies: ${replies.map((t) => t.slice(0, 60)).join(" | ")}`,
        );
      }
    }

    const figures: TrackingFigures = {
      orders: count,
      onNet: orders.filter((o) => o.kind === "ON_NET").length,
      offNet: orders.filter((o) => o.kind === "OFF_NET").length,
      simulatedDays,
      arrivalDays,
      trackerConcurrency: concurrency,
      workers: workerCount,
      providerRequests,
      // Per order per day from its placement to the end of the 8 weeks.
      requestsPerOrderPerSimulatedDay: round(providerRequests / orderDays, 2),
      requestsPerOpenOrderDay: round(providerRequests / openOrderDays, 2),
      polls,
      pollsFiredByRealTimers: polls - promotions - count,
      naiveOneMinuteRequests: naive,
      naiveToActualRatio: round(naive / providerRequests, 1),
      demand,
      lag: {
        minutes: distribution(lagMinutes),
        ofInterval: distribution(lagOfInterval),
        atDueOfInterval: distribution(lagAtDueOfInterval),
        postRealMs: distribution(postDelays, 0),
      },
      redis: memoryMeasured,
      cpu: {
        secondsTotal: round(workerCpu, 2),
        secondsPer1000Polls: round((workerCpu / polls) * 1000, 3),
        servicesSeconds: round(servicesCpu, 1),
        redisSeconds: round(redisCpu, 1),
        benchSeconds: round(benchCpu, 1),
      },
      notifications: {
        expectedChanges: count * EXPECTED_CHANGES.length,
        changePosts,
        ordersWithExactlyOnce: exact,
        ordersWithProblems: count - exact,
        problems,
        finalPosts: finals,
        reminders,
      },
      realSeconds: round((performance.now() - realStart) / 1000, 1),
    };
    printTable(`Tracking ${count} orders over ${simulatedDays} simulated days`, [
      {
        "requests/order/day": figures.requestsPerOrderPerSimulatedDay,
        "naive 1-min / actual": figures.naiveToActualRatio,
        "lag p99 (× interval)": figures.lag.ofInterval.p99,
        "Redis B/open order": figures.redis.bytesPerOpenOrder,
        "CPU s / 1000 polls": figures.cpu.secondsPer1000Polls,
        "exactly once": `${exact}/${count}`,
      },
    ]);
    return figures;
  } finally {
    await jobs.close(10_000);
    await Promise.all(workers.map((w) => w.stop()));
    await services.stop();
    await deleteKeys(redis, `${prefix}:`);
    await redis.quit();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await recordBenchmark("tracking", runTracking);
}
