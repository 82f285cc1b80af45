import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { slackSignature } from "../../src/standin/index.js";
import { writeReliabilityResult } from "../faults/reliabilityResults.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { waitFor } from "../harness/index.js";

/**
 * Every request to /slack/events must carry a valid Slack signature over its exact body and a
 * fresh timestamp (docs/DESIGN.md §6). A refused request must run nothing: no Web API call, no provider
 * call.
 */
describe("Slack request signatures", () => {
  let env: TestBot;
  const refused: Record<string, number> = {};

  beforeAll(async () => {
    env = await startTestBot();
    // The control command (help) looks up an example port id once and keeps it for minutes:
    // asked here first, so the control calls the provider no more and a refused request's
    // provider count stays exact.
    await env.connect("help");
    await env.standin.waitForEphemeral(STANDIN_IDS.requester, (m) => m.text.includes("Commands"));
  });
  afterAll(async () => {
    const total = Object.values(refused).reduce((a, b) => a + b, 0);
    writeReliabilityResult({
      suite: "signatures",
      checks:
        "wrongly signed, stale, replayed and unsigned requests to /slack/events are refused with 401 and run nothing",
      figures: { refusedRequests: total, ...refused },
    });
    await env?.close();
  });

  /** A `/connect whoami` as Slack would post it, with a live response URL. */
  function whoamiBody(): string {
    const workspace = env.standin.workspace;
    return new URLSearchParams({
      token: "standin-verification-token",
      team_id: STANDIN_IDS.team,
      team_domain: "standin",
      channel_id: STANDIN_IDS.general,
      channel_name: "general",
      user_id: STANDIN_IDS.requester,
      user_name: "requester",
      command: "/connect",
      text: "whoami",
      api_app_id: STANDIN_IDS.app,
      response_url: workspace.createResponseUrl({
        channel: STANDIN_IDS.general,
        userId: STANDIN_IDS.requester,
      }),
      trigger_id: workspace.issueTrigger(STANDIN_IDS.requester),
    }).toString();
  }

  /** An Approve click on a made-up request: it must not even be looked at. */
  function approveBody(): string {
    const payload = {
      type: "block_actions",
      user: { id: STANDIN_IDS.approver, username: "approver", team_id: STANDIN_IDS.team },
      team: { id: STANDIN_IDS.team, domain: "standin" },
      api_app_id: STANDIN_IDS.app,
      token: "standin-verification-token",
      trigger_id: env.standin.workspace.issueTrigger(STANDIN_IDS.approver),
      channel: { id: STANDIN_IDS.approvals, name: "approvals" },
      container: { type: "message", message_ts: "1.000001", channel_id: STANDIN_IDS.approvals },
      actions: [
        { type: "button", action_id: "approval_approve", block_id: "b", value: "apr_forged" },
      ],
    };
    return `payload=${encodeURIComponent(JSON.stringify(payload))}`;
  }

  async function providerRequests(): Promise<number> {
    const response = await fetch(`${env.bot.sandbox!.url}/__sandbox/requests`);
    return ((await response.json()) as { total: number }).total;
  }

  async function expectRefused(
    kind: string,
    send: () => Promise<{ status: number }>,
  ): Promise<void> {
    // Bolt calls auth.test before any listener runs; the control command below adds one, its
    // reply (response_url) and the user group look-ups help makes to list what the person may
    // use, so those are compared right after the refusal, the rest after.
    const allCalls = () => env.standin.calls().length;
    const controlMethods = new Set(["response_url", "auth.test", "usergroups.users.list"]);
    const workCalls = () => env.standin.calls().filter((c) => !controlMethods.has(c.method)).length;
    const calls = allCalls();
    const work = workCalls();
    const provider = await providerRequests();
    const answer = await send();
    expect(answer.status, kind).toBe(401);
    expect(allCalls(), `${kind}: Web API calls at the answer`).toBe(calls);
    refused[kind] = (refused[kind] ?? 0) + 1;
    // A handler would have run right after the ack; give it the time a handled request takes.
    const helpReplies = () =>
      env.standin.calls("response_url").filter((c) => JSON.stringify(c.args).includes("Commands"))
        .length;
    const repliesBefore = helpReplies();
    const control = await env.connect("help");
    expect(control.status).toBe(200);
    await waitFor(() => helpReplies() > repliesBefore, { description: "the help reply" });
    expect(workCalls(), `${kind}: Web API calls`).toBe(work);
    expect(await providerRequests(), `${kind}: provider calls`).toBe(provider);
  }

  it("accepts a correctly signed request (the control case)", async () => {
    const provider = await providerRequests();
    const answer = await env.slack.transport.postRaw(whoamiBody());
    expect(answer.status).toBe(200);
    await env.standin.waitForEphemeral(STANDIN_IDS.requester, (m) =>
      m.text.includes("Who the bot acts as: provider user id"),
    );
    expect(await providerRequests()).toBeGreaterThanOrEqual(provider);
  });

  it("refuses a body signed with the wrong secret", async () => {
    for (const body of [whoamiBody(), approveBody()]) {
      await expectRefused("wrongSecret", () =>
        env.slack.transport.postRaw(body, { signingSecret: "not-the-signing-secret" }),
      );
    }
  });

  it("refuses a stale timestamp (more than 5 minutes old), even correctly signed", async () => {
    const stale = Math.floor(Date.now() / 1000) - 5 * 60 - 30;
    for (const body of [whoamiBody(), approveBody()]) {
      await expectRefused("staleTimestamp", () =>
        env.slack.transport.postRaw(body, { timestamp: stale }),
      );
    }
  });

  it("refuses a replayed body with a new timestamp but the old signature", async () => {
    for (const body of [whoamiBody(), approveBody()]) {
      const oldTimestamp = Math.floor(Date.now() / 1000) - 60;
      const oldSignature = slackSignature(env.signingSecret, oldTimestamp, body);
      await expectRefused("replayedSignature", () =>
        env.slack.transport.postRaw(body, { headers: { "x-slack-signature": oldSignature } }),
      );
    }
  });

  it("refuses a body changed after signing", async () => {
    const body = whoamiBody();
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = slackSignature(env.signingSecret, timestamp, body);
    await expectRefused("tamperedBody", () =>
      fetch(`${env.bot.url}/slack/events`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "x-slack-request-timestamp": String(timestamp),
          "x-slack-signature": signature,
        },
        body: body.replace("whoami", "ports"),
      }),
    );
  });

  it("refuses requests with the signature or timestamp headers missing", async () => {
    const body = whoamiBody();
    const timestamp = Math.floor(Date.now() / 1000);
    const signature = slackSignature(env.signingSecret, timestamp, body);
    const variants: Record<string, Record<string, string>> = {
      noSignature: { "x-slack-request-timestamp": String(timestamp) },
      noTimestamp: { "x-slack-signature": signature },
      noHeaders: {},
      garbageTimestamp: { "x-slack-request-timestamp": "soon", "x-slack-signature": signature },
    };
    for (const [name, headers] of Object.entries(variants)) {
      await expectRefused(`missingHeaders.${name}`, () =>
        fetch(`${env.bot.url}/slack/events`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
          body,
        }),
      );
    }
  });

  it("counted every refusal", () => {
    const total = Object.values(refused).reduce((a, b) => a + b, 0);
    expect(total).toBe(2 + 2 + 2 + 1 + 4);
  });
});
