import type { KnownBlock } from "@slack/types";
import type { MoneySight } from "../../src/approvals/moneyAccess.js";
import type { ApprovalKind } from "../../src/approvals/types.js";
import { maxTermText } from "../../src/domain/catalog/terms.js";
import { formatMoney } from "../../src/domain/money.js";
import { isSlackChannelId } from "../../src/domain/slackIds.js";
import { DASH } from "../../src/domain/units.js";
import { ORDER_KIND_LABEL } from "../approvals/approvals.js";
import { actions, button, context, escapeMrkdwn, header, section } from "../blocks.js";
import { ownOnlyNote } from "../moneyAccess.js";
import type { Reply } from "../reply.js";
import { listOfMentions } from "../requestState.js";

/**
 * `/connect spend [YYYY-MM]`: the team's committed monthly amounts and the month's new
 * commitments, by kind, requester and channel, with Export CSV. The figures are computed in
 * src/orders/spend/ledger.ts; the shapes are repeated here structurally (views import nothing of
 * src/orders, which imports views).
 */

export const SPEND_EXPORT_BUTTON = "spend_export_csv";
/** Groups shown per heading; the CSV holds every order. */
const GROUP_ROWS = 10;

export interface SpendFiguresLike {
  committedMonthly: number;
  running: number;
  runningPayAsYouGo: number;
  newMonthly: number;
  newTotal: number;
  placed: number;
  placedPayAsYouGo: number;
}

export interface SpendSummaryLike {
  month: { key: string; start: Date };
  currency: string;
  totals: SpendFiguresLike;
  byKind: Array<SpendFiguresLike & { key: string }>;
  byRequester: Array<SpendFiguresLike & { key: string }>;
  byChannel: Array<SpendFiguresLike & { key: string }>;
  entries: readonly unknown[];
  termUnknown: number;
  termTooLong: number;
  noMonthly: number;
  payAsYouGo: number;
  otherCurrency: number;
}

/**
 * What committed spend counts, in one sentence: App Home's footnote and `/connect spend` say the
 * same (the rule is src/orders/spend/committed.ts).
 */
export const COMMITTED_SPEND_RULE =
  "Orders placed through the bot while their term runs, at the price the approver saw; an order the provider cancelled or failed (as tracking saw it) is not counted.";

export interface Message {
  text: string;
  blocks: KnownBlock[];
}

/** "November 2026" */
export function monthName(start: Date): string {
  return start.toLocaleString("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * Amounts over some orders, with how many orders they count and how many of those are pay as you
 * go (IO-D: no amount, src/orders/spend/committed.ts `payAsYouGo`): the one wording of App Home
 * and `/connect spend`, so both say the same count the same way.
 * "100.00 USD a month (7 orders, 1 of them pay as you go)"; when every order is pay as you go
 * there is no amount to show: "pay as you go (1 order)", never 0.00. `counted` follows the count
 * ("running in November 2026").
 */
export function spendWords(
  amounts: string,
  count: { orders: number; payAsYouGo: number },
  counted = "",
): string {
  const orders = `${plural(count.orders, "order")}${counted ? ` ${counted}` : ""}`;
  if (count.payAsYouGo > 0 && count.payAsYouGo === count.orders) return `pay as you go (${orders})`;
  const payg = count.payAsYouGo > 0 ? `, ${count.payAsYouGo} of them pay as you go` : "";
  return `${amounts} (${orders}${payg})`;
}

/** The note under the sums when some orders are pay as you go (App Home and `/connect spend`). */
export function payAsYouGoNote(orders: number): string {
  return `${plural(orders, "order")} billed pay as you go (IO-D, by use): counted as orders, with no amount in these sums.`;
}

function money(amount: number, currency: string): string {
  return escapeMrkdwn(formatMoney(amount, currency) ?? DASH);
}

const runningCount = (figures: SpendFiguresLike) => ({
  orders: figures.running,
  payAsYouGo: figures.runningPayAsYouGo,
});
const placedCount = (figures: SpendFiguresLike) => ({
  orders: figures.placed,
  payAsYouGo: figures.placedPayAsYouGo,
});

function groupLine(label: string, figures: SpendFiguresLike, currency: string): string {
  const committed =
    figures.running > 0
      ? spendWords(`${money(figures.committedMonthly, currency)} a month`, runningCount(figures))
      : "nothing running";
  const added =
    figures.placed > 0
      ? ` · new: ${spendWords(
          `${money(figures.newMonthly, currency)} a month, ${money(figures.newTotal, currency)} committed`,
          placedCount(figures),
        )}`
      : "";
  return `• ${label}: ${committed}${added}`;
}

function groupSection(
  title: string,
  groups: SpendSummaryLike["byKind"],
  label: (key: string) => string,
  currency: string,
): KnownBlock | undefined {
  if (groups.length === 0) return undefined;
  const lines = groups.slice(0, GROUP_ROWS).map((g) => groupLine(label(g.key), g, currency));
  if (groups.length > GROUP_ROWS)
    lines.push(`…and ${groups.length - GROUP_ROWS} more (Export CSV has every order)`);
  return section(`*${title}*\n${lines.join("\n")}`);
}

const kindLabel = (key: string) =>
  ORDER_KIND_LABEL[key as ApprovalKind] ?? escapeMrkdwn(key || "other");
// Requester ids are validated Slack user ids (src/approvals); anything else is shown escaped.
const userLabel = (key: string) => listOfMentions([key]);
const channelLabel = (key: string) =>
  isSlackChannelId(key)
    ? `<#${key}>`
    : /^D[A-Z0-9]{2,}$/.test(key)
      ? "a direct message"
      : key === ""
        ? "not recorded"
        : escapeMrkdwn(key);

/**
 * The ledger's answer for one month: the team's, or (`sight.sees === "own"`) the person's own
 * orders only, said so.
 */
export function spendView(spend: SpendSummaryLike, sight: MoneySight = { sees: "all" }): Reply {
  const own = sight.sees === "own";
  const { totals, currency } = spend;
  const name = monthName(spend.month.start);
  const committed = spendWords(
    money(totals.committedMonthly, currency),
    runningCount(totals),
    `running in ${name}`,
  );
  const added =
    totals.placed > 0
      ? spendWords(
          `${money(totals.newMonthly, currency)} a month, ${money(totals.newTotal, currency)} total commitment`,
          placedCount(totals),
          "placed",
        )
      : "nothing placed";
  const headline = `*Committed monthly:* ${committed}\n*New in ${name}:* ${added}`;
  const text =
    spend.entries.length === 0
      ? `Spend in ${name}: nothing placed through the bot is committed`
      : `Spend in ${name}: committed monthly ${committed}; new in the month: ${added}`;
  const blocks: KnownBlock[] = [header(`${own ? "Your spend" : "Spend"} · ${name}`)];
  if (own) blocks.push(ownOnlyNote(sight));
  if (spend.entries.length === 0) {
    blocks.push(
      section(
        `Nothing placed through the bot is committed in ${name}: no order was placed then, and none placed before runs into it.`,
      ),
    );
  } else {
    blocks.push(section(headline));
    for (const block of [
      groupSection("By kind", spend.byKind, kindLabel, currency),
      // Only the person's own: a list of requesters would name just them.
      own ? undefined : groupSection("By requester", spend.byRequester, userLabel, currency),
      groupSection("By channel (where it was asked)", spend.byChannel, channelLabel, currency),
    ]) {
      if (block) blocks.push(block);
    }
  }
  const notes = [
    `${COMMITTED_SPEND_RULE} Amounts in ${escapeMrkdwn(currency)} (the provider returns no currency).`,
  ];
  if (spend.termUnknown > 0)
    notes.push(
      `${plural(spend.termUnknown, "order")} with term unknown (recorded before terms were kept): counted as still running.`,
    );
  if (spend.termTooLong > 0)
    notes.push(
      `${plural(spend.termTooLong, "order")} with a term longer than ${maxTermText("months")}, placed before terms were limited to that: counted as still running.`,
    );
  if (spend.payAsYouGo > 0) notes.push(payAsYouGoNote(spend.payAsYouGo));
  if (spend.noMonthly > 0)
    notes.push(`${plural(spend.noMonthly, "order")} with no monthly amount recorded.`);
  if (spend.otherCurrency > 0)
    notes.push(
      `${plural(spend.otherCurrency, "order")} recorded in another currency: in the CSV, not in these sums.`,
    );
  blocks.push(context(...notes));
  if (spend.entries.length > 0) {
    blocks.push(
      actions("spend_actions", [
        button("Export CSV", SPEND_EXPORT_BUTTON, spend.month.key, "primary"),
      ]),
    );
  }
  return { text, blocks, keepPrivate: SPEND_STAYS_PRIVATE };
}

/** The team's money is for spend viewers (SPEND_VIEWERS): never posted where others read it. */
export const SPEND_STAYS_PRIVATE =
  "Spend answers are not shared: people in a channel may not be allowed to see the team's money. Each person can run `/connect spend` for what they may see.";

/** After Export CSV: where the file went, or why it did not. */
export function spendExportNotice(
  outcome: { ok: true; monthKey: string; rows: number } | { ok: false; reason: string },
): Message {
  const text = outcome.ok
    ? `:page_facing_up: The ledger of ${escapeMrkdwn(outcome.monthKey)} (${plural(outcome.rows, "order")}) is in your direct messages with the bot.`
    : `:warning: Couldn't export the ledger: ${escapeMrkdwn(outcome.reason)}`;
  return { text, blocks: [section(text)] };
}

/** The message the CSV file is shared with in the person's DM. */
export function spendFileMessage(monthKey: string, rows: number, currency: string): Message {
  const text = `Spend ledger for ${escapeMrkdwn(monthKey)}: ${plural(rows, "order")}, amounts in ${escapeMrkdwn(currency)}. ${COMMITTED_SPEND_RULE}`;
  return { text, blocks: [section(text)] };
}
