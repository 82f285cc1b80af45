import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestBot, type TestBot } from "../harness/botEnv.js";
import { waitFor } from "../harness/index.js";

/**
 * Found by test/fuzz/interactions.test.ts: a correctly signed interaction whose payload is the
 * JSON `null` made Bolt's receiver throw outside any handler (an unhandled rejection ends the
 * process) and left the request unanswered. Fixed by src/slack/requestGuard.ts.
 */
describe("interaction bodies that are not JSON objects", () => {
  let env: TestBot;
  beforeAll(async () => {
    env = await startTestBot();
  });
  afterAll(async () => {
    await env?.close();
  });

  it('answers 400 to payload=null, payload=5 and payload="x", and keeps answering', async () => {
    for (const payload of ["null", "5", '"x"', "true"]) {
      const ack = await env.slack.transport.postRaw(`payload=${encodeURIComponent(payload)}`);
      expect(ack.status, payload).toBe(400);
    }
    const replies = () => env.standin.calls("response_url").length;
    const before = replies();
    expect((await env.connect("help")).status).toBe(200);
    await waitFor(() => replies() > before, { description: "the help reply" });
  });

  it("still refuses a wrongly signed body and accepts a well-formed one", async () => {
    const wrong = await env.slack.transport.postRaw("payload=%7B%7D", { signingSecret: "nope" });
    expect(wrong.status).toBe(401);
    const unsigned = await fetch(`${env.bot.url}/slack/events`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "payload=%7B%7D",
    });
    expect(unsigned.status).toBe(401);
  });
});
