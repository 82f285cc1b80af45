import type { Locator, Page } from "playwright-core";

/** The open modal on the playground page. */
export const openModal = (page: Page): Locator => page.locator("#modal-root form.modal");

/**
 * Submits the open modal as a person does, until the bot took it. The bot must answer within
 * Slack's 3 seconds; on a loaded machine a check can run out of time ("submit again" next to
 * the field, or the price to check again: then submit again), or the answer can come after
 * Slack gave up waiting (the modal stays open, yet the request was taken and `confirmation`
 * arrives: then the person closes the modal). `retype`: a text field a late redraw of the modal
 * can empty, typed again as a person would.
 */
export async function submitUntilAccepted(
  page: Page,
  confirmation: Locator,
  options: { retype?: { input: Locator; value: string }; tries?: number } = {},
): Promise<void> {
  const modal = openModal(page);
  const tries = options.tries ?? 4;
  for (let attempt = 0; attempt < tries; attempt++) {
    await modal.locator("button[type=submit]").click();
    const outcome = await Promise.race([
      modal.waitFor({ state: "detached", timeout: 15_000 }).then(() => "closed" as const),
      confirmation.waitFor({ timeout: 15_000 }).then(() => "confirmed" as const),
    ]).catch(() => "neither" as const);
    if (outcome === "closed") return;
    if (outcome === "confirmed") {
      if (await modal.count()) await modal.locator("button", { hasText: "Cancel" }).first().click();
      return;
    }
    const retype = options.retype;
    if (retype && (await retype.input.count()) > 0 && (await retype.input.inputValue()) === "") {
      await retype.input.fill(retype.value);
      continue;
    }
    const shown = (await modal.textContent()) ?? "";
    if (!/submit again|Check the price/i.test(shown))
      throw new Error(`the modal stayed open: ${shown.slice(0, 800)}`);
  }
  throw new Error(`the modal stayed open after ${tries} submits`);
}
