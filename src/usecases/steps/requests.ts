// The two request steps (`request_port_order`, `request_layer2_connection`): the step's inputs
// checked exactly as `/connect port order` and `/connect l2` check their forms (the same use
// cases: checkPortOrder, checkLayer2Submission), into the same OrderSubmission the forms hand to
// approval — or one error naming the problem, and nothing is stored.

import type { ApprovalSettings } from "../../approvals/index.js";
import { formatMbps } from "../../domain/units.js";
import type { OrderSubmission } from "../../orders/index.js";
import type { Dcf, Port, ProviderApi } from "../../provider/api.js";
import type { IdentityLookup } from "../../provider/identity.js";
import { DEFAULT_CLASS_OF_SERVICE, type Layer2Deps, type Layer2Form } from "../layer2/form.js";
import { checkLayer2Submission } from "../layer2/submission.js";
import { checkPortOrder, requestedPortNames, sameName } from "../portOrder/check.js";
import { portOrderSubmission } from "../portOrder/submission.js";
import { isDeletedPort } from "../shared/orderForms.js";
import { userMessageOf } from "../shared/providerMessage.js";
import { findStepDcf } from "./dataCenters.js";
import type { RequestLayer2Inputs, RequestPortOrderInputs } from "./inputs.js";
import { resolveB2bDestination, splitB2bDestination } from "./layer2Destination.js";
import { PORT_TERM_PROBLEM, portTermOfMonths } from "./pricing.js";

/**
 * A step is acked at once and has no 3-second answer to keep, but a hung provider must still
 * not hold a step's run for ever: the run history then says to run it again.
 */
export const STEP_CHECK_DEADLINE_MS = 15_000;

export type StepCheck = { ok: true; submission: OrderSubmission } | { ok: false; error: string };

/** Form field errors as one sentence, each named as the step's input is. */
function joined(errors: Partial<Record<string, string>>, names: Record<string, string>): string {
  return Object.entries(errors)
    .filter((entry): entry is [string, string] => typeof entry[1] === "string")
    .map(([field, message]) => `${names[field] ?? field}: ${message}`)
    .join("; ");
}

const PORT_FIELD_NAMES: Record<string, string> = {
  dcf: "Data center",
  speed: "Speed",
  term: "Term",
  portName: "Port name",
};

export async function checkPortOrderStep(
  services: {
    provider: ProviderApi;
    identity: IdentityLookup;
    approvals: ApprovalSettings;
    currency: string;
  },
  inputs: RequestPortOrderInputs,
  deadlineMs = STEP_CHECK_DEADLINE_MS,
): Promise<StepCheck> {
  const term = portTermOfMonths(inputs.term_months);
  if (!term) return { ok: false, error: PORT_TERM_PROBLEM(inputs.term_months) };
  const found = await findStepDcf(services.provider, inputs.data_center, {
    speedMbps: inputs.speed_mbps,
  });
  if (!found.ok) return found;
  const check = await checkPortOrder(
    {
      provider: services.provider,
      identity: services.identity,
      requestedNames: () => requestedPortNames(services.approvals.store),
    },
    {
      dcf: found.dcf.id,
      speed: String(inputs.speed_mbps),
      term: `${inputs.term_months}m`,
      portName: inputs.port_name,
    },
    deadlineMs,
  );
  if (!check.ok) {
    // The form says "choose one of the speeds listed"; a step has no list: name them.
    const errors = { ...check.errors };
    if (errors.speed) errors.speed = speedProblem(found.dcf, inputs.speed_mbps) ?? errors.speed;
    return { ok: false, error: joined(errors, PORT_FIELD_NAMES) };
  }
  return {
    ok: true,
    submission: portOrderSubmission(
      check.value,
      { userId: inputs.requester, ...(inputs.channel ? { channelId: inputs.channel } : {}) },
      services.currency,
    ),
  };
}

function speedProblem(dcf: Dcf, mbps: number): string | undefined {
  const speeds = dcf.dataCenterFacility?.speeds;
  const offered = Array.isArray(speeds) ? speeds.map(Number).filter(Number.isFinite) : [];
  if (offered.length === 0 || offered.includes(mbps)) return undefined;
  const list = offered.sort((a, b) => a - b).map(formatMbps);
  return `${dcf.name ?? dcf.username ?? dcf.id} does not offer ${formatMbps(mbps)}: choose one of ${list.join(", ")}`;
}

const LAYER2_FIELD_NAMES: Record<string, string> = {
  mode: "Destination",
  sourcePort: "Source port",
  destPort: "Destination",
  destMetro: "Destination",
  destDcf: "Destination",
  destRegion: "Destination",
  destCompany: "Destination",
  bandwidth: "Bandwidth",
  classOfService: "Class of service",
  duration: "Term",
  durationUnit: "Term",
  evergreen: "Evergreen",
  name: "Connection name",
};

/** One of the company's ports by id or by name (names compared as a person reads them). */
function portNamed(ports: readonly Port[], text: string): Port | undefined {
  return (
    ports.find((p) => p.id === text) ??
    ports.find((p) => typeof p.name === "string" && sameName(p.name, text))
  );
}

/**
 * A layer 2 connection from a step. The destination is one of the company's ports (by id or
 * name), another port's id (port-to-port, as `/connect l2` takes it), or another company's data
 * center written "<company username> @ <data center>" (business-to-business: the company, metro,
 * data center and region the form asks for, resolved by layer2Destination.ts).
 */
export async function checkLayer2Step(
  deps: Layer2Deps & { currency: string },
  inputs: RequestLayer2Inputs,
  deadlineMs = STEP_CHECK_DEADLINE_MS,
): Promise<StepCheck> {
  let ports: Port[];
  try {
    const { companyUsername } = await deps.identity();
    ports = (await deps.provider.listPorts(companyUsername, { deleted: false })).filter(
      (p) => !isDeletedPort(p),
    );
  } catch (error) {
    return { ok: false, error: `Couldn't read your ports: ${userMessageOf(error)}` };
  }
  const source = portNamed(ports, inputs.source_port);
  if (!source) {
    return {
      ok: false,
      error: `Source port: your company has no port with the id or name "${inputs.source_port}"`,
    };
  }
  const destination = await layer2Destination(deps, ports, inputs.destination);
  if (!destination.ok) return destination;
  const form: Layer2Form = {
    ...destination.value,
    sourcePort: source.id,
    bandwidth: String(inputs.bandwidth_mbps),
    classOfService: DEFAULT_CLASS_OF_SERVICE,
    duration: String(inputs.term_months),
    durationUnit: "m",
    evergreen: false,
    name: inputs.connection_name,
  };
  const requester = {
    userId: inputs.requester,
    ...(inputs.channel ? { channelId: inputs.channel } : {}),
  };
  const first = await checkLayer2Submission(deps, {
    form,
    requester,
    currency: deps.currency,
    deadlineMs,
  });
  // No form shows a step its price first: the price checked now is the one approved (the
  // approval message shows it to the approvers).
  const check =
    first.kind === "review" && first.data.price?.ok
      ? await checkLayer2Submission(deps, {
          form,
          requester,
          currency: deps.currency,
          deadlineMs,
          shownPrice: first.data.price.value.key,
        })
      : first;
  if (check.kind === "ready") return { ok: true, submission: check.submission };
  if (check.kind === "invalid")
    return { ok: false, error: joined(check.errors, LAYER2_FIELD_NAMES) };
  return { ok: false, error: "The provider's price changed while checking; run the step again" };
}

/** The destination's half of the layer 2 form: port-to-port or business-to-business. */
async function layer2Destination(
  deps: Layer2Deps,
  ports: readonly Port[],
  text: string,
): Promise<{ ok: true; value: Layer2Form } | { ok: false; error: string }> {
  const own = portNamed(ports, text);
  const b2b = own ? undefined : splitB2bDestination(text);
  if (b2b) {
    const resolved = await resolveB2bDestination(deps, b2b);
    if (!resolved.ok) return resolved;
    return { ok: true, value: { mode: "business-to-business", ...resolved.value } };
  }
  const destination = own?.id ?? text;
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(destination)) {
    return {
      ok: false,
      error: `Destination: "${text}" is neither one of your ports nor a port id, nor another company's data center written <company username> @ <data center>`,
    };
  }
  return { ok: true, value: { mode: "port-to-port", destPort: destination } };
}
