// A layer 2 connection's price: the price form's submission, checked (shapes, both data centers,
// the provider's connection rule) before the provider is asked.
import { z } from "zod";
import {
  CONNECTION_BANDWIDTH_MAX_MBPS,
  CONNECTION_DURATION_UNITS,
  type ConnectionDurationUnit,
} from "../../domain/catalog/connections.js";
import { CLASSES_OF_SERVICE } from "../../domain/catalog/requestFacts.js";
import { MAX_TERM_MONTHS, MAX_TERM_WEEKS, maxTermText } from "../../domain/catalog/terms.js";
import { formatMbps } from "../../domain/units.js";
import type { ConnectionPriceConfig, Dcf } from "../../provider/api.js";
import { fieldErrors } from "../../provider/rules/fieldErrors.js";
import { pricingConnectionConfigRule } from "../../provider/rules/pricing.js";
import type { DcfDirectory } from "../shared/dcfDirectory.js";
import {
  errorsByField,
  type FormCheck,
  SUBMISSION_DEADLINE_MS,
  zodFieldErrors,
} from "../shared/formChecks.js";
import { dcfChoice, dcfIdOf, lookUpForForm } from "./dcfFields.js";

export interface ConnectionPriceForm {
  srcDcf?: unknown;
  destDcf?: unknown;
  bandwidth?: unknown;
  classOfService?: unknown;
  duration?: unknown;
  durationUnit?: unknown;
}

export type ConnectionPriceFormField = keyof ConnectionPriceForm;

const CONNECTION_RULE_FIELDS: Readonly<Record<string, ConnectionPriceFormField>> = {
  srcDcf: "srcDcf",
  destDcf: "destDcf",
  bandwidth: "bandwidth",
  classOfService: "classOfService",
  duration: "duration",
  "duration.value": "duration",
  "duration.unit": "durationUnit",
};

const BANDWIDTH_RANGE = `from 1 Mbps to ${formatMbps(CONNECTION_BANDWIDTH_MAX_MBPS)} (100 Gbps, the fastest port)`;

/** The longest term in each unit the form offers (src/domain/catalog/terms.ts). */
const DURATION_MAX: Readonly<Record<ConnectionDurationUnit, number>> = {
  m: MAX_TERM_MONTHS,
  w: MAX_TERM_WEEKS,
};
const DURATION_MAX_WORDS: Readonly<Record<ConnectionDurationUnit, string>> = {
  m: maxTermText("months"),
  w: maxTermText("weeks"),
};

/** A whole number typed into the form, with its range said in words when it is outside it. */
const wholeNumber = (label: string, range: { max: number; words: string }, unit?: string) => {
  const outside = `${label} must be ${range.words}`;
  return z
    .string({
      error: (iss) =>
        iss.input === undefined || iss.input === null
          ? `Enter the ${label.toLowerCase()}`
          : `${label} must be a whole number`,
    })
    .trim()
    .min(1, `Enter the ${label.toLowerCase()}`)
    .regex(/^\d+$/, `${label} must be a whole number${unit ? ` of ${unit}` : ""}, ${range.words}`)
    .transform(Number)
    .refine((n) => n >= 1 && n <= range.max, outside);
};

const connectionPriceFormRule = z.object({
  srcDcf: dcfChoice("Choose the source data center", "Pick the source data center from the list"),
  destDcf: dcfChoice(
    "Choose the destination data center",
    "Pick the destination data center from the list",
  ),
  bandwidth: wholeNumber(
    "Bandwidth",
    { max: CONNECTION_BANDWIDTH_MAX_MBPS, words: BANDWIDTH_RANGE },
    "Mbps",
  ),
  classOfService: z.enum(CLASSES_OF_SERVICE, {
    error: `Class of service must be one of ${CLASSES_OF_SERVICE.join(", ")}`,
  }),
  // Any whole number from 1 here; the longest depends on the unit (durationTooLong).
  duration: wholeNumber("Duration", { max: Number.POSITIVE_INFINITY, words: "at least 1" }),
  durationUnit: z.enum(CONNECTION_DURATION_UNITS, {
    error: "Duration unit must be months or weeks",
  }),
});

/**
 * "Duration must be at most 120 months (10 years)" when the typed duration is longer than its
 * unit allows; read from the raw form, so it is said with every other problem of the same
 * submission (zod would run an object-wide check only once every field had parsed).
 */
function durationTooLong(form: ConnectionPriceForm): string | undefined {
  const unit = CONNECTION_DURATION_UNITS.find((u) => u === form.durationUnit);
  const typed = typeof form.duration === "string" ? form.duration.trim() : "";
  if (unit === undefined || !/^\d+$/.test(typed)) return undefined;
  return Number(typed) > DURATION_MAX[unit]
    ? `Duration must be at most ${DURATION_MAX_WORDS[unit]}`
    : undefined;
}

export interface CheckedConnectionPrice {
  srcDcf: Dcf;
  destDcf: Dcf;
  config: ConnectionPriceConfig;
}

/**
 * Checks the layer 2 modal's values: shapes (zod) and both DCFs (looked up in parallel within
 * the deadline) together, so every problem is answered in one go; then the provider's
 * connection rule.
 */
export async function checkConnectionPriceForm(
  directory: DcfDirectory,
  form: ConnectionPriceForm,
  deadlineMs = SUBMISSION_DEADLINE_MS,
): Promise<FormCheck<CheckedConnectionPrice, ConnectionPriceFormField>> {
  const parsed = connectionPriceFormRule.safeParse(form);
  const errors: Partial<Record<ConnectionPriceFormField, string>> = parsed.success
    ? {}
    : zodFieldErrors<ConnectionPriceFormField>(parsed.error);
  // The data centers are looked up even when another field is wrong: one answer, all problems.
  const srcId = dcfIdOf(form.srcDcf);
  const destId = dcfIdOf(form.destDcf);
  const [src, dest] = await Promise.all([
    srcId === undefined ? undefined : lookUpForForm(directory, srcId, deadlineMs),
    destId === undefined ? undefined : lookUpForForm(directory, destId, deadlineMs),
  ]);
  if (src && "error" in src) errors.srcDcf ??= src.error;
  if (dest && "error" in dest) errors.destDcf ??= dest.error;
  const tooLong = durationTooLong(form);
  if (tooLong) errors.duration ??= tooLong;
  if (!parsed.success || tooLong || !src || "error" in src || !dest || "error" in dest) {
    return { ok: false, errors };
  }
  const value = parsed.data;
  const config = {
    bandwidth: value.bandwidth,
    classOfService: value.classOfService,
    duration: { value: value.duration, unit: value.durationUnit },
    srcDcf: src.dcf.id,
    destDcf: dest.dcf.id,
  };
  const rule = pricingConnectionConfigRule.safeParse(config);
  if (!rule.success) {
    return {
      ok: false,
      errors: errorsByField(fieldErrors(rule.error), CONNECTION_RULE_FIELDS, "srcDcf"),
    };
  }
  return { ok: true, value: { srcDcf: src.dcf, destDcf: dest.dcf, config: rule.data } };
}
