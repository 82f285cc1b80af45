import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { STANDIN_IDS } from "../../src/standin/index.js";
import { waitFor } from "../harness/waitFor.js";
import { pageSession, screenshotDir } from "./browser.js";
import { FIXTURE_CALLBACK, type FixtureEnv, startFixtureEnv } from "./fixtureApp.js";

/**
 * The page in a real browser against a fixture app that uses every element the page renders,
 * so modals, field errors, dispatching selects, external selects, confirm dialogs and threads
 * are covered whatever the bot's own commands look like today.
 */
describe("the playground page in Chromium (fixture app)", () => {
  let env: FixtureEnv;
  let page: Page;
  const session = pageSession(async (opened) => {
    await opened.goto(`${env.playground.url}?user=${STANDIN_IDS.requester}`);
    await opened.locator("#you", { hasText: "Rita Requester" }).waitFor();
  });

  const modal = () => page.locator("#modal-root form.modal");
  const field = (label: string) =>
    modal().locator(".block.input", { has: page.locator(".input-label", { hasText: label }) });
  const command = async (text: string) => {
    await page.fill("#composer-input", text);
    await page.press("#composer-input", "Enter");
  };

  beforeAll(async () => {
    env = await startFixtureEnv();
  });
  beforeEach(async () => {
    page = await session.page();
  });
  afterEach(() => {
    expect(session.pageErrors()).toEqual([]);
  });
  afterAll(async () => {
    await session.close();
    await env?.close();
  });

  it("fills a modal: text, number, selects, an external select, radio buttons and checkboxes", async () => {
    await command("/connect form");
    await modal().waitFor();
    expect(await modal().getAttribute("data-callback-id")).toBe(FIXTURE_CALLBACK);
    expect(await modal().locator("#modal-title").textContent()).toBe("Fixture form");

    // A number a person could not enter in Slack is refused under the field, at once.
    await field("Speed (Mbps)").locator("input").fill("fast");
    await field("Port name").locator("input").click();
    await field("Speed (Mbps)")
      .locator(".field-error", { hasText: "not a whole number" })
      .waitFor();

    await field("Port name").locator("input").fill("bad-port");
    await field("Speed (Mbps)").locator("input").fill("1000");
    await field("Term").locator("select").selectOption("12");
    const dcf = field("Data center").locator("input");
    await dcf.fill("lon");
    await field("Data center").locator(".combo-option", { hasText: "London LD5" }).click();
    expect(await dcf.inputValue()).toBe("London LD5");

    // A dispatch_action select: the app updates the view; what was entered stays.
    await field("Class of service").locator("select").selectOption("gold");
    await modal().locator(".block.context", { hasText: "Class Gold chosen" }).waitFor();
    expect(await field("Port name").locator("input").inputValue()).toBe("bad-port");
    expect(await field("Data center").locator("input").inputValue()).toBe("London LD5");

    await field("Diversity zone").getByLabel("Blue").check();
    await field("Notify").getByLabel("Email me").check();
    await field("Notes").locator("textarea").fill("rack 12, <b>cage</b> 3");
    await modal().locator("button[type=submit]", { hasText: "Get price" }).click();

    // response_action: errors, shown under the field the app named.
    await field("Port name").locator(".field-error", { hasText: "must not contain" }).waitFor();
    expect(env.submissions.at(-1)?.user).toBe(STANDIN_IDS.requester);
    await page.screenshot({
      path: join(await screenshotDir({ forDocs: false }), "playground-fixture-errors.png"),
    });

    await field("Port name").locator("input").fill("ams-1");
    await modal().locator("button[type=submit]").click();
    await modal().locator(".block.header", { hasText: "What the app received" }).waitFor();
    const summary = await modal().locator(".section-text").textContent();
    expect(summary).toBe(
      "ams-1 · speed 1000 · term 12 · dcf dcf-ld5 · class gold · zone blue · notify email",
    );
  });

  it("pushes a modal on top and goes back, then closes", async () => {
    await modal().locator("button", { hasText: "More detail" }).click();
    await modal().locator("#modal-title", { hasText: "More detail" }).waitFor();
    expect(await modal().locator("em").textContent()).toBe("Nothing more to say.");
    await modal().locator(".modal-footer button", { hasText: "Back" }).click();
    await modal().locator("#modal-title", { hasText: "Fixture result" }).waitFor();
    await modal().locator(".modal-footer button", { hasText: "Done" }).click();
    await modal().waitFor({ state: "detached" });
    expect(env.standin.modalStack(STANDIN_IDS.requester)).toEqual([]);
  });

  it("will not submit with a required field empty, as Slack's client", async () => {
    const before = env.submissions.length;
    await command("/connect form");
    await modal().waitFor();
    await modal().locator("button[type=submit]").click();
    await field("Port name")
      .locator(".field-error", { hasText: "Please complete this required field." })
      .waitFor();
    expect(env.submissions.length).toBe(before);
    await page.keyboard.press("Escape");
    await modal().waitFor({ state: "detached" });
  });

  it("Enter in a dispatch_action input sends the value and keeps the form; elsewhere it submits, refused while required fields are empty", async () => {
    const before = env.submissions.length;
    await command("/connect form");
    await modal().waitFor();
    await field("Reference").locator("input").fill("ref-42");
    await field("Reference").locator("input").press("Enter");
    await waitFor(() => env.references.includes("ref-42"));
    expect(await modal().locator(".field-error:not(:empty)").count()).toBe(0);
    expect(env.submissions.length).toBe(before);

    // Enter in Port name (no dispatch_action) submits: Slack refuses the empty required fields.
    await field("Port name").locator("input").fill("ams-1");
    await field("Port name").locator("input").press("Enter");
    await field("Term")
      .locator(".field-error", { hasText: "Please complete this required field." })
      .waitFor();
    expect(env.submissions.length).toBe(before);
    await page.keyboard.press("Escape");
    await modal().waitFor({ state: "detached" });
  });

  it("shows what a provider wrote as text, never as markup", async () => {
    await command("/connect buttons");
    const message = page.locator(".message", { hasText: "<img src=x onerror=" });
    await message.waitFor();
    expect(await message.locator(".section-text").textContent()).toBe(
      "<img src=x onerror=\"document.body.dataset.pwned='1'\"> <script>document.body.dataset.pwned='2'</script> click me",
    );
    expect(await page.locator(".messages img, .messages script").count()).toBe(0);
    expect(await message.locator("a").count()).toBe(0);
    expect(await page.locator("body").getAttribute("data-pwned")).toBeNull();
  });

  it("asks for confirmation before a guarded button, and a select in a message reaches the app", async () => {
    const message = page.locator(".message", { hasText: "<img src=x onerror=" });
    await message.locator("button", { hasText: "Approve" }).click();
    const dialog = page.locator("[role=alertdialog]");
    await dialog.locator("h2", { hasText: "Approve this?" }).waitFor();
    await dialog.locator("button", { hasText: "Not yet" }).click();
    await dialog.waitFor({ state: "detached" });
    await message.locator("button", { hasText: "Approve" }).click();
    await dialog.locator("button", { hasText: "Approve" }).click();
    await page
      .locator(".message .text", { hasText: "Approved by @Rita Requester" })
      .first()
      .waitFor();
    await message.locator("select").selectOption("purple");
    await page.locator(".message .text", { hasText: "@Rita Requester picked purple" }).waitFor();
  });

  it("replies in a thread and shows the reply count", async () => {
    await command("Anyone free to approve ams-1?");
    const mine = page.locator(".message", { hasText: "Anyone free to approve ams-1?" });
    await mine.waitFor();
    await mine.hover();
    await mine.locator(".reply-in-thread").click();
    await page.locator("#thread").waitFor();
    await page.fill("#thread-input", "On it — <@U0APPROVE1>");
    await page.press("#thread-input", "Enter");
    await page.locator("#thread-messages .message", { hasText: "On it" }).waitFor();
    await mine.locator(".replies", { hasText: "1 reply" }).waitFor();
    await page.click("#thread-close");
    await page.locator("#thread").waitFor({ state: "hidden" });
    await mine.locator(".replies").click();
    await page.locator("#thread-messages .message", { hasText: "On it" }).waitFor();
  });

  it("switches person: another person sees channel messages but not Rita's ephemerals", async () => {
    await command("/connect just for me");
    await page.locator("#messages .message.ephemeral", { hasText: "just for me" }).waitFor();
    expect(
      await page.locator("#messages .message.ephemeral .only-you").first().textContent(),
    ).toContain("Only visible to you");
    await page.selectOption("#user", STANDIN_IDS.outsider);
    await page.locator("#you", { hasText: "Oscar Outsider (outsider)" }).waitFor();
    await page.locator("#messages .message", { hasText: "Anyone free to approve" }).waitFor();
    expect(await page.locator("#messages .message.ephemeral").count()).toBe(0);
    expect(new URL(page.url()).searchParams.get("user")).toBe(STANDIN_IDS.outsider);
  });
});
