// The layer 2 form's checks: a submitted form against the freshly loaded data (load.ts) and
// the provider's layer 2 rules, capacity and taken names; what passes becomes the checked
// provider body and the summary the approver reads.
import {
  CONNECTION_BANDWIDTH_MAX_MBPS,
  CONNECTION_NAME_MAX,
  isOtherCompany,
  LAYER2_NOTICE,
  portCompanyUsername,
  portMetroId,
  remainingCapacity,
} from "../../domain/catalog/connections.js";
import { CLASSES_OF_SERVICE } from "../../domain/catalog/requestFacts.js";
import { MAX_TERM_MONTHS, maxTermText } from "../../domain/catalog/terms.js";
import { formatMbps, formatSpeed, formatTerm } from "../../domain/units.js";
import type { OrderSubmission } from "../../orders/index.js";
import type { MetroCapability, Port } from "../../provider/api.js";
import { layer2BusinessToBusinessRule, layer2PortToPortRule } from "../../provider/rules/layer2.js";
import { addRuleErrors, formText, portLabel, takenName } from "../shared/orderForms.js";
import {
  COMPANY_USERNAME,
  LAYER2_DURATION_UNITS,
  LAYER2_PAYMENT_TYPE,
  type Layer2Field,
  type Layer2Form,
  type Layer2ModalData,
  type Layer2Mode,
  type Region,
  wholeNumber,
} from "./form.js";

export type Layer2Errors = Partial<Record<Layer2Field, string>>;

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

/** The most a connection can carry, and the port that sets it (none: the fastest port's speed). */
interface BandwidthLimit {
  mbps: number;
  port?: string;
}

function bandwidthLimit(ends: { source?: Port | undefined; destination?: Port | undefined }) {
  // The fastest port sold caps it even when a port says nothing of its capacity.
  let limit: BandwidthLimit = { mbps: CONNECTION_BANDWIDTH_MAX_MBPS };
  for (const port of [ends.source, ends.destination]) {
    const free = port ? remainingCapacity(port) : undefined;
    if (port && free !== undefined && free < limit.mbps) {
      limit = { mbps: free, port: port.name?.trim() || port.id };
    }
  }
  return limit;
}

/**
 * What is wrong with a typed layer 2 bandwidth, said next to the field, or undefined when it
 * fits: a whole number of Mbps, at least 1, at most what the source port (and, port to port,
 * the destination port) has free. One rule for the form's change — which asks no price for a
 * bandwidth that fails it, so the provider's refusal is never what the person reads — and the
 * submission.
 */
export function bandwidthProblem(
  typed: unknown,
  ends: { source?: Port | undefined; destination?: Port | undefined },
): string | undefined {
  const limit = bandwidthLimit(ends);
  if (limit.port !== undefined && limit.mbps < 1) {
    return `${limit.port} has no free capacity: no bandwidth fits; choose another port`;
  }
  const why =
    limit.port !== undefined
      ? `the free capacity of ${limit.port}`
      : "the speed of the fastest port";
  const mbps = wholeNumber(typed);
  if (mbps === undefined) {
    return `Bandwidth must be a whole number of Mbps, from 1 to ${formatMbps(limit.mbps)} (${why})`;
  }
  if (mbps > limit.mbps) return `Bandwidth must be at most ${formatMbps(limit.mbps)}: ${why}`;
  return undefined;
}

export interface Checked {
  body: Record<string, unknown>;
  summary: OrderSubmission["summary"];
  destLabel: string;
}

export function checkValues(
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
    const typed = formText(form.destCompany, CONNECTION_NAME_MAX);
    if (!typed) errors.destCompany = "Enter the username of the company you connect to";
    else if (!COMPANY_USERNAME.test(typed)) {
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

  // Bandwidth within the free capacity of both ends: the rule the form's change asks too.
  const bandwidth = wholeNumber(form.bandwidth);
  const bandwidthWrong = bandwidthProblem(form.bandwidth, { source, destination: destPort });
  if (bandwidthWrong) errors.bandwidth = bandwidthWrong;
  if (
    typeof form.classOfService !== "string" ||
    !(CLASSES_OF_SERVICE as readonly string[]).includes(form.classOfService)
  ) {
    errors.classOfService = `Class of service must be one of ${CLASSES_OF_SERVICE.join(", ")}`;
  }
  const duration = wholeNumber(form.duration);
  if (duration === undefined)
    errors.duration = `Duration must be a whole number of months, from 1 to ${MAX_TERM_MONTHS}`;
  else if (duration > MAX_TERM_MONTHS)
    errors.duration = `Duration must be at most ${maxTermText("months")}`;
  if (
    typeof form.durationUnit !== "string" ||
    !(LAYER2_DURATION_UNITS as readonly string[]).includes(form.durationUnit)
  ) {
    errors.durationUnit = "Duration unit must be months";
  }
  if (typeof form.evergreen !== "boolean") errors.evergreen = "Evergreen must be ticked or not";

  const name = takenName(form.name, taken);
  if (name) {
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
    addRuleErrors(errors, rule.error, (path) => rulePathToField(path, values.mode), "name");
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
