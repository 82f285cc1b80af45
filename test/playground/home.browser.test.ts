import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { WebClient } from "@slack/web-api";
import { Redis } from "ioredis";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type RunningBot, startBot } from "../../src/bot.js";
import { loadConfig } from "../../src/config.js";
import { createLogger } from "../../src/log.js";
import { submitForApproval } from "../../src/slack/kit/index.js";
import { STANDIN_IDS } from "../../src/standin/index.js";
import { waitFor } from "../harness/index.js";
import { placeableDcf } from "../harness/portOrders.js";
import { deleteKeysMatching } from "../harness/redisKeys.js";
import { pageSession, pngSize, screenshotDir, VIEWPORT } from "./browser.js";

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
/** Placement and the Home's debounced refresh run in the background: give them room. */
const BACKGROUND_MS = 20_000;

/**
 * App Home in `npm start`'s playground, in Chromium against the real bot: Rita's request waits
 * on Alex; Alex opens the app's Home tab, sees it under *Waiting on me* and approves it there;
 * the order is placed once and the approval message in #network-approvals says so.
 */
describe("npm start's playground: App Home as the approver", () => {
  const prefix = `test:playground-home-${randomUUID().slice(0, 8)}`;
  const portName = `pg-home-${randomUUID().slice(0, 6)}`;
  let bot: RunningBot;
  let page: Page;
  let requestId: string;
  const session = pageSession(async (opened) => {
    await opened.goto(bot.playgroundUrl ?? "");
  });
  const home = () => page.locator("#home");
  const portOrderCalls = async () => {
    const url = `${bot.sandbox?.url}/__sandbox/requests?summary=1`;
    const summary = (await (await fetch(url)).json()) as { byOperation: Record<string, number> };
    return summary.byOperation.createPortOrder ?? 0;
  };

  beforeAll(async () => {
    const config = { ...loadConfig({ REDIS_URL, LOG_LEVEL: "silent" }), port: 0 };
    expect(config.slack.mode).toBe("playground");
    bot = await startBot({
      config,
      logger: createLogger({ level: process.env.TEST_LOG_LEVEL ?? "silent" }),
      redisPrefix: prefix,
    });
    const standin = bot.standin;
    if (!standin) throw new Error("playground mode runs the Slack stand-in");
    // Rita's request, submitted as her port order form does.
    const companyUsername = (await bot.services.identity()).companyUsername;
    const onNet = await placeableDcf(bot.services.provider);
    const submitted = await submitForApproval({
      services: bot.services,
      client: new WebClient(standin.botToken, { slackApiUrl: standin.apiUrl }),
      submission: {
        kind: "port",
        title: portName,
        summary: [
          { label: "Data center", value: onNet.name },
          { label: "Port name", value: portName },
        ],
        call: {
          operation: "createPortOrder",
          pathParams: { companyUsername },
          body: {
            dataCenterFacility: onNet.username,
            speed: onNet.speed,
            durationUnit: "y",
            portName,
            paymentType: "invoice",
          },
        },
        reconcileKey: portName,
        price: { monthly: 250, total: 3000, text: "250.00 a month, 3,000.00 for the term" },
        requester: { userId: STANDIN_IDS.requester, channelId: STANDIN_IDS.general },
      },
    });
    if (!submitted.ok) throw new Error(submitted.message);
    requestId = submitted.approval.id;
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

  it("opens Home as Alex and approves Rita's request from it; the order is placed once", async () => {
    await page.locator("#you").waitFor();
    await page.selectOption("#user", STANDIN_IDS.approver);
    await page.locator("#you", { hasText: "Alex" }).waitFor();
    await page.locator("#home-link").click();
    await expect.poll(() => page.locator("#channel-name").textContent()).toBe("Connect — Home");
    const waiting = home().locator(".block", { hasText: portName }).first();
    await waiting.waitFor({ timeout: BACKGROUND_MS });
    for (const section of ["Waiting on me", "My requests", "Being tracked", "Committed spend"]) {
      await home().getByText(section, { exact: true }).waitFor();
    }
    expect(await home().textContent()).toContain("Rita");
    expect(await home().textContent()).toContain("Price a port");

    const shots = await screenshotDir();
    const path = join(shots, "playground-home.png");
    await page.screenshot({ path });
    expect(pngSize(await readFile(path))).toEqual(VIEWPORT);

    const before = await portOrderCalls();
    await home().getByRole("button", { name: "Approve", exact: true }).first().click();

    const placed = await waitFor(
      async () => {
        const record = await bot.services.approvals.store.get(requestId);
        return record?.status === "placed" ? record : undefined;
      },
      { timeoutMs: BACKGROUND_MS, description: "the request placed" },
    );
    expect(placed.decision?.by).toBe(STANDIN_IDS.approver);
    expect(await portOrderCalls()).toBe(before + 1);

    // Home refreshes on its own: nothing waits on Alex any more.
    await home()
      .getByText("Nothing is waiting for your decision.")
      .waitFor({ timeout: BACKGROUND_MS });
    // And the channel's approval message says who approved it.
    await page.locator(".channel-link", { hasText: "network-approvals" }).click();
    await page
      .locator("#messages .message", { hasText: portName })
      .filter({ hasText: /approved by/i })
      .first()
      .waitFor({ timeout: BACKGROUND_MS });
  });
});
