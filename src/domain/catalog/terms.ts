/**
 * The longest term any order or price takes, in each unit a form asks a term in, and a term as
 * months for the spend ledger (`monthsOfTerm`). One bound for every path that takes a term: the
 * layer 2 and IO-D forms, the layer 2 price form, the Edge quote form and the Workflow Builder
 * steps. `monthsOfTerm` counts up to the same bound, so a term a form accepts is always counted
 * (the ledger never calls it "unknown"). Pure.
 *
 * Why ten years: the provider's documents are silent on a maximum. docs/provider/provider-api.md
 * gives only the fields' types — a layer 2 `duration` integer ("m shown"), an IO-D
 * `duration.quantity` integer ("d shown"), a connection price's duration in "m or w" — and its
 * port terms are 1 year or month to month, its Edge terms its own list (12 to 36 months in the
 * sandbox). Ten years is longer than any connectivity contract a network team signs, and short
 * enough that a slip of the keyboard (9,999 months: 833 years) is refused next to the field
 * instead of being approved, placed and counted as a commitment.
 */

import { formatNumber } from "../units.js";

export const MAX_TERM_YEARS = 10;

export const MAX_TERM_MONTHS = MAX_TERM_YEARS * 12;

/** Ten years in weeks is 521.8: rounded up, so a ten-year term typed in weeks is taken. */
export const MAX_TERM_WEEKS = 522;

/** Ten years in days, with their leap days (at most 3 in ten years): 3,653. */
export const MAX_TERM_DAYS = MAX_TERM_YEARS * 365 + 3;

/** The bound in a unit's words: "120 months (10 years)", "3,653 days (10 years)". */
export function maxTermText(unit: "months" | "weeks" | "days"): string {
  const max = { months: MAX_TERM_MONTHS, weeks: MAX_TERM_WEEKS, days: MAX_TERM_DAYS }[unit];
  return `${formatNumber(max)} ${unit} (${MAX_TERM_YEARS} years)`;
}

/**
 * A term as months: 12 for "1 year", 3 for "3 months"; undefined for a unit not understood or a
 * term over `MAX_TERM_MONTHS` (no form takes one; a record holding one predates the bound).
 */
export function monthsOfTerm(value: unknown, unit: unknown): number | undefined {
  const amount = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
  if (typeof amount !== "number" || !Number.isInteger(amount) || amount < 1) return undefined;
  const word = typeof unit === "string" ? unit.trim().toLowerCase() : "";
  const months = /^(m|mo|month|months)$/.test(word)
    ? amount
    : /^(y|yr|year|years)$/.test(word)
      ? amount * 12
      : undefined;
  return months !== undefined && months <= MAX_TERM_MONTHS ? months : undefined;
}
