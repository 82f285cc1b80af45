import { randomBytes } from "node:crypto";
import { Writable } from "node:stream";
import { type RunningBot, startBot } from "../../src/bot.js";
import { configuredSecrets, loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/log.js";
import type { SandboxOptions } from "../../src/sandbox/index.js";
import {
  type HttpTransport,
  type SlackAppDriver,
  type SlackStandin,
  STANDIN_IDS,
  startSlackStandin,
} from "../../src/standin/index.js";
import { checkBeforeClose, watchBot } from "./fallbackWatch.js";
import { deleteKeysMatching } from "./redisKeys.js";
import { clusterSeeds, harnessRedis } from "./redisTopology.js";

export { STANDIN_IDS };

export interface TestBot {
  bot: RunningBot;
  standin: SlackStandin;
  slack: SlackAppDriver<HttpTransport>;
  signingSecret: string;
  /** Every log line the bot wrote, for assertions (e.g. no secret anywhere). */
  logLines: string[];
  /** The Redis key prefix of this run (every key the bot wrote starts with it). */
  redisPrefix: string;
  /** Runs `/connect <text>` as a person in #general. */
  connect(text: string, userId?: string): ReturnType<SlackAppDriver<HttpTransport>["command"]>;
  close(): Promise<void>;
}

/**
 * The end-to-end environment: the bot in HTTP mode on a free port, the provider sandbox
 * embedded, and the Slack stand-in as Slack (Web API and the sender of signed requests).
 */
export async function startTestBot(
  options: {
    env?: Record<string, string>;
    sandbox?: SandboxOptions;
    jobs?: Parameters<typeof startBot>[0]["jobs"];
    providerRateLimit?: Parameters<typeof startBot>[0]["providerRateLimit"];
    /** A prefix holding a store already (a migration test's fixture); default a new one. */
    redisPrefix?: string;
    /**
     * Runs on the stand-in before the bot starts: people and user groups the configuration
     * names must exist by then (the bot checks them against Slack at start-up), faults queued.
     */
    prepare?: (standin: SlackStandin) => void | Promise<void>;
  } = {},
): Promise<TestBot> {
  const standin = await startSlackStandin();
  await options.prepare?.(standin);
  const signingSecret = randomBytes(16).toString("hex");
  const config = {
    ...loadConfig({
      SLACK_BOT_TOKEN: standin.botToken,
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_API_URL: standin.apiUrl,
      APPROVALS_CHANNEL: STANDIN_IDS.approvals,
      APPROVERS: `${STANDIN_IDS.approver},S0APPROVERS`,
      LOG_LEVEL: "debug",
      // On the cluster suite's Redis Cluster, when it runs (test/harness/redisTopology.ts).
      ...(clusterSeeds() ? { REDIS_CLUSTER_NODES: clusterSeeds() } : {}),
      ...options.env,
    }),
    port: 0,
  };
  const logLines: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      logLines.push(...chunk.toString().split("\n").filter(Boolean));
      callback();
    },
  });
  const logger = createLogger({
    level: "debug",
    destination,
    // As every entry point does: each configured secret is redacted by value.
    secrets: configuredSecrets(config),
  });
  const redisPrefix = options.redisPrefix ?? `test:${randomBytes(6).toString("hex")}:`;
  const bot = await startBot({
    config,
    logger,
    sandbox: { ...options.sandbox },
    // Tests need not wait Slack's real pacing; the notifier's own tests cover it.
    jobs: {
      notifierSettings: { perChannelIntervalMs: 20, updateIntervalMs: 20 },
      maintenanceEveryMs: 0,
      ...options.jobs,
    },
    redisPrefix,
    ...(options.providerRateLimit !== undefined
      ? { providerRateLimit: options.providerRateLimit }
      : {}),
  });
  // The topology the suite asked for is the one the bot runs on (npm run test:cluster).
  const wanted = clusterSeeds() ? "cluster" : (config.redis?.mode ?? "single");
  if (!logLines.some((line) => line.includes(`"redisMode":"${wanted}"`))) {
    await bot.stop();
    throw new Error(`the bot did not connect to a ${wanted} Redis`);
  }
  // Every message it records is checked after each test (test/support/fallbackTextSetup.ts).
  watchBot(standin, {
    sandbox: bot.sandbox !== undefined,
    waiting: () => bot.jobs.notifier.totalOutboxLength(),
  });
  const slack = standin.connectApp({ url: `${bot.url}/slack/events`, signingSecret });
  return {
    bot,
    standin,
    slack,
    signingSecret,
    logLines,
    redisPrefix,
    connect: (text, userId = STANDIN_IDS.requester) =>
      slack.command(userId, STANDIN_IDS.general, "/connect", text),
    async close() {
      await checkBeforeClose(standin);
      await bot.stop();
      await standin.close();
      await deleteKeys(redisPrefix);
    },
  };
}

/** Tests leave Redis as they found it: every key under the run's prefix goes. */
export async function deleteKeys(prefix: string): Promise<void> {
  const redis = harnessRedis();
  try {
    await deleteKeysMatching(redis, `${prefix}*`);
  } finally {
    redis.disconnect();
  }
}
