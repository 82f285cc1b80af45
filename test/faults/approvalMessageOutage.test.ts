import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postForApproval, storeForApproval } from "../../src/slack/kit/index.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { type OwnRedis, startOwnRedis, waitFor } from "../harness/index.js";
import { portOrderRequest } from "../harness/portOrders.js";

const CHANNEL = STANDIN_IDS.approvals;

/**
 * A request's buttons are honoured only on the message the record says it was posted as
 * (issue 20), so where that message is must not be lost: Redis dying between Slack's answer to
 * the approval message and the write of its place used to leave a request with buttons that
 * every click was refused on, its name held. The bot runs on a redis-server of the test's own,
 * which is SIGKILLed after the request is stored and before it is posted, and started again
 * once Slack has the message: the write waits the outage out, and Approve then works.
 */
describe("a Redis outage between posting a request and recording where it was posted", () => {
  let redis: OwnRedis;
  let env: TestBot;

  beforeAll(async () => {
    redis = await startOwnRedis();
    env = await startTestBot({ env: { REDIS_URL: redis.url } });
  }, 60_000);

  afterAll(async () => {
    await env?.close();
    await redis?.stop();
  });

  it("records the message's place once Redis is back, and the request can be approved", async () => {
    const { services } = env.bot;
    const sandbox = env.bot.sandbox!;
    const dcf = sandbox.state.world.dcfs.find(
      (d) => d.ready && d.kind === "ON_NET" && !d.edge && d.speeds.length > 0,
    );
    if (!dcf) throw new Error("the sandbox has no ready on-net DCF");
    const client = new WebClient(env.standin.botToken, { slackApiUrl: env.standin.apiUrl });
    const stored = await storeForApproval({
      services,
      client,
      submission: portOrderRequest({
        portName: "refs-outage-1",
        companyUsername: sandbox.apiUser.companyUsername,
        dataCenterFacility: dcf.username,
        speed: String(dcf.speeds[0]),
      }),
    });
    if (!stored.ok) throw new Error(stored.message);

    await redis.kill();
    const posting = postForApproval({ services, client, approval: stored.approval });
    await env.standin.waitForCall("chat.postMessage", (call) => call.args.channel === CHANNEL, {
      timeoutMs: 10_000,
    });
    // Slack holds the message; the record cannot say so until Redis answers again.
    await redis.restart();
    const posted = await posting;

    const record = await services.approvals.store.get(posted.approval.id);
    const ts = env.standin
      .messages(CHANNEL)
      .find((m) => JSON.stringify(m.blocks ?? []).includes("refs-outage-1"))?.ts;
    expect(ts).toBeTruthy();
    expect(record?.slack).toMatchObject({ approvalChannel: CHANNEL, approvalTs: ts });

    const ack = await env.slack.clickButton({
      userId: STANDIN_IDS.approver,
      message: { channel: CHANNEL, ts: ts ?? "" },
      actionId: "approval_approve",
    });
    expect(ack.status).toBe(200);
    await waitFor(
      async () => {
        const status = (await services.approvals.store.get(posted.approval.id))?.status;
        return status !== "pending" && status;
      },
      { timeoutMs: 15_000, description: "the request decided" },
    );
    const refusals = env.standin
      .calls("chat.postEphemeral")
      .filter((c) => String(c.args.text ?? "").includes("only works on the request's own message"));
    expect(refusals).toEqual([]);
    expect((await services.approvals.store.get(posted.approval.id))?.decision?.action).toBe(
      "approve",
    );
  }, 60_000);
});
