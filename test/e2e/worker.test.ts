import { randomBytes } from "node:crypto";
import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningBot, startBot } from "../../src/bot.js";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/log.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { submitForApproval } from "../../src/slack/kit/index.js";
import { type SlackStandin, STANDIN_IDS, startSlackStandin } from "../../src/standin/index.js";
import { deleteKeys } from "../harness/botEnv.js";
import { watchFallbackText } from "../harness/fallbackWatch.js";
import { portOrderRequest } from "../harness/portOrders.js";

/** The HTTP front with WORKERS=false and `npm run worker` apart, sharing Redis. */
describe("workers in their own process", () => {
  let sandbox: Sandbox;
  let standin: SlackStandin;
  let front: RunningBot;
  let worker: RunningBot;
  let slack: ReturnType<SlackStandin["connectApp"]>;
  const redisPrefix = `test:${randomBytes(6).toString("hex")}`;

  beforeAll(async () => {
    sandbox = await startSandbox();
    standin = await startSlackStandin();
    watchFallbackText(standin);
    const signingSecret = randomBytes(16).toString("hex");
    const env = {
      SLACK_BOT_TOKEN: standin.botToken,
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_API_URL: standin.apiUrl,
      PROVIDER_BASE_URL: sandbox.url,
      PROVIDER_API_KEY: "worker-test-key",
      APPROVALS_CHANNEL: STANDIN_IDS.approvals,
      APPROVERS: STANDIN_IDS.approver,
    };
    const logger = createLogger({ level: "silent" });
    const jobs = {
      notifierSettings: { perChannelIntervalMs: 20, updateIntervalMs: 20 },
      maintenanceEveryMs: 0,
    };
    front = await startBot({
      config: { ...loadConfig({ ...env, WORKERS: "false" }), port: 0 },
      logger,
      redisPrefix,
      jobs,
    });
    worker = await startBot({
      config: { ...loadConfig(env), port: 0 },
      logger,
      redisPrefix,
      jobs,
      role: "worker",
    });
    slack = standin.connectApp({ url: `${front.url}/slack/events`, signingSecret });
  });
  afterAll(async () => {
    await front?.stop();
    await worker?.stop();
    await standin?.close();
    await sandbox?.close();
    await deleteKeys(redisPrefix);
  });

  it("refuses to run apart in local mode, where the sandbox and Slack stand-in live in the bot", async () => {
    await expect(
      startBot({ config: { ...loadConfig({}), port: 0 }, role: "worker" }),
    ).rejects.toThrow(/npm run worker needs SLACK_BOT_TOKEN and PROVIDER_BASE_URL/);
  });

  it("the worker places what the front queued, and answers health checks", async () => {
    const { companyUsername } = await front.services.identity();
    const dcf = (await front.services.provider.listDcfs()).find(
      (d) => (d.dataCenterFacility?.speeds?.length ?? 0) > 0,
    )!;
    const client = new WebClient(standin.botToken, { slackApiUrl: standin.apiUrl });
    const portName = "worker-split-1";
    const outcome = await submitForApproval({
      services: front.services,
      client,
      submission: portOrderRequest({
        portName,
        companyUsername,
        dataCenterFacility: dcf.username!,
        speed: String(dcf.dataCenterFacility!.speeds![0]),
      }),
    });
    if (!outcome.ok) throw new Error(outcome.message);
    const request = await standin.waitForMessage(STANDIN_IDS.approvals, (m) =>
      m.text.includes(portName),
    );
    await slack.clickButton({
      userId: STANDIN_IDS.approver,
      message: request,
      actionId: "approval_approve",
    });
    const placed = await standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => m.thread_ts === request.ts && m.ts !== request.ts && m.text.includes("Ordered"),
      { timeoutMs: 15_000 },
    );
    const record = await front.services.approvals.store.get(outcome.approval.id);
    expect(record?.status).toBe("placed");
    // The front runs no workers: the claim was the worker process's.
    expect(record?.claimedBy).toBeDefined();
    expect(placed.text).toContain(record!.result!.providerId!);
    const health = await fetch(`${worker.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await (await fetch(`${worker.url}/metrics`)).text()).toContain("job_outcomes_total");
  });
});
