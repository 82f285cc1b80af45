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
import type { OrderKind } from "../src/sandbox/model.js";
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
}

export interface TrackingFigures {
  orders: number;
  onNet: number;
  offNet: number;
  simulatedDays: number;
  trackerConcurrency: number;
  providerRequests: number;
  requestsPerOrderPerSimulatedDay: number;
  requestsPerOpenOrderDay: number;
  polls: number;
  pollsFiredByRealTimers: number;
  naiveOneMinuteRequests: number;
  naiveToActualRatio: number;
  /** Provider reads falling due per simulated time, against the shared limit. */
  demand: {
    limitPerSecond: number;
    averagePerSecond: number;
    peakMinute: number;
    peakMinutePerSecond: number;
    minutesOverLimit: number;
    peakMinuteSentOverSeconds: number;
  };
  lag: {
    /** Simulated minutes from the sandbox's change to the tracker's read that saw it. */
    minutes: Distribution;
    /** That lag over the schedule's interval at the order's age when it changed. */
    ofInterval: Distribution;
    /** Real ms from the step that saw changes until its posts left the outbox. */
    postRealMs: Distribution;
  };
  redis: {
    bytesPerOrderMemoryUsage: number;
    keysPerOrder: number;
    bytesPerOrderInfoDelta: number;
  };
  cpu: { secondsTotal: number; secondsPer1000Polls: number };
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

function usedMemory(info: string): number {
  const match = /used_memory:(\d+)/.exec(info);
  return match ? Number(match[1]) : 0;
}

export async function runTracking(): Promise<TrackingFigures> {
  const count = envInt("BENCH_TRACK_ORDERS", 100);
  const offNetEvery = envInt("BENCH_TRACK_OFFNET_EVERY", 4);
  const concurrency = envInt("BENCH_TRACK_CONCURRENCY", 20);
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
  const infoBefore = usedMemory(await redis.info("memory"));
  const worker = await startChild("worker", {
    BENCH_SANDBOX_START: String(t0),
    BENCH_SANDBOX_URL: sandboxUrl!,
    BENCH_SLACK_API_URL: slackApiUrl!,
    BENCH_BOT_TOKEN: botToken!,
    BENCH_REDIS_PREFIX: prefix,
    BENCH_TRACK_CONCURRENCY: String(concurrency),
  });
  // This process only produces (as the HTTP process does with WORKERS=false): it starts the
  // trackers, runs due checks and reads records.
  const jobs = await startJobs({
    redisUrl,
    prefix,
    logger: createLogger({ level: "warn", destination: createWriteStream("/dev/null") }),
    workers: false,
    providerRateLimit: false,
    now: () => new Date(simNow),
  });
  const realStart = performance.now();
  try {
    const channel = STANDIN_IDS.approvals;
    const orders = await services.ask<PlacedOrder[]>("createOrders", {
      count,
      offNetEvery,
      channel,
    });
    const byId = new Map(orders.map((o) => [o.id, o]));
    type Stats = { cpu: { user: number; system: number } };
    const cpuStart = (await worker.ask<Stats>("stats")).cpu;
    for (const order of orders) {
      await jobs.tracker.track({
        orderId: order.id,
        companyName: companyName!,
        channel,
        threadTs: order.threadTs,
        requestedBy: STANDIN_IDS.requester,
        kind: order.kind === "OFF_NET" ? "off-net" : "on-net",
      });
    }
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

    const state = new Map<string, Row>(
      orders.map((o) => [o.id, { checks: 0, next: t0, open: true, seq: 0 }]),
    );
    const detections: Detection[] = [];
    const postDelays: number[] = [];
    let promotions = 0;
    const demandPerMinute = new Map<number, number>();
    let memoryMeasured: { bytes: number; keys: number; info: number } | undefined;
    let firstRound = true;

    while (simNow <= endMs) {
      const due = [...state].filter(([, row]) => row.open && row.next <= simNow).map(([id]) => id);
      if (due.length > 0) {
        // Demand: each check counted at the simulated time it fell due (the first, at start).
        for (const id of due) {
          const minute = Math.floor((firstRound ? t0 : state.get(id)!.next) / MINUTE_MS);
          demandPerMinute.set(minute, (demandPerMinute.get(minute) ?? 0) + 1);
        }
        if (!firstRound) {
          const promoted = await Promise.all(due.map((id) => jobs.tracker.checkNow(id)));
          promotions += promoted.filter(Boolean).length;
        }
        // Only the steps still running are read again, so waiting costs little.
        const rows = new Map<string, Row>();
        let pending = due;
        await waitUntil(
          async () => {
            const read_ = await read(pending);
            pending = pending.filter((id) => {
              const row = read_.get(id)!;
              const finished = !row.open || row.checks > state.get(id)!.checks;
              if (finished) rows.set(id, row);
              return !finished;
            });
            return pending.length === 0;
          },
          { timeoutMs: 120_000, intervalMs: 10, what: `${due.length} tracking steps` },
        );
        let changed = false;
        for (const id of due) {
          const before = state.get(id)!;
          const row = rows.get(id)!;
          for (let seq = before.seq + 1; seq <= row.seq; seq++) {
            detections.push({ orderId: id, seq, detectedAtMs: simNow });
            changed = true;
          }
          if (!row.open && before.open) {
            detections.push({
              orderId: id,
              seq: EXPECTED_CHANGES.length + 1,
              detectedAtMs: simNow,
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
        if (firstRound) {
          firstRound = false;
          const mem = await memoryUnder(redis, prefix);
          memoryMeasured = {
            ...mem,
            info: usedMemory(await redis.info("memory")) - infoBefore,
          };
        }
      }
      const open = [...state.values()].filter((row) => row.open);
      if (open.length === 0) break;
      const nextDue = Math.min(...open.map((row) => row.next));
      // Steps of a tenth of the interval due at this age: a check runs at most that late.
      const step = baseIntervalMs(simNow - t0) / 10;
      const target = Math.min(Math.max(simNow + step, nextDue), endMs + 1);
      await services.ask("advance", { ms: target - simNow });
      await worker.ask("setNow", { ms: target });
      simNow = target;
    }
    const cpuEnd = (await worker.ask<Stats>("stats")).cpu;
    const cpuSeconds = (cpuEnd.user + cpuEnd.system - cpuStart.user - cpuStart.system) / 1e6;
    await waitUntil(async () => (await jobs.notifier.totalOutboxLength()) === 0, {
      timeoutMs: 120_000,
      what: "the last posts",
    });

    const providerRequests = await services.ask<number>("requestCount");
    // Every poll is one order read: the first (started at once), the promoted ones, and any a
    // real BullMQ timer fired on its own.
    const polls = providerRequests;

    // Lag: from the sandbox's change (its timeline) to the read that saw it.
    const lagMinutes: number[] = [];
    const lagOfInterval: number[] = [];
    for (const d of detections) {
      const order = byId.get(d.orderId)!;
      const stage = orderStages(order.kind, order.loaDays)[d.seq];
      if (!stage) continue;
      const changedAt = order.createdAtMs + stage.afterMs;
      const lag = d.detectedAtMs - changedAt;
      lagMinutes.push(lag / MINUTE_MS);
      lagOfInterval.push(lag / baseIntervalMs(stage.afterMs));
    }

    // Naive: every order read once a minute from creation until it is done.
    let naive = 0;
    let openOrderDays = 0;
    for (const order of orders) {
      const stages = orderStages(order.kind, order.loaDays);
      const life = Math.min(stages[stages.length - 1]!.afterMs, endMs - order.createdAtMs);
      naive += Math.ceil(life / MINUTE_MS);
      openOrderDays += life / DAY_MS;
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

    const minutes = [...demandPerMinute.values()];
    const peakPerMinute = Math.max(0, ...minutes);
    const limitPerSecond = 10;
    const figures: TrackingFigures = {
      orders: count,
      onNet: orders.filter((o) => o.kind === "ON_NET").length,
      offNet: orders.filter((o) => o.kind === "OFF_NET").length,
      simulatedDays,
      trackerConcurrency: concurrency,
      providerRequests,
      requestsPerOrderPerSimulatedDay: round(providerRequests / count / simulatedDays, 2),
      requestsPerOpenOrderDay: round(providerRequests / openOrderDays, 2),
      polls,
      pollsFiredByRealTimers: polls - promotions - count,
      naiveOneMinuteRequests: naive,
      naiveToActualRatio: round(naive / providerRequests, 1),
      demand: {
        limitPerSecond,
        averagePerSecond: round(polls / ((simNow - t0) / 1000), 3),
        peakMinute: peakPerMinute,
        peakMinutePerSecond: round(peakPerMinute / 60, 2),
        minutesOverLimit: minutes.filter((n) => n > limitPerSecond * 60).length,
        // The shared limiter spaces requests 1/limit apart: a peak minute over the limit is
        // sent over this many seconds instead (its last check that much later).
        peakMinuteSentOverSeconds: round(peakPerMinute / limitPerSecond, 1),
      },
      lag: {
        minutes: distribution(lagMinutes),
        ofInterval: distribution(lagOfInterval),
        postRealMs: distribution(postDelays, 0),
      },
      redis: {
        bytesPerOrderMemoryUsage: round((memoryMeasured?.bytes ?? 0) / count, 0),
        keysPerOrder: round((memoryMeasured?.keys ?? 0) / count, 2),
        bytesPerOrderInfoDelta: round((memoryMeasured?.info ?? 0) / count, 0),
      },
      cpu: {
        secondsTotal: round(cpuSeconds, 2),
        secondsPer1000Polls: round((cpuSeconds / polls) * 1000, 3),
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
        "Redis B/order": figures.redis.bytesPerOrderMemoryUsage,
        "CPU s / 1000 polls": figures.cpu.secondsPer1000Polls,
        "exactly once": `${exact}/${count}`,
      },
    ]);
    return figures;
  } finally {
    await jobs.close(10_000);
    await worker.stop();
    await services.stop();
    await deleteKeys(redis, `${prefix}:`);
    await redis.quit();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await recordBenchmark("tracking", runTracking);
}
