import { readFileSync } from "node:fs";
import type { KnownBlock } from "@slack/types";
import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMMANDS, commandName } from "../../src/domain/commands.js";
import { submitForApproval } from "../../src/slack/kit/index.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { waitFor } from "../harness/index.js";
import { readable } from "../views/support.js";

// Every example `/connect help` shows, typed as a newcomer types it into the playground: the
// bot running over signed HTTP against a fresh embedded sandbox. An id the example needs is
// copied from where help says to find it. Each must get a real answer (a message with words,
// or a form), never "no such thing" or a usage line.

const USER = STANDIN_IDS.requester;

/** Answers that mean the example did not work as written. */
const FAILURES = [
  "No data center matches",
  "No data center is called",
  "No port with id",
  "No port order with id",
  "No layer 2 connection with id",
  "No IO-D service with id",
  "Usage:",
  "I don't know",
  "does not look like",
  "Couldn't read",
  "Something went wrong",
  "not being tracked",
];

type Answer = { kind: "message"; text: string } | { kind: "form"; callbackId: string };

describe("every example in /connect help works against the sandbox", () => {
  let env: TestBot;

  beforeAll(async () => {
    env = await startTestBot();
  });
  afterAll(async () => {
    await env?.close();
  });

  /** Runs `/connect <text>`; resolves with the private answer or the form it opened. */
  async function run(text: string): Promise<Answer> {
    const seen = new Set(env.standin.ephemerals(USER).map((m) => m.ts));
    const formsBefore = env.standin.callCount("views.open");
    const ack = await env.connect(text, USER);
    expect(ack.status, text).toBe(200);
    // The answer is either of two things, so the harness's poll waits for whichever comes.
    const answer = await waitFor(
      (): Answer | undefined => {
        const message = env.standin.ephemerals(USER).find((m) => !seen.has(m.ts));
        // Slack shows the blocks when there are any, else the text.
        if (message) {
          const blocks = (message.blocks ?? []) as KnownBlock[];
          return { kind: "message", text: blocks.length > 0 ? readable(blocks) : message.text };
        }
        if (env.standin.callCount("views.open") > formsBefore) {
          const view = env.standin.currentView(USER);
          return view ? { kind: "form", callbackId: view.view.callback_id ?? "" } : undefined;
        }
        return undefined;
      },
      { timeoutMs: 15_000, description: `the answer to /connect ${text}` },
    );
    if (answer.kind === "form") {
      // A form that loads its choices opens as "loading" and is then replaced: wait for the
      // fields before closing it (closing it mid-load is another story: the update then fails).
      await env.standin.waitForView(
        USER,
        (v) => (v.view.blocks ?? []).some((b) => b.type === "input"),
        { timeoutMs: 15_000 },
      );
      await env.slack.closeView(USER);
    }
    return answer;
  }

  async function placePortOrder(): Promise<string> {
    const sandbox = env.bot.sandbox!;
    const response = await fetch(
      `${sandbox.url}/api/company/${sandbox.apiUser.companyUsername}/ports/orders`,
      {
        method: "PUT",
        headers: { authorization: "Bearer test-key", "content-type": "application/json" },
        body: JSON.stringify({
          dataCenterFacility: "ironbridge-iad1",
          speed: "10000",
          durationUnit: "y",
          portName: "help-examples-order",
          paymentType: "invoice",
        }),
      },
    );
    expect(response.ok).toBe(true);
    return ((await response.json()) as { id: string }).id;
  }

  /** A request of USER's waiting in the approvals channel; its id as the request shows it. */
  async function requestWaitingForApproval(): Promise<string> {
    const client = new WebClient(env.standin.botToken, {
      slackApiUrl: env.standin.apiUrl,
      retryConfig: { retries: 0 },
    });
    const outcome = await submitForApproval({
      services: env.bot.services,
      client,
      submission: {
        kind: "port",
        title: "help-example-withdraw",
        summary: [{ label: "Port name", value: "help-example-withdraw" }],
        call: { operation: "createPortOrder", pathParams: {}, body: {} },
        reconcileKey: "help-example-withdraw",
        requester: { userId: USER, channelId: STANDIN_IDS.general },
      },
    });
    if (!outcome.ok) throw new Error(outcome.message);
    const request = await env.standin.waitForMessage(STANDIN_IDS.approvals, (m) =>
      m.text.includes("help-example-withdraw"),
    );
    const shownId = /request `(apr_[a-z2-7]+)`/.exec(JSON.stringify(request.blocks))?.[1];
    expect(shownId).toBe(outcome.approval.id);
    return shownId!;
  }

  function expectWorked(text: string, answer: Answer): void {
    if (answer.kind === "form") {
      expect(answer.callbackId, text).not.toBe("");
      return;
    }
    // The words are in the blocks (Slack shows blocks, not the fallback text), beyond the label.
    const words = answer.text.replace(/Sandbox[^\n]*/g, "").trim();
    expect(words.length, `/connect ${text} answered with no words`).toBeGreaterThan(20);
    for (const failure of FAILURES) expect(answer.text, `/connect ${text}`).not.toContain(failure);
  }

  it("runs each one, copying ids from where help says they are", async () => {
    const help = await run("help");
    if (help.kind !== "message") throw new Error("help opened a form");

    // Help fills the port example with the company's first port, the one `/connect ports`
    // lists first: that is the id a person copies.
    const ports = await run("ports");
    if (ports.kind !== "message") throw new Error("ports opened a form");
    const firstPortId = /ID `([A-Za-z0-9_-]+)`/.exec(ports.text)?.[1];
    expect(firstPortId).toBeDefined();
    expect(help.text).toContain(`/connect port ${firstPortId}`);
    // The order id a person finds in the approval thread after ordering a port: an order made
    // straight at the sandbox stands in for one (the port order e2e tests cover that path).
    const orderId = await placePortOrder();
    expect(help.text).toContain("the order id is in the approval thread");

    const examples = COMMANDS.flatMap((spec) =>
      spec.examples.map((example) => ({ spec, example })),
    );
    // `track stop` needs an order being tracked: the order look-up and its Track button first.
    const last = (e: { example: string }) => (e.example.startsWith("track") ? 1 : 0);
    examples.sort((a, b) => last(a) - last(b));

    const ran: string[] = [];
    for (const { spec, example } of examples) {
      let typed: string = example;
      if (example.includes("<portId>")) {
        typed = example.replace("<portId>", firstPortId!);
      } else if (example.includes("<connectionId>")) {
        // Help fills it with a connection of the company's ports (the seed has some).
        const connectionId = /`\/connect l2 ([A-Za-z0-9_-]+)`/.exec(help.text)?.[1];
        expect(connectionId, "help shows a real connection id").toBeDefined();
        typed = example.replace("<connectionId>", connectionId!);
      } else if (example.includes("<serviceId>")) {
        // The seed has an IO-D service (issue 32, item 16): help fills the example with it, and
        // it is the one the port it runs on lists.
        const serviceId = /`\/connect iod ([A-Za-z0-9_-]+)`/.exec(help.text)?.[1];
        expect(serviceId, "help shows a real IO-D service id").toBeDefined();
        const port = await run(`port ${firstPortId}`);
        expect(port.kind === "message" && port.text).toContain(serviceId);
        typed = example.replace("<serviceId>", serviceId!);
      } else if (example === "withdraw <requestId>") {
        // Help says the id is on the request: one of this person's, waiting for approval.
        expect(help.text).toContain("the request id is on your confirmation and on the request");
        const requestId = await requestWaitingForApproval();
        typed = `withdraw ${requestId}`;
      } else if (example === "order <orderId>") {
        typed = `order ${orderId}`;
      } else if (example === "track stop <orderId>") {
        const tracked = await run("track");
        if (tracked.kind !== "message") throw new Error("track opened a form");
        expect(tracked.text, "help says to copy the id from /connect track").toContain(orderId);
        typed = `track stop ${orderId}`;
      }
      expect(typed, "an example with a placeholder left").not.toMatch(/<\w+>/);
      // What help shows is what is run: every example but a bare command name is in it.
      if (example !== commandName(spec) && !example.includes("<")) {
        expect(help.text).toContain(`/connect ${example}`);
      }
      const answer = await run(typed);
      expectWorked(typed, answer);
      ran.push(typed);

      if (typed === `order ${orderId}`) {
        const shown = env.standin.ephemerals(USER).at(-1)!;
        await env.slack.clickButton({ userId: USER, message: shown, actionId: "order_track" });
        await env.standin.waitForEphemeral(USER, (m) => m.text.includes("Tracking: Port order"), {
          timeoutMs: 15_000,
        });
      }
      if (typed.startsWith("withdraw")) {
        expect(answer.kind === "message" && answer.text).toContain("You withdrew");
      }
      if (typed.startsWith("track stop")) {
        expect(answer).toMatchObject({ kind: "message" });
        expect(answer.kind === "message" && answer.text).toContain("Tracking stopped");
      }
    }
    expect(ran.length).toBe(examples.length);
  }, 120_000);

  it("runs the README's inline examples too: each is one of help's", () => {
    const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
    const inline = [...readme.matchAll(/`((?:\/connect )?price port [^`<[]+)`/g)].map((m) =>
      (m[1] ?? "").replace(/^\/connect /, ""),
    );
    expect(inline.length).toBeGreaterThan(0);
    const all = COMMANDS.flatMap((spec) => spec.examples as readonly string[]);
    for (const example of inline) expect(all).toContain(example);
  });
});
