import { createServer, type Server, type Socket, connect as tcpConnect } from "node:net";
import type { WebClient } from "@slack/web-api";
import type { Redis } from "ioredis";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type OrderRead, trackJobId } from "../../src/orders/tracking/index.js";
import { type SlackStandin, STANDIN_IDS } from "../../src/standin/index.js";
import { waitFor } from "../harness/index.js";
import { FakeOrders } from "./orderSource.js";
import {
  connect,
  deleteKeys,
  runPrefix,
  slackClient,
  startStandin,
  startTestJobs,
  type TestJobs,
  testMetrics,
  threadRoot,
} from "./support.js";

const CHANNEL = STANDIN_IDS.approvals;

/** A TCP proxy to the test Redis that a test can cut, as if Redis went away. */
async function redisProxy(): Promise<{ url: string; cut: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = tcpConnect(6379, "127.0.0.1");
    sockets.add(client);
    sockets.add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on("error", drop);
    upstream.on("error", drop);
    client.on("close", drop);
    upstream.on("close", drop);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address !== "object") throw new Error("no address");
  return {
    url: `redis://127.0.0.1:${address.port}`,
    cut: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
    },
  };
}

describe("jobs lifecycle", () => {
  let redis: Redis;
  let standin: SlackStandin;
  let client: WebClient;
  const prefixes: string[] = [];
  const running: TestJobs[] = [];

  beforeAll(async () => {
    redis = connect();
    standin = await startStandin();
    client = slackClient(standin);
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((jobs) => jobs.close(5_000)));
  });

  afterAll(async () => {
    for (const prefix of prefixes) await deleteKeys(redis, prefix);
    await standin.close();
    redis.disconnect();
  });

  function newPrefix(): string {
    const prefix = runPrefix("lifecycle");
    prefixes.push(prefix);
    return prefix;
  }

  async function track(jobs: TestJobs, orderId: string): Promise<void> {
    const root = await threadRoot(client, CHANNEL, `Lifecycle ${orderId}`);
    await jobs.tracker.track({
      orderId,
      companyName: "acme",
      channel: CHANNEL,
      threadTs: root,
      requestedBy: STANDIN_IDS.requester,
    });
  }

  it("lets an in-flight job finish when closing, within the bound", async () => {
    const prefix = newPrefix();
    let finishRead: ((order: OrderRead) => void) | undefined;
    const readStarted = new Promise<void>((started) => {
      void startTestJobs({
        prefix,
        slack: client.chat,
        readOrder: () =>
          new Promise<OrderRead>((resolve) => {
            finishRead = resolve;
            started();
          }),
      }).then((jobs) => {
        running.push(jobs);
        return track(jobs, "po-inflight");
      });
    });
    await readStarted;
    const jobs = running[0] as TestJobs;
    const started = Date.now();
    const closing = jobs.close(5_000);
    setTimeout(() => finishRead?.({ status: "created" }), 300);
    const result = await closing;
    const elapsed = Date.now() - started;

    expect(result.clean).toBe(true);
    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(5_000);
    // The step finished: its read was saved and the job rests until its next check.
    const observer = await startTestJobs({ prefix, workers: false });
    running.push(observer);
    expect((await observer.tracker.get("po-inflight"))?.status).toBe("created");
    const job = await observer.queues.tracking.getJob(trackJobId("po-inflight"));
    expect(await job?.getState()).toBe("delayed");
  });

  it("hands a hung job back after a bounded close, and another replica resumes it", async () => {
    const prefix = newPrefix();
    const tuning = { lockDuration: 1_500, stalledInterval: 500 };
    let hung = false;
    const first = await startTestJobs({
      prefix,
      slack: client.chat,
      // A provider call that never answers.
      readOrder: () => {
        hung = true;
        return new Promise<OrderRead>(() => {});
      },
      workerTuning: { tracking: tuning },
    });
    await track(first, "po-hung");
    await waitFor(() => hung);

    const started = Date.now();
    const result = await first.close(800);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(result.clean).toBe(false);

    const orders = new FakeOrders();
    orders.set("po-hung", { status: "allocated" });
    const second = await startTestJobs({
      prefix,
      slack: client.chat,
      readOrder: orders.read,
      workerTuning: { tracking: tuning },
    });
    running.push(second);
    await waitFor(() => orders.readCount("po-hung") > 0, { timeoutMs: 10_000 });
    await waitFor(async () => (await second.tracker.get("po-hung"))?.status === "allocated");
  });

  it("closes within its bound when Redis has gone away mid-job", async () => {
    const prefix = newPrefix();
    const proxy = await redisProxy();
    const orders = new FakeOrders();
    orders.set("po-noredis", { status: "created" });
    // The read hangs until Redis is gone; the job can then never finish (its lock is lost).
    orders.hold();
    // As deployed: default tuning and notifier pace, a reconcile at start.
    const jobs = await startTestJobs({
      redisUrl: proxy.url,
      prefix,
      slack: client.chat,
      readOrder: orders.read,
      workerTuning: {},
      notifierSettings: {
        perChannelIntervalMs: 1_100,
        updateIntervalMs: 1_200,
        retryBaseMs: 2_000,
      },
      reconcileOnStart: true,
    });
    await track(jobs, "po-noredis");
    await waitFor(() => orders.readCount("po-noredis") > 0);
    await proxy.cut();

    const started = Date.now();
    const result = await jobs.close(1_000);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(result.clean).toBe(false);
  });

  it("reports queue depths to the metrics", async () => {
    const metrics = testMetrics();
    const orders = new FakeOrders();
    const jobs = await startTestJobs({
      prefix: newPrefix(),
      slack: client.chat,
      readOrder: orders.read,
      metrics,
    });
    running.push(jobs);
    for (const id of ["po-depth-1", "po-depth-2"]) {
      orders.set(id, { status: "created" });
      await track(jobs, id);
    }
    await waitFor(async () => (await jobs.queues.tracking.getDelayedCount()) === 2);
    await jobs.refreshQueueDepths();
    const gauge = await metrics.queueDepth.get();
    const value = (queue: string, state: string) =>
      gauge.values.find((v) => v.labels.queue === queue && v.labels.state === state)?.value;
    expect(value("order-tracking", "delayed")).toBe(2);
    expect(value("order-tracking", "active")).toBe(0);
    expect(value("placement", "waiting")).toBe(0);
    expect(value("notify", "outbox")).toBeGreaterThanOrEqual(0);
  });

  it("runs the reconcilers on a schedule", async () => {
    const prefix = newPrefix();
    const orders = new FakeOrders();
    orders.set("po-scheduled", { status: "created" });
    const producer = await startTestJobs({ prefix, workers: false });
    running.push(producer);
    // Tracked, but its job was lost before any worker ran.
    await track(producer, "po-scheduled");
    await (await producer.queues.tracking.getJob(trackJobId("po-scheduled")))?.remove();

    const worker = await startTestJobs({
      prefix,
      slack: client.chat,
      readOrder: orders.read,
      maintenanceEveryMs: 300,
    });
    running.push(worker);
    await waitFor(() => orders.readCount("po-scheduled") > 0, { timeoutMs: 10_000 });
    expect(await worker.queues.maintenance.getJobSchedulersCount()).toBe(1);
  });
});
