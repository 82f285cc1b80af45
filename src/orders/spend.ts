import type { ApprovalKind, ApprovalRequest } from "../approvals/index.js";
import { APPROVAL_KINDS } from "../approvals/index.js";

/**
 * Committed spend: the one sum of what the team has committed to through the bot. Pure, so
 * App Home and `/connect spend` add up the same records the same way.
 *
 * Counted: requests `placed` (ordered at the provider through the bot) whose term still runs
 * (an order with no recorded term counts as running: the approval records of old versions and
 * IO-D keep none). Not counted: anything not (yet) ordered — pending, approved, executing,
 * unknown, failed, rejected, cancelled — nor an order whose term has ended. The spend ledger
 * (ledger.ts) reads a month with the same rule (`placedAt`, `termEnds`).
 * Amounts are the ones the approver saw (`price.monthly`, `price.total`); the provider
 * returns no currency, so the caller labels them.
 */

export interface SpendFigures {
  /** Placed requests counted. */
  orders: number;
  /** The sum of their monthly recurring amounts (those without one add nothing). */
  monthly: number;
  /** The sum of their total commitments over the term (those without one add nothing). */
  total: number;
  /** Placed requests whose price had no monthly amount, or no total (so the sums say less). */
  withoutMonthly: number;
  withoutTotal: number;
}

export interface CommittedSpend extends SpendFigures {
  byKind: Record<ApprovalKind, SpendFigures>;
}

const none = (): SpendFigures => ({
  orders: 0,
  monthly: 0,
  total: 0,
  withoutMonthly: 0,
  withoutTotal: 0,
});

function add(figures: SpendFigures, record: ApprovalRequest): void {
  const { monthly, total } = record.price ?? {};
  figures.orders += 1;
  if (typeof monthly === "number" && Number.isFinite(monthly)) figures.monthly += monthly;
  else figures.withoutMonthly += 1;
  if (typeof total === "number" && Number.isFinite(total)) figures.total += total;
  else figures.withoutTotal += 1;
}

/** The time a request was placed: its last move to `placed` in the history. */
export function placedAt(record: Pick<ApprovalRequest, "history">): Date | undefined {
  for (let i = record.history.length - 1; i >= 0; i--) {
    const entry = record.history[i];
    if (entry?.to === "placed") return new Date(entry.at);
  }
  return undefined;
}

/** When an order's term ends; undefined when no term was recorded (it runs on). */
export function termEnds(placed: Date, termMonths: number | undefined): Date | undefined {
  if (termMonths === undefined) return undefined;
  const ends = new Date(placed);
  ends.setUTCMonth(ends.getUTCMonth() + termMonths);
  return ends;
}

/** Whether a request counts as committed spend at `at`: placed through the bot, term running. */
export function isCommitted(
  record: Pick<ApprovalRequest, "status" | "history" | "price">,
  at: Date,
): boolean {
  if (record.status !== "placed") return false;
  const placed = placedAt(record);
  if (!placed) return true;
  const ends = termEnds(placed, record.price?.termMonths);
  return placed <= at && (ends === undefined || ends > at);
}

/** The committed spend of `records` (optionally only one requester's), overall and by kind. */
export function committedSpend(
  records: readonly ApprovalRequest[],
  options: { requester?: string; at?: Date } = {},
): CommittedSpend {
  const at = options.at ?? new Date();
  const overall = none();
  const byKind = Object.fromEntries(APPROVAL_KINDS.map((kind) => [kind, none()])) as Record<
    ApprovalKind,
    SpendFigures
  >;
  for (const record of records) {
    if (!isCommitted(record, at)) continue;
    if (options.requester !== undefined && record.requester.userId !== options.requester) continue;
    add(overall, record);
    add(byKind[record.kind], record);
  }
  return { ...overall, byKind };
}
