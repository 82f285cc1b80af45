// Benchmark 3: notification throughput under Slack's per-channel limit. The stand-in answers
// chat.postMessage with 429 + Retry-After past one message per second per channel; the
// notifier (its production pacing, 1.1 s per channel) drains thread replies over 5 channels.
// A second run paces far faster than the limit, so every channel meets 429s: order and
// completeness must hold through them.

import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { pathToFileURL } from "node:url";
import { WebClient } from "@slack/web-api";
import { Redis } from "ioredis";
import { startJobs } from "../src/jobs/index.js";
import { createLogger } from "../src/log.js";
import {
  defaultWorkspaceSeed,
  makeChannel,
  STANDIN_IDS,
  startSlackStandin,
} from "../src/standin/index.js";
import { startWorkers } from "../src/workers/index.js";
import { deleteKeys, envInt, printTable, recordBenchmark, round, waitUntil } from "./common.js";

const CHANNELS = 5;
const THREADS = 50;
const LIMIT_PER_SECOND = 1;

export interface NotifyRun {
  pacing: string;
  perChannelIntervalMs: number;
  notifications: number;
  seconds: number;
  floorSeconds: number;
  overFloor: number;
  rateLimited429: number;
  delivered: number;
  lost: number;
  duplicates: number;
  threadsOutOfOrder: number;
}

export interface NotifyFigures {
  channels: number;
  threads: number;
  limitPerChannelPerSecond: number;
  runs: NotifyRun[];
}

async function drain(count: number, intervalMs: number, pacing: string): Promise<NotifyRun> {
  const seed = defaultWorkspaceSeed();
  const channels = Array.from({ length: CHANNELS }, (_, i) => `C0NOTIFY${i}`);
  for (const [i, id] of channels.entries()) seed.channels.push(makeChannel(id, `notify-${i}`));
  const standin = await startSlackStandin({
    seed,
    rateLimit: { messagesPerSecondPerChannel: LIMIT_PER_SECOND },
  });
  const prefix = `bench:${randomBytes(6).toString("hex")}`;
  const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const slack = new WebClient(standin.botToken, {
    slackApiUrl: standin.apiUrl,
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
  });
  const jobs = await startJobs({
    redisUrl,
    prefix,
    logger: createLogger({ level: "warn", destination: createWriteStream("/dev/null") }),
    notifierSettings: { perChannelIntervalMs: intervalMs },
  });
  // The notifier's drain, as src/bot.ts starts it (src/workers).
  const workers = await startWorkers(
    jobs,
    { notify: { slack: slack.chat } },
    { maintenanceEveryMs: 0, reconcileOnStart: false },
  );
  try {
    const threads = Array.from({ length: THREADS }, (_, i) => {
      const channel = channels[i % CHANNELS]!;
      return { channel, ts: standin.postAsUser(STANDIN_IDS.requester, channel, `thread ${i}`).ts };
    });
    const started = performance.now();
    const next = new Array<number>(THREADS).fill(0);
    for (let i = 0; i < count; i++) {
      const t = i % THREADS;
      const thread = threads[t]!;
      const seq = next[t]!++;
      await jobs.notifier.post({
        scope: `bench:${t}`,
        key: String(seq),
        channel: thread.channel,
        threadTs: thread.ts,
        text: `thread ${t} #${seq}`,
      });
    }
    const replies = () =>
      channels
        .flatMap((c) => standin.messages(c))
        .filter((m) => m.thread_ts && m.thread_ts !== m.ts && m.user === STANDIN_IDS.botUser);
    await waitUntil(() => replies().length >= count, {
      timeoutMs: (count / CHANNELS) * 4_000 + 60_000,
      intervalMs: 50,
      what: `${count} notifications to arrive`,
    });
    const seconds = (performance.now() - started) / 1000;
    // A short grace: anything still arriving now would be a duplicate.
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const all = replies();
    let outOfOrder = 0;
    const seen = new Set<string>();
    let duplicates = 0;
    for (const thread of threads) {
      const seqs = all
        .filter((m) => m.thread_ts === thread.ts)
        .map((m) => Number(/#(\d+)$/.exec(m.text)?.[1] ?? -1));
      if (seqs.some((s, i) => i > 0 && s <= seqs[i - 1]!)) outOfOrder += 1;
    }
    for (const m of all) {
      const id = `${m.thread_ts}:${m.text}`;
      if (seen.has(id)) duplicates += 1;
      seen.add(id);
    }
    const floorSeconds = count / (CHANNELS * LIMIT_PER_SECOND);
    return {
      pacing,
      perChannelIntervalMs: intervalMs,
      notifications: count,
      seconds: round(seconds, 1),
      floorSeconds,
      overFloor: round(seconds / floorSeconds, 2),
      rateLimited429: standin.calls("chat.postMessage").filter((c) => c.status === 429).length,
      delivered: seen.size,
      lost: count - seen.size,
      duplicates,
      threadsOutOfOrder: outOfOrder,
    };
  } finally {
    await workers.close(8_000);
    await jobs.close(2_000);
    await standin.close();
    const redis = new Redis(redisUrl);
    await deleteKeys(redis, `${prefix}:`);
    await redis.quit();
  }
}

export async function runNotify(): Promise<NotifyFigures> {
  const count = envInt("BENCH_NOTIFY_COUNT", 1000);
  const eagerCount = envInt("BENCH_NOTIFY_429_COUNT", 100);
  const runs = [
    await drain(count, 1_100, "production (1.1 s per channel)"),
    await drain(eagerCount, 50, "eager (50 ms per channel: meets 429s)"),
  ];
  printTable(
    "Notification throughput (1 message/s/channel enforced)",
    runs.map((r) => ({ ...r })),
  );
  return { channels: CHANNELS, threads: THREADS, limitPerChannelPerSecond: LIMIT_PER_SECOND, runs };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await recordBenchmark("notify", runNotify);
}
