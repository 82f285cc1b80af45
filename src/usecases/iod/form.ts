// The IO-D form's shape: what the modal holds (raw), its values cleaned for showing again (never
// the BGP key) and everything the modal shows (IodModalData). The loader (load.ts) and the
// submission (submission.ts) speak these types; the view reads them too.

import type { ApprovalSettings } from "../../approvals/index.js";
import {
  IOD_ASN_CHOICES,
  type IodAsnChoice,
  IPV6_OFF,
  SERVICE_NAME_MAX,
} from "../../domain/catalog/iod.js";
import type { Logger } from "../../log.js";
import type { Asn, Port, ProviderApi } from "../../provider/api.js";
import type { Identity, IdentityLookup } from "../../provider/identity.js";
import { formText, type Loaded } from "../shared/orderForms.js";

/**
 * Internet On-Demand (`/connect iod`): an IO-D service on one of the company's IO-D enabled
 * ports, with DYNAMIC (BGP) or STATIC routing and a private or public ASN. The form offers only
 * what the spec's IO-D rules allow; the submission is checked again against fresh provider data
 * and `giaServiceRule`. The BGP key goes into the provider call and nowhere else: the summary
 * says "set (hidden)".
 */

export type IodDeps = {
  provider: ProviderApi;
  identity: IdentityLookup;
  logger: Logger;
  approvals: ApprovalSettings;
};

export const IOD_ROUTINGS = ["DYNAMIC", "STATIC"] as const;
export type IodRouting = (typeof IOD_ROUTINGS)[number];

export const GEO_CITY_MAX = 100;

/** What the modal holds, as raw as it arrived. */
export interface IodForm {
  accessPort?: unknown;
  routing?: unknown;
  asnChoice?: unknown;
  privateAsn?: unknown;
  publicAsn?: unknown;
  bgpKey?: unknown;
  ipBlock?: unknown;
  ipv6?: unknown;
  rateLimit?: unknown;
  duration?: unknown;
  geoCountry?: unknown;
  geoCity?: unknown;
  name?: unknown;
}
export type IodField = keyof IodForm;

/** The values to show again when the modal is rebuilt. Never the BGP key. */
export interface IodValues {
  accessPortId?: string;
  routing: IodRouting;
  asnChoice?: IodAsnChoice;
  privateAsn?: string;
  publicAsnId?: string;
  ipBlock?: string;
  ipv6: string;
  rateLimit?: string;
  duration?: string;
  geoCountry?: string;
  geoCity?: string;
  name?: string;
}

export type IodCapability =
  | { kind: "enabled" }
  | { kind: "not-enabled" }
  | { kind: "unknown"; problem: string };

export interface IodModalData {
  values: IodValues;
  identity: Identity;
  /** The company's ports with free capacity (the only ones an IO-D service can use). */
  ports: Loaded<Port[]>;
  port?: Port;
  capability?: IodCapability;
  /**
   * Whether each listed port is IO-D enabled, by port id (the port list does not say; each
   * port's info does). The form lists enabled ports first and marks the others (issue 32,
   * item 15); a port whose info could not be read is absent.
   */
  enabled?: ReadonlyMap<string, boolean>;
  /** DYNAMIC only: the provider's suggestion (undefined when it could not be had). */
  suggestedAsn?: number;
  /** DYNAMIC only: the company's verified public ASNs. */
  publicAsns?: Loaded<Asn[]>;
  /** The ASN choice in effect (what the form shows selected). */
  asnChoice?: IodAsnChoice;
}

// ---------------------------------------------------------------------------------------------
// Reading raw values

export function whole(x: unknown, digits = 9): number | undefined {
  const t = typeof x === "number" ? String(x) : formText(x, 12);
  if (t === undefined || !new RegExp(`^\\d{1,${digits}}$`).test(t)) return undefined;
  return Number(t);
}

function routingOf(x: unknown): IodRouting {
  return x === "STATIC" ? "STATIC" : "DYNAMIC";
}

export function asnChoiceOf(x: unknown): IodAsnChoice | undefined {
  return (IOD_ASN_CHOICES as readonly unknown[]).includes(x) ? (x as IodAsnChoice) : undefined;
}

export function iodValues(form: IodForm): IodValues {
  const asnChoice = asnChoiceOf(form.asnChoice);
  return {
    accessPortId: formText(form.accessPort),
    routing: routingOf(form.routing),
    ...(asnChoice ? { asnChoice } : {}),
    privateAsn: formText(form.privateAsn, 12),
    publicAsnId: formText(form.publicAsn),
    ipBlock: formText(form.ipBlock, 4),
    ipv6: formText(form.ipv6, 4) ?? IPV6_OFF,
    rateLimit: formText(form.rateLimit, 12),
    duration: formText(form.duration, 12),
    geoCountry: formText(form.geoCountry, 10),
    geoCity: formText(form.geoCity, GEO_CITY_MAX),
    name: formText(form.name, SERVICE_NAME_MAX),
  };
}

/** The verified public ASNs of a listing: the filter is the provider's, checked again here. */
export function verifiedPublicAsns(asns: readonly Asn[]): Asn[] {
  return asns.filter(
    (a) => typeof a?.id === "string" && a.private !== true && a.status === "VERIFIED",
  );
}
