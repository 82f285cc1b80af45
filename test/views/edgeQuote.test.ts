import type { ActionsBlock, Button, KnownBlock } from "@slack/types";
import { describe, expect, it } from "vitest";
import { classifyQuoteFailure } from "../../src/jobs/quotes/quotePoller.js";
import { readQuoteResult } from "../../src/provider/edgeResponses.js";
import { blockProblems } from "../../src/standin/webApi/blockKit.js";
import { quoteRef } from "../../src/usecases/edge/quote.js";
import { LIMITS, withSandboxLabel } from "../../views/blocks.js";
import {
  draftActionsBlock,
  draftNoticeText,
  draftSavedMessage,
  EDGE_DRAFT_BUTTONS,
} from "../../views/edge/edgeDrafts.js";
import {
  EDGE_QUOTE_BUTTONS,
  encodeQuoteRef,
  enquirySentMessage,
  parseQuoteRef,
  quoteAnsweredRootMessage,
  quoteFailedMessage,
  quoteFailureText,
  quoteReadyMessage,
  quoteRequestedMessage,
} from "../../views/edge/edgeQuote.js";
import { readable } from "./support.js";

const request = {
  country: { id: "sg1", name: "Singapore", code: "SG" },
  bandwidth: "1",
  bandwidthUnit: "Gbps" as const,
  "contract-term": "12",
  contractTermUnit: "month",
  "formatted-address": "1 Raffles Place",
  postCode: "048616",
};

const item = (i: number, extra: Record<string, unknown> = {}) => ({
  quoteKey: `key-${i}`,
  vendor: { name: `Vendor ${i}` },
  product: "Edge Ethernet Access",
  monthlyPrice: 1000 + i,
  nonRecurringPrice: 500,
  totalContractPrice: 12500 + i * 12,
  term: { value: 12, unit: "month" },
  leadTimeDays: 30,
  ...extra,
});

function buttons(blocks: readonly KnownBlock[]): Button[] {
  return blocks
    .filter((b): b is ActionsBlock => b.type === "actions")
    .flatMap((b) => b.elements.filter((e): e is Button => e.type === "button"));
}

function expectSlackAccepts(blocks: KnownBlock[]): void {
  // As posted: with the sandbox label.
  expect(blockProblems(withSandboxLabel(blocks, true), "message")).toEqual([]);
  expect(blocks.length + 1).toBeLessThanOrEqual(LIMITS.messageBlocks);
}

describe("quote references on buttons", () => {
  it("round-trip, carry the discount code, and refuse anything else", () => {
    const ref = quoteRef("r1", request, "NETSAVE10");
    expect(ref.form).toEqual({
      country: "sg1",
      bandwidth: "1|Gbps",
      term: "12|month",
      address: "1 Raffles Place",
      postCode: "048616",
    });
    const value = encodeQuoteRef(ref)!;
    expect(value.length).toBeLessThanOrEqual(LIMITS.actionValue);
    expect(parseQuoteRef(value)).toEqual(ref);
    expect(parseQuoteRef("not json")).toBeUndefined();
    expect(parseQuoteRef(JSON.stringify({ r: "r1" }))).toBeUndefined();
    expect(
      parseQuoteRef(JSON.stringify({ r: 1, c: "x", b: "1|Gbps", t: "12|month", a: "" })),
    ).toBeUndefined();
    expect(parseQuoteRef(undefined)).toBeUndefined();
  });

  it("is left off rather than cut when it would not fit in a button", () => {
    const ref = quoteRef("r1", { ...request, "formatted-address": "x".repeat(2500) });
    expect(encodeQuoteRef(ref)).toBeUndefined();
  });
});

describe("quoteReadyMessage", () => {
  it("shows every offer with its prices and the buttons that act on the quote", () => {
    const quote = readQuoteResult("r1", { status: "COMPLETED", data: [item(1), item(2)] });
    const message = quoteReadyMessage({
      currency: "USD",
      quote,
      request,
      requestedBy: "U0REQUEST1",
      ref: quoteRef("r1", request),
    });
    const text = readable(message.blocks);
    for (const shown of [
      "Vendor 1",
      "Vendor 2",
      "1,001.00 USD",
      "1,002.00 USD",
      "500.00 USD",
      "Cheapest over the 12-month term: Vendor 1, 12,512.00 USD in total (the provider's total for the term)",
      "12 months",
      "lead time about 30 days",
      "Singapore",
      "048616",
      "Quote key `r1`",
    ]) {
      expect(text).toContain(shown);
    }
    // Said once in the blocks (issue 32, item 20), and in the notification's text.
    expect(text.split("Cheapest over").length - 1).toBe(1);
    expect(message.text).toBe(
      "Edge quote ready: Singapore · 1 Gbps · 12 months: 2 offers · Cheapest over the 12-month term: Vendor 1, 12,512.00 USD in total (the provider's total for the term)",
    );
    const actions = buttons(message.blocks);
    // A 1 Gbps quote does not offer "Ask for a 10 Gbps offer".
    expect(actions.map((b) => b.action_id)).toEqual([
      EDGE_QUOTE_BUTTONS.order,
      EDGE_QUOTE_BUTTONS.discount,
      EDGE_QUOTE_BUTTONS.saveDraft,
      EDGE_QUOTE_BUTTONS.support,
    ]);
    for (const b of actions) expect(parseQuoteRef(b.value)?.responseId).toBe("r1");
    expect(actions.find((b) => b.action_id === EDGE_QUOTE_BUTTONS.support)?.confirm).toBeDefined();
    expectSlackAccepts(message.blocks);
  });

  it("shows a discount as the old price struck through", () => {
    const quote = readQuoteResult(
      "r1",
      { status: "COMPLETED", data: [item(1, { monthlyPrice: 900, originalMonthlyPrice: 1000 })] },
      "NETSAVE10",
    );
    const message = quoteReadyMessage({
      currency: "USD",
      quote,
      request,
      requestedBy: "U1",
      ref: quoteRef("r1", request, "NETSAVE10"),
    });
    const text = readable(message.blocks);
    expect(text).toContain("~1,000.00 USD~ *900.00 USD* per month");
    expect(text).toContain("discount code `NETSAVE10` applied");
    expect(message.text).toMatch(/^Edge quote with NETSAVE10/);
    expect(parseQuoteRef(buttons(message.blocks)[0]?.value)?.discountCode).toBe("NETSAVE10");
  });

  it("escapes provider text and shows unknown offer fields instead of hiding them", () => {
    const quote = readQuoteResult("r1", {
      data: [{ supplier: "<!channel> Evil & Co", mrc: 10, region: "<b>APAC</b>" }],
    });
    const message = quoteReadyMessage({ currency: "USD", quote, request, requestedBy: "U1" });
    const text = readable(message.blocks);
    expect(text).toContain("&lt;!channel&gt; Evil &amp; Co");
    expect(text).toContain("region: &lt;b&gt;APAC&lt;/b&gt;");
    expect(text).not.toContain("<!channel>");
    // No reference: no buttons.
    expect(buttons(message.blocks)).toEqual([]);
  });

  it("says when there are no offers, offering only the enquiries", () => {
    const quote = readQuoteResult("r1", { status: "COMPLETED", data: [] });
    const tenGig = { ...request, bandwidth: "10" };
    const message = quoteReadyMessage({
      currency: "USD",
      quote,
      request: tenGig,
      requestedBy: "U1",
      ref: quoteRef("r1", tenGig),
    });
    expect(readable(message.blocks)).toContain("returned no offers");
    expect(readable(message.blocks)).toContain("ask for a 10 Gbps offer");
    expect(buttons(message.blocks).map((b) => b.action_id)).toEqual([
      EDGE_QUOTE_BUTTONS.tenGig,
      EDGE_QUOTE_BUTTONS.support,
    ]);
    // At 1 Gbps only support is offered.
    const oneGig = quoteReadyMessage({
      currency: "USD",
      quote,
      request,
      requestedBy: "U1",
      ref: quoteRef("r1", request),
    });
    expect(readable(oneGig.blocks)).not.toContain("10 Gbps");
    expect(buttons(oneGig.blocks).map((b) => b.action_id)).toEqual([EDGE_QUOTE_BUTTONS.support]);
  });

  it("says which offer is cheapest over the term, counting the one-off charge", () => {
    const quote = readQuoteResult("r1", {
      status: "COMPLETED",
      data: [
        {
          quoteKey: "a",
          vendor: { name: "Low monthly" },
          monthlyPrice: 900,
          nonRecurringPrice: 5000,
        },
        {
          quoteKey: "b",
          vendor: { name: "Low total" },
          monthlyPrice: 1000,
          nonRecurringPrice: 500,
        },
      ],
    });
    const message = quoteReadyMessage({ currency: "EUR", quote, request, requestedBy: "U1" });
    expect(readable(message.blocks)).toContain(
      "Cheapest over the 12-month term: Low total, 12,500.00 EUR in total (monthly price × 12 months + one-off charge)",
    );
  });

  it("stays within Slack's limits with many long offers", () => {
    const data = Array.from({ length: 40 }, (_, i) =>
      item(i, { vendor: { name: "V".repeat(500) }, product: "P".repeat(3000) }),
    );
    const quote = readQuoteResult("r1", { status: "COMPLETED", data });
    const message = quoteReadyMessage({
      currency: "USD",
      quote,
      request,
      requestedBy: "U1",
      ref: quoteRef("r1", request),
    });
    expect(readable(message.blocks)).toContain("30 more offers not shown");
    expectSlackAccepts(message.blocks);
  });
});

describe("thread messages", () => {
  it("announce the request, the outcome on the root, failures and enquiries", () => {
    const requested = quoteRequestedMessage({ request, requestedBy: "U1", responseId: "r1" });
    expect(requested.text).toBe("Quote requested… Edge port Singapore · 1 Gbps · 12 months");
    expect(readable(requested.blocks)).toContain("1 Raffles Place");
    expectSlackAccepts(requested.blocks);

    const root = quoteAnsweredRootMessage({
      request,
      requestedBy: "U1",
      responseId: "r1",
      outcome: "failed",
    });
    expect(root.text).toMatch(/^Edge quote failed/);

    const failed = quoteFailedMessage({
      message: "The external provider has no such quote (HTTP 404).",
      requestedBy: "U1",
      ref: quoteRef("r1", request),
    });
    expect(failed.text).toContain("HTTP 404");
    expect(buttons(failed.blocks).map((b) => b.action_id)).toEqual([
      EDGE_QUOTE_BUTTONS.retry,
      EDGE_QUOTE_BUTTONS.support,
    ]);
    expectSlackAccepts(failed.blocks);
    expect(enquirySentMessage("ten-gig", "U1").text).toContain("10 Gbps");
    expect(enquirySentMessage("support", "U1").text).toContain("customer support");
  });
});

describe("draft buttons", () => {
  it("give each draft Order, Re-quote, Rename and a confirmed Delete, in a block of its own", () => {
    const block = draftActionsBlock({ id: "d1", name: "Berlin" });
    expect(block.block_id).toBe("edge_draft_d1");
    const all = buttons([block]);
    expect(all.map((b) => b.action_id)).toEqual([
      EDGE_DRAFT_BUTTONS.order,
      EDGE_DRAFT_BUTTONS.requote,
      EDGE_DRAFT_BUTTONS.rename,
      EDGE_DRAFT_BUTTONS.delete,
    ]);
    for (const b of all) expect(b.value).toBe("d1");
    expect(all[3]?.confirm?.text.text).toContain("Berlin");
    // Two drafts in one list message: distinct block ids.
    const list = [block, draftActionsBlock({ id: "d2" })];
    expect(blockProblems(list, "message")).toEqual([]);
  });

  it("confirm a saved draft with its buttons, and explain refusals", () => {
    const saved = draftSavedMessage({ id: "d1", name: "Berlin", deleteIn: 30 }, "U1");
    expect(readable(saved.blocks)).toContain("deletes it in 30 days");
    expect(saved.blocks.some((b) => b.block_id === "edge_draft_d1")).toBe(true);
    expectSlackAccepts(saved.blocks);
    expect(draftNoticeText("not-owner", { id: "d1", name: "<x>" })).toContain("&lt;x&gt;");
    expect(draftNoticeText("no-owner", { id: "d1" })).toContain("portal");
    expect(draftNoticeText("not-found", { id: "d1" })).toContain("no longer exists");
  });
});

describe("quoteFailureText", () => {
  it("words each way a quote fails once: the provider's definite errors, the timeout, the partners", () => {
    expect([400, 404, 500].map((s) => quoteFailureText(classifyQuoteFailure(s)!))).toEqual([
      expect.stringContaining("external pricing provider is not configured (HTTP 400)"),
      expect.stringContaining("has no such quote (HTTP 404)"),
      expect.stringContaining("unhandled error while pricing this Edge quote (HTTP 500)"),
    ]);
    // Anything else is a hiccup: the poller keeps polling, so there is nothing to word.
    expect([409, 502, 503].map(classifyQuoteFailure)).toEqual([undefined, undefined, undefined]);
    expect(quoteFailureText({ kind: "timeout", afterMs: 600_000 })).toMatch(
      /^The Edge quote was not ready after 10 minutes:/,
    );
    expect(quoteFailureText({ kind: "timeout", afterMs: 60_000 })).toMatch(/after 1 minute:/);
    expect(quoteFailureText({ kind: "partners-failed", providerStatus: "REJECTED" })).toContain(
      "could not quote this Edge port (status REJECTED)",
    );
    expect(quoteFailureText({ kind: "partners-failed" })).toContain("(status failed)");
  });
});
