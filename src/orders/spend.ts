import type { ApprovalKind, ApprovalRequest } from "../approvals/index.js";
import { APPROVAL_KINDS } from "../approvals/index.js";

/**
 * Committed spend: the one sum of what the team has committed to through the bot. Pure, so
 * App Home and `/connect spend` add up the same records the same way.
 *
 * Counted: requests `placed` (ordered at the provider through the bot). Not counted: anything
 * not (yet) ordered — pending, approved, executing, unknown, failed, rejected, cancelled.
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

/** Whether a request counts as committed spend (placed through the bot). */
export function isCommitted(record: Pick<ApprovalRequest, "status">): boolean {
  return record.status === "placed";
}

/** The committed spend of `records` (optionally only one requester's), overall and by kind. */
export function committedSpend(
  records: readonly ApprovalRequest[],
  options: { requester?: string } = {},
): CommittedSpend {
  const overall = none();
  const byKind = Object.fromEntries(APPROVAL_KINDS.map((kind) => [kind, none()])) as Record<
    ApprovalKind,
    SpendFigures
  >;
  for (const record of records) {
    if (!isCommitted(record)) continue;
    if (options.requester !== undefined && record.requester.userId !== options.requester) continue;
    add(overall, record);
    add(byKind[record.kind], record);
  }
  return { ...overall, byKind };
}
