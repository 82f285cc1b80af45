/**
 * The port terms the bot offers and how they are written: the provider prices two (1 year, `y`;
 * month to month, `m`), so the price command, the price form and the port order form offer those
 * and nothing else. Used by the use cases (src/usecases/pricing/, src/usecases/portOrder/form.ts) and the forms
 * (views/). Pure.
 */

import { formatSpeed } from "../units.js";

/** The provider's port term units (docs/provider/provider-api.md, Pricing request: "y or m shown"). */
export type PortDurationUnit = "y" | "m";

/** A port term as the person gave it, with the unit the provider is sent. */
export interface PortTerm {
  /** As typed, normalised: 12m → {12, "m"}, "1 year" → {1, "y"}. Shown and echoed back. */
  value: number;
  unit: "y" | "m";
  durationUnit: PortDurationUnit;
}

/** The terms the modal offers: the two the provider prices. */
export const PORT_TERMS = [
  { value: 1, unit: "y", durationUnit: "y" },
  { value: 1, unit: "m", durationUnit: "m" },
] as const satisfies readonly PortTerm[];

/** "1y", "12m": how a term is typed in the inline command (and echoed back). */
export function termText(term: { value: number; unit: string }): string {
  return `${term.value}${term.unit}`;
}

/**
 * The terms a port can be ordered for. Spec gap: the port order body carries `durationUnit`
 * ("y" shown) and no term length, and so does the port price request. A "24 months" or
 * "36 months" choice could not be sent: the provider would record the very same `y` order as for
 * 12 months while the approver approved a longer commitment. So, like pricing (readPortTerm in
 * src/usecases/shared/portTermReading.ts), the form offers only what the provider can express — 1 year (`y`,
 * 12 months) and month to month (`m`) — and the price shown, the summary approved and the body
 * sent all carry the same `durationUnit`. Longer commitments are a matter for the provider's
 * sales team, not this body.
 */
export const PORT_ORDER_TERMS: readonly PortTerm[] = PORT_TERMS;

const TERM_WORDS: Record<PortDurationUnit, string> = {
  y: "1 year (12 months)",
  m: "Month to month",
};

/** The term as a person reads it: "1 year (12 months)", "Month to month". */
export function termWords(term: Pick<PortTerm, "durationUnit">): string {
  return TERM_WORDS[term.durationUnit];
}

/** The value of a Term option: the inline price command's spelling ("1y", "1m"). */
export function termValue(term: Pick<PortTerm, "value" | "unit">): string {
  return termText(term);
}

/** The inline command's words for a priced port, without `/connect`: the modal re-invokes it. */
export function portPriceCommandText(input: {
  dcf: string;
  speedMbps: number;
  term: { value: number; unit: string };
  includeCrossConnect?: boolean;
}): string {
  const dcf = /\s/.test(input.dcf) ? `"${input.dcf.replace(/"/g, "")}"` : input.dcf;
  return [
    "price port",
    dcf,
    formatSpeed(input.speedMbps),
    termText(input.term),
    ...(input.includeCrossConnect ? ["xc"] : []),
  ].join(" ");
}
