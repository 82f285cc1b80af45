// The shared pieces every request rule is built from: zod fields whose messages name the field
// in human words (they are shown next to a Slack modal field), strict objects that refuse unknown
// keys, and the helpers cross-field rules use. One family of requests per module beside this one.
import { z } from "zod";
import { CLASSES_OF_SERVICE } from "../../domain/catalog/requestFacts.js";
import { isRecord } from "../../domain/records.js";

type Issue = { input?: unknown };
export type RefineCtx = z.core.$RefinementCtx<unknown>;

export type Record_ = Readonly<Record<string, unknown>>;

// Cross-field rules also run when some other field has the wrong type, so a person sees
// every problem in one submission rather than one round trip per mistake.
export const whenObject = { when: (payload: z.core.ParsePayload) => isRecord(payload.value) };

export const present = (v: Record_, key: string): boolean => v[key] !== undefined;

export function fail(ctx: RefineCtx, path: string, message: string): void {
  ctx.addIssue({ code: "custom", message, path: [path] });
}

/** Error map: "<label> is required" when the value is missing, otherwise `otherwise`. */
export const required =
  (label: string, otherwise: string, missing = `${label} is required`) =>
  (iss: Issue): string =>
    iss.input === undefined ? missing : otherwise;

/** A strict object: unknown keys are refused with a message naming them. */
export function strict<S extends z.core.$ZodLooseShape>(
  label: string,
  shape: S,
  hints: Readonly<Record<string, string>> = {},
) {
  return z.strictObject(shape, {
    error: (iss) => {
      if (iss.code === "unrecognized_keys") {
        const named = iss.keys.map((k) => (hints[k] ? `${k} (use ${hints[k]})` : k));
        return `Not a field of this request: ${named.join(", ")}`;
      }
      return required(label, `${label} must be an object`)(iss);
    },
  });
}

export function text(label: string) {
  return z
    .string({ error: required(label, `${label} must be text`) })
    .trim()
    .min(1, `${label} is required`);
}

export function bool(label: string) {
  return z.boolean({ error: required(label, `${label} must be true or false`) });
}

export function positiveInt(label: string, unit?: string) {
  const msg = `${label} must be a whole number${unit ? ` of ${unit}` : ""}`;
  return z
    .number({ error: required(label, msg) })
    .int(msg)
    .positive(`${label} must be greater than 0`);
}

export function oneOf<const T extends readonly [string, ...string[]]>(
  label: string,
  values: T,
  described = values.join(", "),
) {
  return z.enum(values, { error: required(label, `${label} must be ${described}`) });
}

export function literal<const T extends string>(label: string, value: T, msg: string) {
  return z.literal(value, { error: required(label, msg) });
}

/** A field that must not be sent in this variant; the message says what it conflicts with. */
export function absent(msg: string) {
  return z.undefined({ error: msg }).optional();
}

/** The class of service field of pricing and layer 2 requests: one of the provider's classes. */
export const classOfService = () => oneOf("Class of service", CLASSES_OF_SERVICE);
