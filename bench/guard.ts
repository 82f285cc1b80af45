// Benchmark 5: the bot's /healthz latency idle and while /slack/events is flooded with requests
// it must refuse: unsigned bodies just under the body limit (refused from their headers),
// forged ones (a current timestamp and a made-up signature: the most the guard must do, read
// the body and compute its HMAC) and oversized ones (3.9 MB, refused from their content-length). Issue 20 measured
// the guard that parsed first at /healthz p99 2 s under 120 unsigned 3.9 MB requests. The bot
// runs in its own process as `npm start` runs it with Slack credentials (embedded sandbox, so
// /healthz pings Redis and asks the sandbox whoami; the provider rate limit is off, or it would
// pace the probe at 10/s); the flood comes from the load generator's
// process; this process is the Slack stand-in and times /healthz, one request at a time.
import { randomBytes } from "node:crypto";
import { Agent, request } from "node:http";
import { pathToFileURL } from "node:url";
import { Redis } from "ioredis";
import { DEFAULT_SLACK_MAX_BODY_BYTES } from "../src/config.js";
import { startSlackStandin } from "../src/standin/index.js";
import {
  type ChildHandle,
  type Distribution,
  deleteKeys,
  distribution,
  envInt,
  loadAverage,
  printTable,
  recordBenchmark,
  round,
  startChild,
} from "./common.js";
import type { FloodResult } from "./loadgen.js";

const MiB = 2 ** 20;

export interface GuardPhase {
  phase: "idle" | "unsigned" | "forged" | "oversized";
  /** Size of each flood request's body (bytes); 0 when idle. */
  floodBodyBytes: number;
  healthzMs: Distribution;
  /** Flood answers by status (0 = no answer); empty when idle. */
  floodStatuses: Record<string, number>;
  floodRequests: number;
  floodSeconds: number;
  /** The bot process's CPU time during the phase (ms) and its highest resident memory (MiB). */
  botCpuMs: number;
  botPeakRssMiB: number;
  loadAverage: [number, number, number];
}

export interface GuardFigures {
  healthzSamplesIdle: number;
  floodRequests: number;
  floodConcurrency: number;
  bodyLimitBytes: number;
  phases: GuardPhase[];
  targets: {
    ratio: number;
    unsignedRatio: number;
    forgedRatio: number;
    oversizedRatio: number;
    unsignedMet: boolean;
    forgedMet: boolean;
    oversizedMet: boolean;
  };
}

interface Stats {
  rss: number;
  cpu: { user: number; system: number };
}

/** Times one GET /healthz over a kept-alive connection, to the end of its body. */
function healthzProbe(url: string): { once(): Promise<number>; close(): void } {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const target = new URL("/healthz", url);
  return {
    once: () =>
      new Promise<number>((resolve, reject) => {
        const t0 = performance.now();
        const req = request(target, { agent }, (res) => {
          res.resume();
          res.on("end", () => {
            if (res.statusCode !== 200) reject(new Error(`/healthz answered ${res.statusCode}`));
            else resolve(performance.now() - t0);
          });
        });
        req.on("error", reject);
        req.end();
      }),
    close: () => agent.destroy(),
  };
}

/** /healthz timed back to back while `during` runs (or `samples` times when there is none). */
async function measurePhase(
  phase: GuardPhase["phase"],
  bot: ChildHandle,
  probe: ReturnType<typeof healthzProbe>,
  options: { samples: number; during?: Promise<FloodResult>; floodBodyBytes: number },
): Promise<GuardPhase & { latencies: number[] }> {
  const before = await bot.ask<Stats>("stats");
  let peak = before.rss;
  let running = true;
  const sampler = (async () => {
    while (running) {
      peak = Math.max(peak, (await bot.ask<Stats>("stats")).rss);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  let floodResult: FloodResult | undefined;
  const flooding = options.during?.then((result) => {
    floodResult = result;
  });
  const latencies: number[] = [];
  while (options.during ? floodResult === undefined : latencies.length < options.samples) {
    latencies.push(await probe.once());
  }
  await flooding;
  running = false;
  await sampler;
  const after = await bot.ask<Stats>("stats");
  return {
    phase,
    floodBodyBytes: options.floodBodyBytes,
    healthzMs: distribution(latencies),
    latencies,
    floodStatuses: floodResult?.statuses ?? {},
    floodRequests: floodResult?.sent ?? 0,
    floodSeconds: round(floodResult?.seconds ?? 0, 2),
    botCpuMs: round(
      (after.cpu.user + after.cpu.system - before.cpu.user - before.cpu.system) / 1000,
      0,
    ),
    botPeakRssMiB: round(Math.max(peak, after.rss) / MiB, 1),
    loadAverage: loadAverage(),
  };
}

export async function runGuard(): Promise<GuardFigures> {
  const samples = envInt("BENCH_GUARD_SAMPLES", 300);
  const floodRequests = envInt("BENCH_GUARD_FLOOD", 2000);
  const concurrency = envInt("BENCH_GUARD_CONCURRENCY", 8);
  const standin = await startSlackStandin();
  const redisPrefix = `bench:${randomBytes(6).toString("hex")}:`;
  const children: ChildHandle[] = [];
  try {
    const bot = await startChild("bot", {
      BENCH_BOT_TOKEN: standin.botToken,
      BENCH_SIGNING_SECRET: randomBytes(16).toString("hex"),
      BENCH_SLACK_API_URL: standin.apiUrl,
      BENCH_REDIS_PREFIX: redisPrefix,
      BENCH_PROVIDER_RATE_LIMIT: "0",
    });
    children.push(bot);
    const generator = await startChild("load");
    children.push(generator);
    const url = String(bot.ready.url);
    const events = `${url}/slack/events`;
    const probe = healthzProbe(url);
    try {
      for (let i = 0; i < 50; i++) await probe.once();
      const floodOf = (bytes: number, forged = false) =>
        generator.ask<FloodResult>("flood", {
          url: events,
          count: floodRequests,
          concurrency,
          bytes,
          forged,
        });
      // Idle is measured before each flood and after the last, and pooled: on a shared machine
      // the load drifts, and one idle stretch at the start would compare the floods with
      // whatever the machine was doing then.
      const idleRuns: Array<Awaited<ReturnType<typeof measurePhase>>> = [];
      const floods: Array<Awaited<ReturnType<typeof measurePhase>>> = [];
      const quiet = async () => {
        idleRuns.push(await measurePhase("idle", bot, probe, { samples, floodBodyBytes: 0 }));
      };
      const unsignedBytes = DEFAULT_SLACK_MAX_BODY_BYTES - 1024;
      const oversizedBytes = Math.round(3.9 * 1_000_000);
      for (const [phase, bytes] of [
        ["unsigned", unsignedBytes],
        ["forged", unsignedBytes],
        ["oversized", oversizedBytes],
      ] as const) {
        await quiet();
        floods.push(
          await measurePhase(phase, bot, probe, {
            samples,
            during: floodOf(bytes, phase === "forged"),
            floodBodyBytes: bytes,
          }),
        );
      }
      await quiet();
      const idleLatencies = idleRuns.flatMap((r) => r.latencies);
      const phases: GuardPhase[] = [
        {
          ...idleRuns[0]!,
          healthzMs: distribution(idleLatencies),
          botCpuMs: idleRuns.reduce((sum, r) => sum + r.botCpuMs, 0),
          botPeakRssMiB: Math.max(...idleRuns.map((r) => r.botPeakRssMiB)),
          loadAverage: loadAverage(),
        },
        ...floods,
      ].map(({ latencies: _, ...phase }) => phase);
      const idle = phases[0]!.healthzMs.p99;
      const ratioOf = (name: GuardPhase["phase"]) =>
        round((phases.find((p) => p.phase === name)?.healthzMs.p99 ?? 0) / idle, 2);
      const figures: GuardFigures = {
        healthzSamplesIdle: samples,
        floodRequests,
        floodConcurrency: concurrency,
        bodyLimitBytes: DEFAULT_SLACK_MAX_BODY_BYTES,
        phases,
        targets: {
          ratio: 2,
          unsignedRatio: ratioOf("unsigned"),
          forgedRatio: ratioOf("forged"),
          oversizedRatio: ratioOf("oversized"),
          unsignedMet: ratioOf("unsigned") <= 2,
          forgedMet: ratioOf("forged") <= 2,
          oversizedMet: ratioOf("oversized") <= 2,
        },
      };
      printTable(
        "/healthz under a flood of refused requests",
        phases.map((p) => ({
          phase: p.phase,
          "body bytes": p.floodBodyBytes,
          "healthz n": p.healthzMs.count,
          "p50 ms": p.healthzMs.p50,
          "p99 ms": p.healthzMs.p99,
          "max ms": p.healthzMs.max,
          flood: Object.entries(p.floodStatuses)
            .map(([status, n]) => `${status}: ${n}`)
            .join(", "),
          "flood s": p.floodSeconds,
          "bot CPU ms": p.botCpuMs,
          "bot peak RSS MiB": p.botPeakRssMiB,
        })),
      );
      return figures;
    } finally {
      probe.close();
    }
  } finally {
    for (const child of children.reverse()) await child.stop();
    await standin.close();
    const redis = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379");
    await deleteKeys(redis, redisPrefix);
    await redis.quit();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  await recordBenchmark("guard", runGuard);
}
