import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { WebClient } from "@slack/web-api";
import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { trackJobId } from "../../src/orders/tracking/index.js";
import { type SlackStandin, STANDIN_IDS } from "../../src/standin/index.js";
import { waitFor } from "../harness/index.js";
import { FakeOrders, serveOrders } from "./orderSource.js";
import {
  connect,
  deleteKeys,
  REDIS_URL,
  runPrefix,
  slackClient,
  startStandin,
  startTestJobs,
  type TestJobs,
  threadRoot,
  threadTexts,
} from "./support.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/trackingWorker.ts", import.meta.url));
const CHANNEL = STANDIN_IDS.approvals;

interface WorkerProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
}

describe("tracking survives worker restarts", () => {
  let redis: Redis;
  let standin: SlackStandin;
  let client: WebClient;
  let orders: FakeOrders;
  let source: { url: string; close: () => Promise<void> };
  const prefix = runPrefix("restart");
  const children: ChildProcess[] = [];
  const running: TestJobs[] = [];

  async function spawnWorker(): Promise<WorkerProcess> {
    const child = spawn(process.execPath, ["--import", "tsx", FIXTURE], {
      env: {
        ...process.env,
        REDIS_URL,
        JOBS_PREFIX: prefix,
        ORDERS_URL: source.url,
        SLACK_API_URL: standin.apiUrl,
        SLACK_TOKEN: standin.botToken,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`worker not ready: ${stderr}`)), 20_000);
      child.stdout?.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("ready")) {
          clearTimeout(timer);
          resolve();
        }
      });
      exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`worker exited (${code}) before it was ready: ${stderr}`));
      });
    });
    return { child, exited };
  }

  beforeAll(async () => {
    redis = connect();
    standin = await startStandin();
    client = slackClient(standin);
    orders = new FakeOrders();
    source = await serveOrders(orders);
  });

  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
    await Promise.all(running.splice(0).map((jobs) => jobs.close(5_000)));
  });

  afterAll(async () => {
    await deleteKeys(redis, prefix);
    await source.close();
    await standin.close();
    redis.disconnect();
  });

  it("resumes after kill -9 mid-step: nothing lost, nothing posted twice", async () => {
    // The test itself only enqueues and looks (as the HTTP process would).
    const producer = await startTestJobs({ prefix, workers: false });
    running.push(producer);
    const id = "po-restart-1";
    orders.set(id, { status: "created", loaStatus: "TODO" });
    const root = await threadRoot(client, CHANNEL, "Restart order");
    const first = await spawnWorker();
    await producer.tracker.track({
      orderId: id,
      companyName: "acme",
      channel: CHANNEL,
      threadTs: root,
      requestedBy: STANDIN_IDS.requester,
    });
    // Bounds, not pauses: a worker that just started under the whole suite's load may need more
    // than the default 5 s for a poll and its post.
    await standin.waitForMessage(
      CHANNEL,
      (m) => m.thread_ts === root && /\*created\*/.test(m.text),
      { timeoutMs: 15_000 },
    );

    orders.set(id, { status: "allocated", loaStatus: "TODO" });
    await standin.waitForMessage(
      CHANNEL,
      (m) => m.thread_ts === root && /created → \*allocated\*/.test(m.text),
      { timeoutMs: 15_000 },
    );

    // Kill it in the middle of a step: a read has started and is held unanswered, so the job
    // is active and its lock held by a process that is gone.
    const release = orders.hold();
    const reads = orders.readCount(id);
    await waitFor(() => orders.readCount(id) > reads);
    const tracking = await producer.queues.tracking.getJob(trackJobId(id));
    expect(await tracking?.getState()).toBe("active");
    first.child.kill("SIGKILL");
    await first.exited;
    orders.set(id, { status: "processing", loaStatus: "TODO" });
    release();

    const readsWhileDown = orders.readCount(id);
    await spawnWorker();
    await standin.waitForMessage(
      CHANNEL,
      (m) => m.thread_ts === root && /allocated → \*processing\*/.test(m.text),
      {
        timeoutMs: 15_000,
      },
    );
    expect(orders.readCount(id)).toBeGreaterThan(readsWhileDown);

    orders.set(id, {
      status: "done",
      loaStatus: "TODO",
      port: { id: "port-9", name: "mel-edge-02", speed: 1000, location: "NextDC M1" },
    });
    await standin.waitForMessage(CHANNEL, (m) => m.thread_ts === root && /is done/.test(m.text), {
      timeoutMs: 10_000,
    });
    await waitFor(async () => !(await producer.queues.tracking.getJob(trackJobId(id))));

    const thread = threadTexts(standin, CHANNEL, root);
    expect(thread).toHaveLength(4);
    // The opening reply is as it was posted: each change follows below it.
    expect(thread[0]).toMatch(
      /^:mag: Tracking port order `[^`]+`: \*created\*, LOA \*not issued yet\*/,
    );
    expect(thread[1]).toMatch(/created → \*allocated\*/);
    expect(thread[2]).toMatch(/allocated → \*processing\*/);
    expect(thread[3]).toMatch(/mel-edge-02/);
    expect(standin.calls("chat.postMessage").filter((c) => c.args.thread_ts === root)).toHaveLength(
      4,
    );
    expect(await producer.tracker.list()).toEqual([]);
  });

  it("shuts down gracefully on SIGTERM, within its bound, and another worker carries on", async () => {
    const producer = await startTestJobs({ prefix, workers: false });
    running.push(producer);
    const id = "po-restart-2";
    orders.set(id, { status: "created" });
    const root = await threadRoot(client, CHANNEL, "Graceful order");
    const worker = await spawnWorker();
    await producer.tracker.track({
      orderId: id,
      companyName: "acme",
      channel: CHANNEL,
      threadTs: root,
      requestedBy: STANDIN_IDS.requester,
    });
    // A bound, as above.
    await standin.waitForMessage(
      CHANNEL,
      (m) => m.thread_ts === root && /\*created\*/.test(m.text),
      { timeoutMs: 15_000 },
    );

    const started = Date.now();
    worker.child.kill("SIGTERM");
    expect(await worker.exited).toBe(0);
    expect(Date.now() - started).toBeLessThan(6_000);

    orders.set(id, { status: "allocated" });
    await spawnWorker();
    await standin.waitForMessage(
      CHANNEL,
      (m) => m.thread_ts === root && /created → \*allocated\*/.test(m.text),
      {
        timeoutMs: 10_000,
      },
    );
    expect(threadTexts(standin, CHANNEL, root)).toHaveLength(2);
  });
});
