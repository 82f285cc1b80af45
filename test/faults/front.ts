import { randomBytes } from "node:crypto";
import type { ApprovalStore } from "../../src/approvals/index.js";
import { type RunningBot, startBot } from "../../src/bot.js";
import { loadConfig } from "../../src/config.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import {
  type HttpTransport,
  type SlackAppDriver,
  type SlackStandin,
  STANDIN_IDS,
  startSlackStandin,
} from "../../src/standin/index.js";
import { REDIS_URL, testLogger } from "../jobs/support.js";

/**
 * What the kill suites keep alive while they SIGKILL a bot process of their own: the Slack
 * stand-in, the settings the killed processes start with (`botEnv`, the bot's own variables),
 * and the bot's HTTP front as deployed with WORKERS=false — it takes the approvers' clicks and
 * queues the work, which the killed processes run.
 */
export interface FaultFront {
  standin: SlackStandin;
  botEnv: Record<string, string>;
  front: RunningBot;
  store: ApprovalStore;
  /** Signed Slack requests to the front, as Slack sends them. */
  slack: SlackAppDriver<HttpTransport>;
}

/** Starts the stand-in and the front on `sandbox`, its keys under `prefix`. */
export async function startFaultFront(
  sandbox: Sandbox,
  prefix: string,
  providerKey: string,
): Promise<FaultFront> {
  const signingSecret = randomBytes(16).toString("hex");
  const standin = await startSlackStandin();
  const botEnv = {
    SLACK_BOT_TOKEN: standin.botToken,
    SLACK_SIGNING_SECRET: signingSecret,
    SLACK_API_URL: standin.apiUrl,
    PROVIDER_BASE_URL: sandbox.url,
    PROVIDER_API_KEY: providerKey,
    REDIS_URL,
    APPROVALS_CHANNEL: STANDIN_IDS.approvals,
    APPROVERS: STANDIN_IDS.approver,
  };
  const front = await startBot({
    config: { ...loadConfig({ ...botEnv, WORKERS: "false" }), port: 0 },
    logger: testLogger(),
    redisPrefix: prefix,
    jobs: { maintenanceEveryMs: 0, queueDepthEveryMs: 0 },
  });
  const slack = standin.connectApp({ url: `${front.url}/slack/events`, signingSecret });
  return { standin, botEnv, front, store: front.services.approvals.store, slack };
}
