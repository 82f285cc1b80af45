import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Redis } from "ioredis";
import type { Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningBot, startBot } from "../../src/bot.js";
import { loadConfig } from "../../src/config.js";
import { remainingCapacity } from "../../src/domain/catalog/connections.js";
import { createLogger } from "../../src/log.js";
import { STANDIN_IDS } from "../../src/standin/index.js";
import { deleteKeysMatching } from "../harness/redisKeys.js";
import { pageSession, pngSize, screenshotDir, VIEWPORT } from "./browser.js";
import { submitUntilAccepted } from "./submitModal.js";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
/** Placement, tracking and the notifier's pacing run in the background: give them room. */
const BACKGROUND_MS = 20_000;
/** Help's own example (src/domain/commands.ts): an on-net data center, done a day after it is placed. */
const PRICE_EXAMPLE = "/connect price port ironbridge-iad1 10G 1y";

/**
 * The order's story where it was asked (issues 23 and 24), as a person sees it in `npm start`'s
 * playground: Rita prices a port in #general and presses *Order this*; the form comes with what
 * was priced chosen; the request card appears in #general with the price; Alex approves in
 * #network-approvals; "Advance sandbox time" takes the order to its end while the card's thread
 * fills, the card shows the latest state and the approval message the outcome. Then a layer 2
 * business-to-business connection, which waits days on the other company, followed to its end.
 */
describe("npm start's playground: the order's story in #general and in its thread", () => {
  const prefix = `test:playground-story-${randomUUID().slice(0, 8)}`;
  const portName = `pg-story-${randomUUID().slice(0, 6)}`;
  const l2Name = `pg-b2b-${randomUUID().slice(0, 6)}`;
  let bot: RunningBot;
  let page: Page;
  let shots: string;
  const session = pageSession(async (opened) => {
    await opened.goto(bot.playgroundUrl ?? "");
  });

  const command = async (text: string) => {
    await page.fill("#composer-input", text);
    await page.press("#composer-input", "Enter");
  };
  const modal = () => page.locator("#modal-root form.modal");
  const field = (label: string) =>
    modal().locator(".block.input", {
      has: page.locator(".input-label", { hasText: new RegExp(`^${label}`) }),
    });
  const openChannel = async (name: string) => {
    await page.click(`#channels .channel-link >> text=${name}`);
    await page.locator("#channel-name", { hasText: `#${name}` }).waitFor();
  };
  const actAs = async (userId: string, shown: string) => {
    await page.selectOption("#user", userId);
    await page.locator("#you", { hasText: shown }).waitFor();
  };
  /** A message everyone in the channel sees (not an "Only visible to you" one). */
  const shared = (text: string) =>
    page.locator("#messages .message:not(.ephemeral)", { hasText: text }).first();
  const card = (name: string) =>
    page.locator("#messages .message:not(.ephemeral)", { hasText: "Requested by" }).filter({
      hasText: name,
    });
  /** The thread pane shows the parent message first, then the replies. */
  const replies = () => page.locator("#thread-messages .message:not(:first-child)");
  const reply = (words: string | RegExp) => replies().filter({ hasText: words }).first();
  const timeButton = (label: string) =>
    page.locator("#sandbox-time button", { hasText: new RegExp(`^\\${label}$`) });
  const screenshot = async (name: string) => {
    const path = join(shots, name);
    await page.screenshot({ path });
    expect(pngSize(await readFile(path))).toEqual(VIEWPORT);
  };
  /** The words of the message's state line (the card's block that says where it stands). */
  const text = async (locator: Locator) => ((await locator.textContent()) ?? "").trim();

  beforeAll(async () => {
    const config = { ...loadConfig({ REDIS_URL, LOG_LEVEL: "silent" }), port: 0 };
    expect(config.slack.mode).toBe("playground");
    bot = await startBot({
      config,
      logger: createLogger({ level: process.env.TEST_LOG_LEVEL ?? "silent" }),
      redisPrefix: prefix,
    });
    shots = await screenshotDir();
  });
  beforeEach(async () => {
    page = await session.page();
  });
  afterEach(() => {
    expect(session.pageErrors()).toEqual([]);
  });
  afterAll(async () => {
    await session.close();
    await bot?.stop();
    const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
    await deleteKeysMatching(redis, `${prefix}:*`);
    await redis.quit();
  });

  /**
   * Alex approves the request named `name` in #network-approvals (confirming the dialog Approve
   * shows from 1,000 a month when `asks`); Rita is back in #general.
   */
  async function approveAsAlex(name: string, asks: boolean): Promise<void> {
    await actAs(STANDIN_IDS.approver, "Alex Approver");
    await openChannel("network-approvals");
    const request = shared(name);
    await request.waitFor({ timeout: BACKGROUND_MS });
    await request.locator("button", { hasText: "Approve" }).click();
    if (asks) await confirmApprove(page);
    await request
      .locator("button", { hasText: "Approve" })
      .waitFor({ state: "detached", timeout: BACKGROUND_MS });
    await actAs(STANDIN_IDS.requester, "Rita Requester");
    await openChannel("general");
  }

  it("as Rita in #general: a port price's Order this opens the order form with the data center, speed and term chosen", async () => {
    await page.locator("#you", { hasText: "Rita Requester" }).waitFor();
    await openChannel("general");
    await command(PRICE_EXAMPLE);
    const price = page.locator("#messages .message.ephemeral", { hasText: "Port price" }).last();
    await price.waitFor({ timeout: BACKGROUND_MS });
    expect(await text(price)).toContain("Ironbridge IAD1");
    await price.locator("button", { hasText: "Order this" }).click();

    await modal().locator("#modal-title", { hasText: "Order a port" }).waitFor();
    expect(await field("Data center").locator("input").inputValue()).toContain("Ironbridge IAD1");
    const speed = field("Speed").locator("select");
    expect(await speed.locator("option:checked").textContent()).toBe("10G");
    const term = field("Term").locator("select");
    expect(await term.locator("option:checked").textContent()).toBe("1 year (12 months)");
    // As if picked by hand: the price and the data center's LOA path are shown already.
    await modal().locator(".block", { hasText: "Price (total for 1 year" }).waitFor();
    await modal().locator(".block", { hasText: "about 24 hours" }).first().waitFor();

    const name = field("Port name").locator("input");
    await name.fill(portName);
    await expect.poll(() => name.inputValue()).toBe(portName);
    const confirmation = page.locator("#messages .message.ephemeral", {
      hasText: "waiting for approval",
    });
    await submitUntilAccepted(page, confirmation.filter({ hasText: portName }), {
      retype: { input: name, value: portName },
    });
  });

  it("the request card appears in #general, for everyone, with the price and 'waiting for approval'", async () => {
    const posted = card(portName);
    await posted.waitFor({ timeout: BACKGROUND_MS });
    const shown = await text(posted);
    expect(shown).toContain("Waiting for approval");
    expect(shown).toMatch(new RegExp(`Price:.*\\d.*${bot.services.currency}`));
    expect(shown).toContain("Sandbox");
    expect(await posted.locator(".mention").first().textContent()).toBe("@Rita Requester");
    // Nothing about the decision is on the card.
    expect(await posted.locator("button", { hasText: /Approve|Reject/ }).count()).toBe(0);
    await posted.locator("a, button", { hasText: "View in approvals" }).waitFor();
    // Alex, who is not the requester, sees it in #general too.
    await actAs(STANDIN_IDS.approver, "Alex Approver");
    await card(portName).waitFor();
    await actAs(STANDIN_IDS.requester, "Rita Requester");
    await card(portName).waitFor();
    await screenshot("playground-request-card.png");
  });

  it("approved by Alex in #network-approvals: the card says placed, and its thread tells each step", async () => {
    await approveAsAlex(portName, true);
    const posted = card(portName);
    await expect
      .poll(async () => text(posted), { timeout: BACKGROUND_MS })
      .toMatch(/Ordered|Placed|created/);
    expect(await text(posted)).not.toContain("Waiting for approval");
    await posted.locator(".replies").waitFor({ timeout: BACKGROUND_MS });
    await posted.locator(".replies").click();
    await reply(/Approved/).waitFor({ timeout: BACKGROUND_MS });
  });

  it("as sandbox time advances the thread fills with the order's progress and the card shows the latest state", async () => {
    await timeButton("+1 hour").click();
    await page.locator("#sandbox-time-note", { hasText: "1 hour ahead of real time" }).waitFor();
    const posted = card(portName);
    await reply("processing").waitFor({ timeout: BACKGROUND_MS });
    await expect.poll(async () => text(posted), { timeout: BACKGROUND_MS }).toContain("processing");

    await timeButton("+1 day").click();
    await page
      .locator("#sandbox-time-note", { hasText: "1 day 1 hour ahead of real time" })
      .waitFor();
    await reply("Done").waitFor({ timeout: BACKGROUND_MS });
    await expect.poll(async () => text(posted), { timeout: BACKGROUND_MS }).toContain("Done");
    expect(await text(posted)).not.toContain("processing");
    // The thread reads top to bottom: approved, then placed, then processing, then done.
    const thread = await replies().allTextContents();
    const at = (pattern: RegExp) => thread.findIndex((r) => pattern.test(r));
    const steps = [/Approved/, /Ordered|Placed|created/, /processing/, /Done/].map(at);
    expect(
      steps.every((i) => i >= 0),
      thread.join("\n"),
    ).toBe(true);
    expect([...steps].sort((a, b) => a - b)).toEqual(steps);
    await screenshot("playground-card-thread.png");
  });

  it("the approval message in #network-approvals shows the outcome, not only 'Ordered'", async () => {
    await actAs(STANDIN_IDS.approver, "Alex Approver");
    await openChannel("network-approvals");
    const request = shared(portName);
    await expect.poll(async () => text(request), { timeout: BACKGROUND_MS }).toContain("Done");
    expect(await text(request)).not.toMatch(/\bOrdered\b/);
    await actAs(STANDIN_IDS.requester, "Rita Requester");
    // Rita's direct messages with the app are told the end too.
    await page.click("#dms .channel-link >> text=connect");
    const ended = page
      .locator("#messages .message:not(.ephemeral)", { hasText: "Your order" })
      .filter({ hasText: portName });
    await ended.waitFor({ timeout: BACKGROUND_MS });
    expect(await text(ended)).toContain("Done");
    await openChannel("general");
  });

  it("a layer 2 business-to-business connection: pending on the other company, then active, told in the card's thread", async () => {
    // One of Rita's ports with room for the connection, outside Toronto (no layer 2 there).
    const company = bot.sandbox?.apiUser.companyUsername ?? "";
    const ports = await bot.services.provider.listPorts(company, { deleted: false });
    const source = ports.find(
      (p) =>
        p.status === "ACTIVE" &&
        (remainingCapacity(p) ?? 0) >= 1000 &&
        !/toronto/i.test(p.metro?.name ?? ""),
    );
    if (!source) throw new Error("the sandbox has no ACTIVE port with 1 Gbps free");

    await command("/connect l2");
    await modal().locator("#modal-title", { hasText: "Layer 2 connection" }).waitFor();
    await field("Connection type")
      .locator("label.choice", { hasText: "Business to business" })
      .click();
    const metro = field("Destination metro").locator("select");
    await metro.waitFor();
    await field("Source port").locator("select").selectOption(source.id);
    await field("Source port").locator(".hint", { hasText: "free" }).first().waitFor();
    await metro.selectOption({ index: 1 });
    const dcf = field("Destination data center").locator("select");
    await dcf.waitFor();
    await dcf.selectOption({ index: 1 });
    const region = field("Destination region").locator("select");
    if ((await region.inputValue()) === "") await region.selectOption({ index: 1 });
    await field("Destination company").locator("input").fill("globex-cloud");
    const bandwidth = field("Bandwidth").locator("input");
    await bandwidth.fill("100");
    await bandwidth.press("Enter");
    await field("Class of service").locator("select").selectOption({ index: 1 });
    // The price follows once everything it needs is set.
    await modal().locator(".block", { hasText: bot.services.currency }).first().waitFor({
      timeout: BACKGROUND_MS,
    });
    const name = field("Connection name").locator("input");
    await name.fill(l2Name);
    await expect.poll(() => name.inputValue()).toBe(l2Name);
    await submitUntilAccepted(
      page,
      page.locator("#messages .message.ephemeral", { hasText: "waiting for approval" }).filter({
        hasText: l2Name,
      }),
      { retype: { input: name, value: l2Name } },
    );

    const posted = card(l2Name);
    await posted.waitFor({ timeout: BACKGROUND_MS });
    expect(await text(posted)).toContain("Waiting for approval");
    // A small layer 2 connection, under APPROVE_CONFIRM_FROM: approved at once.
    await approveAsAlex(l2Name, false);
    await posted.locator(".replies").waitFor({ timeout: BACKGROUND_MS });
    await posted.locator(".replies").click();
    await reply(/Approved/).waitFor({ timeout: BACKGROUND_MS });

    // Five minutes on, the connection waits on globex-cloud: a normal wait, not a failure.
    await timeButton("+1 hour").click();
    await reply("PENDING").waitFor({ timeout: BACKGROUND_MS });
    await expect.poll(async () => text(posted), { timeout: BACKGROUND_MS }).toContain("PENDING");
    // The other company accepts after three days; five minutes later the connection is active.
    await timeButton("+1 week").click();
    await reply(/ACTIVE|Done/).waitFor({ timeout: BACKGROUND_MS });
    await expect.poll(async () => text(posted), { timeout: BACKGROUND_MS }).toContain("Done");
    const thread = await replies().allTextContents();
    const at = (pattern: RegExp) => thread.findIndex((r) => pattern.test(r));
    const steps = [/Approved/, /PENDING/, /ACTIVE|Done/].map(at);
    expect(
      steps.every((i) => i >= 0),
      thread.join("\n"),
    ).toBe(true);
    expect([...steps].sort((a, b) => a - b)).toEqual(steps);

    // The approvals thread tells the same story, saying whom the connection waited on; the
    // approval message ends on the outcome.
    await actAs(STANDIN_IDS.approver, "Alex Approver");
    await openChannel("network-approvals");
    const request = shared(l2Name);
    await expect.poll(async () => text(request), { timeout: BACKGROUND_MS }).toContain("Done");
    await request.locator(".replies").click();
    const waited = reply("to accept it");
    await waited.waitFor({ timeout: BACKGROUND_MS });
    expect(await text(waited)).toContain("globex-cloud");
    expect(await text(waited)).toContain("not a failure");
    await reply("ACTIVE").waitFor({ timeout: BACKGROUND_MS });
    const story = await replies().allTextContents();
    expect(story.findIndex((r) => r.includes("to accept it"))).toBeLessThan(
      story.findIndex((r) => r.includes("ACTIVE")),
    );
    await actAs(STANDIN_IDS.requester, "Rita Requester");
    await openChannel("general");
  }, 120_000);
});

/**
 * From APPROVE_CONFIRM_FROM (1,000 a month) Approve asks first, naming the order's total; the
 * story's 10G ports are above it, so the dialog is confirmed.
 */
async function confirmApprove(page: Page): Promise<void> {
  const dialog = page.locator("[role=alertdialog]", { hasText: "Approve this order?" });
  await dialog.waitFor();
  expect(await dialog.textContent()).toMatch(/Place this order for [\d,.]+ USD\?/);
  await dialog.locator("button", { hasText: "Approve" }).click();
  await dialog.waitFor({ state: "detached" });
}
