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
  termMonths?: number;
  currency?: string;
}

/** What the confirmation names: the total commitment when it is known, else the monthly amount. */
export interface ApproveConfirmation {
  /** The order's total over its term: the provider's total, else monthly × term months. */
  total?: number;
  monthly?: number;
  termMonths?: number;
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
  const termMonths = price?.termMonths;
  const total =
    finite(price?.total) ??
    (monthly !== undefined && termMonths !== undefined ? monthly * termMonths : undefined);
  if (monthly !== undefined ? monthly < from : total !== undefined && total < from)
    return undefined;
  return {
    ...(total !== undefined ? { total } : {}),
    ...(monthly !== undefined ? { monthly } : {}),
    ...(termMonths !== undefined ? { termMonths } : {}),
  };
}

function finite(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}
