// The layer 2 submission: the form checked again against fresh provider data within Slack's
// deadline, the price the person saw compared with the price now, and the order handed to
// approval (OrderSubmission) with its title, summary, provider call and price.
import { monthsOfTerm } from "../../domain/catalog/terms.js";
import { formatMoney } from "../../domain/money.js";
import { BEFORE_ACK_BUDGET_MS } from "../../domain/slackBudget.js";
import { formatMbps, formatTerm } from "../../domain/units.js";
import type { OrderSubmission } from "../../orders/index.js";
import { loadForCheck, oneLine, SLOW_PROVIDER } from "../shared/orderForms.js";
import { checkValues, type Layer2Errors } from "./check.js";
import type { Layer2Deps, Layer2Field, Layer2Form, Layer2ModalData, Layer2Quote } from "./form.js";
import { loadLayer2Modal } from "./load.js";

export type Layer2Check =
  | { kind: "invalid"; errors: Layer2Errors }
  /** Valid, but the price was not shown for these inputs (or changed): show it, then resubmit. */
  | { kind: "review"; data: Layer2ModalData }
  | { kind: "ready"; submission: OrderSubmission; data: Layer2ModalData };

/**
 * Slack waits 3 s for a submission's answer; the provider gets 2 of them (two round trips: the
 * look-ups, then the price), leaving room for Redis, the network and the ack.
 */
export const LAYER2_SUBMIT_DEADLINE_MS = BEFORE_ACK_BUDGET_MS;

/** The commitment's length for the spend ledger, when the body's term reads as months. */
function termOf(value: unknown, unit: unknown): { termMonths?: number } {
  const months = monthsOfTerm(value, unit);
  return months === undefined ? {} : { termMonths: months };
}

function finite(x: unknown): x is number {
  return typeof x === "number" && Number.isFinite(x);
}

/**
 * The price's one-off part: its port fee, which the provider's formula adds once to the term's
 * cost ("(bandwidthCost*multiplier)*duration/(1-margin)+portFee") — named only when the total is
 * exactly that (the monthly amount × the term's months + the fee, to a cent a month of rounding),
 * so a provider whose monthly amount already holds the fee is not said to charge it twice.
 */
function portFeeOf(quote: Layer2Quote): number | undefined {
  const factors = Array.isArray(quote.result.factors) ? quote.result.factors : [];
  const fee = factors.find((f) => f?.name === "portFee")?.number;
  const { price, basicMonthlyAmount: monthly } = quote.result;
  const months = monthsOfTerm(quote.config.duration.value, quote.config.duration.unit);
  if (!finite(fee) || fee <= 0 || !finite(price) || !finite(monthly) || months === undefined) {
    return undefined;
  }
  return Math.abs(price - (monthly * months + fee)) <= 0.01 * months + 1e-9 ? fee : undefined;
}

function oneOffOf(quote: Layer2Quote): { oneOff?: number } {
  const fee = portFeeOf(quote);
  return fee === undefined ? {} : { oneOff: fee };
}

/** "12,500.00 USD for 12 months (1,000.00 USD a month, plus 500.00 USD once)". */
function priceText(quote: Layer2Quote, currency: string): string {
  const term = formatTerm(quote.config.duration.value, quote.config.duration.unit);
  const monthly = formatMoney(
    quote.result.basicMonthlyAmount ?? quote.result.preAuthAmount,
    currency,
  );
  const once = formatMoney(portFeeOf(quote), currency);
  const total = `${formatMoney(quote.result.price, currency) ?? "no total given"} for ${term}`;
  if (monthly === undefined) return once !== undefined ? `${total}, including ${once} once` : total;
  return `${total} (${monthly} a month${once !== undefined ? `, plus ${once} once` : ""})`;
}

/**
 * Checks a submitted layer 2 form against fresh provider data, within `deadlineMs`. `shownPrice`
 * is the key of the price the modal showed: a different (or no) price means "show it first".
 */
export async function checkLayer2Submission(
  deps: Layer2Deps,
  input: {
    form: Layer2Form;
    shownPrice?: string;
    requester: OrderSubmission["requester"];
    /** The ISO 4217 code the price is labelled with (PRICE_CURRENCY). */
    currency: string;
    deadlineMs?: number;
  },
): Promise<Layer2Check> {
  const fresh = await loadForCheck(deps, input.deadlineMs ?? LAYER2_SUBMIT_DEADLINE_MS, (signal) =>
    loadLayer2Modal(deps, input.form, { signal }),
  );
  if (!fresh) return { kind: "invalid", errors: { sourcePort: SLOW_PROVIDER } };
  const { data, taken } = fresh;
  const checked = checkValues(data, input.form, taken);
  if ("errors" in checked) return { kind: "invalid", errors: checked.errors };
  const price = data.price;
  if (!price?.ok) {
    const field: Layer2Field = data.values.mode === "business-to-business" ? "destDcf" : "destPort";
    return {
      kind: "invalid",
      // Two sentences: the provider's reason starts with a capital ("The provider refused…").
      errors: { [field]: `No price for this connection. ${price?.problem ?? "Try again."}` },
    };
  }
  if (price.value.key !== input.shownPrice) return { kind: "review", data };

  const identity = data.identity;
  const body = checked.body;
  const name = String(body.name);
  return {
    kind: "ready",
    data,
    submission: {
      kind: "layer2",
      title: oneLine(
        // The approval message's header puts "Layer 2 connection: " in front: no second colon.
        `${name} — ${data.source?.name ?? body.portId} → ${checked.destLabel} · ${formatMbps(Number(body.speed))} ${String(body.classOfService)}`,
      ),
      summary: checked.summary,
      call: {
        operation: "createLayer2Connection",
        pathParams: { companyUsername: identity.companyUsername },
        body,
      },
      reconcileKey: name,
      price: {
        ...(finite(price.value.result.price) ? { total: price.value.result.price } : {}),
        ...(finite(price.value.result.basicMonthlyAmount)
          ? { monthly: price.value.result.basicMonthlyAmount }
          : {}),
        ...oneOffOf(price.value),
        text: priceText(price.value, input.currency),
        ...termOf(body.duration, body.durationUnit),
      },
      requester: input.requester,
    },
  };
}
