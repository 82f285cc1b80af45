import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Redis } from "ioredis";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningBot, startBot } from "../../src/bot.js";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/log.js";
import { STANDIN_IDS } from "../../src/standin/index.js";
import { deleteKeysMatching } from "../harness/redisKeys.js";
import { pageSession, pngSize, screenshotDir, VIEWPORT } from "./browser.js";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/**
 * What a person sees after `npm start`: the bot in playground mode (no Slack credentials, the
 * embedded sandbox), opened in Chromium at the bot's /playground.
 */
describe("npm start's playground: the bot in Chromium", () => {
  const prefix = `test:playground-${randomUUID().slice(0, 8)}`;
  let bot: RunningBot;
  let page: Page;
  // The first test opens the page itself (it checks the redirect on the way).
  const session = pageSession(async () => {});
  let shots: string;

  const command = async (text: string) => {
    await page.fill("#composer-input", text);
    await page.press("#composer-input", "Enter");
  };
  const ephemeral = (text: string) =>
    page.locator("#messages .message.ephemeral", { hasText: text }).last();
  const modal = () => page.locator("#modal-root form.modal");
  const field = (label: string) =>
    modal().locator(".block.input", {
      has: page.locator(".input-label", { hasText: new RegExp(`^${label}`) }),
    });
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

  it("redirects the bot's /playground to the page on the stand-in", async () => {
    expect(bot.playgroundUrl).toBe(`${bot.url}/playground`);
    const response = await fetch(`${bot.url}/playground`, { redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${bot.standin?.url}/playground`);
    const root = await fetch(`${bot.url}/`, { redirect: "manual" });
    expect(root.headers.get("location")).toBe(`${bot.standin?.url}/playground`);
    // ?user= picks the person and survives the redirect.
    const asAlex = await fetch(`${bot.url}/playground?user=U0APPROVE1`, { redirect: "manual" });
    expect(asAlex.headers.get("location")).toBe(`${bot.standin?.url}/playground?user=U0APPROVE1`);
    await page.goto(bot.playgroundUrl ?? "");
    expect(page.url()).toBe(`${bot.standin?.url}/playground`);
    await page.locator("#banner", { hasText: "Nothing is really ordered" }).waitFor();
    await page.locator("#you", { hasText: "Rita Requester (requester)" }).waitFor();
    const channels = await page.locator("#channels .channel-link").allTextContents();
    expect(channels).toEqual(["# general", "# network-approvals"]);
  });

  it("answers /connect help privately, with every command", async () => {
    await command("/connect help");
    const help = ephemeral("Track and approve");
    await help.waitFor();
    const text = (await help.textContent()) ?? "";
    for (const line of ["/connect whoami", "/connect price port", "/connect port order"]) {
      expect(text).toContain(line);
    }
    expect(await help.locator(".only-you").textContent()).toContain("Only visible to you");
    await screenshot("playground-help.png");
  });

  it("answers /connect whoami, and Share in channel posts it in #general for everyone", async () => {
    await command("/connect whoami");
    const whoami = ephemeral("Who the bot acts as");
    await whoami.waitFor();
    expect(await whoami.locator(".mention").first().textContent()).toBe("@Rita Requester");
    const company = bot.sandbox?.apiUser.companyUsername ?? "";
    expect(company).not.toBe("");
    expect(await whoami.textContent()).toContain(company);

    await whoami.locator("button", { hasText: "Share in channel" }).click();
    const shared = page.locator("#messages .message:not(.ephemeral)", { hasText: "Shared by" });
    await shared.waitFor();
    expect(await shared.textContent()).toContain("Who the bot acts as");
    expect(await shared.locator(".author").textContent()).toBe("connect");
    await screenshot("playground-shared.png");
  });

  it("prices a port in the modal: a data center from the app's suggestions, then its speeds", async () => {
    await command("/connect price port");
    await modal().locator("#modal-title", { hasText: "Price a port" }).waitFor();
    // Slack's client refuses to submit with required inputs empty; so does the page.
    await modal().locator("button[type=submit]").click();
    await field("Data center")
      .locator(".field-error", { hasText: "Please complete this required field." })
      .waitFor();

    await field("Data center").locator("input").fill("Amsterdam");
    const suggestion = field("Data center").locator(".combo-option").first();
    await suggestion.waitFor();
    const picked = (await suggestion.textContent()) ?? "";
    expect(picked).toContain("Amsterdam");
    await suggestion.click();
    // The app updates the modal with the speeds this data center offers.
    const speed = field("Speed").locator("select");
    await speed.waitFor();
    const speeds = await speed.locator("option").allTextContents();
    expect(speeds.length).toBeGreaterThan(1);
    await speed.selectOption({ index: 1 });
    await screenshot("playground-price-modal.png");
    await modal().locator("button[type=submit]").click();
    await modal().waitFor({ state: "detached" });

    const price = ephemeral("Port price");
    await price.waitFor();
    expect(await price.textContent()).toContain(speeds[1] ?? "?");
    expect(await price.textContent()).toContain("Sandbox");
    await screenshot("playground-price.png");
  });

  it("switches to the approver: channel messages stay, Rita's private answers are hers", async () => {
    await page.selectOption("#user", STANDIN_IDS.approver);
    await page.locator("#you", { hasText: "Alex Approver (approver)" }).waitFor();
    await page.locator("#messages .message", { hasText: "Shared by" }).waitFor();
    expect(await page.locator("#messages .message.ephemeral").count()).toBe(0);

    await command("/connect whoami");
    const whoami = ephemeral("Who the bot acts as");
    await whoami.waitFor();
    expect(await whoami.locator(".mention").first().textContent()).toBe("@Alex Approver");

    await page.click("#channels .channel-link >> text=network-approvals");
    await page.locator("#channel-name", { hasText: "#network-approvals" }).waitFor();
    await page.selectOption("#user", STANDIN_IDS.requester);
    await page.locator("#you", { hasText: "Rita Requester" }).waitFor();
  });

  it("closes a dialog left open when the page is loaded again", async () => {
    await command("/connect price port");
    await modal().locator("#modal-title", { hasText: "Price a port" }).waitFor();
    await page.reload();
    await page.locator("#you", { hasText: "Rita Requester" }).waitFor();
    await page.locator("#messages .message").first().waitFor();
    await expect.poll(() => bot.standin?.modalStack(STANDIN_IDS.requester).length).toBe(0);
    expect(await modal().count()).toBe(0);
  });

  it("renders the emoji shortcodes of the bot's messages, not their text", async () => {
    await command("/connect help");
    await ephemeral("Track and approve").waitFor();
    const text = (await page.locator("#messages").textContent()) ?? "";
    expect(text).not.toMatch(/:[a-z][a-z0-9_+-]*:/);
  });

  it("works at 420 px (the sidebar collapses behind a menu button) and at 1024 px", async () => {
    const overflow = () =>
      page.evaluate<number>("document.documentElement.scrollWidth - window.innerWidth");
    try {
      await page.setViewportSize({ width: 420, height: 800 });
      expect(await page.locator(".sidebar").isVisible()).toBe(false);
      expect(await overflow()).toBeLessThanOrEqual(0);
      await command("/connect whoami");
      await ephemeral("Who the bot acts as").waitFor();
      await page.click("#menu-toggle");
      await page.locator(".sidebar").waitFor({ state: "visible" });
      await page.click("#channels .channel-link >> text=network-approvals");
      await page.locator("#channel-name", { hasText: "#network-approvals" }).waitFor();
      expect(await page.locator(".sidebar").isVisible()).toBe(false);
      await page.click("#menu-toggle");
      await page.click("#channels .channel-link >> text=general");
      await page.locator("#channel-name", { hasText: "#general" }).waitFor();

      await page.setViewportSize({ width: 1024, height: 768 });
      expect(await page.locator(".sidebar").isVisible()).toBe(true);
      expect(await page.locator("#menu-toggle").isVisible()).toBe(false);
      expect(await overflow()).toBeLessThanOrEqual(0);
    } finally {
      await page.setViewportSize(VIEWPORT);
    }
  });

  it("runs every example help shows, once each, and each is answered visibly", async () => {
    await command("/connect help");
    const help = ephemeral("Track and approve");
    await help.waitFor();
    // Help's examples come from the sandbox's data (src/usecases/helpExamples.ts): run them as shown.
    // Syntax lines (`/connect dcf [text]`, `<portId>`, `a | b`) are not examples.
    const examples = [
      ...new Set(
        (await help.locator("code").allTextContents()).filter(
          (t) => t.startsWith("/connect ") && !/[[<|]/.test(t),
        ),
      ),
    ];
    expect(examples.length).toBeGreaterThanOrEqual(10);
    const failures =
      /No data center matches|No port with id|No port order with id|Usage:|I don't know|Something went wrong/;
    for (const example of examples) {
      const before = await page.locator("#messages .message").count();
      await command(example);
      await expect
        .poll(
          async () =>
            (await modal().count()) > 0 ||
            (await page.locator("#messages .message").count()) > before,
          { timeout: 15_000, message: example },
        )
        .toBe(true);
      if ((await modal().count()) > 0) {
        const title = modal().locator("#modal-title");
        expect(await title.isVisible(), example).toBe(true);
        expect(((await title.textContent()) ?? "").trim(), example).not.toBe("");
        await modal().locator(".modal-footer button", { hasText: "Cancel" }).click();
        await modal().waitFor({ state: "detached" });
      } else {
        const answer = page.locator("#messages .message").last();
        expect(await answer.isVisible(), example).toBe(true);
        const words = ((await answer.locator(".blocks").first().textContent()) ?? "").trim();
        expect(words, example).not.toBe("");
        expect(words, example).not.toMatch(failures);
      }
    }
  }, 180_000);
});
