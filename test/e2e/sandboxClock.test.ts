import type { KnownBlock } from "@slack/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { readable } from "../views/support.js";

// The playground's "Advance sandbox time" moves the sandbox's clock, so everything the sandbox
// records afterwards is stamped ahead of real time. Relative times must be measured on that
// clock: an order placed a minute ago (sandbox time) was "created … ago", never "in 10 days".

const USER = STANDIN_IDS.requester;
const DAY = 24 * 3600_000;

/**
 * A time shown in the future: date-fns' "in 10 days", "in about 2 months", "in less than a
 * minute", followed as every shown time is by its date ("(6 Dec 2026, 09:24 CET)"). A duration
 * such as "the LOA is available in about 24 hours" is not a time and is not matched.
 */
const FUTURE =
  /\bin (?:about |over |almost |less than )?(?:a|an|\d+) (?:second|minute|hour|day|month|year)s? \(\d/;

describe("relative times after the sandbox's clock moved forward", () => {
  let env: TestBot;

  beforeAll(async () => {
    env = await startTestBot();
  });
  afterAll(async () => {
    await env?.close();
  });

  async function ask(text: string): Promise<string> {
    const seen = new Set(env.standin.ephemerals(USER).map((m) => m.ts));
    await env.connect(text, USER);
    const reply = await env.standin.waitForEphemeral(USER, (m) => !seen.has(m.ts), {
      timeoutMs: 15_000,
    });
    return readable((reply.blocks ?? []) as KnownBlock[]);
  }

  async function sandboxCall<T>(method: string, path: string, body: unknown): Promise<T> {
    const response = await fetch(`${env.bot.sandbox!.url}${path}`, {
      method,
      headers: { authorization: "Bearer test-key", "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect(response.ok).toBe(true);
    return (await response.json()) as T;
  }

  it("says an order, its port and a draft were made '… ago', never 'in …'", async () => {
    const sandbox = env.bot.sandbox!;
    sandbox.clock.advance(10 * DAY);
    const order = await sandboxCall<{ id: string }>(
      "PUT",
      `/api/company/${sandbox.apiUser.companyUsername}/ports/orders`,
      {
        dataCenterFacility: "ironbridge-iad1",
        speed: "10000",
        durationUnit: "y",
        portName: "clock-test-port",
        paymentType: "invoice",
      },
    );
    await sandboxCall("POST", "/v2/api/draft/orders", {
      name: "clock-test-draft",
      speed: 1000,
      edgePayload: {},
    });

    const placed = await ask(`order ${order.id}`);
    expect(placed).toMatch(/\*Created\*\n[^\n]* ago/);
    expect(placed).not.toMatch(FUTURE);

    const drafts = await ask("edge drafts");
    expect(drafts).toContain("clock-test-draft");
    expect(drafts).toMatch(/saved [^\n]*ago/);
    expect(drafts).not.toMatch(FUTURE);

    // Weeks later (sandbox time) the order is done and its port is up.
    sandbox.clock.advance(30 * DAY);
    const done = await ask(`order ${order.id}`);
    expect(done).toMatch(/\*Created\*\n[^\n]* ago/);
    expect(done).toMatch(/Last updated [^\n]*ago/);
    expect(done).not.toMatch(FUTURE);
    const port = sandbox.state.allPorts().find((p) => p.orderId === order.id);
    expect(port, "the done order's port").toBeDefined();
    const shown = await ask(`port ${port!.id}`);
    expect(shown).toMatch(/UP since [^\n]*ago/);
    expect(shown).not.toMatch(FUTURE);
  });
});
