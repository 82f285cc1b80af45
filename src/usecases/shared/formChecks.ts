// What every form check of the use cases shares: the outcome shape (a value, or errors keyed by
// form field), the submission deadline, a select option's value rule, and moving zod's and the
// provider rules' errors onto the fields a person fills.
import { z } from "zod";
import { BEFORE_ACK_BUDGET_MS } from "../../domain/slackBudget.js";
import { fieldErrors } from "../../provider/rules/fieldErrors.js";

export type FormCheck<T, F extends string> =
  | { ok: true; value: T }
  | { ok: false; errors: Partial<Record<F, string>> };

/** Slack waits 3 s for a submission's ack; look-ups get 2 of them. */
export const SUBMISSION_DEADLINE_MS = BEFORE_ACK_BUDGET_MS;

/** Longest value a select option can carry (Slack's limit); anything longer was not offered. */
export const OPTION_VALUE_MAX = 150;

/** A select's value: `missing` when nothing was chosen, `invalid` when it cannot be ours. */
export const optionValue = (missing: string, invalid: string) =>
  z
    .string({ error: (iss) => (iss.input === undefined || iss.input === null ? missing : invalid) })
    .min(1, missing)
    .max(OPTION_VALUE_MAX, invalid);

/** zod's issues keyed by the form field (the first part of their path), the first one each. */
export function zodFieldErrors<F extends string>(error: z.ZodError): Partial<Record<F, string>> {
  const out: Record<string, string> = {};
  for (const [path, message] of Object.entries(fieldErrors(error))) {
    const field = path.split(".")[0] ?? path;
    out[field] ??= message;
  }
  return out as Partial<Record<F, string>>;
}

/**
 * Moves the provider rule's errors (keyed by request path) onto the form fields a person
 * fills; an issue about something the form has no field for goes to `fallback`, so it is
 * never lost.
 */
export function errorsByField<F extends string>(
  byPath: Record<string, string>,
  fields: Readonly<Record<string, F>>,
  fallback: F,
): Partial<Record<F, string>> {
  const out: Partial<Record<F, string>> = {};
  for (const [path, message] of Object.entries(byPath)) {
    const field = Object.hasOwn(fields, path) ? (fields[path] ?? fallback) : fallback;
    out[field] ??= message;
  }
  return out;
}
