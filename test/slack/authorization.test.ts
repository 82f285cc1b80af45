import { afterEach, describe, expect, it } from "vitest";
import { waitFor } from "../harness/index.js";
import { type RouterApp, startRouterApp } from "./support.js";

// Bolt 5.1, given a token with tokenVerificationEnabled: false, calls auth.test before every
// request; src/slack/authorization.ts asks once. These count the calls at the Slack stand-in.
describe("the bot's identity at Slack (auth.test)", () => {
  let app: RouterApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it("is asked once for many requests, concurrent ones included, and not at start-up", async () => {
    app = await startRouterApp();
    // Not at start-up: the bot starts while Slack is unreachable.
    expect(app.standin.callCount("auth.test")).toBe(0);
    const acks = await Promise.all(Array.from({ length: 8 }, app.help));
    for (let i = 0; i < 4; i++) acks.push(await app.help());
    expect(acks.every((a) => a.status === 200)).toBe(true);
    await waitFor(() => app?.standin.callCount("response_url") === 12);
    expect(app.standin.callCount("auth.test")).toBe(1);
  });

  it("is asked again after a failure, and then works", async () => {
    app = await startRouterApp();
    const { standin } = app;
    // Slack answers auth.test with an error (the client's own retries see it too).
    standin.failNext("auth.test", { error: "fatal_error", count: 10 });
    await app.help();
    const failedAsks = standin.callCount("auth.test");
    expect(failedAsks).toBeGreaterThan(0);
    expect(standin.callCount("response_url")).toBe(0);

    standin.clearFaults();
    expect((await app.help()).status).toBe(200);
    await waitFor(() => standin.callCount("response_url") === 1);
    expect(standin.callCount("auth.test")).toBe(failedAsks + 1);
  });
});
