// Benchmark 1: time to the ack (the HTTP response) of signed /connect requests and Share
// clicks, the bot against a bare Bolt app that only acks, both started the same way (HTTP
// receiver, child process) in the same run. The Slack stand-in (parent process) builds and
// signs the requests and answers the bot's follow-ups (response URLs, Web API); a load
// generator of its own (bench/loadgen.ts) sends them and times the acks.
import { randomBytes } from "node:crypto";
import { cpus } from "node:os";
import { pathToFileURL } from "node:url";
import { Redis } from "ioredis";
import { BUSY_TEXT } from "../src/slack/followUps.js";
import {
  type AppAck,
  requestBody,
  type SlackStandin,
  STANDIN_IDS,
  type StandinEphemeral,
  signSlackRequest,
  startSlackStandin,
  type Transport,
} from "../src/standin/index.js";
import {
  type ChildHandle,
  type Distribution,
  deleteKeys,
  distribution,
  envInt,
  envList,
  loadAverage,
  pinToCores,
  printTable,
  recordBenchmark,
  round,
  startChild,
  waitUntil,
} from "./common.js";
import type { ClosedLoopResult, PreparedRequest } from "./loadgen.js";

/** Words of the bot's busy answer (src/slack/followUps.ts), to count refused requests. */
const BUSY_MARK = BUSY_TEXT.slice(0, 40);

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
  /** Rounds the requests were sent in, alternating with the other app's. */
  rounds: number;
  non200: number;
  /** Requests the bot answered "busy" in the ack (its follow-up lane was full): no follow-up. */
  refusedBusy: number;
  /** Every round's latencies together, its opening requests left out. */
  latencyMs: Distribution;
  /** Requests at the start of each round timed apart: one per connection (BENCH_ACK_OPENING). */
  openingPerRound: number;
  /** The opening requests' latencies, every round's together. */
  openingMs: Distribution;
  /** Each round's own p99, in the order they ran: how much a level's p99 moves run to run. */
  roundP99Ms: number[];
  /** Time under load, the rounds added up. */
  seconds: number;
  requestsPerSecond: number;
  /** The app process's CPU time while the load ran, per request sent, opening ones included (ms). */
  cpuMsPerRequest: number;
  /** The same until each round's last follow-up was delivered (bot only; includes idle time). */
  cpuMsPerRequestUntilAnswered?: number;
  /** Highest resident memory of the app process sampled during the run (MiB). */
  peakRssMiB: number;
  loadAverage: [number, number, number];
  /** The bot's follow-up calls at the Slack stand-in during the run, by method (bot only). */
  followUps?: Record<string, number>;
  /**
   * From each round's first request until its last follow-up reached the stand-in, the rounds
   * added up (bot only).
   */
  answeredSeconds?: number;
}

export interface AckFigures {
  requestsPerLevel: number;
  /** Each level's requests per app are sent in this many rounds, alternating bot and bare app. */
  rounds: number;
  warmupRequests: number;
  /** Each round's first requests, per connection, timed apart from the rest. */
  openingPerConnection: number;
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
    /** The slowest of the rounds' opening requests. */
    botOpeningMax: number;
    bareOpeningMax: number;
    /** Lowest and highest of the rounds' own p99s. */
    botRoundP99Range: [number, number];
    bareRoundP99Range: [number, number];
  }>;
  idleRssMiB: { bot: number; bare: number };
  /** Cores the app under test ran on, and the cores of everything else the bench started. */
  pinning: { appCores: string; otherCores: string } | null;
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

/**
 * The bot's follow-ups (responses, Web API calls) run after the ack: wait until every request
 * has had its follow-up at the stand-in, so one run's work does not land in the next (and its
 * CPU is counted in its own run). Returns the follow-up calls by method.
 */
async function settle(
  standin: SlackStandin,
  expectedFollowUps: number,
): Promise<Record<string, number>> {
  await waitUntil(async () => standin.callCount() >= expectedFollowUps, {
    timeoutMs: 300_000,
    intervalMs: 20,
    what: `${expectedFollowUps} follow-up calls from the bot`,
  });
  const byMethod: Record<string, number> = {};
  for (const method of FOLLOW_UP_METHODS) byMethod[method] = standin.callCount(method);
  byMethod.total = standin.callCount();
  standin.clearCalls();
  return byMethod;
}

/** Each request of the mix is followed by one of these (a response, or the shared message). */
const FOLLOW_UP_METHODS = ["response_url", "chat.postMessage"] as const;

/**
 * Hands each payload to the bench instead of sending it, so requests are built (each command
 * with a response URL of its own at the stand-in) before the clock starts.
 */
class RecordingTransport implements Transport {
  readonly bodies: string[] = [];

  async send(kind: "command" | "interaction", payload: object): Promise<AppAck> {
    this.bodies.push(requestBody(kind, payload));
    return { status: 200, body: undefined };
  }
}

/** `count` requests of the mix, as Slack would post them, in the mix's order. */
async function buildRequests(
  standin: SlackStandin,
  shareSource: StandinEphemeral,
  count: number,
): Promise<string[]> {
  const transport = new RecordingTransport();
  const driver = standin.driverWith(transport);
  const user = STANDIN_IDS.requester;
  for (let i = 0; i < count; i++) {
    const kind = i % REQUEST_MIX.length;
    if (kind === 0) await driver.command(user, STANDIN_IDS.general, "/connect", "help");
    else if (kind === 1) await driver.command(user, STANDIN_IDS.general, "/connect", "ports");
    else if (kind === 2) {
      await driver.command(
        user,
        STANDIN_IDS.general,
        "/connect",
        "price port ironbridge-docklands-ld8 10G 1y",
      );
    } else {
      await driver.clickButton({ userId: user, message: shareSource, actionId: "connect_share" });
    }
  }
  return transport.bodies;
}

/**
 * Sends the bodies to the target from the load generator's process, `concurrency` at a time,
 * signed as Slack signs them just before they go (Bolt allows 5 minutes); the first `opening` are
 * timed apart (see closedLoop).
 */
async function load(
  generator: ChildHandle,
  target: { url: string; signingSecret: string },
  bodies: readonly string[],
  concurrency: number,
  opening = 0,
): Promise<Omit<ClosedLoopResult, "marked"> & { busy: number }> {
  const timestamp = Math.floor(Date.now() / 1000);
  const requests: PreparedRequest[] = bodies.map((body) => ({
    headers: { ...signSlackRequest({ signingSecret: target.signingSecret, body, timestamp }) },
    body,
  }));
  const { marked, ...run } = await generator.ask<ClosedLoopResult>("run", {
    url: target.url,
    requests,
    concurrency,
    mark: BUSY_MARK,
    opening,
  });
  return { ...run, busy: marked };
}

/** One app's share of a level: a round of requests, timed, and what it cost the app. */
export interface RoundResult {
  /** Requests timed into `latencies`. */
  requests: number;
  latencies: number[];
  /** The round's opening requests (sent before the others, timed apart). */
  openingLatencies: number[];
  non200: number;
  busy: number;
  seconds: number;
  cpuMsLoad: number;
  /** Until the round's last follow-up reached the stand-in (bot only). */
  cpuMsUntilAnswered?: number;
  peakRss: number;
  followUps?: Record<string, number>;
  answeredSeconds?: number;
}

/** Round `r` of `rounds`' share of `count` requests (the shares add up to `count`). */
export function roundSize(count: number, rounds: number, r: number): number {
  return Math.floor((count * (r + 1)) / rounds) - Math.floor((count * r) / rounds);
}

const cpuMs = (from: Stats, to: Stats) =>
  (to.cpu.user + to.cpu.system - from.cpu.user - from.cpu.system) / 1000;

/**
 * Sends one round to one app and, for the bot, waits for the round's follow-ups, so they run
 * beside the bot's own acks (as they would in use) and never beside the bare app's.
 */
async function measureRound(spec: {
  app: "bot" | "bare";
  child: ChildHandle;
  target: { url: string; signingSecret: string };
  bodies: readonly string[];
  concurrency: number;
  /** How many of `bodies` open the round (timed apart). */
  opening: number;
  generator: ChildHandle;
  standin: SlackStandin;
}): Promise<RoundResult> {
  const { child } = spec;
  const before = await child.ask<Stats>("stats");
  let peak = before.rss;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      peak = Math.max(peak, (await child.ask<Stats>("stats")).rss);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  })();
  const started = performance.now();
  const run = await load(spec.generator, spec.target, spec.bodies, spec.concurrency, spec.opening);
  const loaded = await child.ask<Stats>("stats");
  // A request refused as busy was answered in its ack and has no follow-up.
  const followUps =
    spec.app === "bot" ? await settle(spec.standin, spec.bodies.length - run.busy) : undefined;
  const answeredSeconds = (performance.now() - started) / 1000;
  sampling = false;
  await sampler;
  const after = await child.ask<Stats>("stats");
  return {
    requests: spec.bodies.length - spec.opening,
    latencies: run.latencies,
    openingLatencies: run.openingLatencies,
    non200: run.non200,
    busy: run.busy,
    seconds: run.seconds,
    cpuMsLoad: cpuMs(before, loaded),
    ...(followUps ? { cpuMsUntilAnswered: cpuMs(before, after), followUps, answeredSeconds } : {}),
    peakRss: Math.max(peak, after.rss),
  };
}

/** A level's rounds for one app, pooled: latencies together, counts and CPU added up. */
export function levelResult(
  app: "bot" | "bare",
  concurrency: number,
  rounds: readonly RoundResult[],
): LevelResult {
  const sum = (pick: (r: RoundResult) => number) => rounds.reduce((s, r) => s + pick(r), 0);
  const requests = sum((r) => r.requests);
  const sent = requests + sum((r) => r.openingLatencies.length);
  const seconds = sum((r) => r.seconds);
  // Only rounds that waited for follow-ups (the bot's, see measureRound) have answer figures.
  const answered = rounds.some((r) => r.followUps !== undefined);
  const followUps: Record<string, number> = {};
  for (const r of rounds) {
    for (const [method, n] of Object.entries(r.followUps ?? {})) {
      followUps[method] = (followUps[method] ?? 0) + n;
    }
  }
  return {
    concurrency,
    app,
    requests,
    rounds: rounds.length,
    non200: sum((r) => r.non200),
    refusedBusy: sum((r) => r.busy),
    latencyMs: distribution(rounds.flatMap((r) => r.latencies)),
    openingPerRound: Math.max(0, ...rounds.map((r) => r.openingLatencies.length)),
    openingMs: distribution(rounds.flatMap((r) => r.openingLatencies)),
    roundP99Ms: rounds.map((r) => distribution(r.latencies).p99),
    seconds: round(seconds, 2),
    requestsPerSecond: round(requests / seconds, 0),
    cpuMsPerRequest: round(sum((r) => r.cpuMsLoad) / sent, 3),
    ...(answered
      ? {
          cpuMsPerRequestUntilAnswered: round(sum((r) => r.cpuMsUntilAnswered ?? 0) / sent, 3),
          followUps,
          answeredSeconds: round(
            sum((r) => r.answeredSeconds ?? 0),
            2,
          ),
        }
      : {}),
    peakRssMiB: round(Math.max(...rounds.map((r) => r.peakRss)) / MiB, 1),
    loadAverage: loadAverage(),
  };
}

export async function runAck(): Promise<AckFigures> {
  const count = envInt("BENCH_ACK_REQUESTS", 2000);
  const warmup = envInt("BENCH_ACK_WARMUP", 200);
  // Each round starts after the app sat idle through the other app's round and the bot's
  // follow-ups (about 40 s at concurrency 16): the first request on each new connection meets
  // a cold app, and cold code and caches (measured: in most rounds these requests were the
  // round's slowest, up to 216 ms for the bot and 112 ms for the bare app; from the second
  // request per connection on, a round was at its usual level). Five rounds have five such
  // starts where one stream has one, and at concurrency 16 they were 80 of the 2,000 requests,
  // enough to set the p99 alone. So they are timed apart and shown as they are, not pooled.
  const openingPerConnection = envInt("BENCH_ACK_OPENING", 1, 0);
  const rounds = Math.min(envInt("BENCH_ACK_ROUNDS", 5), count);
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
    const services = await startChild("services", {
      BENCH_SANDBOX_START: String(Date.now()),
      BENCH_SEED: "42",
    });
    children.push(services);
    const bot = await startChild("bot", {
      ...env,
      BENCH_PROVIDER_URL: String(services.ready.sandboxUrl),
    });
    children.push(bot);
    const bare = await startChild("bare", env);
    children.push(bare);
    const generator = await startChild("load");
    children.push(generator);
    // BENCH_ACK_PIN=1: the app under test gets a core of its own (the last), the load
    // generator, the Slack stand-in and the provider the others, so the load generator's own
    // queueing is not measured as the app's latency (unpinned, the load generator is still a
    // process of its own that only sends prepared requests, see bench/loadgen.ts). Off by
    // default: on a 2-core machine one core for all of Node's threads (GC helpers too) measured
    // worse than sharing two (p99 at concurrency 16 with the earlier in-process load generator:
    // bot 81.7 ms, bare app 107 ms pinned; 64.2 and 81.2 unpinned). Redis is the machine's and
    // is left where the scheduler puts it.
    const cores = cpus().length;
    let pinning: AckFigures["pinning"] =
      process.env.BENCH_ACK_PIN === "1" && cores >= 2
        ? { appCores: String(cores - 1), otherCores: cores === 2 ? "0" : `0-${cores - 2}` }
        : null;
    if (pinning && !pinToCores(process.pid, pinning.otherCores)) {
      process.stderr.write("ack: taskset is not available here; the processes run unpinned\n");
      pinning = null;
    }
    if (pinning) {
      const { appCores, otherCores } = pinning;
      const pinned =
        pinToCores(services.process.pid!, otherCores) &&
        pinToCores(generator.process.pid!, otherCores) &&
        pinToCores(bot.process.pid!, appCores) &&
        pinToCores(bare.process.pid!, appCores);
      if (!pinned) throw new Error("ack: taskset pinned this process but not its children");
    }
    const targets = {
      bot: { url: `${String(bot.ready.url)}/slack/events`, signingSecret },
      bare: { url: `${String(bare.ready.url)}/slack/events`, signingSecret },
    };
    // A real reply with a Share button to click (the bare app's clicks use the same message).
    await standin
      .connectApp(targets.bot)
      .command(STANDIN_IDS.requester, STANDIN_IDS.general, "/connect", "whoami");
    const shareSource = await standin.waitForEphemeral(STANDIN_IDS.requester, (m) =>
      JSON.stringify(m.blocks ?? []).includes("connect_share"),
    );
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const idle = {
      bot: (await bot.ask<Stats>("stats")).rss / MiB,
      bare: (await bare.ask<Stats>("stats")).rss / MiB,
    };
    for (const app of ["bot", "bare"] as const) {
      await load(generator, targets[app], await buildRequests(standin, shareSource, warmup), 8);
    }
    await settle(standin, warmup);

    const results: LevelResult[] = [];
    for (const concurrency of levels) {
      const byApp = { bot: [] as RoundResult[], bare: [] as RoundResult[] };
      for (let r = 0; r < rounds; r++) {
        // Alternating which app goes first spreads drift (a busier machine, a warmer JIT)
        // over both apps alike.
        const order = r % 2 === 0 ? (["bot", "bare"] as const) : (["bare", "bot"] as const);
        for (const app of order) {
          const opening = openingPerConnection * concurrency;
          const size = roundSize(count, rounds, r) + opening;
          byApp[app].push(
            await measureRound({
              app,
              child: app === "bot" ? bot : bare,
              target: targets[app],
              bodies: await buildRequests(standin, shareSource, size),
              concurrency,
              opening,
              generator,
              standin,
            }),
          );
        }
      }
      for (const app of ["bot", "bare"] as const) {
        results.push(levelResult(app, concurrency, byApp[app]));
      }
    }
    const comparison = levels.map((concurrency) => {
      const botLevel = results.find((r) => r.app === "bot" && r.concurrency === concurrency)!;
      const bareLevel = results.find((r) => r.app === "bare" && r.concurrency === concurrency)!;
      const b = botLevel.latencyMs;
      const a = bareLevel.latencyMs;
      const range = (values: number[]): [number, number] => [
        Math.min(...values),
        Math.max(...values),
      ];
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
        botOpeningMax: botLevel.openingMs.max,
        bareOpeningMax: bareLevel.openingMs.max,
        botRoundP99Range: range(botLevel.roundP99Ms),
        bareRoundP99Range: range(bareLevel.roundP99Ms),
      };
    });
    const at16 = comparison.find((c) => c.concurrency === 16);
    const figures: AckFigures = {
      requestsPerLevel: count,
      rounds,
      warmupRequests: warmup,
      openingPerConnection,
      mix: REQUEST_MIX,
      levels: results,
      comparison,
      idleRssMiB: { bot: round(idle.bot, 1), bare: round(idle.bare, 1) },
      pinning,
      targets: {
        p99At16Ms: 50,
        ratio: 1.5,
        p99At16Met: at16 ? at16.botP99 < 50 : null,
        ratioMet: at16 ? at16.ratioP99 <= 1.5 : null,
      },
    };
    printTable(
      `Ack latency (ms), ${count} requests per level and app in ${rounds} rounds`,
      comparison.map(({ botRoundP99Range, bareRoundP99Range, ...c }) => ({
        ...c,
        botRoundsP99: botRoundP99Range.join("–"),
        bareRoundsP99: bareRoundP99Range.join("–"),
      })),
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
