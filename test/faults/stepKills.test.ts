import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningBot, startBot } from "../../src/bot.js";
import { loadConfig } from "../../src/config.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import {
  type HttpTransport,
  type SlackAppDriver,
  type SlackStandin,
  STANDIN_IDS,
  type StepExecution,
  startSlackStandin,
} from "../../src/standin/index.js";
import { connect, deleteKeys, REDIS_URL, runPrefix, testLogger } from "../jobs/support.js";
import { startWorkerProcess, type WorkerProcess } from "./workerProcess.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/placementWorker.ts", import.meta.url));
const STEPS = 3;

/**
 * Issue 30: a Workflow Builder step is ended once, also when the process that places its order
 * and ends it is SIGKILLed with the end in flight. Three `request_port_order` steps arrive as
 * signed `function_executed` events at the bot's HTTP front (WORKERS=false, as deployed); they
 * are approved there; the placing process (what `npm run worker` runs) places them, and Slack
 * answers its first `functions.completeSuccess` calls with 503s, so the ends sit at the head of
 * the outbox, retrying, when the process is killed. A second life takes the outbox over: every
 * step ends once, successfully, with its own order's id, and each port was ordered once.
 */
describe("a step's end survives a SIGKILL of the placing process", () => {
  const prefix = runPrefix("step-kills");
  const signingSecret = randomBytes(16).toString("hex");
  let redis: Redis;
  let sandbox: Sandbox;
  let standin: SlackStandin;
  let slack: SlackAppDriver<HttpTransport>;
  let front: RunningBot;
  let worker: WorkerProcess | undefined;
  let botEnv: Record<string, string>;

  beforeAll(async () => {
    redis = connect();
    sandbox = await startSandbox();
    standin = await startSlackStandin();
    botEnv = {
      SLACK_BOT_TOKEN: standin.botToken,
      SLACK_SIGNING_SECRET: signingSecret,
      SLACK_API_URL: standin.apiUrl,
      PROVIDER_BASE_URL: sandbox.url,
      PROVIDER_API_KEY: "step-kills-key",
      REDIS_URL,
      APPROVALS_CHANNEL: STANDIN_IDS.approvals,
      APPROVERS: STANDIN_IDS.approver,
    };
    front = await startBot({
      config: { ...loadConfig({ ...botEnv, WORKERS: "false" }), port: 0 },
      logger: testLogger(),
      redisPrefix: prefix,
      jobs: { maintenanceEveryMs: 0, queueDepthEveryMs: 0 },
    });
    slack = standin.connectApp({ url: `${front.url}/slack/events`, signingSecret });
  }, 60_000);

  afterAll(async () => {
    await worker?.kill();
    await front?.stop();
    await deleteKeys(redis, prefix);
    await standin?.close();
    await sandbox?.close();
    redis?.disconnect();
  });

  function startLife(id: string): Promise<WorkerProcess> {
    return startWorkerProcess(FIXTURE, { ...botEnv, BOT_PREFIX: prefix, WORKER_ID: id }, 60_000);
  }

  it("ends every step once, with its order id, across the kill", async () => {
    const dcf = sandbox.state.world.dcfs.find(
      (d) => d.ready && d.kind === "ON_NET" && !d.edge && d.speeds.length > 0,
    );
    if (!dcf) throw new Error("the sandbox has no on-net data center with speeds");
    const runs: StepExecution[] = [];
    for (let i = 0; i < STEPS; i++) {
      const sent = await slack.runStep("request_port_order", {
        requester: STANDIN_IDS.requester,
        data_center: dcf.username,
        speed_mbps: dcf.speeds[0],
        term_months: 12,
        port_name: `step-kill-${i}`,
      });
      expect(sent.status).toBe(200);
      runs.push(sent.run);
    }
    for (let i = 0; i < STEPS; i++) {
      const message = await standin.waitForMessage(
        STANDIN_IDS.approvals,
        (m) => m.text.includes(`step-kill-${i}`),
        { timeoutMs: 15_000 },
      );
      await slack.clickButton({
        userId: STANDIN_IDS.approver,
        message,
        actionId: "approval_approve",
      });
    }
    // Slack is down for the ends: they stay at the head of the outbox while the process dies.
    standin.failNext("functions.completeSuccess", { count: 1000, status: 503 });
    worker = await startLife("step-kills-life-1");
    await standin.waitForCall("functions.completeSuccess", () => true, { timeoutMs: 60_000 });
    await worker.kill();
    worker = undefined;
    expect(runs.every((run) => standin.stepRun(run.executionId)?.end.state === "running")).toBe(
      true,
    );
    standin.clearFaults();

    worker = await startLife("step-kills-life-2");
    const ended = await Promise.all(
      runs.map((run) => standin.waitForStepEnd(run.executionId, { timeoutMs: 60_000 })),
    );
    const records = await front.services.approvals.store.list({ limit: 100 });
    for (const [i, end] of ended.entries()) {
      const record = records.find((r) => r.step?.executionId === runs[i]!.executionId);
      expect(record?.status).toBe("placed");
      expect(end.end).toEqual({
        state: "completed",
        outputs: expect.objectContaining({
          request_id: record?.id,
          order_id: record?.result?.providerId,
        }),
      });
      // Once: Slack saw one successful end of each run (the 503s changed nothing).
      expect(end.completions.filter((c) => c.ok)).toHaveLength(1);
    }
    const orders = (await (await fetch(`${sandbox.url}/__sandbox/orders`)).json()) as Array<{
      portName?: string;
    }>;
    for (let i = 0; i < STEPS; i++) {
      expect(orders.filter((o) => o.portName === `step-kill-${i}`)).toHaveLength(1);
    }
  }, 180_000);
});
