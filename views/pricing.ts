import type { KnownBlock } from "@slack/types";
import { COMMAND } from "../src/domain/commands.js";
import { dcfSpeedsMbps } from "../src/domain/requestFacts.js";
import type { components } from "../src/provider/generated/provider.js";
import { button, context, escapeMrkdwn, fields, header, LIMITS, section } from "./blocks.js";
import { type DcfRecord, dcfPlace, dcfSpeeds } from "./dcf.js";
import {
  code,
  DASH,
  formatMbps,
  formatMoney,
  formatSpeed,
  formatTerm,
  textOr,
  toNumber,
} from "./format.js";
import { fallbackText, fitBlocks } from "./list.js";
import type { Reply } from "./reply.js";

type Schemas = components["schemas"];
type PricingResult = Schemas["PricingResult"];
type PricingFactor = Schemas["PricingFactor"];
type BandwidthCostRef = Schemas["BandwidthCostRef"];

export interface Term {
  value: number;
  /** y, m, w (as the provider spells it). */
  unit: string;
}

export interface PortPriceInput {
  dcf: { name?: string; username: string };
  speedMbps: number;
  term: Term;
  includeCrossConnect?: boolean;
}

export interface ConnectionPriceInput {
  srcDcf: { name?: string; username?: string };
  destDcf: { name?: string; username?: string };
  bandwidthMbps: number;
  classOfService: string;
  term: Term;
}

/** action_id of the "pick this data center" buttons of an ambiguous inline price command. */
export const ACTION_PRICE_PICK_DCF = "price_pick_dcf";

/** The value of a `price_pick_dcf` button: the inline price command, with the DCF resolved. */
export interface PricePick {
  /** DCF username. */
  dcf: string;
  /** Mbps. */
  speed: number;
  term: Term;
}

const CURRENCY_NOTE = "Amounts are in your account's currency (the provider returns none).";

function amount(value: number | null | undefined): string | undefined {
  return typeof value === "number" && Number.isFinite(value) ? formatMoney(value) : undefined;
}

/** Shown only when something was saved: a zero saving is not news. */
function saving(value: number | null | undefined): string | undefined {
  return typeof value === "number" && Number.isFinite(value) && value !== 0
    ? formatMoney(value)
    : undefined;
}

function commandArg(text: string): string {
  return /\s/.test(text) || text === "" ? `"${text.replace(/"/g, "")}"` : text;
}

/** The inline command that prices the same port again, e.g. `/connect price port AMS1 10G 12m`. */
export function portPriceCommand(
  input: Pick<PortPriceInput, "dcf" | "speedMbps" | "term">,
): string {
  return `${COMMAND} price port ${commandArg(input.dcf.username)} ${formatSpeed(input.speedMbps)} ${input.term.value}${input.term.unit}`;
}

function dcfName(dcf: { name?: string; username?: string }): string {
  return textOr(dcf.name ?? dcf.username, "the data center");
}

/** The price of a port: total for the term, monthly amounts and the command to repeat it. */
export function portPriceView(input: PortPriceInput, result: PricingResult): Reply {
  const term = formatTerm(input.term.value, input.term.unit);
  const title = `Port price: ${input.dcf.name ?? input.dcf.username} · ${formatSpeed(input.speedMbps)} · ${term}`;
  const priceFields = fields([
    [`Price (total for ${term})`, amount(result.price) ?? DASH],
    ["Monthly", amount(result.basicMonthlyAmount)],
    ["Pre-authorisation (monthly)", amount(result.preAuthAmount)],
    ["Cross connect", amount(result.crossConnectAmount)],
    ["Amount saved", saving(result.amountSaved)],
    ["Saved over the term", saving(result.amountSavedTotal)],
  ]);
  const blocks: KnownBlock[] = [
    header(title),
    section(
      `*${dcfName(input.dcf)}* (${code(input.dcf.username)}) · ${formatSpeed(input.speedMbps)} · ${term}${input.includeCrossConnect ? " · cross connect included" : ""}`,
    ),
    priceFields,
    context(
      CURRENCY_NOTE,
      `A data center and speed that prices can be ordered: \`${COMMAND} port order\`.`,
    ),
    context(`Repeat: \`${escapeMrkdwn(portPriceCommand(input))}\``),
  ];
  return {
    text: fallbackText(`${title} — ${amount(result.price) ?? "no price"} (total for ${term})`),
    blocks: fitBlocks(blocks),
  };
}

// Words for the factor names of the formula; "margin" needs none.
const FACTOR_WORDS: Record<string, string> = {
  portFee: "port fee",
  nniFee: "NNI fee",
  bandwidthCost: "bandwidth cost",
  multiplier: "region multiplier",
  duration: "term length",
};

const DECIMAL = new Intl.NumberFormat("en-US", { maximumFractionDigits: 4 });

function decimal(value: number | undefined): string {
  return value === undefined || !Number.isFinite(value) ? DASH : DECIMAL.format(value);
}

/** One factor's value as a person reads it; the raw number is kept where it is transformed. */
export function factorValue(factor: PricingFactor, durationUnit?: string): string {
  const n = typeof factor.number === "number" ? factor.number : undefined;
  if (n === undefined) return DASH;
  switch (factor.name) {
    case "margin":
      // The formula divides by (1 - margin): a fraction, shown as a percentage.
      return `${DECIMAL.format(n * 100)}% (${decimal(n)})`;
    case "portFee":
    case "nniFee":
      return formatMoney(n);
    case "multiplier":
      return `×${decimal(n)}`;
    case "duration":
      return durationUnit ? `${decimal(n)} (${formatTerm(n, durationUnit)})` : decimal(n);
    default:
      return decimal(n);
  }
}

function factorLabel(factor: PricingFactor): string {
  const name = typeof factor.name === "string" && factor.name ? factor.name : "unnamed";
  const words = Object.hasOwn(FACTOR_WORDS, name) ? FACTOR_WORDS[name] : undefined;
  return words ? `${escapeMrkdwn(name)} — ${words}` : escapeMrkdwn(name);
}

function regionName(region: BandwidthCostRef["from"]): string {
  if (region?.name) return escapeMrkdwn(region.name);
  return region?.id ? code(region.id) : "?";
}

/** "Europe → North America · band 1–1,000 Mbps · SILVER · rate 0.85". */
export function regionRate(ref: BandwidthCostRef): string {
  const band = ref.price?.bandwidth;
  const from = toNumber(band?.from);
  const to = toNumber(band?.to);
  const bandText =
    from !== undefined && to !== undefined
      ? `band ${DECIMAL.format(from)}–${formatMbps(to)}`
      : from !== undefined
        ? `band from ${formatMbps(from)}`
        : to !== undefined
          ? `band up to ${formatMbps(to)}`
          : undefined;
  return [
    `${regionName(ref.from)} → ${regionName(ref.to)}`,
    bandText,
    ref.price?.cos ? escapeMrkdwn(ref.price.cos) : undefined,
    typeof ref.price?.price === "number" ? `rate ${decimal(ref.price.price)}` : undefined,
  ]
    .filter(Boolean)
    .join(" · ");
}

/** The price of a layer 2 connection, with the formula, every factor and the regional rate. */
export function connectionPriceView(input: ConnectionPriceInput, result: PricingResult): Reply {
  const term = formatTerm(input.term.value, input.term.unit);
  const route = `${input.srcDcf.name ?? input.srcDcf.username ?? "?"} → ${input.destDcf.name ?? input.destDcf.username ?? "?"}`;
  const blocks: KnownBlock[] = [
    header(`Layer 2 price: ${route}`),
    fields([
      [`Price (total for ${term})`, amount(result.price) ?? DASH],
      ["Monthly", amount(result.basicMonthlyAmount)],
      ["Pre-authorisation (monthly)", amount(result.preAuthAmount)],
      ["Amount saved", saving(result.amountSaved)],
      ["From", dcfName(input.srcDcf)],
      ["To", dcfName(input.destDcf)],
      ["Bandwidth", formatMbps(input.bandwidthMbps)],
      ["Class of service", textOr(input.classOfService)],
      ["Term", term],
    ]),
  ];
  if (result.formula) blocks.push(section(`*Formula*\n${code(result.formula)}`));
  const factors = Array.isArray(result.factors)
    ? result.factors.filter((f): f is PricingFactor => typeof f === "object" && f !== null)
    : [];
  const durationUnit = result.entity?.duration?.unit ?? input.term.unit;
  for (let i = 0; i < factors.length; i += LIMITS.sectionFields) {
    const chunk = factors.slice(i, i + LIMITS.sectionFields);
    blocks.push(fields(chunk.map((f) => [factorLabel(f), factorValue(f, durationUnit)] as const)));
  }
  if (factors.length === 0) blocks.push(section("_The provider returned no price factors._"));
  const rates = factors
    .filter((f) => f.name === "bandwidthCost" && f.ref && typeof f.ref === "object")
    .map((f) => regionRate(f.ref as BandwidthCostRef));
  if (rates.length > 0) blocks.push(section(`*Region-to-region rate used*\n${rates.join("\n")}`));
  blocks.push(context(CURRENCY_NOTE));
  return {
    text: fallbackText(`Layer 2 price ${route}: ${amount(result.price) ?? "no price"} for ${term}`),
    blocks: fitBlocks(blocks),
  };
}

/** Candidates shown for an ambiguous DCF: each a section with a button. */
export const PRICE_CHOICES_MAX = 10;

/**
 * "Several data centers match "ams": pick one" — the inline price command with an ambiguous DCF.
 * Each button carries the whole command (DCF username, speed, term), so a click prices at once.
 */
export function priceChoicesView(
  query: string,
  candidates: readonly DcfRecord[],
  request: { speedMbps: number; term: Term },
  /** Nothing matched the whole text; these match a part of it. */
  partial = false,
): Reply {
  const introFor = (q: string) =>
    partial
      ? `No data center is called "${q}"; ${candidates.length === 1 ? "this one matches" : "these match"} part of it: pick one`
      : `Several data centers match "${q}": pick one`;
  const intro = introFor(escapeMrkdwn(query));
  const blocks: KnownBlock[] = [
    section(
      `:point_down: ${intro} to price ${formatSpeed(request.speedMbps)} for ${formatTerm(request.term.value, request.term.unit)}.`,
    ),
  ];
  const shown = candidates.slice(0, PRICE_CHOICES_MAX);
  for (const dcf of shown) {
    const offered = dcfSpeedsMbps(
      Array.isArray(dcf.dataCenterFacility?.speeds) ? dcf.dataCenterFacility.speeds : [],
    );
    const speedNote =
      offered.length === 0 || offered.includes(request.speedMbps)
        ? undefined
        : `:warning: ${formatSpeed(request.speedMbps)} not offered here`;
    const text = [
      [`*${textOr(dcf.name, "Unnamed data center")}*`, dcfPlace(dcf)].filter(Boolean).join(" · "),
      [dcf.username ? code(dcf.username) : undefined, `Speeds: ${dcfSpeeds(dcf)}`, speedNote]
        .filter(Boolean)
        .join(" · "),
    ].join("\n");
    const pick: PricePick | undefined = dcf.username
      ? { dcf: dcf.username, speed: request.speedMbps, term: request.term }
      : undefined;
    blocks.push(
      pick
        ? section(text, button("Price here", ACTION_PRICE_PICK_DCF, JSON.stringify(pick)))
        : section(text),
    );
  }
  if (candidates.length > shown.length) {
    blocks.push(
      context(
        `${candidates.length - shown.length} more match: add more of the name, or search with \`${COMMAND} dcf ${escapeMrkdwn(query)}\`.`,
      ),
    );
  }
  return {
    text: fallbackText(introFor(query)),
    blocks: fitBlocks(blocks),
  };
}

/** Reads a `price_pick_dcf` button value; undefined when it is not one. */
export function parsePricePick(value: string | undefined): PricePick | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value ?? "");
  } catch {
    return undefined;
  }
  if (typeof parsed !== "object" || parsed === null) return undefined;
  const { dcf, speed, term } = parsed as Record<string, unknown>;
  if (typeof dcf !== "string" || dcf === "") return undefined;
  if (typeof speed !== "number" || !Number.isSafeInteger(speed) || speed <= 0) return undefined;
  if (typeof term !== "object" || term === null) return undefined;
  const { value: termValue, unit } = term as Record<string, unknown>;
  if (typeof termValue !== "number" || !Number.isFinite(termValue) || typeof unit !== "string")
    return undefined;
  return { dcf, speed, term: { value: termValue, unit } };
}
