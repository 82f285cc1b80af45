import { loaStatusWords } from "../src/domain/tracking/loa.js";
import { DASH, formatTerm as plainTerm } from "../src/domain/units.js";
import { escapeMrkdwn } from "./blocks.js";

/**
 * Value formatting shared by the views. Every function takes whatever the provider sent
 * (fields are optional and sometimes of a surprising type) and never throws. The units
 * (speed, bandwidth, money, numbers, terms) are src/domain/units.ts's, re-exported here so the
 * views have one place to import formatting from.
 */

export {
  DASH,
  formatMbps,
  formatNumber,
  formatSpeed,
  percentOf,
  toNumber,
} from "../src/domain/units.js";

/** Inline code for ids and usernames people copy into commands. */
export function code(text: string): string {
  // A backtick would end the code span early; provider ids never contain one legitimately.
  return `\`${escapeMrkdwn(text.replace(/`/g, "'"))}\``;
}

/**
 * A contract term such as {value: 12, unit: "m"} as "12 months", or before a noun
 * (`"adjective"`) as "12-month" ("there is no 3-year term"), escaped for mrkdwn.
 */
export function formatTerm(
  value: number | undefined,
  unit: string | undefined,
  form: "noun" | "adjective" = "noun",
): string {
  return escapeMrkdwn(plainTerm(value, unit, form));
}

export function yesNo(value: boolean | null | undefined): string | undefined {
  if (value === true) return "Yes";
  if (value === false) return "No";
  return undefined;
}

// Statuses from docs/provider/provider-notes.md. Port order statuses are lower case, the others upper case;
// "created" (an order waiting for approval) and "CREATED" (a cloud router that exists) differ,
// so the exact spelling is looked up first.
const BADGES: Record<string, string> = {
  // Port order
  created: ":hourglass_flowing_sand:",
  allocated: ":large_blue_circle:",
  activating: ":large_blue_circle:",
  progressing: ":large_blue_circle:",
  processing: ":large_blue_circle:",
  done: ":white_check_mark:",
  error: ":red_circle:",
  cancelled: ":no_entry_sign:",
  // Port
  ACTIVATING: ":large_blue_circle:",
  READY: ":electric_plug:",
  ACTIVE: ":large_green_circle:",
  DISABLING: ":large_orange_circle:",
  DISABLED: ":white_circle:",
  DELETING: ":large_orange_circle:",
  DELETED: ":wastebasket:",
  UNKNOWN: ":grey_question:",
  ONBOARDING: ":large_blue_circle:",
  // Layer 2 connection
  CREATING: ":large_blue_circle:",
  PENDING: ":hourglass_flowing_sand:",
  PENDING_ACCEPTANCE: ":hourglass_flowing_sand:",
  ACCEPTED: ":large_green_circle:",
  MANUAL: ":wrench:",
  ERROR: ":red_circle:",
  DENIED: ":red_circle:",
  CANCELLED: ":no_entry_sign:",
  // Cloud router, ASN, Edge draft, link state
  CREATED: ":large_green_circle:",
  VERIFIED: ":white_check_mark:",
  DRAFT: ":memo:",
  UP: ":large_green_circle:",
  DOWN: ":red_circle:",
};

function badgeEmoji(status: string): string | undefined {
  for (const key of [status, status.toUpperCase(), status.toLowerCase()]) {
    if (Object.hasOwn(BADGES, key)) return BADGES[key];
  }
  return undefined;
}

/**
 * A status with an emoji when it is one of the known port, port order, layer 2, cloud router
 * or ASN statuses; an unknown status is shown verbatim (docs/provider/provider-notes.md: other values appear).
 */
export function statusBadge(status: string | null | undefined): string {
  if (typeof status !== "string" || status.trim() === "") return DASH;
  const emoji = badgeEmoji(status);
  return emoji ? `${emoji} ${escapeMrkdwn(status)}` : escapeMrkdwn(status);
}

// What a status means for the person waiting: who or what is awaited (docs/STYLE.md: waiting on a
// third party is a normal state, not a failure).
const HINTS: Record<string, string> = {
  created: "waiting for the provider's administrator to approve the order",
  allocated: "approved; the port is being provisioned",
  activating: "the port is being activated",
  progressing: "the order is being provisioned",
  processing: "the order is being processed",
  done: "the port is provisioned",
  error: "the order failed",
  cancelled: "the order was cancelled",
  READY: "allocated, waiting for the physical connection (cross connect)",
  ACTIVATING: "the port is being activated",
  ONBOARDING: "the port is being onboarded",
  PENDING: "waiting for the other company to accept",
  PENDING_ACCEPTANCE: "waiting for the cloud or partner to accept",
  MANUAL: "being set up by hand at the provider",
};

/**
 * A few words on what a known status means, or undefined. Exact spelling only: "error" (an
 * order) and "ERROR" (a connection) mean different things to the reader.
 */
export function statusHint(status: string | null | undefined): string | undefined {
  return typeof status === "string" && Object.hasOwn(HINTS, status) ? HINTS[status] : undefined;
}

/** An LOA status in words a person understands (src/domain/tracking/loa.ts), escaped for mrkdwn. */
export function loaStatusText(loaStatus: string | null | undefined): string | undefined {
  const words = loaStatusWords(loaStatus);
  return words === undefined ? undefined : escapeMrkdwn(words, 60);
}

/** Escaped provider text, or the dash when it is missing or blank. */
export function textOr(value: unknown, fallback = DASH): string {
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return typeof value === "string" && value.trim() !== "" ? escapeMrkdwn(value) : fallback;
}
