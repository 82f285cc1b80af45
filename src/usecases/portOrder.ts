// Port orders (`/connect port order`): what the form asks, the live preview (speeds, price, LOA
// path), the server-side check of a submission and the approval request it becomes. Slack-free:
// plain inputs in, plain results out; src/slack/commands/portOrder.ts renders them with
// views/portOrderModal.ts.

import type { ApprovalRequest, ApprovalStatus } from "../approvals/index.js";
import { type LoaKind, loaKind, nextLoaStep } from "../domain/loa.js";
import { formatMoney } from "../domain/money.js";
import { PORT_ORDER_TERMS, termWords } from "../domain/portTerms.js";
import { speedMbps } from "../domain/requestFacts.js";
import { formatMbps, formatSpeed } from "../domain/units.js";
import type { OrderSubmission } from "../orders/index.js";
import { ORDER_KINDS } from "../orders/kinds.js";
import type { CallOptions, Dcf, Port, PricingResult, ProviderApi } from "../provider/api.js";
import { fieldErrors, ROOT_FIELD } from "../provider/rules/fieldErrors.js";
import {
  type PortOrderBody,
  portOrderBodyRule,
  portOrderRule,
} from "../provider/rules/portOrder.js";
import type { Identity } from "../services.js";
import {
  type DcfDirectory,
  type FormCheck,
  isDeleted,
  isReady,
  offeredSpeeds,
  type PortTerm,
  parseDcfRef,
  pricePort,
  readPortTerm,
  SUBMISSION_DEADLINE_MS,
} from "./pricing.js";
import { DeadlineExceededError, withDeadline } from "./shared/deadline.js";

export { PORT_ORDER_TERMS, termValue, termWords } from "../domain/portTerms.js";

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
 * provider-supplied LOA, on-net) and its words are views/orders.ts's own: a port order not yet
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
// Unique port names

/** Names compared as a person reads them: trimmed, ignoring case ("AMS-1" and "ams-1" clash). */
export function sameName(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/** Requests that may still become a port under their name: never reuse it meanwhile. */
const OPEN_STATUSES: readonly ApprovalStatus[] = [
  "pending",
  "approved",
  "executing",
  "unknown",
  "failed",
];
/**
 * A placed port order shows up among the ports only once provisioned (weeks for an off-net LOA),
 * so recently placed requests count too.
 */
export const PLACED_LOOKBACK_DAYS = 90;

interface RequestSource {
  findByStatus(status: ApprovalStatus): Promise<ApprovalRequest[]>;
  list(options: {
    status?: ApprovalStatus;
    since?: Date;
    limit?: number;
  }): Promise<ApprovalRequest[]>;
}

/**
 * The port names of port requests that are open or recently placed. The name is the request's
 * `reconcileKey`, which must identify one order if a placement's outcome is ever unknown.
 */
export async function requestedPortNames(
  store: RequestSource,
  now: Date = new Date(),
): Promise<string[]> {
  const since = new Date(now.getTime() - PLACED_LOOKBACK_DAYS * 24 * 3600_000);
  const lists = await Promise.all([
    ...OPEN_STATUSES.map((status) => store.findByStatus(status)),
    store.list({ status: "placed", since, limit: 1000 }),
  ]);
  return lists
    .flat()
    .filter((r) => r.kind === "port")
    .map((r) => r.reconcileKey ?? r.title);
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

function userMessageOf(error: unknown): string {
  if (error instanceof DeadlineExceededError) return "the provider took too long to answer";
  if (typeof error === "object" && error !== null && "userMessage" in error) {
    const message = (error as { userMessage: unknown }).userMessage;
    if (typeof message === "string") return message;
  }
  return "the provider did not answer";
}

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

// ---------------------------------------------------------------------------------------------
// The submission, checked again on the server

export interface PortOrderDeps {
  provider: ProviderApi;
  identity: () => Promise<Identity>;
  /** Port names of requests that may still become ports (see requestedPortNames). */
  requestedNames: () => Promise<string[]>;
}

export interface CheckedPortOrder {
  dcf: Dcf;
  speedMbps: number;
  term: PortTerm;
  /** The exact body to send once approved (it passed portOrderRule for this DCF). */
  body: PortOrderBody;
  companyUsername: string;
  price: PricingResult;
  loa: LoaPath;
}

/** Where the port order rule's paths land in the form; the rest go to the data center. */
const RULE_FIELDS: Readonly<Record<string, PortOrderField>> = {
  dataCenterFacility: "dcf",
  speed: "speed",
  durationUnit: "term",
  portName: "portName",
  paymentType: "dcf",
  [ROOT_FIELD]: "dcf",
};

/**
 * The speed as the DCF lists it, as text. The spec says only "string, one of the DCF's valid
 * speeds" and does not show the element shape, so the DCF's own form is kept where it is a
 * number or text; an object element is sent as its Mbps.
 */
export function speedForOrder(dcf: Dcf, mbps: number): string {
  const speeds = dcf.dataCenterFacility?.speeds;
  const listed = Array.isArray(speeds)
    ? (speeds as unknown[]).find((s) => speedMbps(s) === mbps)
    : undefined;
  return typeof listed === "string" ? listed.trim() : String(mbps);
}

async function fetchDcf(
  provider: ProviderApi,
  id: string,
  opts: CallOptions,
): Promise<Dcf | undefined> {
  // Afresh, not from a cache: the speeds checked must be the provider's current ones.
  const found = await provider.listDcfs({ where: { id } }, opts);
  const dcf = found.find((d) => d?.id === id);
  return dcf && !isDeleted(dcf) ? dcf : undefined;
}

function timeoutOr(error: unknown, slow: string, failed: string): string {
  return error instanceof DeadlineExceededError ? slow : `${failed}: ${userMessageOf(error)}`;
}

/** Why this port name cannot be used, if it cannot: taken, or its newness not checkable. */
function portNameProblem(
  portName: string,
  ports: PromiseSettledResult<Port[]>,
  requested: PromiseSettledResult<string[]>,
): string | undefined {
  // Unchecked is refused: the name is how an order with an unknown outcome is found again.
  const failed =
    ports.status === "rejected" ? ports : requested.status === "rejected" ? requested : undefined;
  if (failed) {
    return timeoutOr(
      failed.reason,
      "Checking that this port name is new took too long; submit again",
      "Couldn't check that this port name is new",
    );
  }
  if (
    ports.status === "fulfilled" &&
    ports.value.some((p) => typeof p.name === "string" && sameName(p.name, portName))
  ) {
    return `Your company already has a port named "${portName}"; choose another name`;
  }
  if (requested.status === "fulfilled" && requested.value.some((n) => sameName(n, portName))) {
    return `A port request named "${portName}" is already waiting or being ordered; choose another name`;
  }
  return undefined;
}

/**
 * Checks a submitted form as if nothing the client sent could be trusted: the shapes, the DCF
 * (looked up afresh: it exists, is ready, offers the speed — portOrderRule), the port name
 * (unique among the company's ports and its open requests) and the price (the provider prices
 * what it can sell). The look-ups run in parallel within `deadlineMs` (Slack waits 3 s for the
 * submission's answer). Errors are keyed by form field.
 */
export async function checkPortOrder(
  deps: PortOrderDeps,
  form: PortOrderForm,
  deadlineMs = SUBMISSION_DEADLINE_MS,
): Promise<FormCheck<CheckedPortOrder, PortOrderField>> {
  const { choices, errors } = readPortOrderForm(form);
  const { dcfId, speedMbps: speed, term, portName } = choices;
  // Without a DCF, speed and term there is nothing to look up; with them, the look-ups run even
  // when the port name is wrong, so every problem shows at once.
  if (dcfId === undefined || speed === undefined || !term) return { ok: false, errors };

  const bounded = <T>(call: (signal: AbortSignal) => Promise<T>) => withDeadline(deadlineMs, call);
  const [dcfRead, identityRead, portsRead, namesRead, priceRead] = await Promise.allSettled([
    bounded((signal) => fetchDcf(deps.provider, dcfId, { signal })),
    bounded(() => deps.identity()),
    bounded(async (signal): Promise<Port[]> => {
      const { companyUsername } = await deps.identity();
      return deps.provider.listPorts(companyUsername, { deleted: false, signal });
    }),
    bounded(() => deps.requestedNames()),
    // Priced beside the look-ups (the DCF id is all pricing needs); kept only if all is well.
    bounded((signal) =>
      pricePort(
        deps.provider,
        {
          dcf: { id: dcfId },
          speedMbps: speed,
          durationUnit: term.durationUnit,
          includeCrossConnect: false,
        },
        { signal },
      ),
    ),
  ]);

  const out: PortOrderErrors = { ...errors };
  if (dcfRead.status === "rejected") {
    out.dcf = timeoutOr(
      dcfRead.reason,
      "The provider took too long to confirm this data center; submit again",
      "Couldn't check this data center",
    );
  } else if (!dcfRead.value) {
    out.dcf = "Pick a data center from the list";
  }
  const dcf = dcfRead.status === "fulfilled" ? dcfRead.value : undefined;
  if (dcf && !isReady(dcf)) {
    out.dcf = "This data center is not ready for orders yet; pick another";
  } else if (dcf && !dcf.username) {
    out.dcf = "This data center has no username to order with; pick another";
  }

  if (identityRead.status === "rejected") {
    out.dcf ??= timeoutOr(
      identityRead.reason,
      "The provider took too long to say who we are; submit again",
      "Couldn't read the company to order for",
    );
  }

  if (portName !== undefined) {
    const problem = portNameProblem(portName, portsRead, namesRead);
    if (problem) out.portName = problem;
  }

  let body: PortOrderBody | undefined;
  if (dcf?.username) {
    const rule = portOrderRule({
      username: dcf.username,
      speeds: Array.isArray(dcf.dataCenterFacility?.speeds) ? dcf.dataCenterFacility.speeds : [],
    }).safeParse({
      dataCenterFacility: dcf.username,
      speed: speedForOrder(dcf, speed),
      durationUnit: term.durationUnit,
      portName: portName ?? "",
      paymentType: "invoice",
    });
    if (rule.success) {
      body = rule.data;
    } else {
      for (const [path, message] of Object.entries(fieldErrors(rule.error))) {
        const field = RULE_FIELDS[path] ?? "dcf";
        out[field] ??= message;
      }
    }
  }

  // The provider's pricing is its own serviceability check: no price, no order.
  if (!out.dcf && !out.speed && priceRead.status === "rejected") {
    out.speed = timeoutOr(
      priceRead.reason,
      "The provider took too long to price this port; submit again",
      "The provider could not price this port; choose another speed or data center",
    );
  }

  if (
    Object.keys(out).length > 0 ||
    !dcf ||
    !body ||
    portName === undefined ||
    identityRead.status !== "fulfilled" ||
    priceRead.status !== "fulfilled"
  ) {
    return { ok: false, errors: out };
  }
  return {
    ok: true,
    value: {
      dcf,
      speedMbps: speed,
      term,
      body,
      companyUsername: identityRead.value.companyUsername,
      price: priceRead.value,
      loa: loaPathOf(dcf),
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The approval request

function finite(x: unknown): number | undefined {
  return typeof x === "number" && Number.isFinite(x) ? x : undefined;
}

/**
 * The price in words. `price` is the total for the term and `basicMonthlyAmount` monthly
 * (docs/provider/provider-notes.md); no currency comes back, so the configured one labels them.
 */
export function portPriceText(
  result: PricingResult,
  term: Pick<PortTerm, "durationUnit">,
  currency: string,
): string {
  const total = formatMoney(result.price, currency);
  const monthly =
    formatMoney(result.basicMonthlyAmount, currency) ?? formatMoney(result.preAuthAmount, currency);
  if (total === undefined) return "The provider returned no price";
  if (term.durationUnit === "m") return `${total} a month, month to month`;
  const perMonth = monthly !== undefined ? ` (${monthly} a month)` : "";
  return `${total} for 1 year${perMonth}`;
}

/** The data center as the summary names it: "Equinix AM3 (equinix-am3)". */
export function dcfWords(dcf: Dcf): string {
  const name = dcf.name?.trim();
  const username = dcf.username ?? dcf.id;
  return name ? `${name} (${username})` : username;
}

/**
 * The approval request for a checked port order: every field of the body in words, the exact
 * call to make once approved, the port name to find it by, and the price.
 */
export function portOrderSubmission(
  checked: CheckedPortOrder,
  requester: { userId: string; channelId?: string },
  currency: string,
): OrderSubmission {
  const { body, dcf, term, price } = checked;
  const total = finite(price.price);
  const monthly = finite(price.basicMonthlyAmount) ?? finite(price.preAuthAmount);
  return {
    kind: "port",
    title: body.portName,
    summary: [
      { label: "Data center", value: dcfWords(dcf) },
      {
        label: "Speed",
        value: `${formatSpeed(checked.speedMbps)} (${formatMbps(checked.speedMbps)})`,
      },
      { label: "Term", value: termWords(term) },
      { label: "Port name", value: body.portName },
      { label: "Payment type", value: "Invoice" },
      { label: "LOA path", value: checked.loa.text },
    ],
    call: {
      operation: ORDER_KINDS.port.operation,
      pathParams: { companyUsername: checked.companyUsername },
      body: {
        dataCenterFacility: body.dataCenterFacility,
        speed: body.speed,
        durationUnit: body.durationUnit,
        portName: body.portName,
        paymentType: body.paymentType,
      },
    },
    reconcileKey: body.portName,
    price: {
      ...(total !== undefined ? { total } : {}),
      ...(monthly !== undefined ? { monthly } : {}),
      text: portPriceText(price, term, currency),
      // "y" is 1 year; "m" is month to month, a commitment of one month at a time.
      termMonths: term.durationUnit === "y" ? 12 : 1,
    },
    requester: {
      userId: requester.userId,
      ...(requester.channelId ? { channelId: requester.channelId } : {}),
    },
  };
}
