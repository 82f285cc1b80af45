// A port's price: the inline command (find the data center, check the speed, price) and the
// price form's submission (everything a person, or a forged payload, sent is checked again).
import { z } from "zod";
import { isReady, offeredSpeeds } from "../../domain/catalog/dcfs.js";
import type { PortTerm } from "../../domain/catalog/portTerms.js";
import { formatSpeed } from "../../domain/units.js";
import type { CallOptions, Dcf, PricingResult, ProviderApi } from "../../provider/api.js";
import { fieldErrors } from "../../provider/rules/fieldErrors.js";
import { pricingRequestRule } from "../../provider/rules/pricing.js";
import type { DcfDirectory } from "../shared/dcfDirectory.js";
import {
  errorsByField,
  type FormCheck,
  optionValue,
  SUBMISSION_DEADLINE_MS,
  zodFieldErrors,
} from "../shared/formChecks.js";
import { readPortTerm } from "../shared/portTermReading.js";
import { pricePort } from "../shared/prices.js";
import { dcfChoice, dcfIdOf, lookUpForForm } from "./dcfFields.js";
import { resolveDcf } from "./dcfResolution.js";
import type { PortPriceArgs } from "./portPriceArgs.js";

export type PortQuote =
  | {
      kind: "priced";
      dcf: Dcf;
      speedMbps: number;
      term: PortTerm;
      includeCrossConnect: boolean;
      result: PricingResult;
      /** How many data centers matched before the speed narrowed them to this one. */
      narrowedFrom?: number;
    }
  | {
      kind: "choices";
      query: string;
      candidates: Dcf[];
      speedMbps: number;
      term: PortTerm;
      includeCrossConnect: boolean;
      /** Nothing matched the whole text; these match a part of it. */
      partial?: true;
    }
  | { kind: "no-match"; query: string }
  | { kind: "speed-not-offered"; dcf: Dcf; speedMbps: number; offered: number[] }
  | { kind: "not-ready"; dcf: Dcf };

/** The inline command: find the data center, check the speed, price. */
export async function quotePortPrice(
  provider: ProviderApi,
  args: Extract<PortPriceArgs, { kind: "complete" }>,
  opts: CallOptions = {},
): Promise<PortQuote> {
  const resolution = await resolveDcf(provider, args.dcfQuery, {
    speedMbps: args.speedMbps,
    ...opts,
  });
  if (resolution.kind === "none") return { kind: "no-match", query: args.dcfQuery };
  if (resolution.kind === "several") {
    return {
      kind: "choices",
      query: args.dcfQuery,
      candidates: resolution.candidates,
      speedMbps: args.speedMbps,
      term: args.term,
      includeCrossConnect: args.includeCrossConnect,
      ...(resolution.partial ? { partial: true as const } : {}),
    };
  }
  const { dcf } = resolution;
  const offered = offeredSpeeds(dcf);
  if (offered.length > 0 && !offered.includes(args.speedMbps)) {
    return { kind: "speed-not-offered", dcf, speedMbps: args.speedMbps, offered };
  }
  if (!isReady(dcf)) return { kind: "not-ready", dcf };
  const result = await pricePort(
    provider,
    {
      dcf,
      speedMbps: args.speedMbps,
      durationUnit: args.term.durationUnit,
      includeCrossConnect: args.includeCrossConnect,
    },
    opts,
  );
  return {
    kind: "priced",
    dcf,
    speedMbps: args.speedMbps,
    term: args.term,
    includeCrossConnect: args.includeCrossConnect,
    result,
    ...(resolution.narrowedFrom !== undefined ? { narrowedFrom: resolution.narrowedFrom } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Modal submissions: everything a person (or a forged payload) sent is checked again here.

/** What the port modal submitted, as raw as it came. */
export interface PortPriceForm {
  dcf?: unknown;
  speed?: unknown;
  term?: unknown;
  includeCrossConnect?: unknown;
}

export type PortPriceFormField = "dcf" | "speed" | "term" | "includeCrossConnect";

const portPriceFormRule = z.object({
  dcf: dcfChoice("Choose a data center", "Pick a data center from the list"),
  speed: optionValue("Choose a speed", "Choose one of the speeds listed").transform(
    (value, ctx) => {
      const mbps = /^\d{1,9}$/.test(value) ? Number(value) : undefined;
      if (mbps === undefined || mbps <= 0) {
        ctx.addIssue({ code: "custom", message: "Choose one of the speeds listed" });
        return z.NEVER;
      }
      return mbps;
    },
  ),
  term: optionValue("Choose a term", "Choose 1 year or month to month").transform((value, ctx) => {
    const reading = readPortTerm(value);
    if (reading?.kind !== "term") {
      ctx.addIssue({ code: "custom", message: "Choose 1 year or month to month" });
      return z.NEVER;
    }
    return reading.term;
  }),
  includeCrossConnect: z.boolean({ error: "Include cross connect must be ticked or not" }),
});

export interface CheckedPortPrice {
  dcf: Dcf;
  speedMbps: number;
  term: PortTerm;
  includeCrossConnect: boolean;
}

type PortErrors = Partial<Record<PortPriceFormField, string>>;

function speedList(mbps: readonly number[]): string {
  return mbps.map(formatSpeed).join(", ");
}

const PORT_RULE_FIELDS: Readonly<Record<string, PortPriceFormField>> = {
  "ports.0.dcf": "dcf",
  "ports.0.speed": "speed",
  "ports.0.durationUnit": "term",
  includeCrossConnect: "includeCrossConnect",
};

/**
 * Checks the port modal's values: shapes (zod), then the chosen DCF (it exists, is ready, and
 * offers the speed), then the pricing rule. Errors are keyed by form field.
 */
export async function checkPortPriceForm(
  directory: DcfDirectory,
  form: PortPriceForm,
  deadlineMs = SUBMISSION_DEADLINE_MS,
): Promise<FormCheck<CheckedPortPrice, PortPriceFormField>> {
  const parsed = portPriceFormRule.safeParse(form);
  if (!parsed.success) {
    const errors = zodFieldErrors<PortPriceFormField>(parsed.error);
    // The data center is looked up even when another field is wrong: one answer, all problems.
    const id = errors.dcf === undefined ? dcfIdOf(form.dcf) : undefined;
    const looked = id === undefined ? undefined : await lookUpForForm(directory, id, deadlineMs);
    if (looked && "error" in looked) errors.dcf = looked.error;
    return { ok: false, errors };
  }
  const { dcf: id, speed, term, includeCrossConnect } = parsed.data;
  const looked = await lookUpForForm(directory, id, deadlineMs);
  if ("error" in looked) return { ok: false, errors: { dcf: looked.error } };
  const { dcf } = looked;
  const errors: PortErrors = {};
  if (!isReady(dcf)) {
    errors.dcf = "This data center is not ready for orders yet, so it has no price; pick another";
  }
  const offered = offeredSpeeds(dcf);
  if (offered.length === 0) {
    errors.dcf ??= "This data center lists no valid speeds; pick another";
  } else if (!offered.includes(speed)) {
    errors.speed = `Choose one of this data center's speeds: ${speedList(offered)}`;
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const rule = pricingRequestRule.safeParse({
    ports: [{ dcf: dcf.id, speed, durationUnit: term.durationUnit }],
    includeCrossConnect,
  });
  if (!rule.success) {
    return { ok: false, errors: errorsByField(fieldErrors(rule.error), PORT_RULE_FIELDS, "dcf") };
  }
  return { ok: true, value: { dcf, speedMbps: speed, term, includeCrossConnect } };
}
