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
import { placeableDcf } from "../harness/portOrders.js";
import { deleteKeysMatching } from "../harness/redisKeys.js";
import { approveInPage, pageSession, pngSize, screenshotDir, VIEWPORT } from "./browser.js";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
/** Placement and the notifier's pacing run in the background: give them room. */
const BACKGROUND_MS = 20_000;

/**
 * Issue 30 in `npm start`'s playground, in Chromium against the real bot: Rita runs the sample
 * workflow of the Workflows panel (a form → Price a port → Request a port order → a message);
 * the price step ends at once, the request step waits until Alex approves in
 * #network-approvals, and the run ends with the provider's order id, also posted in #general.
 * `UPDATE_SCREENSHOTS=1` writes docs/screenshots/workflow-run.png.
 */
describe("npm start's playground: the Workflows panel runs a sample workflow to its order id", () => {
  const prefix = `test:playground-workflow-${randomUUID().slice(0, 8)}`;
  let bot: RunningBot;
  let page: Page;
  let dcf: Dcf & { username: string };
  let shots: string;
  const session = pageSession(async (opened) => {
    await opened.goto(bot.playgroundUrl ?? "");
  });

  const step = (title: string) => page.locator("#wf-runs .wf-run .wf-step", { hasText: title });

  beforeAll(async () => {
    const config = { ...loadConfig({ REDIS_URL, LOG_LEVEL: "silent" }), port: 0 };
    expect(config.slack.mode).toBe("playground");
    bot = await startBot({
      config,
      logger: createLogger({ level: process.env.TEST_LOG_LEVEL ?? "silent" }),
      redisPrefix: prefix,
    });
    dcf = (await placeableDcf(bot.services.provider)).dcf as Dcf & { username: string };
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

  it("as Rita: runs the workflow; the price comes back and the request waits for approval", async () => {
    await page.locator("#you", { hasText: "Rita Requester" }).waitFor();
    await page.click("#workflows-link");
    await page.locator("#workflows .wf-outline", { hasText: "Price a port" }).waitFor();
    // The channel's messages and composer give way to the panel.
    expect(await page.locator("#composer").isVisible()).toBe(false);
    await page.fill("#wf-data-center", dcf.username);
    await page.fill("#wf-speed", String(Number(dcf.dataCenterFacility?.speeds?.[0])));
    await page.selectOption("#wf-term", "12");
    await page.click("#wf-form button[type=submit]");

    await step("Price a port").and(page.locator("[data-state=done]")).waitFor({
      timeout: BACKGROUND_MS,
    });
    expect(await step("Price a port").textContent()).toContain("monthly_price");
    expect(await step("Price a port").textContent()).toContain("USD");
    const waiting = step("Request a port order");
    await waiting.and(page.locator("[data-state=running]")).waitFor({ timeout: BACKGROUND_MS });
    expect(await waiting.textContent()).toContain("Waiting for approval");
  });

  it("as Alex: approves the workflow's request; the run ends with the order id", async () => {
    await page.selectOption("#user", STANDIN_IDS.approver);
    await page.locator("#you", { hasText: "Alex Approver" }).waitFor();
    await page.click("#channels .channel-link >> text=network-approvals");
    await page.locator("#channel-name", { hasText: "#network-approvals" }).waitFor();
    const request = page
      .locator("#messages .message:not(.ephemeral)", { hasText: "wf-port-1-" })
      .first();
    await request.waitFor({ timeout: BACKGROUND_MS });
    await approveInPage(page, request, BACKGROUND_MS);

    await page.selectOption("#user", STANDIN_IDS.requester);
    await page.locator("#you", { hasText: "Rita Requester" }).waitFor();
    await page.click("#workflows-link");
    const message = step("Send a message");
    await message.and(page.locator("[data-state=done]")).waitFor({ timeout: BACKGROUND_MS });

    const record = (await bot.services.approvals.store.list({ limit: 20 })).find((r) =>
      r.title.startsWith("wf-port-1-"),
    );
    const orderId = record?.result?.providerId;
    expect(record?.status).toBe("placed");
    expect(orderId).toMatch(/\S/);
    expect(record?.step?.callbackId).toBe("request_port_order");
    expect(await step("Request a port order").textContent()).toContain(orderId);
    expect(await message.textContent()).toContain(`port order ${orderId} is placed`);
    const path = join(shots, "workflow-run.png");
    await page.screenshot({ path });
    expect(pngSize(await readFile(path))).toEqual(VIEWPORT);

    // Slack's own "Send a message" step: the order id in #general.
    await page.click("#channels .channel-link >> text=general");
    await page
      .locator("#messages .message", { hasText: `port order ${orderId} is placed` })
      .waitFor();
  });
});
