// The layer 2 form's shape: what the modal holds (raw), its values cleaned for showing again,
// and everything the modal shows (Layer2ModalData). The loader (load.ts), the checks (check.ts)
// and the submission (submission.ts) all speak these types; the view reads them too.

import type { ApprovalSettings } from "../../approvals/index.js";
import { CONNECTION_NAME_MAX } from "../../domain/catalog/connections.js";
import { CLASSES_OF_SERVICE } from "../../domain/catalog/requestFacts.js";
import type { Logger } from "../../log.js";
import type {
  ConnectionPriceConfig,
  Dcf,
  MetroCapability,
  Port,
  PricingResult,
  ProviderApi,
} from "../../provider/api.js";
import type { Identity, IdentityLookup } from "../../provider/identity.js";
import type { CompanyCheck } from "../companyCheck.js";
import { formText, type Loaded } from "../shared/orderForms.js";

/**
 * Layer 2 connections (`/connect l2`): port-to-port (both ports known) or business-to-business
 * (destination chosen by metro, data center and region). One loader reads everything the form
 * shows (own ports, the destination port, layer 2 metros, their data centers, the price); the
 * submission check runs the same loader again — never trusting what the modal showed — then
 * the provider's rules, capacity, name uniqueness and the price the person saw.
 */

export type Layer2Deps = {
  provider: ProviderApi;
  identity: IdentityLookup;
  logger: Logger;
  approvals: ApprovalSettings;
};

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
  /** What is wrong with the bandwidth typed so far (check.ts's rule); then no price is asked. */
  bandwidthProblem?: string;
  /** Undefined until the inputs that determine the price are complete. */
  price?: Loaded<Layer2Quote>;
}

// ---------------------------------------------------------------------------------------------
// Reading raw values

/** A whole number typed into a number input (at most 9 digits: nothing bigger is sensible). */
export function wholeNumber(x: unknown): number | undefined {
  const t = typeof x === "number" ? String(x) : formText(x, 12);
  if (t === undefined || !/^\d{1,9}$/.test(t)) return undefined;
  const n = Number(t);
  return n > 0 ? n : undefined;
}

function modeOf(x: unknown): Layer2Mode {
  return x === "business-to-business" ? "business-to-business" : "port-to-port";
}

export function layer2Values(form: Layer2Form): Layer2Values {
  const cos = formText(form.classOfService);
  const unit = formText(form.durationUnit);
  return {
    mode: modeOf(form.mode),
    sourcePortId: formText(form.sourcePort),
    destPortId: formText(form.destPort, 64),
    destMetroId: formText(form.destMetro),
    destDcfId: formText(form.destDcf),
    destRegionId: formText(form.destRegion),
    destCompany: formText(form.destCompany, CONNECTION_NAME_MAX),
    bandwidth: formText(form.bandwidth, 12),
    classOfService:
      cos && (CLASSES_OF_SERVICE as readonly string[]).includes(cos)
        ? cos
        : DEFAULT_CLASS_OF_SERVICE,
    duration: formText(form.duration, 12),
    durationUnit:
      unit && (LAYER2_DURATION_UNITS as readonly string[]).includes(unit)
        ? unit
        : LAYER2_DURATION_UNITS[0],
    evergreen: form.evergreen === true,
    name: formText(form.name, CONNECTION_NAME_MAX),
  };
}

/** A provider company username (what the destination company of business-to-business is). */
export const COMPANY_USERNAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;
