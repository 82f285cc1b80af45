import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { formatMoney as moneyIn } from "../../src/domain/money.js";
import type { StandinMessage } from "../../src/standin/types.js";
import { EDGE_DRAFT_BUTTONS } from "../../views/edge/edgeDrafts.js";
import {
  EDGE_DISCOUNT_BLOCK,
  EDGE_ORDER_BLOCKS,
  EDGE_QUOTE_BLOCKS,
  EDGE_QUOTE_INPUTS,
} from "../../views/edge/edgeModals.js";
import { EDGE_QUOTE_BUTTONS } from "../../views/edge/edgeQuote.js";

/** Amounts as the bot shows them: the harness sets no PRICE_CURRENCY, so USD. */
const formatMoney = (amount: unknown) => moneyIn(amount, "USD") ?? "—";

import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";

/**
 * `/connect edge quote` end to end: the form (from the sandbox's Edge lists), the asynchronous
 * quote polled by the jobs until ready, the quote's buttons (discount code, draft, order, 10
 * Gbps offer, support), ordering from a draft through approval, and the failure messages.
 */

const R = STANDIN_IDS.requester;
const GENERAL = STANDIN_IDS.general;
const READY_AFTER_POLLS = 2;

interface LogEntry {
  method: string;
  path: string;
  operationId: string | null;
  status: number;
}

describe("/connect edge quote", () => {
  let env: TestBot;

  beforeAll(async () => {
    env = await startTestBot({
      sandbox: { edgeQuote: { readyAfterPolls: READY_AFTER_POLLS, readyAfterMs: 3_600_000 } },
      jobs: { quoteSettings: { firstDelayMs: 50, maxDelayMs: 200 } },
    });
  });
  afterAll(async () => {
    await env?.close();
  });
  afterEach(async () => {
    await fetch(`${sandboxUrl()}/__sandbox/faults`, { method: "DELETE" });
  });

  const sandboxUrl = () => env.bot.sandbox!.url;

  async function requestLog(): Promise<LogEntry[]> {
    const body = (await (await fetch(`${sandboxUrl()}/__sandbox/requests`)).json()) as {
      entries: LogEntry[];
    };
    return body.entries;
  }

  const blocksText = (m: { blocks?: unknown }) => JSON.stringify(m.blocks ?? []);

  async function openForm(): Promise<void> {
    await env.connect("edge quote");
    await env.standin.waitForView(
      R,
      (v) => v.view.callback_id === "edge_quote" && v.view.submit !== undefined,
    );
  }

  /** Fills and submits the form; resolves with the thread root and the quote reply. */
  async function requestQuote(fill: Record<string, string>): Promise<{
    root: StandinMessage;
    quote: StandinMessage;
  }> {
    await openForm();
    await env.slack.fillView(R, fill);
    const submitted = await env.slack.submitView(R);
    expect(submitted.errors).toBeUndefined();
    const address = fill.Address!;
    const root = await env.standin.waitForMessage(
      GENERAL,
      (m) => m.thread_ts === undefined && blocksText(m).includes(address),
    );
    const quote = await env.standin.waitForMessage(
      GENERAL,
      (m) => m.thread_ts === root.ts && m.text.startsWith("Edge quote ready"),
      { timeoutMs: 15_000 },
    );
    return { root, quote };
  }

  function responseIdOf(quote: StandinMessage): string {
    const match = /Quote key `([^`]+)`/.exec(blocksText(quote));
    if (!match?.[1]) throw new Error("no quote key in the quote message");
    return match[1];
  }

  it("requests a quote, polls it until ready and posts the offers with their buttons", async () => {
    const address = "1 Raffles Place, Singapore";
    const { root, quote } = await requestQuote({
      Country: "Singapore",
      Bandwidth: "1 Gbps",
      "Contract term": "12 months",
      Address: address,
      "Post code": "048616",
    });
    expect(root.text).toContain("Singapore");
    const responseId = responseIdOf(quote);

    // Polled until ready: the sandbox answers PENDING twice, then the quote.
    const reads = (await requestLog()).filter(
      (e) => e.method === "GET" && e.path === `/v2/edge/price/result/${responseId}`,
    );
    expect(reads).toHaveLength(READY_AFTER_POLLS + 1);
    // Never the deprecated synchronous quote.
    expect((await requestLog()).some((e) => e.path === "/v2/edge/price")).toBe(false);

    // The offers are the provider's, with their prices.
    const result = (await env.bot.services.provider.getEdgeQuoteResult(responseId)) as {
      data: Array<{ vendor: { name: string }; monthlyPrice: number }>;
    };
    expect(result.data.length).toBeGreaterThan(0);
    const text = blocksText(quote);
    for (const offer of result.data) {
      expect(text).toContain(offer.vendor.name);
      expect(text).toContain(formatMoney(offer.monthlyPrice));
    }
    for (const label of ["Order", "Apply discount code", "Save as draft", "Contact support"]) {
      expect(text).toContain(label);
    }
    // A 1 Gbps quote does not push a 10 Gbps offer; the cheapest is said over the term.
    expect(text).not.toContain("Ask for a 10 Gbps offer");
    expect(text).toContain("Cheapest over the 12-month term");
    expect(text).toContain("Sandbox");

    // The thread root now says the quote is ready.
    await env.standin.waitForMessage(
      GENERAL,
      (m) => m.ts === root.ts && m.text.startsWith("Edge quote ready"),
    );
  });

  it("applies NETSAVE10 (a lower price in the thread) and refuses an unknown code next to the field", async () => {
    const { root, quote } = await requestQuote({
      Country: "Germany",
      Bandwidth: "500 Mbps",
      "Contract term": "24 months",
      Address: "Unter den Linden 1, Berlin",
    });
    const responseId = responseIdOf(quote);
    const before = (await env.bot.services.provider.getEdgeQuoteResult(responseId)) as {
      data: Array<{ monthlyPrice: number }>;
    };

    await env.slack.clickButton({
      userId: R,
      message: quote,
      actionId: EDGE_QUOTE_BUTTONS.discount,
    });
    await env.standin.waitForView(R, (v) => v.view.callback_id === "edge_discount");
    await env.slack.fillView(R, { "Discount code": "NOSUCHCODE" });
    const refused = await env.slack.submitView(R);
    expect(refused.errors?.[EDGE_DISCOUNT_BLOCK]).toContain("isn't a valid discount code");

    await env.slack.fillView(R, { "Discount code": "NETSAVE10" });
    const accepted = await env.slack.submitView(R);
    expect(accepted.errors).toBeUndefined();
    const discounted = await env.standin.waitForMessage(
      GENERAL,
      (m) => m.thread_ts === root.ts && m.text.startsWith("Edge quote with NETSAVE10"),
    );
    const text = blocksText(discounted);
    for (const offer of before.data) {
      const lower = Math.round(offer.monthlyPrice * 0.9 * 100) / 100;
      expect(lower).toBeLessThan(offer.monthlyPrice);
      expect(text).toContain(`*${formatMoney(lower)}* per month`);
      expect(text).toContain(`~${formatMoney(offer.monthlyPrice)}~`);
    }
    // The discounted quote keeps its buttons, with the code carried along.
    expect(text).toContain(EDGE_QUOTE_BUTTONS.order);
    expect(text).toContain("NETSAVE10");
  });

  it("saves a draft, orders from it through approval exactly once, and the provider removes the draft", async () => {
    const { root, quote } = await requestQuote({
      Country: "Netherlands",
      Bandwidth: "200 Mbps",
      "Contract term": "36 months",
      Address: "Dam 1, Amsterdam",
    });
    const responseId = responseIdOf(quote);

    await env.slack.clickButton({
      userId: R,
      message: quote,
      actionId: EDGE_QUOTE_BUTTONS.saveDraft,
    });
    const saved = await env.standin.waitForMessage(
      GENERAL,
      (m) => m.thread_ts === root.ts && m.text.startsWith("Saved as Edge draft"),
    );
    const drafts = await env.bot.services.provider.listDrafts();
    const draft = drafts.find((d) => d.edgePayload?.responseId === responseId);
    expect(draft).toBeDefined();
    expect(draft?.speed).toBe(200);
    expect(draft?.edgePayload?.savedBySlackUser).toBe(R);
    expect(draft?.edgePayload?.["formatted-address"]).toBe("Dam 1, Amsterdam");
    expect(blocksText(saved)).toContain(draft!.id);

    // A second click finds the same draft instead of saving a duplicate.
    await env.slack.clickButton({
      userId: R,
      message: quote,
      actionId: EDGE_QUOTE_BUTTONS.saveDraft,
    });
    await expect
      .poll(
        () =>
          env.standin
            .thread(GENERAL, root.ts)
            .filter((m) => m.text.startsWith("Saved as Edge draft")).length,
      )
      .toBe(2);
    expect(
      (await env.bot.services.provider.listDrafts()).filter(
        (d) => d.edgePayload?.responseId === responseId,
      ),
    ).toHaveLength(1);

    // Order from the draft: the modal offers the draft's saved offers.
    await env.slack.clickButton({ userId: R, message: saved, actionId: EDGE_DRAFT_BUTTONS.order });
    await env.standin.waitForView(
      R,
      (v) => v.view.callback_id === "edge_order" && v.view.submit !== undefined,
    );
    await env.slack.fillView(R, { "Port name": "edge-nl-e2e-1" });
    const submitted = await env.slack.submitView(R);
    expect(submitted.errors).toBeUndefined();
    await env.standin.waitForEphemeral(R, (m) => m.text.includes("waiting for approval"));
    const request = await env.standin.waitForMessage(STANDIN_IDS.approvals, (m) =>
      m.text.includes("edge-nl-e2e-1"),
    );
    const shown = blocksText(request);
    for (const field of ["Netherlands", "Dam 1, Amsterdam", "200 Mbps", "invoice", draft!.id]) {
      expect(shown).toContain(field);
    }

    const ordersBefore = (await requestLog()).filter(
      (e) => e.operationId === "createEdgePortOrder",
    ).length;
    await env.slack.clickButton({
      userId: STANDIN_IDS.approver,
      message: request,
      actionId: "approval_approve",
    });
    await env.standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => m.thread_ts === request.ts && m.ts !== request.ts && m.text.includes("Ordered"),
      { timeoutMs: 15_000 },
    );
    const orders = (await requestLog()).filter((e) => e.operationId === "createEdgePortOrder");
    expect(orders.length - ordersBefore).toBe(1);
    const edgeOrders = await env.bot.services.provider.listEdgeOrders({});
    const ordered = edgeOrders.items.find(
      (i) => i.portName === "edge-nl-e2e-1" && i.objectType === "ORDER",
    );
    expect(ordered?.edgePayload?.draftOrderId).toBe(draft!.id);
    expect(ordered?.edgePayload?.["formatted-address"]).toBe("Dam 1, Amsterdam");
    expect((await env.bot.services.provider.listDrafts()).some((d) => d.id === draft!.id)).toBe(
      false,
    );

    // The name is now taken: a second order with it is refused next to Port name.
    await env.slack.clickButton({ userId: R, message: quote, actionId: EDGE_QUOTE_BUTTONS.order });
    await env.standin.waitForView(
      R,
      (v) => v.view.callback_id === "edge_order" && v.view.submit !== undefined,
    );
    await env.slack.fillView(R, { "Port name": "edge-nl-e2e-1" });
    const duplicate = await env.slack.submitView(R);
    expect(duplicate.errors?.[EDGE_ORDER_BLOCKS.portName]).toContain("already exists");
    await env.slack.closeView(R);
  });

  it("lets only the person who saved a draft delete it", async () => {
    const { root, quote } = await requestQuote({
      Country: "Japan",
      Bandwidth: "100 Mbps",
      "Contract term": "12 months",
      Address: "1-1 Marunouchi, Tokyo",
    });
    await env.slack.clickButton({
      userId: R,
      message: quote,
      actionId: EDGE_QUOTE_BUTTONS.saveDraft,
    });
    const saved = await env.standin.waitForMessage(
      GENERAL,
      (m) => m.thread_ts === root.ts && m.text.startsWith("Saved as Edge draft"),
    );
    const draftId = /`([A-Za-z0-9_-]+)`/.exec(blocksText(saved))?.[1];
    expect(draftId).toBeDefined();

    await env.slack.clickButton({
      userId: STANDIN_IDS.outsider,
      message: saved,
      actionId: EDGE_DRAFT_BUTTONS.delete,
    });
    await env.standin.waitForEphemeral(STANDIN_IDS.outsider, (m) =>
      m.text.includes("Only the person who saved"),
    );
    expect((await env.bot.services.provider.listDrafts()).some((d) => d.id === draftId)).toBe(true);

    await env.slack.clickButton({ userId: R, message: saved, actionId: EDGE_DRAFT_BUTTONS.delete });
    await env.standin.waitForEphemeral(R, (m) => m.text.includes("Deleted the Edge draft"));
    expect((await env.bot.services.provider.listDrafts()).some((d) => d.id === draftId)).toBe(
      false,
    );
  });

  it("renames a draft and quotes it again from what it saved", async () => {
    const { root, quote } = await requestQuote({
      Country: "United Kingdom",
      Bandwidth: "5 Gbps",
      "Contract term": "24 months",
      Address: "10 Downing Street, London",
    });
    await env.slack.clickButton({
      userId: R,
      message: quote,
      actionId: EDGE_QUOTE_BUTTONS.saveDraft,
    });
    const saved = await env.standin.waitForMessage(
      GENERAL,
      (m) => m.thread_ts === root.ts && m.text.startsWith("Saved as Edge draft"),
    );
    const draftId = /`([A-Za-z0-9_-]+)`/.exec(blocksText(saved))?.[1];

    await env.slack.clickButton({ userId: R, message: saved, actionId: EDGE_DRAFT_BUTTONS.rename });
    const form = await env.standin.waitForView(
      R,
      (v) => v.view.callback_id === "edge_draft_rename" && v.view.submit !== undefined,
    );
    expect(JSON.stringify(form.view.blocks)).toContain("Edge United Kingdom 5 Gbps 24 months");
    await env.slack.fillView(R, { "Draft name": "London HQ" });
    expect((await env.slack.submitView(R)).errors).toBeUndefined();
    await env.standin.waitForEphemeral(R, (m) =>
      m.text.includes("Renamed the Edge draft to *London HQ*"),
    );
    const renamed = (await env.bot.services.provider.listDrafts()).find((d) => d.id === draftId);
    expect(renamed?.name).toBe("London HQ");
    expect(renamed?.speed).toBe(5000);
    expect(renamed?.edgePayload?.["formatted-address"]).toBe("10 Downing Street, London");

    await env.slack.clickButton({
      userId: R,
      message: saved,
      actionId: EDGE_DRAFT_BUTTONS.requote,
    });
    const again = await env.standin.waitForMessage(
      GENERAL,
      (m) =>
        m.thread_ts === undefined &&
        m.ts !== root.ts &&
        blocksText(m).includes("10 Downing Street, London"),
    );
    const requoted = await env.standin.waitForMessage(
      GENERAL,
      (m) => m.thread_ts === again.ts && m.text.startsWith("Edge quote ready"),
      { timeoutMs: 15_000 },
    );
    expect(responseIdOf(requoted)).not.toBe(responseIdOf(quote));
  });

  it("answers every bad field of the quote form at once, and Enter in Address submits nothing", async () => {
    await openForm();
    await env.slack.fillView(R, { Address: "10 Bayfront Avenue" });
    const enter = await env.slack.pressEnter(R, "Address");
    expect(enter).toMatchObject({ effect: "dispatch", ack: { status: 200 } });
    const form = env.standin.currentView(R)!;
    expect(form.errors).toBeUndefined();

    const forged = (value: string) => ({
      type: "static_select",
      selected_option: { text: { type: "plain_text", text: value }, value },
    });
    const values = {
      ...form.view.state.values,
      [EDGE_QUOTE_BLOCKS.country]: { [EDGE_QUOTE_INPUTS.country]: forged("atlantis") },
      [EDGE_QUOTE_BLOCKS.bandwidth]: { [EDGE_QUOTE_INPUTS.bandwidth]: forged("7|Tbps") },
      [EDGE_QUOTE_BLOCKS.term]: { [EDGE_QUOTE_INPUTS.term]: forged("99|year") },
      [EDGE_QUOTE_BLOCKS.address]: {
        [EDGE_QUOTE_INPUTS.address]: { type: "plain_text_input", value: "two\nlines" },
      },
    };
    const outcome = await env.slack.submitView(R, form.view.id, values as never, {
      allowMissingRequired: true,
    });
    expect(outcome.problems).toEqual([]);
    expect(Object.keys(outcome.errors ?? {}).sort()).toEqual(
      [
        EDGE_QUOTE_BLOCKS.country,
        EDGE_QUOTE_BLOCKS.bandwidth,
        EDGE_QUOTE_BLOCKS.term,
        EDGE_QUOTE_BLOCKS.address,
      ].sort(),
    );
    expect(outcome.currentView?.view.id).toBe(form.view.id);
    await env.slack.closeView(R);
  });

  it("refuses an address made of emoji next to the field, saying what an address is", async () => {
    await openForm();
    await env.slack.fillView(R, {
      Country: "United Kingdom",
      Bandwidth: "100 Mbps",
      "Contract term": "12 months",
      Address: "🏠🏢🌍",
    });
    const outcome = await env.slack.submitView(R);
    expect(outcome.responseAction).toBe("errors");
    expect(outcome.errors?.[EDGE_QUOTE_BLOCKS.address]).toBe(
      "Address must be the site's street address in words and numbers, without emoji (e.g. Marsh Wall 227, London)",
    );
    await env.slack.closeView(R);
  });

  it("requires a post code for Singapore, and only for Singapore", async () => {
    await openForm();
    await env.slack.fillView(R, {
      Country: "Singapore",
      Bandwidth: "100 Mbps",
      "Contract term": "12 months",
      Address: "10 Bayfront Avenue",
    });
    const form = await env.standin.waitForView(R, (v) =>
      JSON.stringify(v.view.blocks).includes(EDGE_QUOTE_BLOCKS.postCode),
    );
    const missing = await env.slack.submitView(R, form.view.id, undefined, {
      allowMissingRequired: true,
    });
    expect(missing.errors?.[EDGE_QUOTE_BLOCKS.postCode]).toContain("post code is required");

    await env.slack.fillView(R, { "Post code": "12" });
    const short = await env.slack.submitView(R);
    expect(short.errors?.[EDGE_QUOTE_BLOCKS.postCode]).toContain("6 digits");

    // Another country: the field goes away.
    await env.slack.fillView(R, { Country: "United Kingdom" });
    await env.standin.waitForView(
      R,
      (v) =>
        v.view.callback_id === "edge_quote" &&
        !JSON.stringify(v.view.blocks).includes(EDGE_QUOTE_BLOCKS.postCode),
    );
    await env.slack.closeView(R);
  });

  it("explains a quote result that fails with HTTP 500", async () => {
    await fetch(`${sandboxUrl()}/__sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ match: "GET /v2/edge/price/result/*", status: 500 }),
    });
    await openForm();
    await env.slack.fillView(R, {
      Country: "Australia",
      Bandwidth: "2 Gbps",
      "Contract term": "12 months",
      Address: "1 Macquarie Street, Sydney",
    });
    expect((await env.slack.submitView(R)).errors).toBeUndefined();
    const root = await env.standin.waitForMessage(
      GENERAL,
      (m) => m.thread_ts === undefined && blocksText(m).includes("1 Macquarie Street"),
    );
    const failed = await env.standin.waitForMessage(
      GENERAL,
      (m) => m.thread_ts === root.ts && m.text.startsWith("Edge quote failed"),
      { timeoutMs: 15_000 },
    );
    expect(failed.text).toContain("unhandled error");
    expect(failed.text).toContain("HTTP 500");
    expect(blocksText(failed)).toContain(EDGE_QUOTE_BUTTONS.retry);
    await env.standin.waitForMessage(
      GENERAL,
      (m) => m.ts === root.ts && m.text.startsWith("Edge quote failed"),
    );
  });

  it("explains a quote request the provider refuses with HTTP 400, privately", async () => {
    await fetch(`${sandboxUrl()}/__sandbox/faults`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ match: "POST /v2/edge/price/search", status: 400, times: 1 }),
    });
    await openForm();
    await env.slack.fillView(R, {
      Country: "Germany",
      Bandwidth: "100 Mbps",
      "Contract term": "12 months",
      Address: "Marienplatz 1, Munich",
    });
    expect((await env.slack.submitView(R)).errors).toBeUndefined();
    const told = await env.standin.waitForEphemeral(R, (m) =>
      m.text.includes("Couldn't request the Edge quote"),
    );
    expect(told.text).toContain("external pricing provider is not configured (HTTP 400)");
    expect(env.standin.messages(GENERAL).some((m) => blocksText(m).includes("Marienplatz 1"))).toBe(
      false,
    );
  });

  it("asks the provider for a 10 Gbps offer and contacts support", async () => {
    const address = "350 Fifth Avenue, New York";
    // Asked for 10 Gbps: the quote offers the enquiry for a 10 Gbps offer.
    const { root, quote } = await requestQuote({
      Country: "United States",
      Bandwidth: "10 Gbps",
      "Contract term": "12 months",
      Address: address,
    });
    await env.slack.clickButton({ userId: R, message: quote, actionId: EDGE_QUOTE_BUTTONS.tenGig });
    await env.standin.waitForMessage(
      GENERAL,
      (m) => m.thread_ts === root.ts && m.text.includes("asked the provider for a 10 Gbps offer"),
    );
    await env.slack.clickButton({
      userId: R,
      message: quote,
      actionId: EDGE_QUOTE_BUTTONS.support,
    });
    await env.standin.waitForMessage(
      GENERAL,
      (m) => m.thread_ts === root.ts && m.text.includes("customer support"),
    );
    const enquiries = (await (await fetch(`${sandboxUrl()}/__sandbox/enquiries`)).json()) as Array<{
      kind: string;
      body: Record<string, unknown>;
    }>;
    const mine = enquiries.filter((e) => e.body["formatted-address"] === address);
    expect(mine.map((e) => e.kind).sort()).toEqual(["enquiry", "select"]);
    const select = mine.find((e) => e.kind === "select")!;
    expect(select.body.bandwidth).toBe("10");
    expect(select.body.bandwidthUnit).toBe("Gbps");
    const enquiry = mine.find((e) => e.kind === "enquiry")!;
    expect(enquiry.body.bandwidth).toBe("10");
    expect(enquiry.body.bandwidthUnit).toBe("Gbps");
    expect((enquiry.body.country as { code?: string }).code).toBe("US");
  });
});
