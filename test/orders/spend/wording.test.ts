import type { KnownBlock } from "@slack/types";
import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../../src/approvals/index.js";
import type { HomeInput } from "../../../src/orders/appHome.js";
import { readRequest } from "../../../src/orders/readModel.js";
import { committedSpend } from "../../../src/orders/spend/committed.js";
import { ledgerEntries, ledgerMonthOf, monthlySpend } from "../../../src/orders/spend/ledger.js";
import { ledgerCsv } from "../../../src/orders/spend/ledgerCsv.js";
import { homeView } from "../../../views/home/home.js";
import { spendView, spendWords } from "../../../views/spend/spend.js";
import { readable } from "../../views/support.js";

/**
 * App Home and `/connect spend` count the same orders and word them the same way (issue 29: one
 * sum; an IO-D order is "pay as you go", never 0.00). Both go through `spendWords`.
 */

const PLACED_AT = "2026-11-10T09:00:00.000Z";
const NOW = new Date("2026-11-20T00:00:00.000Z");
const REQUESTER = "U0REQUEST1";

let n = 0;
function placed(kind: ApprovalRequest["kind"], price: ApprovalRequest["price"]): ApprovalRequest {
  n += 1;
  return {
    id: `apr_${String(n).padStart(16, "a")}`,
    kind,
    title: `order-${n}`,
    summary: [],
    call: { operation: "createPortOrder", pathParams: {}, body: {} },
    price,
    requester: { userId: REQUESTER, channelId: "C0GENERAL1" },
    slack: {},
    sandbox: true,
    status: "placed",
    attempts: 1,
    history: [{ at: PLACED_AT, actor: "worker", from: "executing", to: "placed" }],
    createdAt: PLACED_AT,
    updatedAt: PLACED_AT,
  };
}

const models = [
  placed("port", { monthly: 100, total: 1200, termMonths: 12, text: "" }),
  placed("port", { monthly: 200, total: 2400, termMonths: 12, text: "" }),
  placed("iod", undefined),
].map((record) => readRequest(record));

function home(): string {
  const spend = committedSpend(models, { at: NOW });
  const input: HomeInput = {
    userId: REQUESTER,
    sandbox: true,
    now: NOW,
    waiting: [],
    mine: { records: models, page: 0, hasNext: false, total: models.length },
    tracked: [],
    spend: { team: spend, mine: spend },
  };
  return readable(homeView(input).blocks as KnownBlock[]);
}

function ledger(): string {
  const spend = monthlySpend(ledgerEntries(models, "USD"), ledgerMonthOf(NOW), "USD");
  const view = spendView(spend);
  return `${view.text}\n${readable(view.blocks)}`;
}

describe("spend words", () => {
  it("counts every order and says how many are pay as you go; never 0.00 for those alone", () => {
    expect(spendWords("300.00 USD a month", { orders: 3, payAsYouGo: 1 })).toBe(
      "300.00 USD a month (3 orders, 1 of them pay as you go)",
    );
    expect(spendWords("300.00 USD a month", { orders: 2, payAsYouGo: 0 })).toBe(
      "300.00 USD a month (2 orders)",
    );
    expect(spendWords("0.00 USD a month", { orders: 1, payAsYouGo: 1 })).toBe(
      "pay as you go (1 order)",
    );
    expect(spendWords("0.00 USD", { orders: 2, payAsYouGo: 2 }, "running in November 2026")).toBe(
      "pay as you go (2 orders running in November 2026)",
    );
  });

  it("App Home and /connect spend say the same count, and IO-D as pay as you go", () => {
    const homeText = home();
    const ledgerText = ledger();
    for (const shown of [homeText, ledgerText]) {
      expect(shown).toContain("3 orders");
      expect(shown).toContain("1 of them pay as you go");
      expect(shown).toMatch(/IO-D service( — team: |: )pay as you go \(1 order\)/);
      // The pay-as-you-go order alone is never summed as a zero amount.
      expect(shown).not.toMatch(/IO-D service[^\n]*\b0\.00 USD/);
      expect(shown).toContain("1 order billed pay as you go (IO-D, by use)");
    }
    expect(homeText).toContain(
      "300.00 USD a month · 3,600.00 USD committed in total (3 orders, 1 of them pay as you go)",
    );
    expect(ledgerText).toContain(
      "300.00 USD (3 orders running in November 2026, 1 of them pay as you go)",
    );
  });

  it("an order with a term too long to count is not called one recorded before terms were kept", () => {
    // Placed before the longest term was bounded: 9,999 months ordered, no term kept for the ledger.
    const tooLong = placed("layer2", { monthly: 258.75, total: 2587241.25, text: "" });
    tooLong.call = {
      operation: "createLayer2Connection",
      pathParams: {},
      body: { name: "l2-long", duration: 9999, durationUnit: "m" },
    };
    // Older than the term field: nothing in its price says how long it runs.
    const old = placed("port", { monthly: 100, text: "" });
    const entries = ledgerEntries([readRequest(tooLong), readRequest(old)], "USD");
    const spend = monthlySpend(entries, ledgerMonthOf(NOW), "USD");
    expect({ termUnknown: spend.termUnknown, termTooLong: spend.termTooLong }).toEqual({
      termUnknown: 1,
      termTooLong: 1,
    });
    const shown = readable(spendView(spend).blocks);
    expect(shown).toContain(
      "1 order with term unknown (recorded before terms were kept): counted as still running.",
    );
    expect(shown).toContain(
      "1 order with a term longer than 120 months (10 years), placed before terms were limited to that: counted as still running.",
    );
    expect(ledgerCsv(spend)).toContain("over 120 months");
  });
});
