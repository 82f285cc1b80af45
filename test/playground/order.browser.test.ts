import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Redis } from "ioredis";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningBot, startBot } from "../../src/bot.js";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/log.js";
import type { Dcf } from "../../src/provider/api.js";
import { STANDIN_IDS } from "../../src/standin/index.js";
import { deleteKeysMatching } from "../harness/redisKeys.js";
import { approveInPage, pageSession, pngSize, screenshotDir, VIEWPORT } from "./browser.js";
import { submitUntilAccepted } from "./submitModal.js";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
/** Placement, tracking and the notifier's pacing run in the background: give them room. */
const BACKGROUND_MS = 20_000;

/**
 * A person's ordering path in `npm start`'s playground, in Chromium against the real bot: Rita
 * orders a port in the modal, Alex approves it in #network-approvals, and "Advance sandbox time"
 * takes the on-net order through its day of provisioning while the thread fills.
 */
describe("npm start's playground: ordering a port, approving it, watching the thread", () => {
  const prefix = `test:playground-order-${randomUUID().slice(0, 8)}`;
  const portName = `pg-order-${randomUUID().slice(0, 6)}`;
  let bot: RunningBot;
  let page: Page;
  let onNet: Dcf;
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
  const request = () =>
    page.locator("#messages .message:not(.ephemeral)", { hasText: portName }).first();
  const threadReply = (text: string | RegExp) =>
    page.locator("#thread-messages .message", { hasText: text }).last();
  const timeButton = (label: string) =>
    page.locator("#sandbox-time button", { hasText: new RegExp(`^\\${label}$`) });
  const portOrderCalls = async () => {
    const url = `${bot.sandbox?.url}/__sandbox/requests?summary=1`;
    const summary = (await (await fetch(url)).json()) as { byOperation: Record<string, number> };
    return summary.byOperation.createPortOrder ?? 0;
  };
  const screenshot = async (name: string) => {
    const path = join(shots, name);
    await page.screenshot({ path });
    expect(pngSize(await readFile(path))).toEqual(VIEWPORT);
  };

  beforeAll(async () => {
    const config = { ...loadConfig({ REDIS_URL, LOG_LEVEL: "silent" }), port: 0 };
    expect(config.slack.mode).toBe("playground");
    bot = await startBot({
      config,
      logger: createLogger({ level: process.env.TEST_LOG_LEVEL ?? "silent" }),
      redisPrefix: prefix,
    });
    // An on-net data center: its order is done about a day after it is placed.
    const dcfs = await bot.services.provider.listDcfs({
      where: { "dataCenterFacility.ready": true },
    });
    const found = dcfs.find(
      (d) =>
        d.name &&
        d.username &&
        (d.dataCenterFacility?.speeds?.length ?? 0) > 1 &&
        !(d.tags ?? []).some((t) => /off|ext/i.test(t)),
    );
    if (!found) throw new Error("the sandbox has no on-net DCF with speeds");
    onNet = found;
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

  it("as Rita: orders a port in the modal and is told it waits for approval", async () => {
    await page.locator("#you", { hasText: "Rita Requester" }).waitFor();
    await page.locator("#sandbox-time", { hasText: "Advance sandbox time" }).waitFor();
    expect(await page.locator("#sandbox-time-note").textContent()).toContain("real time");

    await command("/connect port order");
    await modal().locator("#modal-title", { hasText: "Order a port" }).waitFor();
    await field("Data center")
      .locator("input")
      .fill(onNet.name ?? "");
    const suggestion = field("Data center")
      .locator(".combo-option", { hasText: onNet.name ?? "" })
      .first();
    await suggestion.waitFor();
    await suggestion.click();
    // The app updates the modal with this data center's speeds and its LOA path.
    const speed = field("Speed").locator("select");
    await speed.waitFor();
    await modal().locator(".block", { hasText: "about 24 hours" }).first().waitFor();
    await speed.selectOption({ index: 1 });
    await field("Term").locator("select").selectOption({ label: "1 year (12 months)" });
    // The live price follows speed and term; the port name is typed once the modal has settled
    // (each choice above redraws it, and a late redraw must not be typed into).
    await modal().locator(".block", { hasText: "Price (total for 1 year" }).waitFor();
    const name = field("Port name").locator("input");
    await name.fill(portName);
    await expect.poll(() => name.inputValue()).toBe(portName);
    await screenshot("playground-order-modal.png");
    const confirmation = page.locator("#messages .message.ephemeral", { hasText: portName });
    await submitUntilAccepted(page, confirmation, { retype: { input: name, value: portName } });
    await confirmation.waitFor();
    expect(await confirmation.textContent()).toContain("waiting for approval");
  });

  it("as Alex: sees the request in #network-approvals, approves it, and it is ordered once", async () => {
    await page.selectOption("#user", STANDIN_IDS.approver);
    await page.locator("#you", { hasText: "Alex Approver" }).waitFor();
    await page.click("#channels .channel-link >> text=network-approvals");
    await page.locator("#channel-name", { hasText: "#network-approvals" }).waitFor();
    await request().waitFor({ timeout: BACKGROUND_MS });
    const shown = (await request().textContent()) ?? "";
    for (const expected of [portName, onNet.name ?? "", "1 year (12 months)", "Sandbox"]) {
      expect(shown).toContain(expected);
    }
    expect(await request().locator(".mention").first().textContent()).toBe("@Rita Requester");
    await screenshot("playground-order-approval.png");

    // Reject asks first, with a red (danger) confirm button; Cancel changes nothing.
    await request().locator("button", { hasText: "Reject" }).click();
    const dialog = page.locator(".modal.confirm");
    await dialog.waitFor();
    const confirm = dialog.locator(".modal-footer button", { hasText: "Reject" });
    expect(await confirm.getAttribute("class")).toContain("danger");
    const red = await page.evaluate<string>(
      'getComputedStyle(document.querySelector(".modal.confirm .modal-footer .btn.danger")).backgroundColor',
    );
    const [r = 0, g = 0, b = 0] = (red.match(/\d+/g) ?? []).map(Number);
    expect(r).toBeGreaterThan(150);
    expect(r).toBeGreaterThan(g + 60);
    expect(r).toBeGreaterThan(b + 60);
    await dialog.locator(".modal-footer button", { hasText: "Cancel" }).click();
    await dialog.waitFor({ state: "detached" });

    const before = await portOrderCalls();
    // The request is updated in place: no buttons once decided.
    await approveInPage(page, request(), BACKGROUND_MS);
    await request().locator(".replies").waitFor({ timeout: BACKGROUND_MS });
    await request().locator(".replies").click();
    // The placement's line ("Order `…` is *created*"): the parent, rendered when its update is
    // sent, may already say "Ordered · now created" above it.
    const ordered = threadReply(/is created/);
    await ordered.waitFor({ timeout: BACKGROUND_MS });
    expect(await ordered.textContent()).toMatch(/Ordered/);
    expect((await portOrderCalls()) - before).toBe(1);
    // The tracker's first read: its opening reply; each change follows below it.
    await threadReply("Each change is posted in this thread").waitFor({ timeout: BACKGROUND_MS });
  });

  it("advances sandbox time: the status changes, then the order is done with the new port", async () => {
    await timeButton("+1 hour").click();
    await page.locator("#sandbox-time-note", { hasText: "1 hour ahead of real time" }).waitFor();
    expect(await page.locator("#sandbox-time-note").textContent()).toContain("1 open order");
    // An hour on, the provider has allocated the port and is processing it; the LOA is pending.
    const change = threadReply(/status created → processing/);
    await change.waitFor({ timeout: BACKGROUND_MS });
    // The provider's placeholder LOA status (TODO) is said in words.
    expect(await change.textContent()).toContain("LOA not issued yet → PENDING");

    await timeButton("+1 day").click();
    await page
      .locator("#sandbox-time-note", { hasText: "1 day 1 hour ahead of real time" })
      .waitFor();
    const done = threadReply("is done");
    await done.waitFor({ timeout: BACKGROUND_MS });
    const text = (await done.textContent()) ?? "";
    expect(text).toContain("New port");
    expect(text).toContain(portName);
    // The LOA is APPROVED by then: the end does not say the LOA comes next. Nothing is tracked
    // any more.
    expect(text).not.toContain("Next: the LOA");
    expect(text).toContain("The LOA step is complete");
    expect(await bot.jobs.tracker.list()).toEqual([]);
    // Every relative time is measured on the sandbox's clock: none reads as in the future.
    const everything = (await page.locator("body").textContent()) ?? "";
    const future =
      /.{0,60}\bin (about |over |almost |less than )?(a|an|\d+) (second|minute|hour|day|week|month|year)s?\b/gi;
    // "The LOA is available in about 24 hours" is the LOA rule, a duration, not a time.
    const times = (everything.match(future) ?? []).filter(
      (m) => !/LOA is (available|ready) in/.test(m),
    );
    expect(times).toEqual([]);
    await screenshot("playground-order-thread.png");
  });
});
