import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import type { Config } from "./config.js";
import { createLogger, type Logger } from "./log.js";
import { createMetrics, type Metrics } from "./metrics.js";
import { createProvider } from "./provider/api.js";
import { type Sandbox, type SandboxOptions, startSandbox } from "./sandbox/index.js";
import { cachedIdentity, type Services } from "./services.js";
import { type HealthReport, type SlackConnection, startSlackApp } from "./slack/app.js";
import { registerListeners } from "./slack/listeners.js";
import { type SlackStandin, startSlackStandin } from "./standin/index.js";

export interface BotOptions {
  config: Config;
  logger?: Logger;
  metrics?: Metrics;
  /** Options of the embedded sandbox (used when no PROVIDER_BASE_URL is configured). */
  sandbox?: SandboxOptions;
  /** Redis key prefix for the bot's state and queues; tests use a unique one. */
  redisPrefix?: string;
}

export interface RunningBot {
  /** The HTTP port: /slack/events, /healthz, /metrics. */
  port: number;
  url: string;
  services: Services;
  sandbox?: Sandbox;
  /** In playground mode: the local stand-in for Slack the bot talks to. */
  standin?: SlackStandin;
  stop(): Promise<void>;
}

const SANDBOX_API_KEY = "sandbox-key";

/**
 * The composition root: builds every part from the configuration and wires them together.
 * Nothing else constructs clients or connections.
 */
export async function startBot(options: BotOptions): Promise<RunningBot> {
  const { config } = options;
  const secrets = [
    config.provider.kind === "remote" ? config.provider.apiKey : "",
    config.slack.mode !== "playground" ? config.slack.botToken : "",
    config.slack.mode === "http" ? config.slack.signingSecret : "",
    config.slack.mode === "socket" ? config.slack.appToken : "",
  ].filter(Boolean);
  const logger = options.logger ?? createLogger({ level: config.logLevel, secrets });
  const metrics = options.metrics ?? createMetrics();
  const stops: Array<() => Promise<unknown>> = [];
  const stop = async () => {
    for (const step of stops.reverse()) {
      await step().catch((error: unknown) => logger.warn({ err: error }, "shutdown step failed"));
    }
  };

  try {
    let sandbox: Sandbox | undefined;
    let provider: { baseUrl: string; apiKey: string };
    if (config.provider.kind === "sandbox") {
      sandbox = await startSandbox({
        port: 0,
        logger: logger.child({ component: "sandbox" }),
        ...options.sandbox,
      });
      stops.push(() => sandbox!.close());
      provider = { baseUrl: sandbox.url, apiKey: SANDBOX_API_KEY };
      logger.info({ url: sandbox.url }, "embedded provider sandbox started");
    } else {
      provider = { baseUrl: config.provider.baseUrl, apiKey: config.provider.apiKey };
    }
    const api = createProvider({ ...provider, logger, metrics });

    const redis = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 2 });
    redis.on("error", (error) => logger.warn({ err: error }, "redis connection error"));
    stops.push(async () => redis.quit().catch(() => redis.disconnect()));
    await redis.connect();

    const services: Services = {
      provider: api,
      identity: cachedIdentity(() => api.whoami()),
      sandbox: config.provider.kind === "sandbox",
      logger,
      metrics,
    };

    let standin: SlackStandin | undefined;
    let slack: SlackConnection;
    if (config.slack.mode === "playground") {
      const signingSecret = randomBytes(16).toString("hex");
      standin = await startSlackStandin({ logger: logger.child({ component: "standin" }) });
      stops.push(() => standin!.close());
      slack = { mode: "http", botToken: standin.botToken, signingSecret, apiUrl: standin.apiUrl };
    } else {
      slack = config.slack;
    }

    const running = await startSlackApp({
      slack,
      port: config.port,
      logger,
      metrics,
      health: () => checkHealth(redis, services),
      register: (app) => registerListeners(app, services),
    });
    stops.push(() => running.stop());
    const url = `http://127.0.0.1:${running.port}`;
    if (standin && slack.mode === "http") {
      standin.connectApp({ url: `${url}/slack/events`, signingSecret: slack.signingSecret });
    }
    logger.info(
      { port: running.port, slackMode: config.slack.mode, sandbox: services.sandbox },
      "bot ready",
    );
    return { port: running.port, url, services, sandbox, standin, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function checkHealth(redis: Redis, services: Services): Promise<HealthReport> {
  const withTimeout = <T>(work: Promise<T>, ms: number) =>
    Promise.race([
      work,
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref(),
      ),
    ]);
  const [redisCheck, providerCheck] = await Promise.allSettled([
    withTimeout(redis.ping(), 2_000),
    withTimeout(services.provider.whoami(), 5_000),
  ]);
  const checks: HealthReport["checks"] = {
    redis:
      redisCheck.status === "fulfilled"
        ? { ok: true }
        : { ok: false, detail: (redisCheck.reason as Error).message },
    provider:
      providerCheck.status === "fulfilled"
        ? { ok: true }
        : { ok: false, detail: (providerCheck.reason as Error).message },
  };
  return { ok: Object.values(checks).every((c) => c.ok), checks };
}
