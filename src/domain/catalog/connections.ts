/**
 * Layer 2 connections and the ports they join: the limits a request must keep (name, bandwidth,
 * term units), the provider's notice, and what a port tells (free capacity, metro, owning
 * company). Used by the use cases (src/usecases/layer2/, src/usecases/iod/, src/usecases/pricing/) and
 * the forms (views/). Pure.
 */

import type { components } from "../../provider/generated/provider.js";

type Port = components["schemas"]["Port"];

/** Who the bot acts as, as far as a port's owner goes (src/provider/identity.ts's Identity has these). */
export interface CompanyRef {
  companyId: string;
  companyUsername: string;
}

/** Connection term units (docs/provider/provider-api.md: "m or w shown"). */
export const CONNECTION_DURATION_UNITS = ["m", "w"] as const;

export type ConnectionDurationUnit = (typeof CONNECTION_DURATION_UNITS)[number];

/**
 * A connection can't carry more than its ports: 100 Gbps is the fastest port speed sold (the
 * sandbox's rate card stops there too). Checked here, next to the field, rather than left to the
 * provider, whose refusal would only come after the form has closed.
 */
export const CONNECTION_BANDWIDTH_MAX_MBPS = 100_000;

export const CONNECTION_NAME_MAX = 100;

/** Versioning §3 of the spec, said wherever a layer 2 connection is requested. */
export const LAYER2_NOTICE =
  "The provider has announced that its layer 2 integration is going to change; integrators with current or planned layer 2 work are asked to contact its support.";

/** Free capacity in Mbps: `capacity.remaining`, else the port speed when nothing is said. */
export function remainingCapacity(port: Port): number | undefined {
  const remaining = port.capacity?.remaining;
  if (typeof remaining === "number" && Number.isFinite(remaining)) return Math.max(0, remaining);
  const speed = port.speed?.value;
  return typeof speed === "number" && Number.isFinite(speed) ? speed : undefined;
}

export function portMetroId(port: Port): string | undefined {
  return port.metroId ?? port.metro?.id ?? port.dataCenterFacility?.dataCenterFacility?.metroId;
}

/** The username of the company owning a port (the `destCompany` of a port-to-port request). */
export function portCompanyUsername(port: Port, identity: CompanyRef): string | undefined {
  if (port.company?.username) return port.company.username;
  return port.companyId && port.companyId === identity.companyId
    ? identity.companyUsername
    : undefined;
}

export function isOtherCompany(port: Port, identity: CompanyRef): boolean {
  const username = portCompanyUsername(port, identity);
  return port.companyId !== undefined
    ? port.companyId !== identity.companyId
    : username !== undefined && username !== identity.companyUsername;
}
