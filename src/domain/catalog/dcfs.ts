/**
 * What a data center facility (DCF) offers: its speeds, whether it is ready, how a form refers to
 * it, and the shortest text worth searching for. Used by the pricing and port order use cases
 * (src/usecases/pricing/, portOrder.ts) and their forms (views/). Pure.
 */

import type { components } from "../../provider/generated/provider.js";

type Dcf = components["schemas"]["DataCenterFacility"];

import { dcfSpeedsMbps } from "./requestFacts.js";

/** The DCF's valid speeds in Mbps (element shape not shown by the spec). */
export function offeredSpeeds(dcf: Dcf): number[] {
  const speeds = dcf.dataCenterFacility?.speeds;
  return Array.isArray(speeds) ? dcfSpeedsMbps(speeds) : [];
}

/** False only when the provider says the DCF is not ready (an unknown readiness may price). */
export function isReady(dcf: Dcf): boolean {
  return dcf.dataCenterFacility?.ready !== false;
}

/** A reference to a DCF in a select option's value: `id|username` (Slack allows 150 chars). */
export function dcfRef(dcf: Pick<Dcf, "id" | "username">): string {
  const full = `${dcf.id}|${dcf.username ?? ""}`;
  return full.length <= 150 ? full : dcf.id;
}

/** Shortest text worth searching for (an airport code is three letters; "LD" finds London). */
export const DCF_SEARCH_MIN = 2;
