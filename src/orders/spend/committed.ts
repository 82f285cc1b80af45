import type { ApprovalKind } from "../../approvals/index.js";
import { APPROVAL_KINDS } from "../../approvals/index.js";
import type { RequestMoney, RequestReadModel } from "../readModel.js";

/**
 * Committed spend: the one rule of what the team has committed to through the bot, over the
 * read model (../readModel.ts), so App Home, `/connect spend` and its CSV (ledger.ts) count the same
 * orders the same way.
 *
 * Counted (`countsAsCommitment`): requests placed through the bot, unless tracking saw the
 * provider cancel or fail them, while their term runs (`termEnds`: a term in months, or in days
 * for IO-D; an order with no recorded term counts as running). Not counted: anything not (yet)
 * ordered. Amounts are the ones the approver saw; an IO-D service is pay as you go: counted as an
 * order, with no amount (`payAsYouGo`), never as 0.00. The provider returns no currency, so the
 * caller labels them.
 */

export interface SpendFigures {
  /** Orders counted. */
  orders: number;
  /** The sum of their monthly recurring amounts (those without one add nothing). */
  monthly: number;
  /** The sum of their total commitments over the term (those without one add nothing). */
  total: number;
  /** Orders billed pay as you go (IO-D): counted, no amount to add. */
  payAsYouGo: number;
  /** Priced orders whose price had no monthly amount, or no total (so the sums say less). */
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
  payAsYouGo: 0,
  withoutMonthly: 0,
  withoutTotal: 0,
});

function add(figures: SpendFigures, model: RequestReadModel): void {
  const { monthly, total, billing } = model.money;
  figures.orders += 1;
  if (billing === "pay-as-you-go") {
    figures.payAsYouGo += 1;
    return;
  }
  if (typeof monthly === "number" && Number.isFinite(monthly)) figures.monthly += monthly;
  else figures.withoutMonthly += 1;
  if (typeof total === "number" && Number.isFinite(total)) figures.total += total;
  else figures.withoutTotal += 1;
}

/** When an order's term ends; undefined when no term was recorded (it runs on). */
export function termEnds(
  placed: Date,
  money: Pick<RequestMoney, "termMonths" | "termDays">,
): Date | undefined {
  const ends = new Date(placed);
  if (money.termMonths !== undefined) {
    ends.setUTCMonth(ends.getUTCMonth() + money.termMonths);
    return ends;
  }
  if (money.termDays !== undefined) {
    ends.setUTCDate(ends.getUTCDate() + money.termDays);
    return ends;
  }
  return undefined;
}

/**
 * Whether a request is a commitment at all: placed through the bot, and not cancelled or failed
 * at the provider (as tracking saw it). Where its term runs is `isCommitted`'s.
 */
export function countsAsCommitment(model: Pick<RequestReadModel, "status" | "state">): boolean {
  return (
    model.status === "placed" &&
    model.state.phase !== "cancelled-at-provider" &&
    model.state.phase !== "failed-at-provider"
  );
}

/** Whether a request counts as committed spend at `at`: a commitment whose term runs. */
export function isCommitted(
  model: Pick<RequestReadModel, "status" | "state" | "placedAt" | "money">,
  at: Date,
): boolean {
  if (!countsAsCommitment(model)) return false;
  if (!model.placedAt) return true;
  const placed = new Date(model.placedAt);
  const ends = termEnds(placed, model.money);
  return placed <= at && (ends === undefined || ends > at);
}

/** The committed spend of `models` (optionally only one requester's), overall and by kind. */
export function committedSpend(
  models: readonly RequestReadModel[],
  options: { requester?: string; at?: Date } = {},
): CommittedSpend {
  const at = options.at ?? new Date();
  const overall = none();
  const byKind = Object.fromEntries(APPROVAL_KINDS.map((kind) => [kind, none()])) as Record<
    ApprovalKind,
    SpendFigures
  >;
  for (const model of models) {
    if (!isCommitted(model, at)) continue;
    if (options.requester !== undefined && model.requester !== options.requester) continue;
    add(overall, model);
    add(byKind[model.kind], model);
  }
  return { ...overall, byKind };
}
