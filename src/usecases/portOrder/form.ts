// The port order form (`/connect port order`) read and previewed: what each field holds (or why
// it can't be used), the LOA path a data center's port will follow, and the live preview the
// modal shows as the person chooses (that DCF's speeds, its LOA path, the price). Slack-free;
// the server-side check of a submission is check.ts, the approval request it becomes
// submission.ts.

import { isReady, offeredSpeeds } from "../../domain/catalog/dcfs.js";
import { PORT_ORDER_TERMS, type PortTerm } from "../../domain/catalog/portTerms.js";
import { withDeadline } from "../../domain/deadline.js";
import { type LoaKind, loaKind, nextLoaStep } from "../../domain/tracking/loa.js";
import { formatSpeed } from "../../domain/units.js";
import type { Dcf, PricingResult, ProviderApi } from "../../provider/api.js";
import { portOrderBodyRule } from "../../provider/rules/portOrder.js";
import type { DcfDirectory } from "../shared/dcfDirectory.js";
import { isDeleted, parseDcfRef } from "../shared/dcfFacts.js";
import { readPortTerm } from "../shared/portTermReading.js";
import { pricePort } from "../shared/prices.js";
import { userMessageOf } from "../shared/providerMessage.js";

// ---------------------------------------------------------------------------------------------
// Terms

/** Only the offered terms are read: "12m" is the 1-year term, "36m" is no term of ours. */
function readTerm(value: string): PortTerm | undefined {
  const reading = readPortTerm(value);
  if (reading?.kind !== "term") return undefined;
  const unit = reading.term.durationUnit;
  return PORT_ORDER_TERMS.find((t) => t.durationUnit === unit);
}

// ---------------------------------------------------------------------------------------------
// LOA paths

export interface LoaPath {
  kind: LoaKind;
  /** What happens after the order, in words (the same words as `/connect order`). */
  text: string;
}

/**
 * The LOA path a port order at this DCF will follow. The detection (tags: off-net/extended,
 * provider-supplied LOA, on-net) and its words are src/domain/tracking/loa.ts's own: a port order not yet
 * placed is read as an order that has only its DCF.
 */
export function loaPathOf(dcf: Dcf): LoaPath {
  const order = { id: "", dataCenterFacility: dcf };
  return { kind: loaKind(order), text: nextLoaStep(order) };
}

// ---------------------------------------------------------------------------------------------
// The form

/** What the modal submitted, as raw as it came (a forged payload is no different). */
export interface PortOrderForm {
  dcf?: unknown;
  speed?: unknown;
  term?: unknown;
  portName?: unknown;
}

export type PortOrderField = "dcf" | "speed" | "term" | "portName";
export type PortOrderErrors = Partial<Record<PortOrderField, string>>;

/** Longest value a select option can carry (Slack's limit); anything longer was not offered. */
const OPTION_VALUE_MAX = 150;

export interface PortOrderChoices {
  dcfId?: string;
  speedMbps?: number;
  term?: PortTerm;
  /** Trimmed. */
  portName?: string;
}

function optionValue(x: unknown): string | undefined {
  return typeof x === "string" && x.length > 0 && x.length <= OPTION_VALUE_MAX ? x : undefined;
}

// The port name obeys the port order rule's own field (trimmed, printable, at most 100).
const portNameRule = portOrderBodyRule.shape.portName;

/**
 * Reads the form: what each field holds, and a message for each field that is missing or holds
 * something the form never offered. Every field is read, so a person sees all problems at once.
 */
export function readPortOrderForm(form: PortOrderForm): {
  choices: PortOrderChoices;
  errors: PortOrderErrors;
} {
  const choices: PortOrderChoices = {};
  const errors: PortOrderErrors = {};

  if (form.dcf === undefined || form.dcf === null || form.dcf === "") {
    errors.dcf = "Choose a data center";
  } else {
    const id = parseDcfRef(optionValue(form.dcf));
    if (id === undefined) errors.dcf = "Pick a data center from the list";
    else choices.dcfId = id;
  }

  if (form.speed === undefined || form.speed === null || form.speed === "") {
    errors.speed = "Choose a speed";
  } else {
    const value = optionValue(form.speed);
    const mbps = value !== undefined && /^\d{1,9}$/.test(value) ? Number(value) : 0;
    if (mbps > 0) choices.speedMbps = mbps;
    else errors.speed = "Choose one of the speeds listed";
  }

  if (form.term === undefined || form.term === null || form.term === "") {
    errors.term = "Choose a term";
  } else {
    const value = optionValue(form.term);
    const term = value === undefined ? undefined : readTerm(value);
    if (term) choices.term = term;
    else errors.term = "Choose 1 year or month to month";
  }

  const name = portNameRule.safeParse(form.portName ?? undefined);
  if (name.success) choices.portName = name.data;
  else errors.portName = name.error.issues[0]?.message ?? "Enter a port name";

  return { choices, errors };
}

// ---------------------------------------------------------------------------------------------
// The live preview (the modal updates in place as the person chooses)

export type PortOrderPrice =
  | { kind: "priced"; speedMbps: number; term: PortTerm; result: PricingResult }
  | { kind: "unavailable"; message: string };

export interface PortOrderPreview {
  /** The data center picked, or why it cannot be used. */
  chosen?: { dcf: Dcf } | { problem: string };
  /** The chosen speed, when the chosen data center offers it. */
  speedMbps?: number;
  term?: PortTerm;
  loa?: LoaPath;
  /** Present once data center, speed and term are all chosen. */
  price?: PortOrderPrice;
}

/** The preview runs after Slack's ack, but a hung provider must not hold it for ever. */
export const PREVIEW_DEADLINE_MS = 5_000;

/**
 * What the modal shows for what is chosen so far: the data center's speeds (and only those),
 * its LOA path, and the price once data center, speed and term are chosen. The DCF comes from
 * the directory (a short cache); the submission looks it up afresh.
 */
export async function previewPortOrder(
  deps: { provider: ProviderApi; directory: DcfDirectory },
  form: PortOrderForm,
  deadlineMs = PREVIEW_DEADLINE_MS,
): Promise<PortOrderPreview> {
  const { choices } = readPortOrderForm(form);
  const preview: PortOrderPreview = {};
  if (choices.term) preview.term = choices.term;
  if (form.dcf !== undefined && form.dcf !== null && choices.dcfId === undefined) {
    preview.chosen = { problem: "Pick a data center from the list (type part of its name)" };
  }
  if (choices.dcfId === undefined) return preview;

  let dcf: Dcf | undefined;
  try {
    const id = choices.dcfId;
    dcf = await withDeadline(deadlineMs, (signal) => deps.directory.byId(id, { signal }));
  } catch (error) {
    preview.chosen = { problem: `Couldn't load this data center: ${userMessageOf(error)}` };
    return preview;
  }
  if (!dcf || isDeleted(dcf)) {
    preview.chosen = { problem: "That data center is no longer listed; pick another" };
    return preview;
  }
  preview.chosen = { dcf };
  preview.loa = loaPathOf(dcf);
  const speed = choices.speedMbps;
  const offered = offeredSpeeds(dcf);
  if (speed !== undefined && offered.includes(speed)) {
    preview.speedMbps = speed;
  } else if (speed !== undefined && offered.length > 0) {
    // Slack keeps a select's choice across updates: a speed of the previous data center.
    preview.price = {
      kind: "unavailable",
      message: `${formatSpeed(speed)} is not offered here: choose one of ${offered.map(formatSpeed).join(", ")}`,
    };
  }
  if (preview.speedMbps === undefined || !choices.term) return preview;

  if (!isReady(dcf)) {
    preview.price = {
      kind: "unavailable",
      message: "This data center is not ready for orders yet, so it has no price",
    };
    return preview;
  }
  const term = choices.term;
  const mbps = preview.speedMbps;
  try {
    const result = await withDeadline(deadlineMs, (signal) =>
      pricePort(
        deps.provider,
        { dcf, speedMbps: mbps, durationUnit: term.durationUnit, includeCrossConnect: false },
        { signal },
      ),
    );
    preview.price = { kind: "priced", speedMbps: mbps, term, result };
  } catch (error) {
    preview.price = {
      kind: "unavailable",
      message: `The provider could not price this port: ${userMessageOf(error)}`,
    };
  }
  return preview;
}
