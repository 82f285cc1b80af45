// Benchmark 1: time to the ack (the HTTP response) of signed /connect requests and Share
// clicks, the bot against a bare Bolt app that only acks, both started the same way (HTTP
// receiver, child process) in the same run. The Slack stand-in (parent process) answers the
// bot's follow-ups (response URLs, Web API) and signs the requests.
import { randomBytes } from "node:crypto";
import { pathToFileURL } from "node:url";
import { Redis } from "ioredis";
import {
  type HttpTransport,
  type SlackAppDriver,
  type SlackStandin,
  STANDIN_IDS,
  type StandinEphemeral,
  startSlackStandin,
} from "../src/standin/index.js";
import {
  type ChildHandle,
  type Distribution,
  deleteKeys,
  distribution,
  envInt,
  envList,
  loadAverage,
  printTable,
  recordBenchmark,
  round,
  startChild,
  waitUntil,
} from "./common.js";

export const REQUEST_MIX = [
  "/connect help",
  "/connect ports",
  "/connect price port ironbridge-docklands-ld8 10G 1y",
  "Share button click (block_actions)",
] as const;

export interface LevelResult {
  concurrency: number;
  app: "bot" | "bare";
  requests: number;
  non200: number;
  latencyMs: Distribution;
  seconds: number;
  requestsPerSecond: number;
  /** The app process's CPU time over the run, per request (ms). */
  cpuMsPerRequest: number;
  /** Highest resident memory of the app process sampled during the run (MiB). */
  peakRssMiB: number;
  loadAverage: [number, number, number];
}

export interface AckFigures {
  requestsPerLevel: number;
  warmupRequests: number;
  mix: readonly string[];
  levels: LevelResult[];
  comparison: Array<{
    concurrency: number;
    botP50: number;
    botP99: number;
    botMax: number;
    bareP50: number;
    bareP99: number;
    bareMax: number;
    ratioP50: number;
    ratioP99: number;
  }>;
  idleRssMiB: { bot: number; bare: number };
  targets: {
    p99At16Ms: number;
    ratio: number;
    p99At16Met: boolean | null;
    ratioMet: boolean | null;
  };
}

interface Stats {
  rss: number;
  cpu: { user: number; system: number };
}

const MiB = 2 ** 20;

async function settle(standin: SlackStandin, bot: ChildHandle): Promise<void> {
  // The bot's follow-ups (responses, Web API calls) run after the ack: wait until its CPU goes
  // quiet, so one run's follow-up work does not land in the next run. (Counting the stand-in's
  // recorded calls would clone them all each time.)
  let last = (await bot.ask<Stats>("stats")).cpu;
  await waitUntil(
    async () => {
      const now = (await bot.ask<Stats>("stats")).cpu;
      const busyMs = (now.user + now.system - last.user - last.system) / 1000;
      last = now;
      return busyMs < 25;
    },
    { timeoutMs: 120_000, intervalMs: 500, what: "the bot's follow-up work to finish" },
  );
  standin.clearCalls();
}

async function load(
  driver: SlackAppDriver<HttpTransport>,
  shareSource: StandinEphemeral,
  count: number,
  concurrency: number,
): Promise<{ latencies: number[]; non200: number; seconds: number }> {
  const latencies: number[] = [];
  let non200 = 0;
  let next = 0;
  const send = (i: number) => {
    const kind = i % REQUEST_MIX.length;
    const user = STANDIN_IDS.requester;
    if (kind === 0) return driver.command(user, STANDIN_IDS.general, "/connect", "help");
    if (kind === 1) return driver.command(user, STANDIN_IDS.general, "/connect", "ports");
    if (kind === 2) {
      return driver.command(
        user,
        STANDIN_IDS.general,
        "/connect",
        "price port ironbridge-docklands-ld8 10G 1y",
      );
    }
    return driver.clickButton({ userId: user, message: shareSource, actionId: "connect_share" });
  };
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const i = next++;
        if (i >= count) return;
        const t0 = performance.now();
        const ack = await send(i);
        latencies.push(performance.now() - t0);
        if (ack.status !== 200) non200 += 1;
      }
    }),
  );
  return { latencies, non200, seconds: (performance.now() - started) / 1000 };
}

export async function runAck(): Promise<AckFigures> {
  const count = envInt("BENCH_ACK_REQUESTS", 2000);
  const warmup = envInt("BENCH_ACK_WARMUP", 200);
  const levels = envList("BENCH_ACK_CONCURRENCY", [1, 16, 64]);
  const standin = await startSlackStandin();
  const signingSecret = randomBytes(16).toString("hex");
  const redisPrefix = `bench:${randomBytes(6).toString("hex")}:`;
  const env = {
    BENCH_BOT_TOKEN: standin.botToken,
    BENCH_SIGNING_SECRET: signingSecret,
    BENCH_SLACK_API_URL: standin.apiUrl,
    BENCH_REDIS_PREFIX: redisPrefix,
  };
  const children: ChildHandle[] = [];
  try {
    const bot = await startChild("bot", env);
    children.push(bot);
    const bare = await startChild("bare", env);
    children.push(bare);
    const drivers = {
      bot: standin.connectApp({ url: `${String(bot.ready.url)}/slack/events`, signingSecret }),
      bare: standin.connectApp({ url: `${String(bare.ready.url)}/slack/events`, signingSecret }),
    };
    // A real reply with a Share button to click (the bare app's clicks use the same message).
    await drivers.bot.command(STANDIN_IDS.requester, STANDIN_IDS.general, "/connect", "whoami");
    const shareSource = await standin.waitForEphemeral(STANDIN_IDS.requester, (m) =>
      JSON.stringify(m.blocks ?? []).includes("connect_share"),
    );
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const idle = {
      bot: (await bot.ask<Stats>("stats")).rss / MiB,
      bare: (await bare.ask<Stats>("stats")).rss / MiB,
    };
    for (const app of ["bot", "bare"] as const) {
      await load(drivers[app], shareSource, warmup, 8);
    }
    await settle(standin, bot);

    const results: LevelResult[] = [];
    for (const concurrency of levels) {
      for (const app of ["bot", "bare"] as const) {
        const child = app === "bot" ? bot : bare;
        const before = await child.ask<Stats>("stats");
        let peak = before.rss;
        let sampling = true;
        const sampler = (async () => {
          while (sampling) {
            peak = Math.max(peak, (await child.ask<Stats>("stats")).rss);
            await new Promise((resolve) => setTimeout(resolve, 200));
          }
        })();
        const run = await load(drivers[app], shareSource, count, concurrency);
        if (app === "bot") await settle(standin, bot);
        sampling = false;
        await sampler;
        const after = await child.ask<Stats>("stats");
        const cpuMs =
          (after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system) / 1000;
        results.push({
          concurrency,
          app,
          requests: count,
          non200: run.non200,
          latencyMs: distribution(run.latencies),
          seconds: round(run.seconds, 2),
          requestsPerSecond: round(count / run.seconds, 0),
          cpuMsPerRequest: round(cpuMs / count, 3),
          peakRssMiB: round(peak / MiB, 1),
          loadAverage: loadAverage(),
        });
      }
    }
    const comparison = levels.map((concurrency) => {
      const b = results.find((r) => r.app === "bot" && r.concurrency === concurrency)!.latencyMs;
      const a = results.find((r) => r.app === "bare" && r.concurrency === concurrency)!.latencyMs;
      return {
        concurrency,
        botP50: b.p50,
        botP99: b.p99,
        botMax: b.max,
        bareP50: a.p50,
        bareP99: a.p99,
        bareMax: a.max,
        ratioP50: round(b.p50 / a.p50, 2),
        ratioP99: round(b.p99 / a.p99, 2),
      };
    });
    const at16 = comparison.find((c) => c.concurrency === 16);
    const figures: AckFigures = {
      requestsPerLevel: count,
      warmupRequests: warmup,
      mix: REQUEST_MIX,
      levels: results,
      comparison,
      idleRssMiB: { bot: round(idle.bot, 1), bare: round(idle.bare, 1) },
      targets: {
        p99At16Ms: 50,
        ratio: 1.5,
        p99At16Met: at16 ? at16.botP99 < 50 : null,
        ratioMet: at16 ? at16.ratioP99 <= 1.5 : null,
      },
    };
    printTable(
      `Ack latency (ms), ${count} requests per level`,
      comparison.map((c) => ({ ...c })),
    );
    return figures;
  } finally {
    for (const child of children.reverse()) await child.stop();
    await standin.close();
    const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
    await deleteKeys(redis, redisPrefix);
    await redis.quit();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await recordBenchmark("ack", runAck);
}
