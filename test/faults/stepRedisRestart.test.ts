import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Dcf } from "../../src/provider/api.js";
import { STANDIN_IDS, type StepExecution } from "../../src/standin/index.js";
import { startTestBot, type TestBot } from "../harness/botEnv.js";
import { type OwnRedis, startOwnRedis, waitFor } from "../harness/index.js";
import { placeableDcf } from "../harness/portOrders.js";

/**
 * Issue 30: "the step is ended exactly once — across restarts, several replicas and Redis
 * outages". The bot runs on a redis-server of the test's own (append-only, fsynced), which is
 * SIGKILLed and started again while `request_port_order` steps wait for their approvers:
 *
 * - approved after Redis is back: the step ends once, successfully, with the order's id; a
 *   reconcile run on each reconnection neither ends a waiting step nor ends a finished one again;
 * - rejected just before Redis dies, so the bot cannot queue the step's end (the request's change
 *   is missed): once Redis is back the reconciler ends the step, once, with the reason.
 *
 * Calls are counted on the Slack stand-in, per execution id.
 */
describe("request steps across a real Redis restart", () => {
  let redis: OwnRedis;
  let env: TestBot;
  let dcf: Dcf & { username: string };
  let speed: number;

  beforeAll(async () => {
    redis = await startOwnRedis();
    env = await startTestBot({ env: { REDIS_URL: redis.url } });
    const found = await placeableDcf(env.bot.services.provider);
    dcf = found.dcf as Dcf & { username: string };
    speed = Number(found.speed);
  }, 60_000);

  afterAll(async () => {
    await env?.close();
    await redis?.stop();
  });

  /** The bot's log lines as objects (pino JSON), those that parse. */
  function logs(): Array<Record<string, unknown>> {
    return env.logLines.flatMap((line) => {
      try {
        return [JSON.parse(line) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  }

  /** How many reconcile runs the bot made because its Redis connection was ready again. */
  const reconnectReconciles = () => logs().filter((l) => l.why === "redis-ready").length;

  /** SIGKILL and restart of the bot's Redis; resolves once the bot has reconnected and reconciled. */
  async function restartRedis(): Promise<void> {
    const before = reconnectReconciles();
    await redis.kill();
    await redis.restart();
    await waitFor(async () => reconnectReconciles() > before, {
      timeoutMs: 30_000,
      description: "the bot reconnected to Redis and ran the reconciler",
    });
  }

  function completions(executionId: string) {
    const of = (method: string) =>
      env.standin.calls(method).filter((c) => c.args.function_execution_id === executionId).length;
    return {
      success: of("functions.completeSuccess"),
      error: of("functions.completeError"),
    };
  }

  async function waitingStep(portName: string): Promise<{ run: StepExecution; id: string }> {
    const sent = await env.slack.runStep("request_port_order", {
      requester: STANDIN_IDS.requester,
      data_center: dcf.username,
      speed_mbps: speed,
      term_months: 12,
      port_name: portName,
    });
    expect(sent.status).toBe(200);
    const record = await waitFor(
      async () =>
        (await env.bot.services.approvals.store.list({ limit: 100 })).find(
          (r) => r.step?.executionId === sent.run.executionId && r.slack.approvalTs !== undefined,
        ),
      { timeoutMs: 15_000, description: `the request of ${portName} posted for approval` },
    );
    return { run: sent.run, id: record!.id };
  }

  async function approvalMessage(portName: string) {
    return env.standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => m.text.includes(portName) && !m.thread_ts,
      { timeoutMs: 10_000 },
    );
  }

  it("approved after Redis came back: the step ends once, with the order's id", async () => {
    const { run, id } = await waitingStep("redis-restart-ok-1");
    const message = await approvalMessage("redis-restart-ok-1");

    await restartRedis();
    // The reconciler ran on reconnection and left the waiting step open.
    expect(env.standin.stepRun(run.executionId)?.end.state).toBe("running");
    expect(completions(run.executionId)).toEqual({ success: 0, error: 0 });

    const ack = await env.slack.clickButton({
      userId: STANDIN_IDS.approver,
      message,
      actionId: "approval_approve",
    });
    expect(ack.status).toBe(200);
    const end = await env.standin.waitForStepEnd(run.executionId, { timeoutMs: 30_000 });
    const placed = await env.bot.services.approvals.store.get(id);
    expect(placed?.status).toBe("placed");
    expect(placed?.result?.providerId).toMatch(/\S/);
    expect(end.end).toEqual({
      state: "completed",
      outputs: expect.objectContaining({ request_id: id, order_id: placed?.result?.providerId }),
    });

    // Another outage after the end: the reconciler runs again and ends nothing twice.
    await restartRedis();
    expect(completions(run.executionId)).toEqual({ success: 1, error: 0 });
    expect(env.standin.stepRun(run.executionId)?.completions).toEqual([
      { method: "functions.completeSuccess", ok: true },
    ]);
  }, 120_000);

  it("rejected as Redis dies, its end missed: the reconciler ends the step once Redis is back", async () => {
    const { run, id } = await waitingStep("redis-restart-rej-1");
    const message = await approvalMessage("redis-restart-rej-1");
    await env.slack.clickButton({
      userId: STANDIN_IDS.approver,
      message,
      actionId: "approval_reject",
    });
    await env.standin.waitForView(
      STANDIN_IDS.approver,
      (v) => v.view.callback_id === "approval_reject_reason",
    );
    await env.slack.fillView(STANDIN_IDS.approver, { Reason: "budget frozen this quarter" });

    // The step's end is worded after the rejection is stored: the approver's name is looked up
    // (users.info), then the end is queued in Redis. Slack is told to be slow with that name,
    // and Redis dies in that window, so the end cannot be queued: the change is missed.
    const lookUpsBefore = env.standin.calls("users.info").length;
    env.standin.failNext("users.info", { error: "user_not_found", delayMs: 4_000 });
    await env.slack.submitView(STANDIN_IDS.approver);
    await env.standin.waitForCall(
      "users.info",
      () => env.standin.calls("users.info").length > lookUpsBefore,
      { timeoutMs: 15_000 },
    );
    await redis.kill();
    const missed = await waitFor(
      async () =>
        logs().find(
          (l) =>
            l.approvalId === id &&
            String(l.msg).includes("could not queue the end of the request's workflow step"),
        ),
      { timeoutMs: 30_000, description: "the bot failing to queue the step's end" },
    );
    expect(missed).toBeDefined();
    expect(env.standin.stepRun(run.executionId)?.end.state).toBe("running");

    const before = reconnectReconciles();
    await redis.restart();
    const end = await env.standin.waitForStepEnd(run.executionId, { timeoutMs: 30_000 });
    expect(reconnectReconciles()).toBeGreaterThan(before);
    expect(end.end).toEqual({
      state: "failed",
      error: expect.stringContaining("budget frozen this quarter"),
    });
    expect((await env.bot.services.approvals.store.get(id))?.status).toBe("rejected");
    expect(
      logs().some(
        (l) => l.msg === "workflow steps ended by the reconciler" && l.why === "redis-ready",
      ),
    ).toBe(true);

    // And once only, however often the reconciler runs again.
    await restartRedis();
    expect(completions(run.executionId)).toEqual({ success: 0, error: 1 });
  }, 120_000);
});
