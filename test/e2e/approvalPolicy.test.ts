import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { KnownBlock } from "@slack/types";
import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dcfRef } from "../../src/domain/catalog/dcfs.js";
import type { OrderSubmission } from "../../src/orders/index.js";
import { submitForApproval } from "../../src/slack/kit/index.js";
import { makeUser, type StandinMessage } from "../../src/standin/index.js";
import { ACTION_WITHDRAW } from "../../views/approvals/approvals.js";
import { formatSpeed } from "../../views/format.js";
import { PORT_ORDER_VIEW } from "../../views/portOrder/portOrderModal.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { waitFor } from "../harness/index.js";
import { placeableDcf, portOrderRequest } from "../harness/portOrders.js";
import { readable } from "../views/support.js";

/**
 * The spend-aware approval policy and Withdraw, end to end through signed Slack requests: the
 * bot started with APPROVAL_POLICY, approvers clicking in the approvals channel, the requester
 * withdrawing from their confirmation and with `/connect withdraw`.
 */

const ALEX = STANDIN_IDS.approver; // network, by user id
const GRACE = STANDIN_IDS.groupApprover; // network, through the S0APPROVERS user group
const FIONA = "U0FINANCE1"; // finance, through the S0FINANCE user group
const RITA = STANDIN_IDS.requester;

const POLICY = `
groups:
  network: [${ALEX}, ${STANDIN_IDS.approverGroup}]
  finance: [S0FINANCE]
rules:
  - name: Edge off-net
    kinds: [edge]
    approvals: 2
    from: [network]
  - name: 1,000 a month or more
    monthlyFrom: 1000
    approvals: 2
    from: [network, finance]
    atLeastOneFrom: finance
  - name: Under 1,000 a month
    approvals: 1
    from: [network]
`;

describe("approvals under a spend-aware policy, and withdraw", () => {
  let env: TestBot;
  let client: WebClient;
  let company: string;
  let dcf: { username: string; speed: string; name: string; ref: string };
  const dir = mkdtempSync(join(tmpdir(), "policy-e2e-"));

  beforeAll(async () => {
    const path = join(dir, "policy.yml");
    writeFileSync(path, POLICY);
    // Fiona and the finance group exist before the bot starts: it checks every id the policy
    // names against Slack, and a missing group would stop it.
    env = await startTestBot({
      env: { APPROVERS: "", APPROVAL_POLICY: path },
      prepare: ({ workspace }) => {
        workspace.users.set(
          FIONA,
          makeUser(workspace.team.id, {
            id: FIONA,
            name: "fiona.finance",
            realName: "Fiona Finance",
            tz: "Europe/Paris",
          }),
        );
        workspace.userGroups.set("S0FINANCE", {
          id: "S0FINANCE",
          team_id: workspace.team.id,
          handle: "finance",
          name: "Finance",
          users: [FIONA],
        });
      },
    });
    client = new WebClient(env.standin.botToken, {
      slackApiUrl: env.standin.apiUrl,
      retryConfig: { retries: 0 },
    });
    company = (await env.bot.services.identity()).companyUsername;
    const onNet = await placeableDcf(env.bot.services.provider);
    dcf = {
      username: onNet.username,
      speed: onNet.speed,
      name: onNet.name,
      ref: dcfRef(onNet.dcf),
    };
  });
  afterAll(async () => {
    await env?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  function order(portName: string, monthly: number): OrderSubmission {
    return portOrderRequest({
      portName,
      companyUsername: company,
      dataCenterFacility: dcf.username,
      speed: dcf.speed,
      price: { monthly, text: `${monthly.toLocaleString("en-US")}.00 a month` },
      requester: { userId: RITA, channelId: STANDIN_IDS.general },
    });
  }

  async function submit(portName: string, monthly: number) {
    const outcome = await submitForApproval({
      services: env.bot.services,
      client,
      submission: order(portName, monthly),
    });
    if (!outcome.ok) throw new Error(outcome.message);
    const message = await env.standin.waitForMessage(STANDIN_IDS.approvals, (m) =>
      m.text.includes(portName),
    );
    return { id: outcome.approval.id, message };
  }

  /** The approval message as it is now. */
  function current(ts: string): StandinMessage {
    const found = env.standin.messages(STANDIN_IDS.approvals).find((m) => m.ts === ts);
    if (!found) throw new Error(`no message ${ts}`);
    return found;
  }

  function shown(message: StandinMessage): string {
    return readable((message.blocks ?? []) as KnownBlock[]);
  }

  async function click(userId: string, ts: string, actionId = "approval_approve") {
    const ack = await env.slack.clickButton({ userId, message: current(ts), actionId });
    expect(ack.status).toBe(200);
  }

  async function portOrderCalls(): Promise<number> {
    const url = `${env.bot.sandbox!.url}/__sandbox/requests?summary=1`;
    const summary = (await (await fetch(url)).json()) as { byOperation: Record<string, number> };
    return summary.byOperation.createPortOrder ?? 0;
  }

  const status = async (id: string) => (await env.bot.services.approvals.store.get(id))?.status;

  it("`/connect policy` says the rules in words", async () => {
    const seen = env.standin.ephemerals(RITA).length;
    await env.connect("policy", RITA);
    const answer = await waitFor(() => env.standin.ephemerals(RITA)[seen]);
    const text = readable((answer.blocks ?? []) as KnownBlock[]);
    expect(text).toContain("1. Edge off-net");
    expect(text).toContain("Edge port orders: 2 approvals from *network*");
    expect(text).toContain(
      "Requests of 1,000 a month or more (or with no monthly price): 2 approvals from *network* or *finance*, at least one from *finance*",
    );
    expect(text).toContain("Every other request: 1 approval from *network*");
    // Groups as Slack shows them (their handle, @finance), as refusals name them (issue 32).
    expect(text).toContain("*finance*: <!subteam^S0FINANCE>");
    expect(text).not.toContain("user group `S0FINANCE`");
  });

  it("a two-approver request shows its rule and '1 of 2 approvals: @Alex'; the same approver twice counts once; the last must be finance; then it is placed once", async () => {
    const { id, message } = await submit("pol-two-1", 1500);
    expect(shown(message)).toContain(
      "*Rule:* 1,000 a month or more — 2 approvals from *network* or *finance*, at least one from *finance*",
    );
    expect(shown(message)).toContain("0 of 2 approvals · one must come from *finance*");

    await click(ALEX, message.ts);
    const progressed = await env.standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => m.ts === message.ts && shown(m).includes(`1 of 2 approvals: <@${ALEX}>`),
    );
    expect(JSON.stringify(progressed.blocks)).toContain("approval_approve");
    // The message the lifecycle re-rendered still asks before Approve (1,500 a month is above
    // APPROVE_CONFIRM_FROM's default of 1,000).
    expect(JSON.stringify(progressed.blocks)).toContain(
      "Place this order for 1,500.00 USD a month?",
    );
    await env.standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) =>
        m.thread_ts === message.ts &&
        m.text.includes(
          `Approved by <@${ALEX}> (1 of 2). Waiting for 1 more approval, from *finance*.`,
        ),
    );

    // Alex again: counted once.
    await click(ALEX, message.ts);
    await env.standin.waitForEphemeral(ALEX, (m) => m.text.includes("already counted (1 of 2"));
    // Grace is a network approver, but the last approval must come from finance.
    await click(GRACE, message.ts);
    await env.standin.waitForEphemeral(GRACE, (m) =>
      m.text.includes("needs its last approval from someone in *finance*"),
    );
    // Someone the rule does not name cannot decide at all.
    await click(STANDIN_IDS.outsider, message.ts);
    await env.standin.waitForEphemeral(STANDIN_IDS.outsider, (m) =>
      m.text.includes("not an approver"),
    );
    expect(await status(id)).toBe("pending");

    const before = await portOrderCalls();
    await click(FIONA, message.ts);
    await waitFor(async () => (await status(id)) === "placed", {
      timeoutMs: 15_000,
      description: "the order placed",
    });
    expect((await portOrderCalls()) - before).toBe(1);
    const record = await env.bot.services.approvals.store.get(id);
    expect(record?.approvals?.map((a) => a.by)).toEqual([ALEX, FIONA]);
    const final = await env.standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => m.ts === message.ts && shown(m).includes("Ordered"),
    );
    expect(shown(final)).toContain(`2 of 2 approvals: <@${ALEX}> and <@${FIONA}>`);
    expect(JSON.stringify(final.blocks)).not.toContain("approval_approve");
  });

  it("20 concurrent approvals of a two-approver request by three approvers place it once, with finance and one network approver recorded", async () => {
    const { id, message } = await submit("pol-race-1", 2500);
    const before = await portOrderCalls();
    const clickers = [ALEX, GRACE, FIONA];
    const acks = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        env.slack.clickButton({
          userId: clickers[i % 3]!,
          message: current(message.ts),
          actionId: "approval_approve",
        }),
      ),
    );
    expect(acks.every((ack) => ack.status === 200)).toBe(true);
    await waitFor(async () => (await status(id)) === "placed", {
      timeoutMs: 20_000,
      description: "the order placed",
    });
    const record = await env.bot.services.approvals.store.get(id);
    const approvers = record?.approvals?.map((a) => a.by) ?? [];
    expect(approvers).toHaveLength(2);
    expect(approvers).toContain(FIONA);
    expect(approvers.filter((by) => by === ALEX || by === GRACE)).toHaveLength(1);
    expect(record?.attempts).toBe(1);
    expect((await portOrderCalls()) - before).toBe(1);
  });

  it("under 1,000 a month one network approval places it", async () => {
    const { id, message } = await submit("pol-small-1", 400);
    expect(shown(message)).toContain("*Rule:* Under 1,000 a month — 1 approval from *network*");
    await click(GRACE, message.ts);
    await waitFor(async () => (await status(id)) === "placed", { timeoutMs: 15_000 });
  });

  it("withdraw: refused for anyone else; the requester's Withdraw on their confirmation ends it, the approval message says so without buttons, the name is free; refused once approved", async () => {
    // Ordered through the form, as a person does: the confirmation carries the button.
    const ack = await env.connect("port order", RITA);
    expect(ack.status).toBe(200);
    await env.standin.waitForView(RITA, (v) => v.view.callback_id === PORT_ORDER_VIEW);
    await env.slack.fillView(RITA, {
      "Data center": { query: dcf.name, pick: dcf.ref },
    });
    await waitFor(() => {
      const view = env.standin.currentView(RITA);
      return view && JSON.stringify(view.view.blocks).includes("Speed") ? view : undefined;
    });
    await env.slack.fillView(RITA, {
      Speed: formatSpeed(Number(dcf.speed)),
      Term: "1 year (12 months)",
      "Port name": "pol-withdraw-1",
    });
    const submitted = await env.slack.submitView(RITA);
    expect(submitted.errors).toBeUndefined();
    const confirmation = await env.standin.waitForEphemeral(RITA, (m) =>
      JSON.stringify(m.blocks ?? []).includes(ACTION_WITHDRAW),
    );
    const request = await env.standin.waitForMessage(STANDIN_IDS.approvals, (m) =>
      m.text.includes("pol-withdraw-1"),
    );
    const id = /request `(apr_[a-z2-7]+)`/.exec(JSON.stringify(request.blocks))?.[1];
    expect(id).toBeDefined();
    expect(JSON.stringify(confirmation.blocks)).toContain(`/connect withdraw ${id}`);

    // An approver cannot withdraw someone else's request.
    const seenAlex = env.standin.ephemerals(ALEX).length;
    await env.connect(`withdraw ${id}`, ALEX);
    const refused = await waitFor(() => env.standin.ephemerals(ALEX)[seenAlex]);
    expect(refused.text).toContain(`Only the requester (<@${RITA}>) can withdraw this request.`);
    expect(await status(id!)).toBe("pending");

    await env.slack.clickButton({ userId: RITA, message: confirmation, actionId: ACTION_WITHDRAW });
    await waitFor(async () => (await status(id!)) === "cancelled");
    const replaced = await waitFor(() => {
      const now = env.standin.ephemerals(RITA).find((m) => m.ts === confirmation.ts);
      return now && JSON.stringify(now.blocks ?? []).includes("You withdrew") ? now : undefined;
    });
    expect(JSON.stringify(replaced.blocks)).not.toContain(ACTION_WITHDRAW);
    const updated = await env.standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => m.ts === request.ts && shown(m).includes("Withdrawn by the requester"),
    );
    expect(JSON.stringify(updated.blocks)).not.toContain("approval_approve");
    await env.standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => m.thread_ts === request.ts && m.text.includes(`<@${RITA}> withdrew the request`),
    );
    // The name is free again.
    const again = await submitForApproval({
      services: env.bot.services,
      client,
      submission: order("pol-withdraw-1", 10),
    });
    expect(again.ok).toBe(true);

    // Once approved it can no longer be withdrawn.
    const { id: approvedId, message } = await submit("pol-withdraw-2", 300);
    await click(ALEX, message.ts);
    await waitFor(async () => (await status(approvedId)) !== "pending");
    const seen = env.standin.ephemerals(RITA).length;
    await env.connect(`withdraw ${approvedId}`, RITA);
    const late = await waitFor(() => env.standin.ephemerals(RITA)[seen]);
    expect(late.text).toContain("You can't withdraw *pol-withdraw-2*: it was already approved by");
    expect(await status(approvedId)).not.toBe("cancelled");
  });
});
