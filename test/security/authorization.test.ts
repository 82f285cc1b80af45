import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/approvals/index.js";
import type { OrderSubmission } from "../../src/orders/index.js";
import { submitForApproval } from "../../src/slack/kit/index.js";
import { interactionBody } from "../../src/standin/index.js";
import { BLOCK_REJECT_REASON, INPUT_REJECT_REASON } from "../../views/approvals/rejectModal.js";
import { writeReliabilityResult } from "../faults/reliabilityResults.js";
import { commonFields, providerWrites } from "../fuzz/support.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { waitFor } from "../harness/index.js";

/**
 * Only configured approvers decide (docs/DESIGN.md §6): every approval action tried by a non-approver
 * and by the requester, and a forged approver id in a wrongly signed payload, leave the
 * approval record exactly as it was and order nothing.
 */
describe("approval authorization", () => {
  let env: TestBot;
  let approval: ApprovalRequest;
  const refused: Record<string, number> = {};

  beforeAll(async () => {
    env = await startTestBot();
    const client = new WebClient(env.standin.botToken, {
      slackApiUrl: env.standin.apiUrl,
      retryConfig: { retries: 0 },
    });
    const companyUsername = (await env.bot.services.identity()).companyUsername;
    const submission: OrderSubmission = {
      kind: "port",
      title: "authz-port-1",
      summary: [{ label: "Port name", value: "authz-port-1" }],
      call: {
        operation: "createPortOrder",
        pathParams: { companyUsername },
        body: {
          dataCenterFacility: "dcf-any",
          speed: "1000",
          durationUnit: "y",
          portName: "authz-port-1",
          paymentType: "invoice",
        },
      },
      reconcileKey: "authz-port-1",
      price: { total: 100, text: "100.00" },
      requester: { userId: STANDIN_IDS.requester, channelId: STANDIN_IDS.general },
    };
    const outcome = await submitForApproval({ services: env.bot.services, client, submission });
    if (!outcome.ok) throw new Error(outcome.message);
    approval = outcome.approval;
  });
  afterAll(async () => {
    const total = Object.values(refused).reduce((a, b) => a + b, 0);
    writeReliabilityResult({
      suite: "authorization",
      checks:
        "approve, reject, retry and the reject-reason submission by a non-approver and by the requester, and a forged approver id with a wrong signature: refused, record unchanged",
      figures: { refusedAttempts: total, ...refused },
    });
    await env?.close();
  });

  const record = async () =>
    JSON.stringify(await env.bot.services.approvals.store.get(approval.id));

  function click(userId: string, actionId: string) {
    return {
      ...commonFields(env, userId),
      type: "block_actions",
      actions: [
        {
          type: "button",
          action_id: actionId,
          block_id: "approval_actions",
          action_ts: "1700000000.000001",
          value: approval.id,
        },
      ],
      container: {
        type: "message",
        message_ts: approval.slack.approvalTs ?? "1.1",
        channel_id: STANDIN_IDS.approvals,
        is_ephemeral: false,
      },
      channel: { id: STANDIN_IDS.approvals, name: "approvals" },
      message: { type: "message", ts: approval.slack.approvalTs ?? "1.1", text: "", blocks: [] },
      state: { values: {} },
      response_url: env.standin.workspace.createResponseUrl({
        channel: STANDIN_IDS.approvals,
        userId,
      }),
    };
  }

  for (const [who, userId] of [
    ["non-approver", STANDIN_IDS.outsider],
    ["requester", STANDIN_IDS.requester],
  ] as const) {
    for (const actionId of ["approval_approve", "approval_reject", "approval_retry"]) {
      it(`refuses ${actionId} by the ${who}`, async () => {
        const before = await record();
        const seen = env.standin.ephemerals(userId).length;
        const ack = await env.slack.sendInteraction(click(userId, actionId));
        expect(ack.status).toBe(200);
        const told = await waitFor(() => env.standin.ephemerals(userId)[seen], {
          description: `the refusal shown to the ${who}`,
        });
        expect(told.text).toMatch(/not an approver|approvers/i);
        expect(await record()).toBe(before);
        refused[`${actionId}.${who}`] = 1;
      });
    }

    it(`refuses the reject-reason submission by the ${who}`, async () => {
      const before = await record();
      const ack = await env.slack.sendInteraction({
        ...commonFields(env, userId),
        type: "view_submission",
        view: {
          id: "V0AUTHZ001",
          type: "modal",
          callback_id: "approval_reject_reason",
          private_metadata: approval.id,
          blocks: [],
          state: {
            values: {
              [BLOCK_REJECT_REASON]: {
                [INPUT_REJECT_REASON]: { type: "plain_text_input", value: "no" },
              },
            },
          },
          hash: "1.a",
        },
        response_urls: [],
      });
      expect(ack.status).toBe(200);
      const body = ack.body as { response_action?: string; errors?: Record<string, string> };
      expect(body.response_action).toBe("errors");
      expect(Object.values(body.errors ?? {}).join(" ")).toMatch(/not an approver|approvers/i);
      expect(await record()).toBe(before);
      refused[`approval_reject_reason.${who}`] = 1;
    });
  }

  it("refuses a forged approver id signed with the wrong secret", async () => {
    const before = await record();
    for (const actionId of ["approval_approve", "approval_reject", "approval_retry"]) {
      const ack = await env.slack.transport.postRaw(
        interactionBody(click(STANDIN_IDS.approver, actionId)),
        { signingSecret: "forged-secret" },
      );
      expect(ack.status).toBe(401);
      refused[`${actionId}.forged`] = 1;
    }
    expect(await record()).toBe(before);
  });

  it("left the request pending, undecided, and ordered nothing", async () => {
    const current = await env.bot.services.approvals.store.get(approval.id);
    expect(current?.status).toBe("pending");
    expect(JSON.stringify(current)).not.toContain(STANDIN_IDS.outsider);
    expect(providerWrites(env)).toEqual([]);
    expect(Object.keys(refused)).toHaveLength(11);
  });
});
