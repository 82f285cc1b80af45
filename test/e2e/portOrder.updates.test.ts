import type { KnownBlock } from "@slack/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dcfRef } from "../../src/domain/catalog/dcfs.js";
import { formatMoney as moneyIn } from "../../src/domain/money.js";
import type { Dcf } from "../../src/provider/api.js";

/** Amounts as the bot shows them: the harness sets no PRICE_CURRENCY, so USD. */
const formatMoney = (amount: unknown) => moneyIn(amount, "USD") ?? "—";

import {
  PORT_ORDER_BLOCKS,
  PORT_ORDER_PRICE_BLOCK,
  PORT_ORDER_VIEW,
} from "../../views/portOrder/portOrderModal.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { waitFor } from "../harness/waitFor.js";
import { readable } from "../views/support.js";

// The port order modal is updated after each change (data center, speed, term). A slow update
// for an older change must never land after the update for a newer one: the modal would show a
// price for a speed the person no longer has selected.

const USER = STANDIN_IDS.requester;

describe("port order modal updates under a slow provider", () => {
  let env: TestBot;
  let dcf: Dcf;

  beforeAll(async () => {
    env = await startTestBot();
    const dcfs = await env.bot.services.provider.listDcfs({
      where: { "dataCenterFacility.ready": true },
    });
    const found = dcfs.find((d) =>
      (d.dataCenterFacility?.speeds ?? []).map(Number).includes(100000),
    );
    if (!found) throw new Error("the sandbox has no DCF offering 100G");
    dcf = found;
  });
  afterAll(async () => {
    await env?.close();
  });

  function priceText(): string {
    const view = env.standin.currentView(USER);
    const block = ((view?.view.blocks ?? []) as unknown as Array<{ block_id?: string }>).find(
      (b) => b.block_id === PORT_ORDER_PRICE_BLOCK,
    );
    return block ? readable([block as unknown as KnownBlock]) : "";
  }

  it("shows the price of the newest choice when an older one is priced slowly", async () => {
    await env.connect("port order");
    await env.standin.waitForView(USER, (v) => v.view.callback_id === PORT_ORDER_VIEW);
    await env.slack.fillView(USER, { "Data center": { query: dcf.name ?? "", pick: dcfRef(dcf) } });
    await env.standin.waitForView(USER, (v) =>
      (v.view.blocks as unknown as Array<{ block_id?: string }>).some(
        (b) => b.block_id === PORT_ORDER_BLOCKS.speed,
      ),
    );
    const [big] = await env.bot.services.provider.pricePorts([
      { dcf: dcf.id, speed: 100000, durationUnit: "y" },
    ]);
    const updatesBefore = env.standin.calls("views.update").length;

    // The 1G price is slow; the person picks 100G before it arrives.
    env.bot.sandbox!.faults.add({ match: "POST /api/pricing/calculate", latencyMs: 600, times: 1 });
    await env.slack.fillView(USER, { Speed: "1G" });
    await env.slack.fillView(USER, { Speed: "100G" });

    // Both changes are rendered (no change is lost), the newest last.
    await waitFor(() => env.standin.calls("views.update").length >= updatesBefore + 2, {
      timeoutMs: 5_000,
      description: "two modal updates",
    });
    expect(priceText()).toContain(formatMoney(big?.price));
    expect(priceText()).toContain("100G");
    const updates = env.standin.calls("views.update").slice(updatesBefore);
    expect(updates).toHaveLength(2);
    expect(JSON.stringify(updates.at(-1)?.args)).toContain(formatMoney(big?.price));
    expect(updates.every((c) => c.ok)).toBe(true);
  });
});
