import type { ApprovalKind } from "../../approvals/index.js";
import type { Billing, RequestReadModel } from "../readModel.js";
import { countsAsCommitment, termEnds } from "./committed.js";

/**
 * The spend ledger (`/connect spend [YYYY-MM]` and its CSV export): what the team has committed
 * to through the bot, read from the read model (../readModel.ts) with App Home's rule (committed.ts:
 * `countsAsCommitment`, `termEnds`). Pure functions, so the sums are tested without Redis or
 * Slack.
 *
 * - Only requests **placed** through the bot count, and not once tracking saw the provider
 *   cancel or fail them: a pending, rejected, cancelled or failed request committed nothing,
 *   and one whose outcome is unknown may not exist.
 * - *Committed monthly* in a month: the monthly amounts of every order placed by the month's
 *   end whose term still runs in that month (an order with no recorded term — older records,
 *   IO-D — is counted as still running: the bot cannot know it ended).
 * - *New commitments*: orders placed in the month, with their monthly amount and their total
 *   commitment (the provider's total for the term, else monthly × term months).
 * - Records are kept at least 90 days (src/approvals), so older orders drop out of the ledger
 *   when their record expires.
 */

/** A calendar month in UTC: `2026-11` is [2026-11-01T00:00Z, 2026-12-01T00:00Z). */
export interface LedgerMonth {
  /** `YYYY-MM` */
  key: string;
  start: Date;
  end: Date;
}

/** Reads `YYYY-MM` (years 2000–2999, months 01–12); undefined for anything else. */
export function parseLedgerMonth(text: string): LedgerMonth | undefined {
  const match = /^(2\d{3})-(0[1-9]|1[0-2])$/.exec(text.trim());
  if (!match) return undefined;
  const year = Number(match[1]);
  const month = Number(match[2]);
  return {
    key: `${match[1]}-${match[2]}`,
    start: new Date(Date.UTC(year, month - 1, 1)),
    end: new Date(Date.UTC(year, month, 1)),
  };
}

/** The month `at` falls in (UTC). */
export function ledgerMonthOf(at: Date): LedgerMonth {
  const key = at.toISOString().slice(0, 7);
  return parseLedgerMonth(key) as LedgerMonth;
}

/** One placed order, as the ledger and its CSV show it. */
export interface LedgerEntry {
  requestId: string;
  kind: ApprovalKind;
  /** The order's name (port or connection name), else the request's title. */
  name: string;
  requester: string;
  /** Where the requester asked (a channel id), when known. */
  channel?: string;
  approvers: string[];
  placedAt: Date;
  monthly?: number;
  termMonths?: number;
  /** A term in days (IO-D). */
  termDays?: number;
  /** No term counted: the one ordered is longer than any form takes now (placed before the bound). */
  termTooLong?: true;
  /** The total commitment: the provider's total, else monthly × term months. */
  total?: number;
  billing: Billing;
  currency: string;
  /** The state in the read model's words ("Ordered · now ACTIVE", "Done"). */
  status: string;
}

/**
 * The ledger's entries: every request that counts as a commitment, oldest first. `currency`
 * labels records written before the currency was recorded with them.
 */
export function ledgerEntries(
  models: readonly RequestReadModel[],
  currency: string,
): LedgerEntry[] {
  const entries: LedgerEntry[] = [];
  for (const model of models) {
    if (!countsAsCommitment(model) || !model.placedAt) continue;
    const { monthly, termMonths, termDays, termTooLong, total, billing } = model.money;
    entries.push({
      requestId: model.id,
      kind: model.kind,
      name: model.name,
      requester: model.requester,
      ...(model.askedIn ? { channel: model.askedIn } : {}),
      // Everyone whose approval counted (a policy rule may need several), else the one decision.
      approvers: model.approvers,
      placedAt: new Date(model.placedAt),
      ...(monthly !== undefined ? { monthly } : {}),
      ...(termMonths !== undefined ? { termMonths } : {}),
      ...(termDays !== undefined ? { termDays } : {}),
      ...(termTooLong ? { termTooLong } : {}),
      ...(total !== undefined ? { total } : {}),
      billing,
      currency: model.money.currency ?? currency,
      status: model.state.words,
    });
  }
  return entries.sort((a, b) => a.placedAt.getTime() - b.placedAt.getTime());
}

/** Whether an entry's term still runs at some point of the month. */
function runsIn(entry: LedgerEntry, month: LedgerMonth): boolean {
  if (entry.placedAt >= month.end) return false;
  const ends = termEnds(entry.placedAt, entry);
  return ends === undefined || ends > month.start;
}

/**
 * Sums of one group (a kind, a requester, a channel, or everything) in one month: an order
 * counts while its term runs, as in App Home's committed spend (src/orders/spend/committed.ts).
 */
export interface LedgerFigures {
  /** Monthly amounts of every order running in the month. */
  committedMonthly: number;
  /** Orders running in the month. */
  running: number;
  /** Of those, billed pay as you go (IO-D): counted, with no amount in the sums. */
  runningPayAsYouGo: number;
  /** Monthly amounts of the orders placed in the month. */
  newMonthly: number;
  /** Total commitments of the orders placed in the month. */
  newTotal: number;
  /** Orders placed in the month. */
  placed: number;
  /** Of those, billed pay as you go (IO-D). */
  placedPayAsYouGo: number;
}

export interface LedgerGroup extends LedgerFigures {
  key: string;
}

export interface MonthlySpend {
  month: LedgerMonth;
  currency: string;
  totals: LedgerFigures;
  byKind: LedgerGroup[];
  byRequester: LedgerGroup[];
  byChannel: LedgerGroup[];
  /** Every order counted in the month (running or placed in it), oldest first: the CSV rows. */
  entries: LedgerEntry[];
  /** Orders counted with no recorded term ("term unknown"). */
  termUnknown: number;
  /** Orders counted with a term too long to count, placed before the bound (`termTooLong`). */
  termTooLong: number;
  /** Priced orders counted with no monthly amount. */
  noMonthly: number;
  /** Orders billed pay as you go (IO-D): counted, no amount. */
  payAsYouGo: number;
  /** Entries in another currency than `currency`, left out of the sums (never added up). */
  otherCurrency: number;
}

const emptyFigures = (): LedgerFigures => ({
  committedMonthly: 0,
  running: 0,
  runningPayAsYouGo: 0,
  newMonthly: 0,
  newTotal: 0,
  placed: 0,
  placedPayAsYouGo: 0,
});

/** Cents, so sums of many amounts do not drift (0.1 + 0.2). */
const addMoney = (a: number, b: number) => Math.round((a + b) * 100) / 100;

/** The month's figures: totals and per kind, requester and channel (largest first). */
export function monthlySpend(
  entries: readonly LedgerEntry[],
  month: LedgerMonth,
  currency: string,
): MonthlySpend {
  const totals = emptyFigures();
  const groups = {
    kind: new Map<string, LedgerFigures>(),
    requester: new Map<string, LedgerFigures>(),
    channel: new Map<string, LedgerFigures>(),
  };
  const counted: LedgerEntry[] = [];
  let termUnknown = 0;
  let termTooLong = 0;
  let noMonthly = 0;
  let payAsYouGo = 0;
  let otherCurrency = 0;
  for (const entry of entries) {
    const running = runsIn(entry, month);
    const isNew = entry.placedAt >= month.start && entry.placedAt < month.end;
    if (!running && !isNew) continue;
    counted.push(entry);
    if (entry.currency !== currency) {
      otherCurrency++;
      continue;
    }
    if (entry.termMonths === undefined && entry.termDays === undefined) {
      if (entry.termTooLong) termTooLong++;
      else termUnknown++;
    }
    const payg = entry.billing === "pay-as-you-go";
    if (payg) payAsYouGo++;
    else if (entry.monthly === undefined) noMonthly++;
    const targets = [
      totals,
      figuresOf(groups.kind, entry.kind),
      figuresOf(groups.requester, entry.requester),
      figuresOf(groups.channel, entry.channel ?? ""),
    ];
    for (const figures of targets) {
      if (running) {
        figures.running++;
        if (payg) figures.runningPayAsYouGo++;
        figures.committedMonthly = addMoney(figures.committedMonthly, entry.monthly ?? 0);
      }
      if (isNew) {
        figures.placed++;
        if (payg) figures.placedPayAsYouGo++;
        figures.newMonthly = addMoney(figures.newMonthly, entry.monthly ?? 0);
        figures.newTotal = addMoney(figures.newTotal, entry.total ?? 0);
      }
    }
  }
  return {
    month,
    currency,
    totals,
    byKind: sorted(groups.kind),
    byRequester: sorted(groups.requester),
    byChannel: sorted(groups.channel),
    entries: counted,
    termUnknown,
    termTooLong,
    noMonthly,
    payAsYouGo,
    otherCurrency,
  };
}

function figuresOf(map: Map<string, LedgerFigures>, key: string): LedgerFigures {
  let figures = map.get(key);
  if (!figures) {
    figures = emptyFigures();
    map.set(key, figures);
  }
  return figures;
}

function sorted(map: Map<string, LedgerFigures>): LedgerGroup[] {
  return [...map.entries()]
    .map(([key, figures]) => ({ key, ...figures }))
    .sort(
      (a, b) =>
        b.committedMonthly - a.committedMonthly ||
        b.newTotal - a.newTotal ||
        a.key.localeCompare(b.key),
    );
}
