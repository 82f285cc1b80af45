// The port order submission checked again on the server (`/connect port order`): nothing the
// client sent is trusted, the DCF is looked up afresh, the port name must be new among the
// company's ports and its open requests, and the provider must price it. The result is the
// exact body to send once approved (submission.ts words it for the approvers).

import { type ApprovalStore, nameScope } from "../../approvals/index.js";
import { isReady } from "../../domain/catalog/dcfs.js";
import type { PortTerm } from "../../domain/catalog/portTerms.js";
import { speedMbps } from "../../domain/catalog/requestFacts.js";
import { withDeadline } from "../../domain/deadline.js";
import { DeadlineExceededError } from "../../domain/errors.js";
import type { CallOptions, Dcf, Port, PricingResult, ProviderApi } from "../../provider/api.js";
import type { Identity } from "../../provider/identity.js";
import { fieldErrors, ROOT_FIELD } from "../../provider/rules/fieldErrors.js";
import { type PortOrderBody, portOrderRule } from "../../provider/rules/portOrder.js";
import { isDeleted } from "../shared/dcfFacts.js";
import { type FormCheck, SUBMISSION_DEADLINE_MS } from "../shared/formChecks.js";
import { pricePort } from "../shared/prices.js";
import { userMessageOf } from "../shared/providerMessage.js";
import {
  type LoaPath,
  loaPathOf,
  type PortOrderErrors,
  type PortOrderField,
  type PortOrderForm,
  readPortOrderForm,
} from "./form.js";

// ---------------------------------------------------------------------------------------------
// Unique port names

/** Names compared as a person reads them: trimmed, ignoring case ("AMS-1" and "ams-1" clash). */
export function sameName(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.trim().toLowerCase();
}

/**
 * The port names held by requests (port and Edge orders share one namespace): the approvals'
 * one rule of which names are taken (src/approvals/names.ts, NAME_HOLDING_STATUSES), so a
 * request that was rejected, withdrawn or refused by the provider gives its name back.
 */
export async function requestedPortNames(
  store: Pick<ApprovalStore, "namesHeld">,
): Promise<string[]> {
  return [...(await store.namesHeld(nameScope("port")))];
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
