import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commandHandlers } from "../../src/slack/commandTable.js";
import { type CommandHandlers, createConnectRouter } from "../../src/slack/connect.js";
import { BUSY_TEXT, FollowUpLane } from "../../src/slack/followUps.js";
import { waitFor } from "../harness/index.js";
import { type RouterApp, routerServices, startRouterApp } from "./support.js";

/** A promise with its resolve function outside, to hold work until the test lets it go. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = () => {};
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

describe("FollowUpLane", () => {
  it("runs at most `concurrency` follow-ups at once, in arrival order", async () => {
    const lane = new FollowUpLane({ concurrency: 2, maxWaiting: 10 });
    const gates = Array.from({ length: 5 }, gate);
    const started: number[] = [];
    const done = gates.map((g, i) =>
      lane.run(async () => {
        started.push(i);
        await g.promise;
      }),
    );
    await waitFor(() => started.length === 2);
    expect(started).toEqual([0, 1]);
    expect(lane.load).toEqual({ waiting: 3, running: 2 });
    gates[1]?.open();
    await waitFor(() => started.length === 3);
    expect(started).toEqual([0, 1, 2]);
    for (const g of gates) g.open();
    await Promise.all(done);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(lane.load).toEqual({ waiting: 0, running: 0 });
  });

  it("has no room once `maxWaiting` follow-ups wait", async () => {
    const lane = new FollowUpLane({ concurrency: 1, maxWaiting: 2 });
    const hold = gate();
    const runs = [lane.run(() => hold.promise)];
    expect(lane.hasRoom()).toBe(true);
    runs.push(lane.run(async () => {}));
    expect(lane.hasRoom()).toBe(true);
    runs.push(lane.run(async () => {}));
    expect(lane.hasRoom()).toBe(false);
    hold.open();
    await Promise.all(runs);
    expect(lane.hasRoom()).toBe(true);
  });

  it("drains queued work on shutdown, and gives up on work that hangs after the timeout", async () => {
    const lane = new FollowUpLane({ concurrency: 1, maxWaiting: 10 });
    const finished: string[] = [];
    const hold = gate();
    void lane.run(async () => {
      await hold.promise;
      finished.push("first");
    });
    void lane.run(async () => {
      finished.push("queued");
    });
    setImmediate(hold.open);
    await lane.drain(5_000);
    expect(finished).toEqual(["first", "queued"]);

    void lane.run(() => new Promise(() => {}));
    const started = performance.now();
    await lane.drain(50);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it("rejects only the caller's promise when work throws", async () => {
    const lane = new FollowUpLane({ concurrency: 1, maxWaiting: 10 });
    await expect(lane.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(lane.run(async () => "fine")).resolves.toBeUndefined();
  });
});

describe("/connect's listener", () => {
  it("returns once it has acked, while the request's follow-up still waits its turn", async () => {
    const lane = new FollowUpLane({ concurrency: 1, maxWaiting: 10 });
    const hold = gate();
    void lane.run(() => hold.promise); // takes the lane's one slot
    let listener: ((args: unknown) => Promise<void>) | undefined;
    const registry = {
      command: (_name: string, fn: (args: unknown) => Promise<void>) => {
        listener = fn;
      },
      action: () => {},
      view: () => {},
      options: () => {},
    };
    createConnectRouter(commandHandlers(routerServices()), routerServices(), lane).register(
      registry as never,
    );
    const acks: unknown[] = [];
    const answers: Array<{ text?: string }> = [];
    // Bolt keeps the whole request alive until this promise settles: it must not wait for the
    // follow-up (held here until the test opens the gate).
    await listener?.({
      command: { text: "help", user_id: "U1", channel_id: "C1", trigger_id: "T1" },
      ack: async (message?: unknown) => {
        acks.push(message);
      },
      respond: async (message: { text?: string }) => {
        answers.push(message);
      },
      client: {},
    });
    expect(acks).toEqual([undefined]);
    expect(lane.load).toEqual({ waiting: 1, running: 1 });
    expect(answers).toEqual([]);

    hold.open();
    await waitFor(() => answers.length === 1);
    expect(answers[0]?.text).toMatch(/connect/);
  });
});

describe("/connect when the follow-up lane is full", () => {
  let app: RouterApp;
  const hold = gate();
  let helpRuns = 0;

  beforeAll(async () => {
    // help waits for the test: one runs, one waits, and the lane (1 + 1) is full.
    const real = commandHandlers(routerServices());
    const handlers: CommandHandlers = {
      ...real,
      help: async (ctx) => {
        helpRuns += 1;
        await hold.promise;
        await real.help(ctx);
      },
    };
    app = await startRouterApp({
      handlers,
      lane: new FollowUpLane({ concurrency: 1, maxWaiting: 1 }),
    });
  });
  afterAll(async () => {
    hold.open();
    await app?.close();
  });

  it("says so in the ack and starts nothing, then answers everything it took", async () => {
    const first = await app.help();
    await waitFor(() => helpRuns === 1);
    const second = await app.help();
    const third = await app.help();
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(JSON.stringify(second.body ?? "")).not.toContain(BUSY_TEXT.slice(0, 40));
    expect(third.status).toBe(200);
    expect(JSON.stringify(third.body)).toContain(BUSY_TEXT.slice(0, 40));

    hold.open();
    await waitFor(() => app.standin.callCount("response_url") === 2);
    expect(helpRuns).toBe(2);
  });
});
