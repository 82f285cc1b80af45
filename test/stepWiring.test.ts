import { EventEmitter } from "node:events";
import { describe, expect, it } from "vitest";
import { reconcileEvery, stepNamesOf } from "../src/stepWiring.js";
import { plainStepText } from "../views/steps/steps.js";
import { testLogger } from "./jobs/support.js";

describe("stepNamesOf: the names a step's error refers to", () => {
  it("looks up each person and group referred to once; a failed look-up leaves the id", async () => {
    const asked: string[] = [];
    const names = stepNamesOf(
      async (id) => {
        asked.push(id);
        if (id === "U0GONE0001") throw new Error("user_not_found");
        return { U0ALLOWED1: "Alex" }[id] ?? id;
      },
      async (id) => {
        asked.push(id);
        return "@network-approvers";
      },
    );
    const text =
      "Requesters: <@U0ALLOWED1>, <@U0ALLOWED1>, <@U0GONE0001>, <!subteam^S0GROUP1>, <!here>.";
    const found = await names(text);
    expect(asked.sort()).toEqual(["S0GROUP1", "U0ALLOWED1", "U0GONE0001"]);
    expect(plainStepText(text, found)).toBe(
      "Requesters: @Alex, @Alex, @U0GONE0001, @network-approvers, ‹!here›.",
    );
  });

  it("asks Slack nothing for a text that names nobody", async () => {
    let asked = 0;
    const names = stepNamesOf(
      async (id) => {
        asked += 1;
        return id;
      },
      async (id) => {
        asked += 1;
        return id;
      },
    );
    await names('Unknown data center "<!channel>"');
    expect(asked).toBe(0);
  });
});

describe("reconcileEvery", () => {
  it("reconciles at start and again each time Redis is ready after a reconnection, until stopped", async () => {
    const redis = new EventEmitter();
    let runs = 0;
    const ran: Array<() => void> = [];
    const stop = reconcileEvery(
      60_000,
      async () => {
        runs += 1;
        for (const notify of ran.splice(0)) notify();
        return 0;
      },
      testLogger(),
      redis,
    );
    expect(runs).toBe(1);
    const second = new Promise<void>((resolve) => ran.push(resolve));
    redis.emit("ready");
    await second;
    expect(runs).toBe(2);
    await stop();
    redis.emit("ready");
    expect(redis.listenerCount("ready")).toBe(0);
    expect(runs).toBe(2);
  });
});
