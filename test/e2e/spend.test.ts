import type { KnownBlock } from "@slack/types";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ApprovalStore } from "../../src/approvals/store.js";
import { SANDBOX_LABEL } from "../../views/blocks.js";
import { SPEND_EXPORT_BUTTON } from "../../views/spend/spend.js";
import { portOrderInput } from "../approvals/support.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { readable } from "../views/support.js";

// `/connect spend` end to end: signed slash commands and a signed Export CSV click, the bot's
// external upload (files.getUploadURLExternal → POST of the bytes → files.completeUploadExternal)
// into the stand-in, and the file read back with a real CSV parser.

const RITA = STANDIN_IDS.requester;
const ALEX = STANDIN_IDS.approver;
const NASTY_NAMES = [
  'core, "primary" link',
  "line one\nline two",
  "=HYPERLINK(1)",
  // A spreadsheet splitting on ";" (where the comma is the decimal separator) cuts a cell here.
  ";=1+2",
  'x,-2;@SUM(1)\n+3 "=4',
];

async function place(store: ApprovalStore, name: string, monthly: number) {
  const created = await store.create({
    ...portOrderInput({ reconcileKey: name }),
    title: "Port order: seeded for the ledger",
    requester: { userId: RITA, channelId: STANDIN_IDS.general },
    price: { monthly, total: monthly * 12, termMonths: 12, text: "seeded", currency: "USD" },
  });
  expect((await store.decide(created.id, { by: ALEX, action: "approve" })).ok).toBe(true);
  expect((await store.claim(created.id, "worker-test")).ok).toBe(true);
  expect((await store.complete(created.id, { providerId: `po-${monthly}`, record: {} })).ok).toBe(
    true,
  );
  return created.id;
}

describe("/connect spend", () => {
  let env: TestBot;
  const ids: string[] = [];

  beforeAll(async () => {
    env = await startTestBot();
    const store = env.bot.services.approvals.store;
    for (const [i, name] of NASTY_NAMES.entries())
      ids.push(await place(store, name, 100 * (i + 1)));
    // A pending request committed nothing.
    await store.create({ ...portOrderInput({ reconcileKey: "still-waiting" }), sandbox: true });
  });
  afterAll(async () => {
    await env?.close();
  });

  // Alex approves: he sees the team's spend (test/e2e/spendAccess.test.ts: who else may).
  async function ask(text: string) {
    const seen = new Set(env.standin.ephemerals(ALEX).map((m) => m.ts));
    await env.connect(text, ALEX);
    return env.standin.waitForEphemeral(ALEX, (m) => !seen.has(m.ts), { timeoutMs: 15_000 });
  }

  it("shows this month's committed spend by kind, requester and channel", async () => {
    const reply = await ask("spend");
    const shown = readable((reply.blocks ?? []) as KnownBlock[]);
    expect(shown).toContain("Committed monthly:* 1,500.00 USD (5 orders running");
    expect(shown).toContain(
      "1,500.00 USD a month, 18,000.00 USD total commitment (5 orders placed)",
    );
    expect(shown).toContain("By kind");
    expect(shown).toContain(`<@${RITA}>: 1,500.00 USD a month`);
    expect(shown).toContain(`<#${STANDIN_IDS.general}>`);
    expect(shown).toContain(SANDBOX_LABEL);
  });

  it("keeps the team's money private: no Share, and a forged share posts nothing", async () => {
    const reply = await ask("spend");
    expect(JSON.stringify(reply.blocks)).not.toContain("connect_share");
    const whoami = await ask("whoami");
    const channel = whoami.channel;
    const postedBefore = env.standin.messages(channel).length;
    await env.slack.clickButton({
      userId: ALEX,
      message: whoami,
      actionId: "connect_share",
      value: JSON.stringify({ c: "spend", p: 0 }),
    });
    await env.standin.waitForEphemeral(ALEX, (m) =>
      m.text.includes("Spend answers are not shared"),
    );
    expect(env.standin.messages(channel)).toHaveLength(postedBefore);
  });

  it("answers a bad month with the usage, and an empty month plainly", async () => {
    const bad = readable(((await ask("spend 2026-13")).blocks ?? []) as KnownBlock[]);
    expect(bad).toContain("That is not a month.");
    expect(bad).toContain("/connect spend [YYYY-MM]");
    const empty = readable(((await ask("spend 2001-01")).blocks ?? []) as KnownBlock[]);
    expect(empty).toContain("Nothing placed through the bot is committed in January 2001");
    expect(empty).not.toContain("Export CSV");
  });

  it("Export CSV uploads the month's ledger to the clicker's DM, read back row for row", async () => {
    const reply = await ask("spend");
    const ack = await env.slack.clickButton({
      userId: ALEX,
      message: reply,
      actionId: SPEND_EXPORT_BUTTON,
    });
    expect(ack.status).toBe(200);
    const completed = await env.standin.waitForCall("files.completeUploadExternal", (c) => c.ok, {
      timeoutMs: 15_000,
    });
    expect(completed.args.channel_id).toBe(`D${ALEX.slice(1)}`);
    const [file] = env.standin.files();
    expect(file?.channel).toBe(`D${ALEX.slice(1)}`);
    expect(file?.name).toMatch(/^connect-spend-\d{4}-\d{2}\.csv$/);
    expect(file?.bytes?.length).toBe(file?.length);

    const rows = parse(file!.bytes!.toString("utf8"), { columns: true }) as Record<
      string,
      string
    >[];
    expect(rows).toHaveLength(5);
    // Names with commas, quotes and line breaks come back whole; a formula is defused wherever
    // a spreadsheet could start a cell with it (after a `,`, a `;` or a line break too).
    expect(rows.map((r) => r.name)).toEqual([
      NASTY_NAMES[0],
      NASTY_NAMES[1],
      "'=HYPERLINK(1)",
      ";'=1+2",
      `x,'-2;'@SUM(1)\n'+3 "=4`,
    ]);
    expect(rows.map((r) => r["request id"])).toEqual(ids);
    expect(rows[0]).toMatchObject({
      kind: "port",
      requester: RITA,
      approvers: ALEX,
      "monthly amount": "100.00",
      term: "12 months",
      "total commitment": "1200.00",
      currency: "USD",
      status: "Ordered",
    });

    // Read as a spreadsheet would, splitting on "," and on ";" (quotes honoured where they
    // open a cell, taken as text elsewhere): no cell starts a formula.
    const text = file!.bytes!.toString("utf8");
    for (const delimiter of [",", ";"]) {
      const cells = (
        parse(text, { delimiter, relax_quotes: true, relax_column_count: true }) as string[][]
      ).flat();
      expect(cells.length).toBeGreaterThanOrEqual(6);
      // Split on ";", the cell cut out of ";=1+2" starts with the defused text.
      if (delimiter === ";") expect(cells.some((cell) => cell.startsWith("'=1+2,"))).toBe(true);
      const formulas = cells.filter((cell) => /^[=+\-@]/.test(cell));
      expect(formulas, `split on "${delimiter}"`).toEqual([]);
    }

    // The DM holds the file with a message saying what it is; the clicker is told where it went.
    const dm = await env.standin.waitForMessage(ALEX, (m) => (m.files?.length ?? 0) > 0);
    expect(dm.files?.[0]?.id).toBe(file?.id);
    expect(readable((dm.blocks ?? []) as KnownBlock[])).toContain("Spend ledger for");
    const told = await env.standin.waitForEphemeral(ALEX, (m) =>
      readable((m.blocks ?? []) as KnownBlock[]).includes("is in your direct messages"),
    );
    expect(told).toBeDefined();
  });
});
