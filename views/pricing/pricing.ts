import type { KnownBlock } from "@slack/types";
import { portPriceCommandText } from "../../src/domain/catalog/portTerms.js";
import { dcfSpeedsMbps } from "../../src/domain/catalog/requestFacts.js";
import { COMMAND } from "../../src/domain/commands.js";
import { formatMoney } from "../../src/domain/money.js";
import type { components } from "../../src/provider/generated/provider.js";
import { button, context, escapeMrkdwn, fields, header, LIMITS, section } from "../blocks.js";
import { type DcfRecord, dcfPlace, dcfSpeeds } from "../dcf.js";
import { code, DASH, formatMbps, formatSpeed, formatTerm, textOr, toNumber } from "../format.js";
import { fallbackText, fitBlocks } from "../list.js";
import type { Reply } from "../reply.js";

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

/** Under every price: the provider returns no currency, so the code shown is the configured one. */
function currencyNote(currency: string): string {
  return `Amounts are in ${escapeMrkdwn(currency)}, the account's currency as configured (\`PRICE_CURRENCY\`); the provider returns none.`;
}

function amount(value: number | null | undefined, currency: string): string | undefined {
  return formatMoney(value, currency);
}

/** Shown only when something was saved: a zero saving is not news. */
function saving(value: number | null | undefined, currency: string): string | undefined {
  return value !== 0 ? formatMoney(value, currency) : undefined;
}

/**
 * The inline command that prices the same port again, every option kept, e.g.
 * `/connect price port ironbridge-iad1 10G 1y xc`.
 */
export function portPriceCommand(
  input: Pick<PortPriceInput, "dcf" | "speedMbps" | "term" | "includeCrossConnect">,
): string {
  return `${COMMAND} ${portPriceCommandText({
    dcf: input.dcf.username,
    speedMbps: input.speedMbps,
    term: input.term,
    includeCrossConnect: input.includeCrossConnect === true,
  })}`;
}

/**
 * What the answer says about the cross connect. The provider's `price` is the port's price for
 * the term; `crossConnectAmount` comes beside it when asked for, so "included" is said only when
 * the total visibly holds it (price = port total + cross connect).
 */
function crossConnectWords(result: PricingResult): string | undefined {
  const xc = result.crossConnectAmount;
  if (typeof xc !== "number" || !Number.isFinite(xc)) return undefined;
  if (xc === 0) return "cross connect free of charge";
  const portTotal = result.basicTotalAmount;
  const included =
    typeof portTotal === "number" &&
    typeof result.price === "number" &&
    Math.abs(result.price - (portTotal + xc)) < 0.005;
  return included
    ? "cross connect included in the total"
    : "cross connect charged on top of the total";
}

function dcfName(dcf: { name?: string; username?: string }): string {
  return textOr(dcf.name ?? dcf.username, "the data center");
}

/** The price of a port: total for the term, monthly amounts and the command to repeat it. */
export function portPriceView(
  input: PortPriceInput,
  result: PricingResult,
  currency: string,
): Reply {
  const term = formatTerm(input.term.value, input.term.unit);
  const title = `Port price: ${input.dcf.name ?? input.dcf.username} · ${formatSpeed(input.speedMbps)} · ${term}`;
  const xcWords = crossConnectWords(result);
  const priceFields = fields([
    [`Price (total for ${term})`, amount(result.price, currency) ?? DASH],
    ["Monthly", amount(result.basicMonthlyAmount, currency)],
    ["Pre-authorisation (monthly)", amount(result.preAuthAmount, currency)],
    ["Cross connect", amount(result.crossConnectAmount, currency)],
    ["Amount saved", saving(result.amountSaved, currency)],
    ["Saved over the term", saving(result.amountSavedTotal, currency)],
  ]);
  const blocks: KnownBlock[] = [
    header(title),
    section(
      `*${dcfName(input.dcf)}* (${code(input.dcf.username)}) · ${formatSpeed(input.speedMbps)} · ${term}${xcWords ? ` · ${xcWords}` : ""}`,
    ),
    priceFields,
    context(
      currencyNote(currency),
      `This data center and speed can be ordered: \`${COMMAND} port order\`.`,
    ),
    context(`Repeat: \`${escapeMrkdwn(portPriceCommand(input))}\``),
  ];
  return {
    text: fallbackText(
      `${title} — ${amount(result.price, currency) ?? "no price"} (total for ${term})`,
    ),
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
export function factorValue(
  factor: PricingFactor,
  currency: string,
  durationUnit?: string,
): string {
  const n = typeof factor.number === "number" ? factor.number : undefined;
  if (n === undefined) return DASH;
  switch (factor.name) {
    case "margin":
      // The formula divides by (1 - margin): a fraction, shown as a percentage.
      return `${DECIMAL.format(n * 100)}% (${decimal(n)})`;
    case "portFee":
    case "nniFee":
      return formatMoney(n, currency) ?? DASH;
    case "multiplier":
      return `×${decimal(n)}`;
    case "duration":
      // The formula's term is in months (a monthly rate times it): 6 weeks is 1.4 here, never
      // "1.4 weeks"; a term priced in months reads as itself.
      return durationUnit === "m"
        ? `${decimal(n)} (${formatTerm(n, "m")})`
        : `${decimal(n)} (the term in months)`;
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
export function connectionPriceView(
  input: ConnectionPriceInput,
  result: PricingResult,
  currency: string,
): Reply {
  const term = formatTerm(input.term.value, input.term.unit);
  const route = `${input.srcDcf.name ?? input.srcDcf.username ?? "?"} → ${input.destDcf.name ?? input.destDcf.username ?? "?"}`;
  const blocks: KnownBlock[] = [
    header(`Layer 2 price: ${route}`),
    fields([
      [`Price (total for ${term})`, amount(result.price, currency) ?? DASH],
      ["Monthly", amount(result.basicMonthlyAmount, currency)],
      ["Pre-authorisation (monthly)", amount(result.preAuthAmount, currency)],
      ["Amount saved", saving(result.amountSaved, currency)],
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
    blocks.push(
      fields(chunk.map((f) => [factorLabel(f), factorValue(f, currency, durationUnit)] as const)),
    );
  }
  if (factors.length === 0) blocks.push(section("_The provider returned no price factors._"));
  const rates = factors
    .filter((f) => f.name === "bandwidthCost" && f.ref && typeof f.ref === "object")
    .map((f) => regionRate(f.ref as BandwidthCostRef));
  if (rates.length > 0) blocks.push(section(`*Region-to-region rate used*\n${rates.join("\n")}`));
  if (input.term.unit !== "m") {
    blocks.push(
      context(
        `Ordered connections run for whole months: *Order this* opens the form with the term for you to choose, not ${term}.`,
      ),
    );
  }
  blocks.push(context(currencyNote(currency)));
  return {
    text: fallbackText(
      `Layer 2 price ${route}: ${amount(result.price, currency) ?? "no price"} for ${term}`,
    ),
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
