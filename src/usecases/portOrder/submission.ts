// A checked port order as the approval request it becomes: every field of the body in words for
// the approvers, the exact call to make once approved, the port name to find it by, the price.

import { type PortTerm, termWords } from "../../domain/catalog/portTerms.js";
import { formatMoney } from "../../domain/money.js";
import { formatMbps, formatSpeed } from "../../domain/units.js";
import type { OrderSubmission } from "../../orders/index.js";
import { ORDER_KINDS } from "../../orders/kinds.js";
import type { Dcf, PricingResult } from "../../provider/api.js";
import type { CheckedPortOrder } from "./check.js";

function finite(x: unknown): number | undefined {
  return typeof x === "number" && Number.isFinite(x) ? x : undefined;
}

/**
 * The price in words. `price` is the total for the term and `basicMonthlyAmount` monthly
 * (docs/provider/provider-notes.md); no currency comes back, so the configured one labels them.
 */
export function portPriceText(
  result: PricingResult,
  term: Pick<PortTerm, "durationUnit">,
  currency: string,
): string {
  const total = formatMoney(result.price, currency);
  const monthly =
    formatMoney(result.basicMonthlyAmount, currency) ?? formatMoney(result.preAuthAmount, currency);
  if (total === undefined) return "The provider returned no price";
  if (term.durationUnit === "m") return `${total} a month, month to month`;
  const perMonth = monthly !== undefined ? ` (${monthly} a month)` : "";
  return `${total} for 1 year${perMonth}`;
}

/** The data center as the summary names it: "Equinix AM3 (equinix-am3)". */
export function dcfWords(dcf: Dcf): string {
  const name = dcf.name?.trim();
  const username = dcf.username ?? dcf.id;
  return name ? `${name} (${username})` : username;
}

/**
 * The approval request for a checked port order: every field of the body in words, the exact
 * call to make once approved, the port name to find it by, and the price.
 */
export function portOrderSubmission(
  checked: CheckedPortOrder,
  requester: { userId: string; channelId?: string },
  currency: string,
): OrderSubmission {
  const { body, dcf, term, price } = checked;
  const total = finite(price.price);
  const monthly = finite(price.basicMonthlyAmount) ?? finite(price.preAuthAmount);
  return {
    kind: "port",
    title: body.portName,
    summary: [
      { label: "Data center", value: dcfWords(dcf) },
      {
        label: "Speed",
        value: `${formatSpeed(checked.speedMbps)} (${formatMbps(checked.speedMbps)})`,
      },
      { label: "Term", value: termWords(term) },
      { label: "Port name", value: body.portName },
      { label: "Payment type", value: "Invoice" },
      { label: "LOA path", value: checked.loa.text },
    ],
    call: {
      operation: ORDER_KINDS.port.operation,
      pathParams: { companyUsername: checked.companyUsername },
      body: {
        dataCenterFacility: body.dataCenterFacility,
        speed: body.speed,
        durationUnit: body.durationUnit,
        portName: body.portName,
        paymentType: body.paymentType,
      },
    },
    reconcileKey: body.portName,
    price: {
      ...(total !== undefined ? { total } : {}),
      ...(monthly !== undefined ? { monthly } : {}),
      text: portPriceText(price, term, currency),
      // "y" is 1 year; "m" is month to month, a commitment of one month at a time.
      termMonths: term.durationUnit === "y" ? 12 : 1,
    },
    requester: {
      userId: requester.userId,
      ...(requester.channelId ? { channelId: requester.channelId } : {}),
    },
  };
}
