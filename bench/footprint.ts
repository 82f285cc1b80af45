// Benchmark 4 (part): start-up time to ready and idle resident memory of the bot, started as a
// child process in HTTP mode with the embedded sandbox (as `npm start` with Slack credentials).
// Resident memory under load is sampled by the ack benchmark (ack.json).
import { randomBytes } from "node:crypto";
import { pathToFileURL } from "node:url";
import { Redis } from "ioredis";
import { startSlackStandin } from "../src/standin/index.js";
import {
  type Distribution,
  deleteKeys,
  distribution,
  envInt,
  printTable,
  recordBenchmark,
  round,
  startChild,
} from "./common.js";

export interface FootprintFigures {
  starts: number;
  /** From fork() to the bot's "ready" message (module loading under tsx included). */
  spawnToReadyMs: Distribution;
  /** startBot() alone: sandbox, Redis, jobs, Bolt app listening. */
  startBotMs: Distribution;
  idleRssMiB: Distribution;
  idleHeapUsedMiB: Distribution;
}

export async function runFootprint(): Promise<FootprintFigures> {
  const starts = envInt("BENCH_FOOTPRINT_STARTS", 3);
  const standin = await startSlackStandin();
  const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
  const spawnToReady: number[] = [];
  const startBot: number[] = [];
  const rss: number[] = [];
  const heap: number[] = [];
  try {
    for (let i = 0; i < starts; i++) {
      const redisPrefix = `bench:${randomBytes(6).toString("hex")}:`;
      const bot = await startChild("bot", {
        BENCH_BOT_TOKEN: standin.botToken,
        BENCH_SIGNING_SECRET: randomBytes(16).toString("hex"),
        BENCH_SLACK_API_URL: standin.apiUrl,
        BENCH_REDIS_PREFIX: redisPrefix,
      });
      try {
        spawnToReady.push(bot.readyAt - bot.spawnedAt);
        startBot.push(Number(bot.ready.startBotMs));
        // Idle: after the start-up reconcile and the first timers have run.
        await new Promise((resolve) => setTimeout(resolve, 5_000));
        const stats = await bot.ask<{ rss: number; heapUsed: number }>("stats");
        rss.push(stats.rss / 2 ** 20);
        heap.push(stats.heapUsed / 2 ** 20);
      } finally {
        await bot.stop();
        await deleteKeys(redis, redisPrefix);
      }
    }
  } finally {
    await standin.close();
    await redis.quit();
  }
  const figures: FootprintFigures = {
    starts,
    spawnToReadyMs: distribution(spawnToReady, 0),
    startBotMs: distribution(startBot, 0),
    idleRssMiB: distribution(rss, 1),
    idleHeapUsedMiB: distribution(heap, 1),
  };
  printTable("Footprint (bot process)", [
    {
      "spawn→ready ms (p50)": figures.spawnToReadyMs.p50,
      "startBot ms (p50)": figures.startBotMs.p50,
      "idle RSS MiB (p50)": figures.idleRssMiB.p50,
      "idle heap MiB (p50)": round(figures.idleHeapUsedMiB.p50, 1),
    },
  ]);
  return figures;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await recordBenchmark("footprint", runFootprint);
}
