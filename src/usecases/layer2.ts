import { createHash } from "node:crypto";
import { monthsOfTerm } from "../approvals/index.js";
import {
  CONNECTION_NAME_MAX,
  isOtherCompany,
  LAYER2_NOTICE,
  portCompanyUsername,
  portMetroId,
  remainingCapacity,
} from "../domain/connections.js";
import { formatMoney } from "../domain/money.js";
import { CLASSES_OF_SERVICE } from "../domain/requestFacts.js";
import { formatMbps, formatSpeed, formatTerm } from "../domain/units.js";
import type { OrderSubmission } from "../orders/index.js";
import type {
  CallOptions,
  ConnectionPriceConfig,
  Dcf,
  MetroCapability,
  Port,
  PricingResult,
} from "../provider/api.js";
import { isProviderError } from "../provider/errors.js";
import { fieldErrors, ROOT_FIELD } from "../provider/rules/fieldErrors.js";
import { layer2BusinessToBusinessRule, layer2PortToPortRule } from "../provider/rules/layer2.js";
import type { Identity, Services } from "../services.js";
import { type CompanyCheck, checkCompanyExists } from "./companyCheck.js";
import { companyMetros } from "./dcf.js";
import { recordId } from "./ports.js";
import { isDeleted as isDeletedDcf, isReady, priceConnection } from "./pricing.js";
import { DeadlineExceededError, withDeadline } from "./shared/deadline.js";

export {
  CONNECTION_NAME_MAX,
  isOtherCompany,
  LAYER2_NOTICE,
  portCompanyUsername,
  portMetroId,
  remainingCapacity,
} from "../domain/connections.js";

/**
 * Layer 2 connections (`/connect l2`): port-to-port (both ports known) or business-to-business
 * (destination chosen by metro, data center and region). One loader reads everything the form
 * shows (own ports, the destination port, layer 2 metros, their data centers, the price); the
 * submission check runs the same loader again — never trusting what the modal showed — then
 * the provider's rules, capacity, name uniqueness and the price the person saw.
 */

export type Layer2Deps = Pick<Services, "provider" | "identity" | "logger" | "approvals">;

export const LAYER2_MODES = ["port-to-port", "business-to-business"] as const;
export type Layer2Mode = (typeof LAYER2_MODES)[number];

/** The only term unit the spec shows for a layer 2 request (rules.ts sends nothing else). */
export const LAYER2_DURATION_UNITS = ["m"] as const;
export const LAYER2_PAYMENT_TYPE = "invoice";
export const DEFAULT_CLASS_OF_SERVICE = "SILVER";
export const DEFAULT_DURATION_MONTHS = 12;

/** What the modal holds, as raw as it arrived: a forged payload is no different. */
export interface Layer2Form {
  mode?: unknown;
  sourcePort?: unknown;
  destPort?: unknown;
  destMetro?: unknown;
  destDcf?: unknown;
  destRegion?: unknown;
  destCompany?: unknown;
  bandwidth?: unknown;
  classOfService?: unknown;
  duration?: unknown;
  durationUnit?: unknown;
  evergreen?: unknown;
  name?: unknown;
}
export type Layer2Field = keyof Layer2Form;

/** The form's values cleaned for showing again (initial values of a rebuilt modal). */
export interface Layer2Values {
  mode: Layer2Mode;
  sourcePortId?: string;
  destPortId?: string;
  destMetroId?: string;
  destDcfId?: string;
  destRegionId?: string;
  destCompany?: string;
  bandwidth?: string;
  classOfService: string;
  duration?: string;
  durationUnit: string;
  evergreen: boolean;
  name?: string;
}

export interface Region {
  id: string;
  name?: string;
}

export type Loaded<T> = { ok: true; value: T } | { ok: false; problem: string };

export interface Layer2Quote {
  config: ConnectionPriceConfig;
  result: PricingResult;
  srcDcf: { id: string; name?: string };
  destDcf: { id: string; name?: string };
  /** Identifies this price for these inputs: the modal keeps it to know what the person saw. */
  key: string;
}

/** Everything the modal shows, for the values it holds now. */
export interface Layer2ModalData {
  values: Layer2Values;
  identity: Identity;
  /** The company's ports that are not deleted. */
  ports: Loaded<Port[]>;
  source?: Port;
  /** Port-to-port: the destination port typed in, looked up. */
  destination?: Loaded<Port>;
  /** Business-to-business: the metros where layer 2 is available, and those where it is not. */
  metros?: Loaded<{ layer2: MetroCapability[]; without: MetroCapability[] }>;
  metro?: MetroCapability;
  /** Business-to-business: the data centers of the chosen metro. */
  dcfs?: Loaded<Dcf[]>;
  destDcf?: Dcf;
  regions?: Region[];
  /** Business-to-business: whether the typed destination company exists at the provider. */
  destCompanyCheck?: { username: string; result: CompanyCheck };
  /** Undefined until the inputs that determine the price are complete. */
  price?: Loaded<Layer2Quote>;
}

// ---------------------------------------------------------------------------------------------
// Reading raw values

const TEXT_MAX = 200;

function text(x: unknown, max = TEXT_MAX): string | undefined {
  if (typeof x !== "string") return undefined;
  const trimmed = x.trim();
  return trimmed === "" || trimmed.length > max ? undefined : trimmed;
}

/** A whole number typed into a number input (at most 9 digits: nothing bigger is sensible). */
export function wholeNumber(x: unknown): number | undefined {
  const t = typeof x === "number" ? String(x) : text(x, 12);
  if (t === undefined || !/^\d{1,9}$/.test(t)) return undefined;
  const n = Number(t);
  return n > 0 ? n : undefined;
}

/** The commitment's length for the spend ledger, when the body's term reads as months. */
function termOf(value: unknown, unit: unknown): { termMonths?: number } {
  const months = monthsOfTerm(value, unit);
  return months === undefined ? {} : { termMonths: months };
}

function modeOf(x: unknown): Layer2Mode {
  return x === "business-to-business" ? "business-to-business" : "port-to-port";
}

export function layer2Values(form: Layer2Form): Layer2Values {
  const cos = text(form.classOfService);
  const unit = text(form.durationUnit);
  return {
    mode: modeOf(form.mode),
    sourcePortId: text(form.sourcePort),
    destPortId: text(form.destPort, 64),
    destMetroId: text(form.destMetro),
    destDcfId: text(form.destDcf),
    destRegionId: text(form.destRegion),
    destCompany: text(form.destCompany, CONNECTION_NAME_MAX),
    bandwidth: text(form.bandwidth, 12),
    classOfService:
      cos && (CLASSES_OF_SERVICE as readonly string[]).includes(cos)
        ? cos
        : DEFAULT_CLASS_OF_SERVICE,
    duration: text(form.duration, 12),
    durationUnit:
      unit && (LAYER2_DURATION_UNITS as readonly string[]).includes(unit)
        ? unit
        : LAYER2_DURATION_UNITS[0],
    evergreen: form.evergreen === true,
    name: text(form.name, CONNECTION_NAME_MAX),
  };
}

// ---------------------------------------------------------------------------------------------
// Ports, metros, data centers

export function isDeletedPort(port: Port): boolean {
  return port.deleted === true;
}

export function portDcfId(port: Port): string | undefined {
  return port.dataCenterFacilityId ?? port.dataCenterFacility?.id ?? undefined;
}

function dcfMetroId(dcf: Dcf): string | undefined {
  return dcf.dataCenterFacility?.metroId;
}

/** A metro's regions, named from its data centers' costbook locations where they say. */
export function metroRegions(metro: MetroCapability, dcfs: readonly Dcf[]): Region[] {
  const names = new Map<string, string>();
  for (const dcf of dcfs) {
    for (const region of dcf.costbookLocation?.regions ?? []) {
      if (region?.id && region.name) names.set(region.id, region.name);
    }
  }
  const ids = Array.isArray(metro.regionIds)
    ? metro.regionIds.filter((id): id is string => typeof id === "string" && id !== "")
    : [];
  return [...new Set(ids)].map((id) => {
    const name = names.get(id);
    return name ? { id, name } : { id };
  });
}

function problemOf(error: unknown, what: string): string {
  return isProviderError(error) ? error.userMessage : `Couldn't load ${what}; try again.`;
}

/** A part of the form's data: a failure becomes a problem shown where that part would be. */
async function loaded<T>(what: string, load: () => Promise<T>): Promise<Loaded<T>> {
  try {
    return { ok: true, value: await load() };
  } catch (error) {
    return { ok: false, problem: problemOf(error, what) };
  }
}

function isNotFound(error: unknown): boolean {
  return isProviderError(error) && error.kind === "http" && error.httpStatus === 404;
}

async function lookUpDestination(
  deps: Layer2Deps,
  identity: Identity,
  portId: string,
  opts: CallOptions,
): Promise<Loaded<Port>> {
  if (!recordId.safeParse(portId).success) {
    return {
      ok: false,
      problem: "That is not a port id: paste the id (letters and digits) of the destination port.",
    };
  }
  try {
    const port = await deps.provider.getPort(identity.companyUsername, portId, opts);
    if (isDeletedPort(port)) return { ok: false, problem: `Port ${portId} is deleted.` };
    return { ok: true, value: port };
  } catch (error) {
    if (isNotFound(error)) return { ok: false, problem: `No port has the id ${portId}.` };
    return { ok: false, problem: problemOf(error, "the destination port") };
  }
}

// ---------------------------------------------------------------------------------------------
// The price

function quoteKey(config: ConnectionPriceConfig, result: PricingResult): string {
  return createHash("sha256")
    .update(JSON.stringify([config, result.price ?? null, result.basicMonthlyAmount ?? null]))
    .digest("base64url")
    .slice(0, 22);
}

async function quote(
  deps: Layer2Deps,
  config: ConnectionPriceConfig,
  names: { src?: string; dest?: string },
  opts: CallOptions,
): Promise<Loaded<Layer2Quote>> {
  return loaded("the price", async () => {
    const result = await priceConnection(deps.provider, config, opts);
    return {
      config,
      result,
      srcDcf: { id: config.srcDcf, ...(names.src ? { name: names.src } : {}) },
      destDcf: { id: config.destDcf, ...(names.dest ? { name: names.dest } : {}) },
      key: quoteKey(config, result),
    };
  });
}

// ---------------------------------------------------------------------------------------------
// The loader

/**
 * Reads what the modal shows for these values: own ports always; for port-to-port the typed
 * destination port; for business-to-business the layer 2 metros, the chosen metro's data
 * centers and regions; then the price once its inputs are complete. A failed part becomes a
 * problem shown where that part would be; only the identity look-up can throw.
 */
export async function loadLayer2Modal(
  deps: Layer2Deps,
  form: Layer2Form,
  opts: CallOptions = {},
): Promise<Layer2ModalData> {
  const values = layer2Values(form);
  const identity = await deps.identity();
  const signal = opts.signal ? { signal: opts.signal } : {};
  const b2b = values.mode === "business-to-business";
  const metroId = values.destMetroId;

  const company =
    b2b && values.destCompany && USERNAME.test(values.destCompany) ? values.destCompany : undefined;
  const [ports, destination, metros, dcfs, companyCheck] = await Promise.all([
    loaded("your ports", async () =>
      (
        await deps.provider.listPorts(identity.companyUsername, { deleted: false, ...signal })
      ).filter((p) => typeof p?.id === "string" && !isDeletedPort(p)),
    ),
    !b2b && values.destPortId
      ? lookUpDestination(deps, identity, values.destPortId, signal)
      : Promise.resolve(undefined),
    b2b
      ? loaded("the metros", async () => {
          // The cached metro list is the metro capabilities call's answer (flows/dcf.ts).
          const all = (await companyMetros(deps, identity.companyUsername)) as MetroCapability[];
          const live = all.filter((m) => typeof m?.id === "string" && m.deleted !== true);
          return {
            layer2: live.filter((m) => m.capabilities?.layer2 === true),
            without: live.filter((m) => m.capabilities?.layer2 !== true),
          };
        })
      : Promise.resolve(undefined),
    b2b && metroId
      ? loaded("the data centers", async () =>
          (
            await deps.provider.listDcfs(
              { where: { "dataCenterFacility.metroId": metroId } },
              signal,
            )
          ).filter(
            // The filter's operators are not shown: whatever came back, keep the metro's own.
            (d) =>
              typeof d?.id === "string" &&
              dcfMetroId(d) === metroId &&
              !isDeletedDcf(d) &&
              isReady(d),
          ),
        )
      : Promise.resolve(undefined),
    company ? checkCompanyExists(deps.provider, company, signal) : Promise.resolve(undefined),
  ]);

  const source = ports.ok ? ports.value.find((p) => p.id === values.sourcePortId) : undefined;
  const metro =
    metros?.ok && metroId ? metros.value.layer2.find((m) => m.id === metroId) : undefined;
  const destDcf =
    dcfs?.ok && values.destDcfId ? dcfs.value.find((d) => d.id === values.destDcfId) : undefined;
  const regions = metro ? metroRegions(metro, dcfs?.ok ? dcfs.value : []) : undefined;

  const data: Layer2ModalData = {
    values,
    identity,
    ports,
    ...(source ? { source } : {}),
    ...(destination ? { destination } : {}),
    ...(metros ? { metros } : {}),
    ...(metro ? { metro } : {}),
    ...(dcfs ? { dcfs } : {}),
    ...(destDcf ? { destDcf } : {}),
    ...(regions ? { regions } : {}),
    ...(company && companyCheck
      ? { destCompanyCheck: { username: company, result: companyCheck } }
      : {}),
  };

  // The price needs both data centers, the bandwidth, the class of service and the term.
  const srcDcf = source ? portDcfId(source) : undefined;
  const dest = b2b
    ? destDcf
      ? { id: destDcf.id, name: destDcf.name }
      : undefined
    : destination?.ok
      ? {
          id: portDcfId(destination.value),
          name: destination.value.dataCenterFacility?.name,
        }
      : undefined;
  const bandwidth = wholeNumber(values.bandwidth);
  const duration = wholeNumber(values.duration);
  if (srcDcf && dest?.id && bandwidth !== undefined && duration !== undefined) {
    data.price = await quote(
      deps,
      {
        srcDcf,
        destDcf: dest.id,
        bandwidth,
        classOfService: values.classOfService as ConnectionPriceConfig["classOfService"],
        duration: { value: duration, unit: values.durationUnit },
      },
      { src: source?.dataCenterFacility?.name, dest: dest.name },
      signal,
    );
  }
  return data;
}

// ---------------------------------------------------------------------------------------------
// The submission

export type Layer2Errors = Partial<Record<Layer2Field, string>>;

export type Layer2Check =
  | { kind: "invalid"; errors: Layer2Errors }
  /** Valid, but the price was not shown for these inputs (or changed): show it, then resubmit. */
  | { kind: "review"; data: Layer2ModalData }
  | { kind: "ready"; submission: OrderSubmission; data: Layer2ModalData };

/**
 * Slack waits 3 s for a submission's answer; the provider gets 2 of them (two round trips: the
 * look-ups, then the price), leaving room for Redis, the network and the ack.
 */
export const LAYER2_SUBMIT_DEADLINE_MS = 2_000;

const STILL_OPEN_STATUSES = ["pending", "approved", "executing", "unknown"] as const;

/**
 * Names already used by the company's connections and IO-D services (on any of its ports) or by
 * a request still on its way: the name is how an order with an unknown outcome is found again.
 */
export async function takenNames(
  deps: Pick<Services, "approvals">,
  ports: readonly Port[],
): Promise<Set<string>> {
  const names = new Set<string>();
  for (const port of ports) {
    for (const connection of port.connections ?? []) {
      if (typeof connection?.name === "string") names.add(connection.name.trim().toLowerCase());
    }
  }
  const requests = await Promise.all(
    STILL_OPEN_STATUSES.map((status) => deps.approvals.store.findByStatus(status)),
  );
  for (const request of requests.flat()) {
    if ((request.kind === "layer2" || request.kind === "iod") && request.reconcileKey) {
      names.add(request.reconcileKey.trim().toLowerCase());
    }
  }
  return names;
}

const USERNAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

function rulePathToField(path: string, mode: Layer2Mode): Layer2Field {
  const p2p = mode === "port-to-port";
  switch (path.split(".")[0]) {
    case "name":
      return "name";
    case "portId":
      return "sourcePort";
    case "destPortId":
      return "destPort";
    case "destCompany":
      return p2p ? "destPort" : "destCompany";
    case "destMetroId":
      return p2p ? "destPort" : "destMetro";
    case "destDcf":
      return "destDcf";
    case "destRegionId":
      return "destRegion";
    case "duration":
      return "duration";
    case "durationUnit":
      return "durationUnit";
    case "classOfService":
      return "classOfService";
    case "speed":
      return "bandwidth";
    case "type":
      return "mode";
    case "evergreen":
      return "evergreen";
    default:
      return "name";
  }
}

function portLabel(port: Port): string {
  return `${port.name?.trim() || "Unnamed port"} (${port.id})`;
}

function placeOf(port: Port): string | undefined {
  const parts = [
    port.dataCenterFacility?.name,
    port.metro?.name ?? port.metro?.code ?? portMetroId(port),
  ].filter((p): p is string => typeof p === "string" && p !== "");
  return parts.length > 0 ? parts.join(", ") : undefined;
}

function metroText(metro: Port["metro"] | undefined, id: string): string {
  if (!metro) return id;
  const label = metro.name ? (metro.code ? `${metro.name} (${metro.code})` : metro.name) : id;
  return label === id ? id : `${label} · ${id}`;
}

function checkedCompany(username: string | undefined): string {
  return (username ?? "").toLowerCase();
}

function withId(name: string | undefined, id: string): string {
  return name ? `${name} (${id})` : id;
}

/** The sentence that says who a connection to another company waits on. */
export function waitsOnText(company: string): string {
  return `${company} must accept the connection. Until it does, the connection is PENDING: a normal wait on the other company, not a failure.`;
}

interface Checked {
  body: Record<string, unknown>;
  summary: OrderSubmission["summary"];
  destLabel: string;
}

function checkValues(
  data: Layer2ModalData,
  form: Layer2Form,
  taken: ReadonlySet<string>,
): { errors: Layer2Errors } | Checked {
  const errors: Layer2Errors = {};
  const { values, identity } = data;
  const mode = form.mode;
  if (mode !== "port-to-port" && mode !== "business-to-business") {
    errors.mode = "Choose port-to-port or business-to-business";
  }
  const b2b = values.mode === "business-to-business";

  // Source port: one of the company's own, listed ports.
  let source: Port | undefined;
  if (!data.ports.ok) errors.sourcePort = data.ports.problem;
  else if (!values.sourcePortId) errors.sourcePort = "Choose the source port";
  else if (!data.source) errors.sourcePort = "Pick one of your ports from the list";
  else source = data.source;

  // Destination.
  let destPort: Port | undefined;
  let destCompany: string | undefined;
  let destMetroId: string | undefined;
  let destMetro: MetroCapability | undefined;
  let region: Region | undefined;
  if (!b2b) {
    if (!values.destPortId) errors.destPort = "Enter the destination port id";
    else if (!data.destination?.ok) {
      errors.destPort = data.destination?.problem ?? "Enter the destination port id";
    } else {
      destPort = data.destination.value;
      destCompany = portCompanyUsername(destPort, identity);
      destMetroId = portMetroId(destPort);
      if (source && destPort.id === source.id) {
        errors.destPort = "The destination must be another port than the source";
      } else if (!destCompany) {
        errors.destPort = "The provider doesn't say which company owns this port; check the id";
      } else if (!destMetroId) {
        errors.destPort = "The provider doesn't say which metro this port is in; check the id";
      }
    }
  } else {
    if (!data.metros?.ok) {
      errors.destMetro = data.metros?.problem ?? "Choose the destination metro";
    } else if (!values.destMetroId) errors.destMetro = "Choose the destination metro";
    else if (!data.metro) {
      errors.destMetro = "Pick a metro from the list: only metros with layer 2 are offered";
    } else {
      destMetro = data.metro;
      destMetroId = data.metro.id;
    }
    if (destMetro) {
      if (!data.dcfs?.ok) errors.destDcf = data.dcfs?.problem ?? "Choose the data center";
      else if (!values.destDcfId) errors.destDcf = "Choose the destination data center";
      else if (!data.destDcf) {
        errors.destDcf = `Pick a data center in ${destMetro.name ?? "the chosen metro"} from the list`;
      }
      region = data.regions?.find((r) => r.id === values.destRegionId);
      if (!values.destRegionId) errors.destRegion = "Choose the destination region";
      else if (!region) {
        errors.destRegion = `Pick one of the regions of ${destMetro.name ?? "the chosen metro"}`;
      }
    }
    const typed = text(form.destCompany, CONNECTION_NAME_MAX);
    if (!typed) errors.destCompany = "Enter the username of the company you connect to";
    else if (!USERNAME.test(typed)) {
      errors.destCompany =
        "Destination company must be a company username (letters, digits, dots, dashes)";
    } else {
      destCompany = typed;
      if (
        data.destCompanyCheck?.username === typed &&
        data.destCompanyCheck.result === "not-found"
      ) {
        errors.destCompany = `The provider has no company with the username "${typed}": check it with the company (it is their provider username, not their name)`;
      }
    }
  }

  // Bandwidth within the free capacity of both ends.
  const bandwidth = wholeNumber(form.bandwidth);
  const free = source ? remainingCapacity(source) : undefined;
  const destFree = destPort ? remainingCapacity(destPort) : undefined;
  if (bandwidth === undefined) {
    const upTo =
      free !== undefined ? `up to ${formatMbps(free)}` : "up to the source port's free capacity";
    errors.bandwidth = `Bandwidth must be a whole number of Mbps, from 1 ${upTo}`;
  } else if (free !== undefined && bandwidth > free) {
    errors.bandwidth = `The source port has ${formatMbps(free)} left; choose ${formatMbps(free)} or less`;
  } else if (destFree !== undefined && bandwidth > destFree) {
    errors.bandwidth = `The destination port has ${formatMbps(destFree)} left; choose ${formatMbps(destFree)} or less`;
  }
  if (
    typeof form.classOfService !== "string" ||
    !(CLASSES_OF_SERVICE as readonly string[]).includes(form.classOfService)
  ) {
    errors.classOfService = `Class of service must be one of ${CLASSES_OF_SERVICE.join(", ")}`;
  }
  const duration = wholeNumber(form.duration);
  if (duration === undefined)
    errors.duration = "Duration must be a whole number of months, at least 1";
  if (
    typeof form.durationUnit !== "string" ||
    !(LAYER2_DURATION_UNITS as readonly string[]).includes(form.durationUnit)
  ) {
    errors.durationUnit = "Duration unit must be months";
  }
  if (typeof form.evergreen !== "boolean") errors.evergreen = "Evergreen must be ticked or not";

  const name = typeof form.name === "string" ? form.name.trim() : "";
  if (name !== "" && taken.has(name.toLowerCase())) {
    errors.name = `A connection or request named "${name}" already exists: choose another name`;
  }

  const body: Record<string, unknown> = {
    name: typeof form.name === "string" ? form.name.trim() : form.name,
    portId: source?.id ?? values.sourcePortId,
    ...(b2b
      ? {
          destCompany,
          destMetroId,
          destDcf: data.destDcf?.id ?? values.destDcfId,
          destRegionId: region?.id ?? values.destRegionId,
        }
      : { destPortId: destPort?.id ?? values.destPortId, destCompany, destMetroId }),
    duration,
    durationUnit: form.durationUnit,
    paymentType: LAYER2_PAYMENT_TYPE,
    classOfService: form.classOfService,
    speed: bandwidth,
    type: "LAYER2",
    evergreen: form.evergreen,
  };
  const rule = (b2b ? layer2BusinessToBusinessRule : layer2PortToPortRule).safeParse(body);
  if (!rule.success) {
    for (const [path, message] of Object.entries(fieldErrors(rule.error))) {
      const field = path === ROOT_FIELD ? "name" : rulePathToField(path, values.mode);
      errors[field] ??= message;
    }
  }
  if (Object.keys(errors).length > 0 || !rule.success || !source) return { errors };

  const checked = rule.data;
  const destLabel = b2b
    ? `${data.destDcf?.name ?? checked.destMetroId} (${destCompany})`
    : `${destPort?.name ?? checked.destPortId} (${destCompany})`;
  const other = b2b
    ? checkedCompany(destCompany) !== identity.companyUsername.toLowerCase()
    : destPort !== undefined && isOtherCompany(destPort, identity);
  const summary: OrderSubmission["summary"] = [
    {
      label: "Connection type",
      value: b2b
        ? "Business-to-business (destination chosen by metro, data center and region)"
        : "Port-to-port (both ports known)",
    },
    { label: "Connection name", value: checked.name },
    {
      label: "Source port",
      value: [portLabel(source), placeOf(source)].filter(Boolean).join(" · "),
    },
  ];
  if (!b2b && destPort) {
    summary.push({
      label: "Destination port",
      value: [portLabel(destPort), placeOf(destPort), formatSpeed(destPort.speed?.value)]
        .filter(Boolean)
        .join(" · "),
    });
  }
  const unchecked =
    b2b && data.destCompanyCheck?.result !== "exists"
      ? "; could not be checked at the provider"
      : "";
  summary.push({
    label: "Destination company",
    value: other
      ? `${checked.destCompany} (another company${unchecked})`
      : `${checked.destCompany} (yours)`,
  });
  summary.push({
    label: "Destination metro",
    value: metroText(b2b ? destMetro : destPort?.metro, checked.destMetroId),
  });
  if (b2b && checked.destDcf && checked.destRegionId) {
    summary.push({
      label: "Destination data center",
      value: withId(data.destDcf?.name, checked.destDcf),
    });
    summary.push({
      label: "Destination region",
      value: withId(region?.name, checked.destRegionId),
    });
  }
  summary.push(
    { label: "Bandwidth", value: formatMbps(checked.speed) },
    { label: "Class of service", value: checked.classOfService },
    { label: "Term", value: formatTerm(checked.duration, checked.durationUnit) },
    {
      label: "Evergreen",
      value: checked.evergreen ? "Yes: renews at the end of the term" : "No",
    },
    { label: "Payment", value: "Invoice" },
    { label: "Service type", value: "LAYER2" },
  );
  if (other) summary.push({ label: "Waits on", value: waitsOnText(checked.destCompany) });
  summary.push({ label: "Provider notice", value: LAYER2_NOTICE });
  return { body: checked, summary, destLabel };
}

/** Approval titles are one line of at most 300 characters. */
export function oneLine(text: string, max = 300): string {
  const line = text.replace(/[\r\n\t]+/g, " ");
  return line.length <= max ? line : `${line.slice(0, max - 1)}…`;
}

function finite(x: unknown): x is number {
  return typeof x === "number" && Number.isFinite(x);
}

function priceText(quote: Layer2Quote, currency: string): string {
  const term = formatTerm(quote.config.duration.value, quote.config.duration.unit);
  const monthly = formatMoney(
    quote.result.basicMonthlyAmount ?? quote.result.preAuthAmount,
    currency,
  );
  const total = `${formatMoney(quote.result.price, currency) ?? "no total given"} for ${term}`;
  return monthly !== undefined ? `${total} (${monthly} a month)` : total;
}

/**
 * Checks a submitted layer 2 form against fresh provider data, within `deadlineMs`. `shownPrice`
 * is the key of the price the modal showed: a different (or no) price means "show it first".
 */
export async function checkLayer2Submission(
  deps: Layer2Deps,
  input: {
    form: Layer2Form;
    shownPrice?: string;
    requester: OrderSubmission["requester"];
    /** The ISO 4217 code the price is labelled with (PRICE_CURRENCY). */
    currency: string;
    deadlineMs?: number;
  },
): Promise<Layer2Check> {
  let data: Layer2ModalData;
  let taken: Set<string>;
  try {
    data = await withDeadline(input.deadlineMs ?? LAYER2_SUBMIT_DEADLINE_MS, (signal) =>
      loadLayer2Modal(deps, input.form, { signal }),
    );
    taken = await takenNames(deps, data.ports.ok ? data.ports.value : []);
  } catch (error) {
    if (error instanceof DeadlineExceededError) {
      return {
        kind: "invalid",
        errors: { sourcePort: "The provider is slow to answer right now: press Submit again." },
      };
    }
    throw error;
  }
  const checked = checkValues(data, input.form, taken);
  if ("errors" in checked) return { kind: "invalid", errors: checked.errors };
  const price = data.price;
  if (!price?.ok) {
    const field: Layer2Field = data.values.mode === "business-to-business" ? "destDcf" : "destPort";
    return {
      kind: "invalid",
      errors: { [field]: `No price for this connection: ${price?.problem ?? "try again"}` },
    };
  }
  if (price.value.key !== input.shownPrice) return { kind: "review", data };

  const identity = data.identity;
  const body = checked.body;
  const name = String(body.name);
  return {
    kind: "ready",
    data,
    submission: {
      kind: "layer2",
      title: oneLine(
        // The approval message's header puts "Layer 2 connection: " in front: no second colon.
        `${name} — ${data.source?.name ?? body.portId} → ${checked.destLabel} · ${formatMbps(Number(body.speed))} ${String(body.classOfService)}`,
      ),
      summary: checked.summary,
      call: {
        operation: "createLayer2Connection",
        pathParams: { companyUsername: identity.companyUsername },
        body,
      },
      reconcileKey: name,
      price: {
        ...(finite(price.value.result.price) ? { total: price.value.result.price } : {}),
        ...(finite(price.value.result.basicMonthlyAmount)
          ? { monthly: price.value.result.basicMonthlyAmount }
          : {}),
        text: priceText(price.value, input.currency),
        ...termOf(body.duration, body.durationUnit),
      },
      requester: input.requester,
    },
  };
}
