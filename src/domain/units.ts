/**
 * Units as people read them: speeds, bandwidth, money, plain numbers and contract terms. One
 * home for these words, used by the use cases (src/usecases: form errors, approval summaries) and
 * the views (views/format.ts re-exports them). Pure: plain text out, never escaped for Slack
 * (a caller that puts provider text into mrkdwn escapes it, as views/format.ts's formatTerm
 * does). Every function takes whatever the provider sent (fields are optional and sometimes of
 * a surprising type) and never throws.
 */

/** Shown where a value is missing. */
export const DASH = "—";

function finite(x: unknown): number | undefined {
  return typeof x === "number" && Number.isFinite(x) ? x : undefined;
}

/** A number read from a number or a numeric string (bandwidth bands, speeds arrive as either). */
export function toNumber(x: unknown): number | undefined {
  if (typeof x === "string" && x.trim() !== "" && Number.isFinite(Number(x))) return Number(x);
  return finite(x);
}

/** Port speed the way people say it: 100M, 1G, 10G, 2.5G. */
export function formatSpeed(mbps: number | null | undefined): string {
  const n = finite(mbps);
  if (n === undefined || n < 0) return DASH;
  if (n >= 1000) return `${Number((n / 1000).toFixed(3))}G`;
  return `${Number(n.toFixed(3))}M`;
}

const INTEGER = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });

/** A plain number with thousands separators: "10,000". */
export function formatNumber(value: number | null | undefined): string {
  const n = finite(value);
  return n === undefined ? DASH : INTEGER.format(n);
}

/** Bandwidth with its unit spelt out: "7,500 Mbps". */
export function formatMbps(value: number | null | undefined): string {
  const n = finite(value);
  return n === undefined ? DASH : `${INTEGER.format(n)} Mbps`;
}

/** A share as a whole percentage ("25%"), or undefined when it cannot be computed. */
export function percentOf(part: number | undefined, whole: number | undefined): string | undefined {
  if (part === undefined || whole === undefined || whole <= 0) return undefined;
  return `${Math.round((part / whole) * 100)}%`;
}

const TERM_UNITS: Record<string, [singular: string, plural: string]> = {
  y: ["year", "years"],
  year: ["year", "years"],
  years: ["year", "years"],
  m: ["month", "months"],
  month: ["month", "months"],
  months: ["month", "months"],
  w: ["week", "weeks"],
  week: ["week", "weeks"],
  weeks: ["week", "weeks"],
  d: ["day", "days"],
  day: ["day", "days"],
  days: ["day", "days"],
};

/**
 * A contract term such as {value: 12, unit: "m"} as "12 months"; unknown units are kept as they
 * came (plain text: views/format.ts's formatTerm escapes it for mrkdwn).
 */
export function formatTerm(
  value: number | undefined,
  unit: string | undefined,
  form: "noun" | "adjective" = "noun",
): string {
  if (value === undefined || !Number.isFinite(value)) return unit ? unit : DASH;
  const names = unit ? TERM_UNITS[unit.toLowerCase()] : undefined;
  const join = form === "adjective" ? "-" : " ";
  if (!names) return unit ? `${formatNumber(value)}${join}${unit}` : formatNumber(value);
  if (form === "adjective") return `${formatNumber(value)}-${names[0]}`;
  return `${formatNumber(value)} ${value === 1 ? names[0] : names[1]}`;
}
