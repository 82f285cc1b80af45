/**
 * When Approve asks "Place this order for 14,400.00 USD?" before it counts: a request whose
 * monthly amount is at least `APPROVE_CONFIRM_FROM` (default 1,000 a month). Reject always asks
 * twice (the dialog, then the reason); a large approval, which spends money, asks once more.
 *
 * A request with no monthly amount asks when its total reaches the threshold, or when it has no
 * price at all (the stricter choice when the price is unknown, as the approval policy decides);
 * IO-D is not asked here: it has no price to approve and its Approve button already asks,
 * saying how it is billed. Pure: the views render the answer.
 */

/** `APPROVE_CONFIRM_FROM` when it is not set: 1,000 a month. */
export const DEFAULT_APPROVE_CONFIRM_FROM = 1000;

export interface PriceToConfirm {
  monthly?: number;
  total?: number;
  /** A charge made once, part of the total (an Edge offer's non-recurring price, a port fee). */
  oneOff?: number;
  termMonths?: number;
  currency?: string;
}

/** What the confirmation names: the total commitment when it is known, else the monthly amount. */
export interface ApproveConfirmation {
  /** The order's total over its term: the provider's total, else monthly × term months + one-off. */
  total?: number;
  monthly?: number;
  oneOff?: number;
  termMonths?: number;
  /**
   * What the total holds beyond monthly × term months and the one-off — a record older than the
   * one-off field, or a provider total with other parts (negative: less) — so the words that
   * explain the total add up. Absent when the parts add up to it, to the cent the monthly amount
   * is rounded to (a cent a month).
   */
  rest?: number;
}

/**
 * The confirmation Approve asks for, or undefined when the click approves at once (a monthly
 * amount under the threshold).
 */
export function approveConfirmation(
  price: PriceToConfirm | undefined,
  from: number = DEFAULT_APPROVE_CONFIRM_FROM,
): ApproveConfirmation | undefined {
  const monthly = finite(price?.monthly);
  const oneOff = finite(price?.oneOff);
  const termMonths = price?.termMonths;
  const parts =
    monthly !== undefined && termMonths !== undefined
      ? cents(monthly * termMonths + (oneOff ?? 0))
      : undefined;
  const total = finite(price?.total) ?? parts;
  if (monthly !== undefined ? monthly < from : total !== undefined && total < from)
    return undefined;
  const rest = total !== undefined && parts !== undefined ? cents(total - parts) : 0;
  const rounding = 0.01 * (termMonths ?? 0);
  return {
    ...(total !== undefined ? { total } : {}),
    ...(monthly !== undefined ? { monthly } : {}),
    ...(oneOff !== undefined ? { oneOff } : {}),
    ...(termMonths !== undefined ? { termMonths } : {}),
    ...(Math.abs(rest) > rounding + 1e-9 ? { rest } : {}),
  };
}

/** To the cent, so a sum of amounts does not show a float's drift (0.1 + 0.2). */
function cents(amount: number): number {
  return Math.round(amount * 100) / 100;
}

function finite(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
