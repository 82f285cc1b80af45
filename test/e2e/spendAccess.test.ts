import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { KnownBlock } from "@slack/types";
import { WebClient } from "@slack/web-api";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApprovalStore } from "../../src/approvals/store.js";
import { makeUser } from "../../src/standin/seed.js";
import type { StandinEphemeral } from "../../src/standin/types.js";
import { SPEND_EXPORT_BUTTON } from "../../views/spend/spend.js";
import { portOrderInput } from "../approvals/support.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { waitFor } from "../harness/waitFor.js";
import { readable } from "../views/support.js";

/**
 * Issue 32, item 1: who may see the money, end to end through signed requests. The team's
 * spend, the ledger and its Export CSV, the full audit trail (and the pending list) are for the
 * approvers of any rule, the policy's finance group and SPEND_VIEWERS; a requester sees their
 * own requests and amounts; anyone else is told what they may see, and sees no amount or name.
 */

const ALEX = STANDIN_IDS.approver; // network approver, by id
const RITA = STANDIN_IDS.requester; // asked for one order
const GRACE = STANDIN_IDS.groupApprover; // approver through S0APPROVERS; asked for another
const OSCAR = STANDIN_IDS.outsider; // neither
const FIONA = "U0FINANCE1"; // in the policy's finance group (S0FINANCE); approves nothing
const VERA = "U0VIEWER01"; // in SPEND_VIEWERS only

const POLICY = `
groups:
  network: [${ALEX}, ${STANDIN_IDS.approverGroup}]
  finance: [S0FINANCE]
rules:
  - name: Everything
    approvals: 1
    from: [network]
`;

async function place(store: ApprovalStore, name: string, requester: string, monthly: number) {
  const created = await store.create({
    ...portOrderInput({ reconcileKey: name }),
    title: name,
    requester: { userId: requester, channelId: STANDIN_IDS.general },
    price: {
      monthly,
      total: monthly * 12,
      termMonths: 12,
      text: `${monthly} a month`,
      currency: "USD",
    },
  });
  expect((await store.decide(created.id, { by: ALEX, action: "approve" })).ok).toBe(true);
  expect((await store.claim(created.id, "worker-test")).ok).toBe(true);
  expect((await store.complete(created.id, { providerId: `po-${name}`, record: {} })).ok).toBe(
    true,
  );
}

describe("who may see the money", () => {
  let env: TestBot;
  const dir = mkdtempSync(join(tmpdir(), "spend-access-"));

  beforeAll(async () => {
    const path = join(dir, "policy.yml");
    writeFileSync(path, POLICY);
    env = await startTestBot({
      env: { APPROVERS: "", APPROVAL_POLICY: path, SPEND_VIEWERS: VERA },
      prepare: ({ workspace }) => {
        for (const [id, name] of [
          [FIONA, "fiona.finance"],
          [VERA, "vera.viewer"],
        ] as const) {
          workspace.users.set(
            id,
            makeUser(workspace.team.id, { id, name, realName: name, tz: "Europe/Paris" }),
          );
        }
        workspace.userGroups.set("S0FINANCE", {
          id: "S0FINANCE",
          team_id: workspace.team.id,
          handle: "finance",
          name: "Finance",
          users: [FIONA],
        });
      },
    });
    const store = env.bot.services.approvals.store;
    await place(store, "rita-port-1", RITA, 300);
    await place(store, "grace-port-1", GRACE, 700);
    // Waiting for approval: also someone's request with its amount.
    await store.create({
      ...portOrderInput({ reconcileKey: "grace-pending-1" }),
      title: "grace-pending-1",
      requester: { userId: GRACE },
      price: { monthly: 50, text: "50 a month" },
    });
  });
  afterAll(async () => {
    await env?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  async function ask(userId: string, text: string): Promise<StandinEphemeral & { shown: string }> {
    const seen = new Set(env.standin.ephemerals(userId).map((m) => m.ts));
    await env.connect(text, userId);
    const reply = await env.standin.waitForEphemeral(userId, (m) => !seen.has(m.ts), {
      timeoutMs: 15_000,
    });
    return { ...reply, shown: `${reply.text}\n${readable((reply.blocks ?? []) as KnownBlock[])}` };
  }

  async function exportAs(userId: string, message: Pick<StandinEphemeral, "ts" | "channel">) {
    const seen = new Set(env.standin.ephemerals(userId).map((m) => m.ts));
    const files = env.standin.files().length;
    const ack = await env.slack.clickButton({ userId, message, actionId: SPEND_EXPORT_BUTTON });
    expect(ack.status).toBe(200);
    const told = await env.standin.waitForEphemeral(userId, (m) => !seen.has(m.ts), {
      timeoutMs: 15_000,
    });
    return { told: told.text, file: env.standin.files().slice(files)[0] };
  }

  it("an approver, a finance member and a SPEND_VIEWERS member see the team's spend, everyone's requests, and export them", async () => {
    for (const viewer of [ALEX, FIONA, VERA]) {
      const spend = await ask(viewer, "spend");
      expect(spend.shown, viewer).toContain("Committed monthly:* 1,000.00 USD (2 orders running");
      expect(spend.shown, viewer).toContain(`<@${RITA}>: 300.00 USD a month`);
      expect(spend.shown, viewer).toContain(`<@${GRACE}>: 700.00 USD a month`);
      const all = await ask(viewer, "approvals all");
      for (const name of ["rita-port-1", "grace-port-1", "grace-pending-1"])
        expect(all.shown, viewer).toContain(name);
      expect((await ask(viewer, "approvals")).shown, viewer).toContain("grace-pending-1");
    }
    const { told, file } = await exportAs(FIONA, await ask(FIONA, "spend"));
    expect(told).toContain("is in your direct messages");
    await waitFor(() => file?.bytes !== undefined || undefined, { description: "the CSV bytes" });
    const rows = parse(file!.bytes!.toString("utf8"), { columns: true }) as Record<
      string,
      string
    >[];
    expect(rows.map((r) => r.name).sort()).toEqual(["grace-port-1", "rita-port-1"]);
  });

  it("a requester sees their own requests and amounts only, and exports only those", async () => {
    const spend = await ask(RITA, "spend");
    expect(spend.shown).toContain("Your spend");
    expect(spend.shown).toContain("300.00 USD");
    expect(spend.shown).toContain("Only your own requests and amounts are shown");
    for (const other of ["700.00", "1,000.00", GRACE, "grace-port-1"])
      expect(spend.shown).not.toContain(other);
    const all = await ask(RITA, "approvals all");
    expect(all.shown).toContain("rita-port-1");
    for (const other of ["grace-port-1", "grace-pending-1", GRACE])
      expect(all.shown).not.toContain(other);
    const { file } = await exportAs(RITA, spend);
    await waitFor(() => file?.bytes !== undefined || undefined, { description: "the CSV bytes" });
    const rows = parse(file!.bytes!.toString("utf8"), { columns: true }) as Record<
      string,
      string
    >[];
    expect(rows.map((r) => r.name)).toEqual(["rita-port-1"]);
  });

  it("an outsider is told politely what they may see; no amount, name or request of anyone", async () => {
    const answers = [
      await ask(OSCAR, "spend"),
      await ask(OSCAR, "approvals all"),
      await ask(OSCAR, "approvals"),
    ];
    for (const answer of answers) {
      for (const secret of ["USD", "300", "700", "50 a month", RITA, GRACE, "-port-1", "pending-1"])
        expect(answer.shown, answer.text).not.toContain(secret);
    }
    expect(answers[0]!.shown).toContain(
      "is for approvers, the finance group and the people in SPEND_VIEWERS",
    );
    expect(answers[1]!.shown).toContain("No requests of yours in the last 90 days");
    expect(answers[1]!.shown).toContain("Only your own requests and amounts are shown");

    // An approver's ledger shared into the channel: its Export CSV carries only the month, so
    // the click is checked again, refused, and the outsider gets no file.
    const ledger = await ask(ALEX, "spend");
    const client = new WebClient(env.standin.botToken, {
      slackApiUrl: env.standin.apiUrl,
      retryConfig: { retries: 0 },
    });
    const shared = await client.chat.postMessage({
      channel: STANDIN_IDS.general,
      text: ledger.text,
      blocks: ledger.blocks as KnownBlock[],
    });
    const inChannel = await env.standin.waitForMessage(
      STANDIN_IDS.general,
      (m) => m.ts === shared.ts,
    );
    const { told, file } = await exportAs(OSCAR, inChannel);
    expect(told).toContain("is for approvers, the finance group");
    expect(file).toBeUndefined();
    expect(env.standin.files().some((f) => f.channel === `D${OSCAR.slice(1)}`)).toBe(false);
    const audit = env.logLines.find(
      (line) => line.includes('"audit":"spend export"') && line.includes(OSCAR),
    );
    expect(audit).toContain('"outcome":"blocked"');
  });

  it("help shows each person what they may use, in the words that fit", async () => {
    const outsider = await ask(OSCAR, "help");
    expect(outsider.shown).toContain("Your own spend");
    expect(outsider.shown).not.toContain("by kind, requester and channel");
    const approver = await ask(ALEX, "help");
    expect(approver.shown).toContain("by kind, requester and channel, with Export CSV");
    expect(approver.shown).not.toContain("Your own spend");
  });

  it("App Home shows the team's committed spend only to those who may see it", async () => {
    const home = async (userId: string) => {
      const before = env.standin.calls("views.publish").length;
      await env.slack.openAppHome(userId);
      await waitFor(
        () =>
          env.standin
            .calls("views.publish")
            .slice(before)
            .some((call) => call.args.user_id === userId) || undefined,
        { description: `a Home for ${userId}` },
      );
      return JSON.stringify(env.standin.homeView(userId)?.view.blocks ?? []);
    };
    expect(await home(ALEX)).toContain("*Team:* 1,000.00 USD a month");
    const rita = await home(RITA);
    expect(rita).toContain("*Mine:* 300.00 USD a month");
    expect(rita).not.toContain("*Team:*");
    expect(rita).not.toContain("1,000.00");
    expect(await home(OSCAR)).not.toContain("*Team:*");
  });
});
