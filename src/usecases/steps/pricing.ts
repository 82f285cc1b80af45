// The two price steps (`price_port`, `price_layer2`): the same look-ups and rules as
// `/connect price port` and `/connect price l2`, answered as a step's outputs (numbers, the
// currency, one sentence) or as one error a person reads in the workflow's run history.
import { CONNECTION_BANDWIDTH_MAX_MBPS } from "../../domain/catalog/connections.js";
import type { PortTerm } from "../../domain/catalog/portTerms.js";
import { formatMoney } from "../../domain/money.js";
import { formatMbps, formatTerm } from "../../domain/units.js";
import type { PricingResult, ProviderApi } from "../../provider/api.js";
import { fieldErrors } from "../../provider/rules/fieldErrors.js";
import { pricingConnectionConfigRule } from "../../provider/rules/pricing.js";
import { DEFAULT_CLASS_OF_SERVICE } from "../layer2/form.js";
import { dcfWords, portPriceText } from "../portOrder/submission.js";
import { quotePortPrice } from "../pricing/portPrice.js";
import { priceConnection } from "../shared/prices.js";
import { userMessageOf } from "../shared/providerMessage.js";
import { findStepDcf } from "./dataCenters.js";
import type { PriceLayer2Inputs, PricePortInputs } from "./inputs.js";

/** What both price steps hand to the next step of a workflow (docs/DESIGN.md §3). */
export type PriceOutputs = {
  monthly_price: number;
  total_price: number;
  currency: string;
  summary: string;
};

export type StepAnswer<T> = { ok: true; outputs: T } | { ok: false; error: string };

export interface PriceStepDeps {
  provider: ProviderApi;
  /** The ISO 4217 code amounts are labelled with (PRICE_CURRENCY). */
  currency: string;
}

/**
 * A port's term in months as the provider can price it: 12 is the 1-year term (`y`), 1 is month
 * to month (`m`); the provider has no other port term (src/domain/catalog/portTerms.ts).
 */
export function portTermOfMonths(months: number): PortTerm | undefined {
  if (months === 12) return { value: 12, unit: "m", durationUnit: "y" };
  if (months === 1) return { value: 1, unit: "m", durationUnit: "m" };
  return undefined;
}

export const PORT_TERM_PROBLEM = (months: number) =>
  `A port is priced for 12 months (1 year) or 1 month (month to month), not ${months} months`;

/** Monthly and total from a price; the provider returns no currency (docs/provider/provider-notes.md). */
function amounts(result: PricingResult): { monthly?: number; total?: number } {
  const finite = (x: unknown) => (typeof x === "number" && Number.isFinite(x) ? x : undefined);
  return {
    monthly: finite(result.basicMonthlyAmount) ?? finite(result.preAuthAmount),
    total: finite(result.price),
  };
}

export async function pricePortStep(
  deps: PriceStepDeps,
  inputs: PricePortInputs,
): Promise<StepAnswer<PriceOutputs>> {
  const term = portTermOfMonths(inputs.term_months);
  if (!term) return { ok: false, error: PORT_TERM_PROBLEM(inputs.term_months) };
  let quote: Awaited<ReturnType<typeof quotePortPrice>>;
  try {
    quote = await quotePortPrice(deps.provider, {
      kind: "complete",
      dcfQuery: inputs.data_center,
      speedMbps: inputs.speed_mbps,
      term,
      includeCrossConnect: false,
    });
  } catch (error) {
    return { ok: false, error: `The provider could not price this port: ${userMessageOf(error)}` };
  }
  switch (quote.kind) {
    case "no-match":
    case "choices": {
      // The inline price's own finding, worded for a step (no list to pick from here).
      const found = await findStepDcf(deps.provider, inputs.data_center, {
        speedMbps: inputs.speed_mbps,
      });
      return { ok: false, error: found.ok ? "Pick one data center" : found.error };
    }
    case "speed-not-offered":
      return {
        ok: false,
        error: `${dcfWords(quote.dcf)} does not offer ${formatMbps(quote.speedMbps)}: choose one of ${quote.offered.map(formatMbps).join(", ")}`,
      };
    case "not-ready":
      return {
        ok: false,
        error: `${dcfWords(quote.dcf)} is not ready for orders yet, so it has no price`,
      };
    case "priced": {
      const { monthly, total } = amounts(quote.result);
      if (monthly === undefined || total === undefined) {
        return { ok: false, error: "The provider returned no price for this port" };
      }
      return {
        ok: true,
        outputs: {
          monthly_price: monthly,
          total_price: total,
          currency: deps.currency,
          summary: `${formatMbps(quote.speedMbps)} port at ${dcfWords(quote.dcf)}: ${portPriceText(quote.result, term, deps.currency)}`,
        },
      };
    }
  }
}

export async function priceLayer2Step(
  deps: PriceStepDeps,
  inputs: PriceLayer2Inputs,
): Promise<StepAnswer<PriceOutputs>> {
  if (inputs.bandwidth_mbps > CONNECTION_BANDWIDTH_MAX_MBPS) {
    return {
      ok: false,
      error: `Bandwidth must be at most ${formatMbps(CONNECTION_BANDWIDTH_MAX_MBPS)} (100 Gbps, the fastest port)`,
    };
  }
  const [src, dest] = await Promise.all([
    findStepDcf(deps.provider, inputs.source, { what: "source data center" }),
    findStepDcf(deps.provider, inputs.destination, { what: "destination data center" }),
  ]);
  if (!src.ok || !dest.ok) {
    return { ok: false, error: [src, dest].flatMap((e) => (e.ok ? [] : [e.error])).join("; ") };
  }
  const rule = pricingConnectionConfigRule.safeParse({
    bandwidth: inputs.bandwidth_mbps,
    classOfService: DEFAULT_CLASS_OF_SERVICE,
    duration: { value: inputs.term_months, unit: "m" },
    srcDcf: src.dcf.id,
    destDcf: dest.dcf.id,
  });
  if (!rule.success) {
    return { ok: false, error: Object.values(fieldErrors(rule.error)).join("; ") };
  }
  let result: PricingResult;
  try {
    result = await priceConnection(deps.provider, rule.data);
  } catch (error) {
    return {
      ok: false,
      error: `The provider could not price this connection: ${userMessageOf(error)}`,
    };
  }
  const { monthly, total } = amounts(result);
  if (monthly === undefined || total === undefined) {
    return { ok: false, error: "The provider returned no price for this connection" };
  }
  const term = formatTerm(inputs.term_months, "m");
  return {
    ok: true,
    outputs: {
      monthly_price: monthly,
      total_price: total,
      currency: deps.currency,
      summary: `${formatMbps(inputs.bandwidth_mbps)} ${DEFAULT_CLASS_OF_SERVICE} layer 2 from ${dcfWords(src.dcf)} to ${dcfWords(dest.dcf)}: ${formatMoney(total, deps.currency)} for ${term} (${formatMoney(monthly, deps.currency)} a month)`,
    },
  };
}
