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
import { waitFor } from "../harness/index.js";
import { portOrderRequest } from "../harness/portOrders.js";

/** Two bot replicas (HTTP front and workers each) behind one Slack, sharing Redis. */
describe("two replicas sharing Redis", () => {
  let sandbox: Sandbox;
  let standin: SlackStandin;
  const replicas: RunningBot[] = [];
  const drivers: Array<ReturnType<SlackStandin["connectApp"]>> = [];
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
      PROVIDER_API_KEY: "replica-test-key",
      APPROVALS_CHANNEL: STANDIN_IDS.approvals,
      APPROVERS: `${STANDIN_IDS.approver},S0APPROVERS`,
    };
    for (let i = 0; i < 2; i++) {
      const bot = await startBot({
        config: { ...loadConfig(env), port: 0 },
        logger: createLogger({ level: "silent" }),
        redisPrefix,
        jobs: {
          notifierSettings: { perChannelIntervalMs: 20, updateIntervalMs: 20 },
          maintenanceEveryMs: 0,
        },
      });
      replicas.push(bot);
      drivers.push(standin.connectApp({ url: `${bot.url}/slack/events`, signingSecret }));
    }
  });
  afterAll(async () => {
    for (const bot of replicas) await bot.stop();
    await standin?.close();
    await sandbox?.close();
    await deleteKeys(redisPrefix);
  });

  it("places an order once when approvers click on both replicas at the same time", async () => {
    const front = replicas[0]!;
    const { companyUsername } = await front.services.identity();
    const dcf = (await front.services.provider.listDcfs()).find(
      (d) => (d.dataCenterFacility?.speeds?.length ?? 0) > 0,
    )!;
    const portName = "replicas-once-1";
    const outcome = await submitForApproval({
      services: front.services,
      client: new WebClient(standin.botToken, { slackApiUrl: standin.apiUrl }),
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
    const approvers = [STANDIN_IDS.approver, "U0APPROVE2"];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        drivers[i % 2]!.clickButton({
          userId: approvers[i % 2]!,
          message: request,
          actionId: "approval_approve",
        }),
      ),
    );
    await standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => m.thread_ts === request.ts && m.ts !== request.ts && m.text.includes("Ordered"),
      { timeoutMs: 15_000 },
    );
    const summary = (await (await fetch(`${sandbox.url}/__sandbox/requests?summary=1`)).json()) as {
      byOperation: Record<string, number>;
    };
    expect(summary.byOperation.createPortOrder).toBe(1);
    // The replies only: the request's own message, rendered from the record when its update is
    // sent, may say "Ordered" too by now.
    const replies = standin
      .thread(STANDIN_IDS.approvals, request.ts)
      .filter((m) => m.ts !== request.ts);
    expect(replies.filter((m) => m.text.includes("Approved by"))).toHaveLength(1);
    expect(replies.filter((m) => m.text.includes("Ordered"))).toHaveLength(1);
  });

  it("ends a Workflow Builder step once when both replicas see its request end", async () => {
    const front = replicas[0]!;
    const dcf = (await front.services.provider.listDcfs()).find(
      (d) => (d.dataCenterFacility?.speeds?.length ?? 0) > 0 && d.username,
    )!;
    const portName = "replicas-step-1";
    // The step arrives at one replica, the approvals at both.
    const sent = await drivers[1]!.runStep("request_port_order", {
      requester: STANDIN_IDS.requester,
      data_center: dcf.username,
      speed_mbps: Number(dcf.dataCenterFacility!.speeds![0]),
      term_months: 12,
      port_name: portName,
    });
    expect(sent.status).toBe(200);
    const request = await standin.waitForMessage(STANDIN_IDS.approvals, (m) =>
      m.text.includes(portName),
    );
    const approvers = [STANDIN_IDS.approver, "U0APPROVE2"];
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        drivers[i % 2]!.clickButton({
          userId: approvers[i % 2]!,
          message: request,
          actionId: "approval_approve",
        }),
      ),
    );
    const end = await standin.waitForStepEnd(sent.run.executionId, { timeoutMs: 15_000 });
    expect(end.end.state).toBe("completed");
    // Both replicas' lifecycles saw the request end (and re-render it): one completion call.
    await standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => m.thread_ts === request.ts && m.text.includes("Ordered"),
    );
    const record = (await front.services.approvals.store.list({ limit: 50 })).find(
      (r) => r.title === portName,
    );
    // Each replica sees the end again (every change re-renders a request): still one end.
    for (const bot of replicas) await bot.services.orders.refreshMessage(record!.id);
    await waitFor(async () => (await front.jobs.notifier.totalOutboxLength()) === 0, {
      description: "the outboxes drained",
    });
    const calls = standin
      .calls()
      .filter(
        (c) =>
          c.method.startsWith("functions.") &&
          c.args.function_execution_id === sent.run.executionId,
      );
    expect(calls.map((c) => `${c.method} ${c.ok}`)).toEqual(["functions.completeSuccess true"]);
  });
});
