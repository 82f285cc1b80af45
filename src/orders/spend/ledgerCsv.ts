import { stringify } from "csv-stringify/sync";
import { MAX_TERM_MONTHS } from "../../domain/catalog/terms.js";
import type { LedgerEntry, MonthlySpend } from "./ledger.js";

/**
 * The month's ledger as CSV, for the Export CSV button. csv-stringify quotes what needs quoting
 * (commas, quotes and line breaks in a name someone typed), and `defuseFormulas` keeps a name
 * from becoming a spreadsheet formula (CSV injection) when a finance colleague opens the file —
 * whichever delimiter their spreadsheet splits on.
 */

/**
 * A `'` before every place in a field where a spreadsheet could start a cell with `=`, `+`, `-`
 * or `@`: the field's start, and after each `,` or `;` (a spreadsheet where the comma is the
 * decimal separator splits on `;`, so `;=1+2` would give a cell `=1+2`), tab or line break (a
 * reader that ignores the quotes starts a new cell or row there). Spaces and quotes before the
 * sign count too (a reader may take `"=1` as a quoted `=1`). A field starting with a tab or
 * carriage return gets one as well (OWASP's list). The full-width signs `＝ ＋ － ＠` count as
 * well: spreadsheets in Japanese and Chinese locales turn them into `= + - @` as they read a
 * cell, so `＝HYPERLINK(…)` runs like `=HYPERLINK(…)`.
 */
export function defuseFormulas(field: string): string {
  return field
    .replace(/(^|[,;\t\r\n])([ "]*)(?=[=+\-@＝＋－＠])/g, "$1$2'")
    .replace(/^(?=[\t\r])/, "'");
}

export const LEDGER_CSV_COLUMNS = [
  "request id",
  "kind",
  "name",
  "requester",
  "approvers",
  "placed at",
  "monthly amount",
  "term",
  "total commitment",
  "currency",
  "status",
] as const;

/**
 * "12 months", "1 month", "30 days", "over 120 months" (a term longer than any form takes,
 * placed before the bound), or "term unknown" (records older than the term field).
 */
export function termText(
  termMonths: number | undefined,
  termDays: number | undefined = undefined,
  termTooLong = false,
): string {
  if (termMonths !== undefined) return `${termMonths} month${termMonths === 1 ? "" : "s"}`;
  if (termDays !== undefined) return `${termDays} day${termDays === 1 ? "" : "s"}`;
  return termTooLong ? `over ${MAX_TERM_MONTHS} months` : "term unknown";
}

/** What a pay-as-you-go row holds in its amount columns. */
export const PAY_AS_YOU_GO = "pay as you go";

/** An amount as the CSV holds it: two decimals, no grouping, empty when there is none. */
const amount = (value: number | undefined) => (value === undefined ? "" : value.toFixed(2));

function row(entry: LedgerEntry): string[] {
  // Pay as you go (IO-D) has no amount: both amount columns say so, never 0.00 or a blank that
  // reads as a missing price.
  const payg = entry.billing === "pay-as-you-go";
  return [
    entry.requestId,
    entry.kind,
    entry.name,
    entry.requester,
    entry.approvers.join(" "),
    entry.placedAt.toISOString(),
    payg ? PAY_AS_YOU_GO : amount(entry.monthly),
    termText(entry.termMonths, entry.termDays, entry.termTooLong),
    payg ? PAY_AS_YOU_GO : amount(entry.total),
    entry.currency,
    entry.status,
  ];
}

/** The month's orders (running or placed in it), oldest first, one row each under a header. */
export function ledgerCsv(spend: Pick<MonthlySpend, "entries">): string {
  return stringify([
    [...LEDGER_CSV_COLUMNS],
    ...spend.entries.map((entry) => row(entry).map(defuseFormulas)),
  ]);
}

/** The file's name: `connect-spend-2026-11.csv`. */
export function ledgerFileName(monthKey: string): string {
  return `connect-spend-${monthKey}.csv`;
}
