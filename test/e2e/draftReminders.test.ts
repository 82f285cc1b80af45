import type { KnownBlock } from "@slack/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { draftReminderJobId } from "../../src/jobs/draftReminders.js";
import type { StandinMessage } from "../../src/standin/types.js";
import { SANDBOX_LABEL } from "../../views/blocks.js";
import { EDGE_DRAFT_BUTTONS } from "../../views/edge/edgeDrafts.js";
import { EDGE_QUOTE_BUTTONS } from "../../views/edge/edgeQuote.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { waitFor } from "../harness/waitFor.js";
import { readable } from "../views/support.js";

// Edge drafts saved through the bot: the provider deletes a draft 30 days after it was saved,
// so its creator is reminded at 27 and 29 days on the sandbox's clock (moved forward here as the
// playground's "Advance sandbox time" does), with Open and Delete; a draft deleted through the
// bot or ordered from gets none.

const R = STANDIN_IDS.requester;
const GENERAL = STANDIN_IDS.general;
const DAY = 24 * 3_600_000;

describe("Edge draft expiry reminders", () => {
  let env: TestBot;

  beforeAll(async () => {
    env = await startTestBot({
      sandbox: { edgeQuote: { readyAfterPolls: 1, readyAfterMs: 3_600_000 } },
      jobs: { quoteSettings: { firstDelayMs: 50, maxDelayMs: 200 } },
    });
  });
  afterAll(async () => {
    await env?.close();
  });

  const blocksText = (m: { blocks?: unknown }) => JSON.stringify(m.blocks ?? []);

  /** Requests a quote and saves it as a draft through the bot; the draft's id and message. */
  async function saveDraft(address: string): Promise<{ id: string; saved: StandinMessage }> {
    await env.connect("edge quote");
    await env.standin.waitForView(
      R,
      (v) => v.view.callback_id === "edge_quote" && v.view.submit !== undefined,
    );
    await env.slack.fillView(R, {
      Country: "Netherlands",
      Bandwidth: "200 Mbps",
      "Contract term": "36 months",
      Address: address,
    });
    expect((await env.slack.submitView(R)).errors).toBeUndefined();
    const root = await env.standin.waitForMessage(
      GENERAL,
      (m) => m.thread_ts === undefined && blocksText(m).includes(address),
    );
    const quote = await env.standin.waitForMessage(
      GENERAL,
      (m) => m.thread_ts === root.ts && m.text.startsWith("Edge quote ready"),
      { timeoutMs: 15_000 },
    );
    await env.slack.clickButton({
      userId: R,
      message: quote,
      actionId: EDGE_QUOTE_BUTTONS.saveDraft,
    });
    const saved = await env.standin.waitForMessage(
      GENERAL,
      (m) => m.thread_ts === root.ts && m.text.startsWith("Saved as Edge draft"),
    );
    const drafts = await env.bot.services.provider.listDrafts();
    const draft = drafts.find((d) => d.edgePayload?.["formatted-address"] === address);
    if (!draft) throw new Error(`no draft for ${address}`);
    return { id: draft.id, saved };
  }

  const reminders = () =>
    env.standin.messages(R).filter((m) => m.text.includes("is deleted by the provider"));

  /** Moves the sandbox's clock; the reminders due on it are sent (as the playground does). */
  async function advance(ms: number, settledJobIds: string[]): Promise<void> {
    env.bot.sandbox!.clock.advance(ms);
    await env.bot.jobs.draftReminders.checkDue();
    // Each due reminder job ran (completed jobs are removed): an event, not a sleep.
    await waitFor(
      async () => {
        for (const id of settledJobIds) {
          if (await env.bot.jobs.queues.drafts.getJob(id)) return false;
        }
        return true;
      },
      { timeoutMs: 15_000, description: "the due reminder jobs to run" },
    );
  }

  it("reminds at 27 and 29 days with Open and Delete, once each; none for a deleted or ordered draft", async () => {
    const kept = await saveDraft("Kept 1, Amsterdam");
    const deleted = await saveDraft("Deleted 2, Amsterdam");
    const ordered = await saveDraft("Ordered 3, Amsterdam");
    const jobs = (id: string, days: number) => draftReminderJobId(id, days);
    for (const { id } of [kept, deleted, ordered]) {
      expect(await env.bot.jobs.queues.drafts.getJob(jobs(id, 3))).toBeDefined();
      expect(await env.bot.jobs.queues.drafts.getJob(jobs(id, 1))).toBeDefined();
    }

    // Deleted through the bot: its reminders go with it.
    await env.slack.clickButton({
      userId: R,
      message: deleted.saved,
      actionId: EDGE_DRAFT_BUTTONS.delete,
    });
    await waitFor(async () => !(await env.bot.jobs.queues.drafts.getJob(jobs(deleted.id, 3))), {
      description: "the deleted draft's reminders removed",
    });

    // Ordered from, through approval: the provider deletes the draft once the order is placed.
    await env.slack.clickButton({
      userId: R,
      message: ordered.saved,
      actionId: EDGE_DRAFT_BUTTONS.order,
    });
    await env.standin.waitForView(
      R,
      (v) => v.view.callback_id === "edge_order" && v.view.submit !== undefined,
    );
    await env.slack.fillView(R, { "Port name": "edge-reminder-ordered" });
    expect((await env.slack.submitView(R)).errors).toBeUndefined();
    const request = await env.standin.waitForMessage(STANDIN_IDS.approvals, (m) =>
      m.text.includes("edge-reminder-ordered"),
    );
    await env.slack.clickButton({
      userId: STANDIN_IDS.approver,
      message: request,
      actionId: "approval_approve",
    });
    await env.standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => m.thread_ts === request.ts && m.ts !== request.ts && m.text.includes("Ordered"),
      { timeoutMs: 15_000 },
    );
    expect((await env.bot.services.provider.listDrafts()).some((d) => d.id === ordered.id)).toBe(
      false,
    );

    // 26 days on: nothing due yet.
    await advance(26 * DAY, []);
    expect(await env.bot.jobs.draftReminders.checkDue()).toBe(0);
    expect(reminders()).toEqual([]);

    // Day 27: the kept draft's creator is reminded, 3 days before; the ordered one is not.
    await advance(DAY + 60_000, [jobs(kept.id, 3), jobs(ordered.id, 3)]);
    const first = await env.standin.waitForMessage(R, (m) =>
      m.text.includes("is deleted by the provider in 3 days"),
    );
    const shown = readable((first.blocks ?? []) as KnownBlock[]);
    expect(shown).toContain(kept.id);
    expect(shown).toContain(SANDBOX_LABEL);
    const buttons = blocksText(first);
    expect(buttons).toContain('"text":"Open"');
    expect(buttons).toContain(EDGE_DRAFT_BUTTONS.order);
    expect(buttons).toContain('"text":"Delete"');
    expect(buttons).toContain(EDGE_DRAFT_BUTTONS.delete);

    // Day 29: reminded again, 1 day before; a second check sends nothing twice.
    await advance(2 * DAY, [jobs(kept.id, 1), jobs(ordered.id, 1)]);
    await env.standin.waitForMessage(R, (m) =>
      m.text.includes("is deleted by the provider tomorrow"),
    );
    await env.bot.jobs.draftReminders.checkDue();
    await env.bot.jobs.notifier.reconcile();

    const sent = reminders();
    expect(sent).toHaveLength(2);
    for (const message of sent) {
      expect(blocksText(message)).toContain(kept.id);
      expect(blocksText(message)).not.toContain(deleted.id);
      expect(blocksText(message)).not.toContain(ordered.id);
    }

    // Open works from the reminder: it opens the draft's order form.
    await env.slack.clickButton({ userId: R, message: first, actionId: EDGE_DRAFT_BUTTONS.order });
    await env.standin.waitForView(
      R,
      (v) => v.view.callback_id === "edge_order" && v.view.submit !== undefined,
    );
  });
});
