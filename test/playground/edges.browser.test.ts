import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { Redis } from "ioredis";
import type { Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningBot, startBot } from "../../src/bot.js";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/log.js";
import { STANDIN_IDS } from "../../src/standin/index.js";
import { freePort } from "../harness/ports.js";
import { deleteKeysMatching } from "../harness/redisKeys.js";
import { approveInPage, pageSession, pngSize, screenshotDir, VIEWPORT } from "./browser.js";
import { submitUntilAccepted } from "./submitModal.js";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
/** Placement, tracking and the notifier's pacing run in the background: give them room. */
const BACKGROUND_MS = 20_000;
const PRICE_EXAMPLE = "/connect price port ironbridge-iad1 10G 1y";

/** A port P with P + 1 free too: the stand-in (the page's server) takes the bot's port + 1. */
async function twoFreePorts(): Promise<number> {
  const free = (port: number) =>
    new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once("error", () => resolve(false));
      probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(true)));
    });
  for (let attempt = 0; attempt < 20; attempt++) {
    const port = await freePort();
    if (port < 65535 && (await free(port + 1))) return port;
  }
  throw new Error("no two free ports in a row");
}

/**
 * The playground's own edges (issue 32, items 5 to 8, and 10, 18, 24), in Chromium against the
 * real bot in playground mode: *View in approvals* opens the approval message in the page; Export
 * CSV's file downloads and parses; a fault knob fails the next order and the thread says so; a
 * restart of the bot under the open page is told, first "not answering", then "restarted".
 */
describe("npm start's playground: permalinks, files, fault knobs, restarts", () => {
  const prefix = `test:playground-edges-${randomUUID().slice(0, 8)}`;
  const goodName = `pg-edge-${randomUUID().slice(0, 6)}`;
  const failName = `pg-fail-${randomUUID().slice(0, 6)}`;
  let bot: RunningBot;
  let port: number;
  let page: Page;
  let shots: string;
  // Straight to the page on the stand-in: the bot's redirect leaves Chromium's spare socket open
  // to the bot's server, whose stop then waits out Node's 60 s headers timeout.
  const session = pageSession(async (opened) => {
    await opened.goto(`${bot.standin?.url}/playground`);
  });

  const start = async () => {
    const config = { ...loadConfig({ REDIS_URL, LOG_LEVEL: "silent" }), port };
    expect(config.slack.mode).toBe("playground");
    return startBot({
      config,
      logger: createLogger({ level: process.env.TEST_LOG_LEVEL ?? "silent" }),
      redisPrefix: prefix,
    });
  };
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
  const card = (name: string) =>
    page
      .locator("#messages .message:not(.ephemeral)", { hasText: "Requested by" })
      .filter({ hasText: name });
  const screenshot = async (shot: Page, name: string) => {
    const path = join(shots, name);
    await shot.screenshot({ path });
    expect(pngSize(await readFile(path))).toEqual(VIEWPORT);
  };
  const text = async (locator: Locator) => ((await locator.textContent()) ?? "").trim();

  /** Rita prices help's example, presses Order this and submits the form as `name`. */
  async function requestPort(name: string): Promise<void> {
    await openChannel("general");
    const before = await page
      .locator("#messages .message.ephemeral", { hasText: "Port price" })
      .count();
    await command(PRICE_EXAMPLE);
    const price = page
      .locator("#messages .message.ephemeral", { hasText: "Port price" })
      .nth(before);
    await price.waitFor({ timeout: BACKGROUND_MS });
    await price.locator("button", { hasText: "Order this" }).click();
    await modal().locator("#modal-title", { hasText: "Order a port" }).waitFor();
    await modal().locator(".block", { hasText: "about 24 hours" }).first().waitFor();
    const input = field("Port name").locator("input");
    await input.fill(name);
    await expect.poll(() => input.inputValue()).toBe(name);
    const confirmation = page
      .locator("#messages .message.ephemeral", { hasText: "waiting for approval" })
      .filter({ hasText: name });
    await submitUntilAccepted(page, confirmation, { retype: { input, value: name } });
    await card(name).waitFor({ timeout: BACKGROUND_MS });
  }

  /** Alex approves `name` in #network-approvals. */
  async function approve(name: string): Promise<void> {
    await actAs(STANDIN_IDS.approver, "Alex Approver");
    await openChannel("network-approvals");
    const request = page
      .locator("#messages .message:not(.ephemeral)", { hasText: name })
      .filter({ has: page.locator("button", { hasText: "Approve" }) })
      .first();
    await request.waitFor({ timeout: BACKGROUND_MS });
    await approveInPage(page, request, BACKGROUND_MS);
  }

  beforeAll(async () => {
    port = await twoFreePorts();
    bot = await start();
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

  it("View in approvals opens the page at the approval message, scrolled to it and highlighted (item 5)", async () => {
    await page.locator("#you", { hasText: "Rita Requester" }).waitFor();
    await requestPort(goodName);
    const opened = page.context().waitForEvent("page");
    await card(goodName).locator("a, button", { hasText: "View in approvals" }).click();
    const tab = await opened;
    try {
      await tab.waitForURL(/\/playground\?/);
      expect(new URL(tab.url()).searchParams.get("channel")).toBe(STANDIN_IDS.approvals);
      const linked = tab.locator("#messages .message.linked");
      await linked.waitFor();
      expect(await tab.locator("#channel-name").textContent()).toBe("#network-approvals");
      expect(await text(linked)).toContain(goodName);
      expect(await linked.locator("button", { hasText: "Approve" }).count()).toBe(1);
      expect(await linked.isVisible()).toBe(true);
      const box = await linked.boundingBox();
      expect(box && box.y >= 0 && box.y + box.height / 2 <= VIEWPORT.height).toBe(true);
      await screenshot(tab, "playground-permalink.png");
      // A link to no message of this run is the page saying so, not a 404.
      const stale = await fetch(
        `${new URL(tab.url()).origin}/archives/C0GENERAL1/p1000000000000100`,
        {
          redirect: "manual",
        },
      );
      expect(stale.status).toBe(302);
    } finally {
      await tab.close();
    }
  }, 60_000);

  it("Export CSV's file shows in the DM with a download link; the download parses (item 6)", async () => {
    await approve(goodName);
    await openChannel("general");
    await command("/connect spend");
    const spend = page.locator("#messages .message.ephemeral", { hasText: "Export CSV" }).last();
    await spend.waitFor({ timeout: BACKGROUND_MS });
    await spend.locator("button", { hasText: "Export CSV" }).click();
    const dm = page.locator("#dms .channel-link").first();
    await dm.waitFor({ timeout: BACKGROUND_MS });
    await dm.click();
    const file = page.locator("#messages .file").last();
    await file.waitFor({ timeout: BACKGROUND_MS });
    expect(await text(file)).toMatch(/\.csv · \d/);
    const downloading = page.waitForEvent("download");
    await file.locator("a.file-link").click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/\.csv$/);
    const path = await download.path();
    const rows = parse(await readFile(path), { columns: true }) as Array<Record<string, string>>;
    const row = rows.find((r) => r.name === goodName);
    expect(row, JSON.stringify(rows)).toBeDefined();
    expect(row?.kind).toBeTruthy();
    expect(Number(row?.["monthly amount"])).toBeGreaterThan(0);
    await screenshot(page, "playground-export-csv.png");
    // Someone who cannot see that DM cannot download its file.
    const href = (await file.locator("a.file-link").getAttribute("href")) ?? "";
    const other = new URL(href, page.url());
    other.searchParams.set("user", STANDIN_IDS.outsider);
    expect((await fetch(other)).status).toBe(404);
  }, 60_000);

  it("a fault knob fails the next order and the approval thread says so (item 8)", async () => {
    await actAs(STANDIN_IDS.requester, "Rita Requester");
    await requestPort(failName);
    const knobs = page.locator("#sandbox-faults");
    await knobs.locator("button", { hasText: /^400$/ }).click();
    await page.locator("#sandbox-faults-note", { hasText: "Next order: refused (400)" }).waitFor();
    await screenshot(page, "playground-faults.png");
    await approve(failName);
    const approval = page
      .locator("#messages .message:not(.ephemeral)", { hasText: failName })
      .first();
    await approval.locator(".replies").waitFor({ timeout: BACKGROUND_MS });
    await approval.locator(".replies").click();
    const failed = page
      .locator("#thread-messages .message:not(:first-child)", { hasText: /Nothing was ordered/i })
      .first();
    await failed.waitFor({ timeout: BACKGROUND_MS });
    expect(await text(failed)).toMatch(/refused/i);
    // The rule is spent: the knob's note says nothing is armed any more.
    await page.locator("#sandbox-faults-note", { hasText: "No faults armed" }).waitFor({
      timeout: BACKGROUND_MS,
    });
    await screenshot(page, "playground-fault-thread.png");
    const placed = await fetch(`${bot.sandbox?.url}/__sandbox/orders`);
    const orders = (await placed.json()) as Array<{ portName: string }>;
    expect(orders.some((o) => o.portName === failName)).toBe(false);
  }, 60_000);

  it("times follow the person shown after switching person from Home (item 10)", async () => {
    await actAs(STANDIN_IDS.requester, "Rita Requester");
    await openChannel("general");
    const ts = await page
      .locator("#messages .message:not(.ephemeral)")
      .last()
      .getAttribute("data-ts");
    await page.click("#home-link");
    await actAs(STANDIN_IDS.groupApprover, "Grace");
    await openChannel("general");
    const expected = new Intl.DateTimeFormat("en-GB", {
      hour: "2-digit",
      minute: "2-digit",
      timeZone: "America/New_York",
    }).format(new Date(Number(ts) * 1000));
    const shown = page.locator(`#messages .message[data-ts="${ts}"] .time`);
    await expect.poll(() => shown.textContent()).toBe(expected);
    await actAs(STANDIN_IDS.requester, "Rita Requester");
  });

  it("a 100-character name wraps in the thread pane (item 18)", async () => {
    await openChannel("general");
    const long = `pg-${"x".repeat(97)}`;
    await command(long);
    const message = page.locator("#messages .message", { hasText: long }).last();
    await message.waitFor();
    await message.locator(".reply-in-thread").click({ force: true });
    const pane = page.locator("#thread-messages");
    await pane.locator(".message", { hasText: long }).waitFor();
    const overflow = await pane.evaluate((node) => node.scrollWidth - node.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.click("#thread-close");
  });

  it("a 300-character paste into a 100-character field is kept and refused at the field, not cut (item 18)", async () => {
    await openChannel("general");
    await command("/connect port order");
    await modal().locator("#modal-title", { hasText: "Order a port" }).waitFor();
    const name = field("Port name");
    const input = name.locator("input");
    await input.fill("p".repeat(300));
    expect((await input.inputValue()).length).toBe(300);
    await name.locator(".field-error", { hasText: "300 characters: at most 100" }).waitFor();
    await input.fill("p".repeat(100));
    await expect.poll(() => name.locator(".field-error").textContent()).toBe("");
    await modal().locator("button", { hasText: "Cancel" }).first().click();
    await modal().waitFor({ state: "detached" });
  });

  it("on a phone (390×844) the message box's placeholder fits (item 24)", async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await page.click("#menu-toggle");
      await page.click("#channels .channel-link >> text=network-approvals");
      // The placeholder's width in the box's font against the room inside its padding.
      const fits = await page.evaluate<boolean>(`(() => {
        const box = document.getElementById("composer-input");
        const style = getComputedStyle(box);
        const context = document.createElement("canvas").getContext("2d");
        context.font = style.fontSize + " " + style.fontFamily;
        const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return context.measureText(box.placeholder).width <= room;
      })()`);
      expect(fits).toBe(true);
      expect(await page.locator("#composer-input").getAttribute("placeholder")).toBe(
        "Message #network-approvals",
      );
    } finally {
      await page.setViewportSize(VIEWPORT);
    }
  });

  it("a restart under the open page: 'not answering' while down, then 'restarted' (item 7)", async () => {
    await actAs(STANDIN_IDS.requester, "Rita Requester");
    await openChannel("general");
    await bot.stop();
    const notice = page.locator("#run-notice");
    await notice.locator("text=The bot is not answering").waitFor({ timeout: BACKGROUND_MS });
    expect(await text(notice)).toContain("is `npm start` still running?");
    // A command while it is down is told the same, not "Failed to fetch".
    await command("/connect help");
    await page.locator("#toast", { hasText: "The bot is not answering" }).waitFor();
    expect(await page.locator("#toast").textContent()).not.toContain("Failed to fetch");
    await screenshot(page, "playground-bot-down.png");

    bot = await start();
    await notice
      .locator("text=The playground restarted: everything was reset")
      .waitFor({ timeout: BACKGROUND_MS });
    expect(await card(goodName).count()).toBe(0);
    await screenshot(page, "playground-restarted.png");
    await notice.locator("button").click();
    expect(await notice.isHidden()).toBe(true);
  }, 90_000);
});
