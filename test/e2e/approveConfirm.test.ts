import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { submitForApproval } from "../../src/slack/kit/index.js";
import { ACTION_APPROVE } from "../../views/approvals/approvals.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { portOrderRequest } from "../harness/portOrders.js";
import { waitFor } from "../harness/waitFor.js";

/**
 * Issue 32, item 4, end to end: with APPROVE_CONFIRM_FROM=2000, the Approve button of a request
 * of 2,500 a month carries Slack's confirm dialog with the order's total, on the approval
 * message and in the approver's App Home; one of 1,200 a month approves at once.
 */

type Element = { action_id?: string; confirm?: { text: { text: string } } };

function approveOf(blocks: unknown): Element | undefined {
  for (const block of (blocks ?? []) as Array<{ type: string; elements?: Element[] }>) {
    const found =
      block.type === "actions" && block.elements?.find((e) => e.action_id === ACTION_APPROVE);
    if (found) return found;
  }
  return undefined;
}

describe("Approve asks first from APPROVE_CONFIRM_FROM", () => {
  let env: TestBot;
  let client: WebClient;
  beforeAll(async () => {
    env = await startTestBot({ env: { APPROVE_CONFIRM_FROM: "2000" } });
    client = new WebClient(env.standin.botToken, {
      slackApiUrl: env.standin.apiUrl,
      retryConfig: { retries: 0 },
    });
  });
  afterAll(async () => {
    await env?.close();
  });

  async function submit(portName: string, monthly: number) {
    const dcf = env.bot.sandbox!.state.world.dcfs.find(
      (d) => d.ready && d.kind === "ON_NET" && !d.edge && d.speeds.length > 0,
    )!;
    const outcome = await submitForApproval({
      services: env.bot.services,
      client,
      submission: portOrderRequest({
        portName,
        companyUsername: (await env.bot.services.identity()).companyUsername,
        dataCenterFacility: dcf.username,
        speed: String(dcf.speeds[0]),
        price: { monthly, total: monthly * 12, termMonths: 12, text: `${monthly} a month` },
      }),
    });
    if (!outcome.ok) throw new Error("not submitted");
    const message = await env.standin.waitForMessage(STANDIN_IDS.approvals, (m) =>
      m.text.includes(portName),
    );
    return { id: outcome.approval.id, message };
  }

  it("carries the confirm with the total above the threshold, and none below it", async () => {
    const big = await submit("confirm-big-1", 2500);
    expect(approveOf(big.message.blocks)?.confirm?.text.text).toMatch(
      /^Place this order for 30,000\.00 USD\? That is 2,500\.00 USD a month for 12 months\./,
    );
    const small = await submit("confirm-small-1", 1200);
    expect(approveOf(small.message.blocks)).toBeDefined();
    expect(approveOf(small.message.blocks)?.confirm).toBeUndefined();

    // The approver's App Home shows the same button, asking first.
    await env.slack.openAppHome(STANDIN_IDS.approver);
    const home = await waitFor(
      () => {
        const blocks = env.standin.homeView(STANDIN_IDS.approver)?.view.blocks;
        return JSON.stringify(blocks ?? []).includes(big.id) ? blocks : undefined;
      },
      { description: "the approver's Home with the request" },
    );
    const inHome = (home as Array<{ type: string; block_id?: string; elements?: Element[] }>).find(
      (b) => b.block_id === `home_decide_${big.id}`,
    );
    expect(approveOf([inHome])?.confirm?.text.text).toMatch(
      /^Place this order for 30,000\.00 USD\?/,
    );

    // Confirmed in Slack's dialog, the click approves as any other.
    const ack = await env.slack.clickButton({
      userId: STANDIN_IDS.approver,
      message: big.message,
      actionId: ACTION_APPROVE,
    });
    expect(ack.status).toBe(200);
    await waitFor(
      async () =>
        (await env.bot.services.approvals.store.get(big.id))?.status !== "pending" || undefined,
      { description: "the request approved" },
    );
  });
});
