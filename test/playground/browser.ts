import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserContext, chromium, type Locator, type Page } from "playwright-core";

/**
 * Debian's Chromium driven by playwright-core (no browser download: the machine's package is
 * used). A missing Chromium fails the test at once with the command that fixes it; launching
 * and every wait are bounded, so nothing hangs.
 */

export const CHROMIUM = "/usr/bin/chromium";
export const VIEWPORT = { width: 1280, height: 800 };

export interface Browser {
  context: BrowserContext;
  /** Uncaught errors of the pages so far; a test asserts there are none. */
  pageErrors: string[];
  newPage(): Promise<Page>;
  close(): Promise<void>;
}

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing — npm run test:deps installs it (apt-get install -y chromium)`,
    );
  }
  const userDataDir = await mkdtemp(join(tmpdir(), "playground-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    timeout: 20_000,
    viewport: VIEWPORT,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  context.setDefaultTimeout(10_000);
  const pageErrors: string[] = [];
  return {
    context,
    pageErrors,
    async newPage() {
      const page = await context.newPage();
      page.on("pageerror", (error) => pageErrors.push(error.message));
      return page;
    },
    async close() {
      await context.close().catch(() => undefined);
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}

export interface PageSession {
  /** The page, opened on first use. */
  page(): Promise<Page>;
  /** Uncaught errors of the page so far. */
  pageErrors(): string[];
  close(): Promise<void>;
}

/**
 * One browser page for a whole test file, opened by the first test that asks (call `page()` in
 * `beforeEach`). When Chromium is missing or the page cannot open, every test fails with that
 * error: a failure in `beforeAll` would only mark them skipped.
 */
export function pageSession(open: (page: Page) => Promise<void>): PageSession {
  let ready: Promise<{ browser: Browser; page: Page }> | undefined;
  let errors: string[] = [];
  return {
    async page() {
      ready ??= (async () => {
        const browser = await launchChromium();
        errors = browser.pageErrors;
        const page = await browser.newPage();
        await open(page);
        return { browser, page };
      })();
      return (await ready).page;
    },
    pageErrors: () => errors,
    async close() {
      const session = await ready?.catch(() => undefined);
      await session?.browser.close();
    },
  };
}

/**
 * Where screenshots go: `docs/screenshots/` when UPDATE_SCREENSHOTS=1 (the lead commits them),
 * else a temporary folder, so that a normal test run leaves the work tree alone. Pages that only
 * a test shows (the fixture app) never go to the docs.
 */
export async function screenshotDir(options: { forDocs?: boolean } = {}): Promise<string> {
  const dir =
    process.env.UPDATE_SCREENSHOTS === "1" && options.forDocs !== false
      ? join(import.meta.dirname, "../../docs/screenshots")
      : join(tmpdir(), "playground-screenshots");
  await mkdir(dir, { recursive: true });
  return dir;
}

/** The width and height a PNG file says it has (its IHDR chunk). */
export function pngSize(png: Buffer): { width: number; height: number } {
  if (png.subarray(1, 4).toString("latin1") !== "PNG") throw new Error("not a PNG");
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/**
 * Clicks Approve on `request` and, when it asks first (from APPROVE_CONFIRM_FROM a month, the
 * dialog "Approve this order?" naming the total), confirms; resolves once the request's buttons
 * are gone. Says whether it asked, so a test can assert the threshold too.
 */
export async function approveInPage(
  page: Page,
  request: Locator,
  timeoutMs: number,
): Promise<{ asked: boolean }> {
  const approve = request.locator("button", { hasText: "Approve" });
  await approve.click();
  const dialog = page.locator("[role=alertdialog]", { hasText: "Approve this order?" });
  const decided = approve.waitFor({ state: "detached", timeout: timeoutMs });
  // Whichever comes first: the dialog, or the buttons gone (no dialog below the threshold).
  const asked = await Promise.race([
    dialog.waitFor({ timeout: timeoutMs }).then(
      () => true,
      () => false,
    ),
    decided.then(
      () => false,
      () => false,
    ),
  ]);
  if (asked) await dialog.locator("button", { hasText: "Approve" }).click();
  await decided;
  return { asked };
}
