// Reading a port term as a person types it ("1y", "12 months", "monthly"): the inline price
// command, the price form and the port order form all read terms this way, so the reading
// lives once here, beside the terms themselves in src/domain/catalog/portTerms.ts.
import type { PortTerm } from "../../domain/catalog/portTerms.js";

export type TermReading =
  | { kind: "term"; term: PortTerm }
  /** Reads as a length of time, but one the provider cannot price a port for (36m, 3y, 4w). */
  | { kind: "unsupported"; value: number; unit: string };

const TERM_TEXT =
  /^(\d{1,4})\s*(y|yr|yrs|year|years|m|mo|mos|mon|month|months|w|wk|wks|week|weeks|d|day|days)$/i;

const TERM_WORDS: Readonly<Record<string, PortTerm>> = {
  y: { value: 1, unit: "y", durationUnit: "y" },
  yearly: { value: 1, unit: "y", durationUnit: "y" },
  annual: { value: 1, unit: "y", durationUnit: "y" },
  annually: { value: 1, unit: "y", durationUnit: "y" },
  m: { value: 1, unit: "m", durationUnit: "m" },
  monthly: { value: 1, unit: "m", durationUnit: "m" },
  "month-to-month": { value: 1, unit: "m", durationUnit: "m" },
  m2m: { value: 1, unit: "m", durationUnit: "m" },
};

/**
 * Reads a port term. Spec gap: a port price request carries only `durationUnit` ("y or m
 * shown") and no term length, and the provider's `price` is the total for that one unit (the
 * sandbox: monthly × 12 for y, × 1 for m with a month-to-month premium). So:
 * - `1y`, `12m`, `1 year`, `12 months`, `annual` → `y` (a 1-year term; 12m is the same term);
 * - `1m`, `1 month`, `monthly` → `m` (month to month);
 * - any other length (`36m`, `3y`, `4w`) is refused, never rounded: the provider has no such
 *   port term, and mapping `36m` to `m` would show a one-month price labelled "36 months".
 * Returns undefined for text that is not a term at all.
 */
export function readPortTerm(text: string): TermReading | undefined {
  const trimmed = text.trim().toLowerCase();
  const word = Object.hasOwn(TERM_WORDS, trimmed) ? TERM_WORDS[trimmed] : undefined;
  if (word) return { kind: "term", term: { ...word } };
  const match = TERM_TEXT.exec(trimmed);
  if (!match) return undefined;
  const value = Number(match[1]);
  const unit = (match[2] ?? "").charAt(0);
  if (unit === "y" && value === 1)
    return { kind: "term", term: { value, unit, durationUnit: "y" } };
  if (unit === "m" && value === 12) {
    return { kind: "term", term: { value, unit, durationUnit: "y" } };
  }
  if (unit === "m" && value === 1)
    return { kind: "term", term: { value, unit, durationUnit: "m" } };
  return { kind: "unsupported", value, unit };
}
