// A process the benchmarks start and measure from outside: the bot (as `npm start` runs it in
// HTTP mode), a bare Bolt app that only acks, the sandbox and the Slack stand-in (so their CPU
// is not counted as the tracker's), or the ack benchmark's load generator. Talks to the parent
// over IPC.
import { createWriteStream } from "node:fs";
import { App, HTTPReceiver } from "@slack/bolt";
import { WebClient } from "@slack/web-api";
import { startBot } from "../src/bot.js";
import { loadConfig } from "../src/config.js";
import { startJobs } from "../src/jobs/index.js";
import { createLogger } from "../src/log.js";
import { buildTracker } from "../src/orders/tracking/index.js";
import { createProvider } from "../src/provider/api.js";
import { SandboxClock, startSandbox } from "../src/sandbox/index.js";
import {
  defaultWorkspaceSeed,
  makeChannel,
  STANDIN_IDS,
  startSlackStandin,
} from "../src/standin/index.js";
import { trackingReader } from "../src/usecases/trackingReads.js";
import { startWorkers } from "../src/workers/index.js";
import type { ChildRole } from "./common.js";
import { closedLoop, flood, type PreparedRequest } from "./loadgen.js";

type Handler = (message: Record<string, unknown>) => unknown;

function serve(handlers: Record<string, Handler>): void {
  process.on("message", async (raw: unknown) => {
    const message = raw as Record<string, unknown> & { type: string; id: number };
    const handler = handlers[message.type];
    try {
      if (!handler) throw new Error(`unknown request ${message.type}`);
      process.send?.({ type: "answer", id: message.id, ok: true, value: await handler(message) });
    } catch (error) {
      process.send?.({ type: "answer", id: message.id, ok: false, value: String(error) });
    }
  });
}

const stats = () => ({
  rss: process.memoryUsage().rss,
  heapUsed: process.memoryUsage().heapUsed,
  cpu: process.cpuUsage(),
});

function need(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

function onStop(stop: () => Promise<void>): void {
  const handler = () => {
    stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGTERM", handler);
  process.once("disconnect", handler);
}

async function runBot(): Promise<void> {
  const botToken = need("BENCH_BOT_TOKEN");
  const signingSecret = need("BENCH_SIGNING_SECRET");
  const config = {
    ...loadConfig({
      SLACK_BOT_TOKEN: botToken,
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_API_URL: need("BENCH_SLACK_API_URL"),
      APPROVALS_CHANNEL: STANDIN_IDS.approvals,
      APPROVERS: STANDIN_IDS.approver,
      LOG_LEVEL: "info",
      ...(process.env.BENCH_PROVIDER_URL
        ? { PROVIDER_BASE_URL: process.env.BENCH_PROVIDER_URL, PROVIDER_API_KEY: "bench-key" }
        : {}),
    }),
    port: 0,
  };
  // Logs are written as in production (info, JSON) but to /dev/null: their cost counts.
  const logger = createLogger({
    level: "info",
    destination: createWriteStream("/dev/null"),
    secrets: [botToken, signingSecret],
  });
  const started = performance.now();
  const bot = await startBot({
    config,
    logger,
    redisPrefix: need("BENCH_REDIS_PREFIX"),
    // BENCH_PROVIDER_RATE_LIMIT=0: /healthz asks the provider each time, and the shared 10/s
    // limit would pace a probe of it instead of the bot (the guard benchmark).
    ...(process.env.BENCH_PROVIDER_RATE_LIMIT === "0" ? { providerRateLimit: false as const } : {}),
  });
  const startBotMs = performance.now() - started;
  serve({ stats });
  onStop(() => bot.stop());
  process.send?.({
    type: "ready",
    url: bot.url,
    startBotMs,
    sinceProcessStartMs: performance.now(),
  });
}

async function runBare(): Promise<void> {
  const receiver = new HTTPReceiver({
    signingSecret: need("BENCH_SIGNING_SECRET"),
    endpoints: "/slack/events",
    processBeforeResponse: false,
    unhandledRequestTimeoutMillis: 2_900,
  });
  const app = new App({
    token: need("BENCH_BOT_TOKEN"),
    receiver,
    clientOptions: { slackApiUrl: need("BENCH_SLACK_API_URL") },
    // Bolt's defaults otherwise: its auth.test runs once, at start-up, against the stand-in.
  });
  app.command(/.*/, async ({ ack }) => ack());
  app.action(/.*/, async ({ ack }) => ack());
  const server = (await app.start(0)) as import("node:http").Server;
  const address = server.address() as import("node:net").AddressInfo;
  serve({ stats });
  onStop(async () => {
    await app.stop();
  });
  process.send?.({
    type: "ready",
    url: `http://127.0.0.1:${address.port}`,
    sinceProcessStartMs: performance.now(),
  });
}

/** The tracking benchmark's provider and Slack: a frozen sandbox clock moved by the parent. */
async function runServices(): Promise<void> {
  const startMs = Number(need("BENCH_SANDBOX_START"));
  const clock = new SandboxClock({ start: startMs, frozen: true });
  const sandbox = await startSandbox({ port: 0, clock, seed: Number(need("BENCH_SEED")) });
  const seed = defaultWorkspaceSeed();
  const channels = Number(process.env.BENCH_CHANNELS ?? "0");
  for (let i = 0; i < channels; i++) {
    seed.channels.push(makeChannel(`C0BENCH${String(i).padStart(4, "0")}`, `bench-${i}`));
  }
  const standin = await startSlackStandin({ seed });
  const dcfs = sandbox.state.world.dcfs;
  const onNet = dcfs.filter((d) => d.kind === "ON_NET" && d.speeds.includes(10000));
  const offNet = dcfs.filter((d) => d.kind === "OFF_NET" && d.speeds.includes(10000));
  serve({
    stats,
    advance: (m) => {
      clock.advance(Number(m.ms));
      return clock.nowMs();
    },
    /**
     * Places `count` port orders at the sandbox's now (every `offNetEvery`-th off-net, counting
     * from `firstIndex`, which also numbers their names) and a thread message for each.
     */
    createOrders: (m) => {
      const count = Number(m.count);
      const firstIndex = Number(m.firstIndex ?? 0);
      const offNetEvery = Number(m.offNetEvery);
      const channel = String(m.channel);
      const out: Array<{
        id: string;
        kind: string;
        loaDays: number;
        createdAtMs: number;
        threadTs: string;
      }> = [];
      for (let i = firstIndex; i < firstIndex + count; i++) {
        const pool = offNetEvery > 0 && i % offNetEvery === 0 ? offNet : onNet;
        const dcf = pool[i % pool.length];
        if (!dcf) throw new Error("the sandbox seed has no DCF of that kind");
        const order = sandbox.state.createPortOrder({
          companyId: sandbox.apiUser.companyId,
          dcfId: dcf.id,
          speed: 10000,
          portName: `bench-${i}`,
          durationUnit: "y",
          paymentType: "invoice",
          isEdgePort: false,
          edgePayload: null,
        });
        const parent = standin.postAsUser(STANDIN_IDS.requester, channel, `order ${order.id}`);
        out.push({
          id: order.id,
          kind: order.kind,
          loaDays: order.loaDays,
          createdAtMs: order.createdAtMs,
          threadTs: parent.ts,
        });
      }
      return out;
    },
    /** Replies per thread (bot messages only), in order. */
    threads: (m) => {
      const byThread: Record<string, string[]> = {};
      for (const message of standin.messages(String(m.channel))) {
        if (!message.thread_ts || message.thread_ts === message.ts) continue;
        if (message.user !== STANDIN_IDS.botUser) continue;
        const replies = byThread[message.thread_ts] ?? [];
        replies.push(message.text);
        byThread[message.thread_ts] = replies;
      }
      return byThread;
    },
    requestCount: () => sandbox.state.requestCount,
  });
  onStop(async () => {
    await standin.close();
    await sandbox.close();
  });
  process.send?.({
    type: "ready",
    sandboxUrl: sandbox.url,
    companyName: sandbox.apiUser.companyUsername,
    slackApiUrl: standin.apiUrl,
    botToken: standin.botToken,
  });
}

/**
 * The tracking benchmark's worker (as `npm run worker` runs the tracker and the notifier), in
 * a process of its own so its CPU time is measured alone. Its clock is the simulated one the
 * parent sets before it runs any due check.
 */
async function runWorker(): Promise<void> {
  let now = Number(need("BENCH_SANDBOX_START"));
  const logger = createLogger({ level: "warn", destination: createWriteStream("/dev/null") });
  const api = createProvider({ baseUrl: need("BENCH_SANDBOX_URL"), apiKey: "bench-key", logger });
  const slack = new WebClient(need("BENCH_BOT_TOKEN"), {
    slackApiUrl: need("BENCH_SLACK_API_URL"),
    rejectRateLimitedCalls: true,
    retryConfig: { retries: 0 },
  });
  const jobs = await startJobs({
    redisUrl: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
    prefix: need("BENCH_REDIS_PREFIX"),
    logger,
    // One channel holds every thread here; Slack's pacing is benchmark 3's subject.
    notifierSettings: { perChannelIntervalMs: 1, updateIntervalMs: 1 },
    now: () => new Date(now),
  });
  // The tracker, on the jobs' tracking queue as src/bot.ts builds it (src/orders/tracking), and
  // the workers that run it and the notifier's drain (src/workers).
  const tracker = buildTracker(jobs, { readTarget: trackingReader(api), now: () => new Date(now) });
  const workers = await startWorkers(
    jobs,
    { notify: { slack: slack.chat }, tracker },
    {
      concurrency: { tracking: Number(need("BENCH_TRACK_CONCURRENCY")) },
      maintenanceEveryMs: 0,
      reconcileOnStart: false,
    },
  );
  serve({
    stats,
    setNow: (m) => {
      now = Number(m.ms);
      return now;
    },
  });
  onStop(async () => {
    await workers.close(8_000);
    await jobs.close(2_000);
  });
  process.send?.({ type: "ready" });
}

/** The ack and guard benchmarks' load generator, alone in its process (see bench/loadgen.ts). */
async function runLoad(): Promise<void> {
  serve({
    stats,
    run: (m) =>
      closedLoop(String(m.url), m.requests as PreparedRequest[], Number(m.concurrency), {
        mark: typeof m.mark === "string" ? m.mark : undefined,
        opening: Number(m.opening ?? 0),
      }),
    flood: (m) =>
      flood(String(m.url), {
        count: Number(m.count),
        concurrency: Number(m.concurrency),
        bytes: Number(m.bytes),
        forged: m.forged === true,
      }),
  });
  onStop(async () => {});
  process.send?.({ type: "ready" });
}

const ROLES: Record<ChildRole, () => Promise<void>> = {
  worker: runWorker,
  bot: runBot,
  bare: runBare,
  services: runServices,
  load: runLoad,
};
const role = process.argv[2];
const run = role !== undefined && Object.hasOwn(ROLES, role) ? ROLES[role as ChildRole] : undefined;
if (!run) {
  process.stderr.write(`unknown role ${role}\n`);
  process.exit(2);
}
run().catch((error: unknown) => {
  process.stderr.write(`bench child ${role} failed: ${String(error)}\n`);
  process.exit(1);
});
