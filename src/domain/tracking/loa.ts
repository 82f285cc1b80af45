/**
 * The LOA rules, one home for the three places that speak of the LOA: the tracker (src/jobs: it
 * reminds weekly while the LOA waits), `/connect order` (views/lookups/orders.ts: "Next LOA step") and
 * the placement message (src/orders/kinds.ts: "Next:"), and the port order form's preview
 * (src/usecases/portOrder/form.ts). When the LOA needs nothing more, how it will arrive (on-net,
 * provider-supplied, off-net) and the next step in words are decided here, so they cannot
 * disagree (test/domain/loa.test.ts feeds every known value through all of them). Pure.
 */

import type { components } from "../../provider/generated/provider.js";
import { isOffNet, isProviderSuppliedLoa } from "../catalog/dcfTags.js";
import { isSet } from "../timestamps.js";
import { isTerminalStatus, statusEnding, statusKey, type TrackTargetKind } from "./statuses.js";

type PortOrder = components["schemas"]["PortOrderRead"];

/**
 * LOA status values. The provider's specification shows only `TODO` (at creation); these plainly
 * mean "nothing to wait for". Anything else, unknown values included, is still waiting.
 */
export const SETTLED_LOA_STATUSES = [
  "done",
  "complete",
  "completed",
  "received",
  "approved",
  "uploaded",
  "accepted",
  "not_required",
  "n/a",
  "na",
] as const;

const LOA_SETTLED: ReadonlySet<string> = new Set(SETTLED_LOA_STATUSES);

/** True when the LOA step needs nothing more. */
export function isLoaSettled(loaStatus: string | null | undefined): boolean {
  return LOA_SETTLED.has(statusKey(loaStatus));
}

/** True when there is an LOA status and it still waits (a missing one waits on nothing). */
export function isLoaWaiting(loaStatus: string | null | undefined): boolean {
  if (typeof loaStatus !== "string" || loaStatus.trim() === "") return false;
  return !isLoaSettled(loaStatus);
}

/**
 * Whether the tracker reminds about the LOA at this read: the order still goes on (a terminal
 * status ends the tracker, and an order that did not go through has no LOA step) and its LOA
 * waits. `/connect order` and the placement message name an LOA step in exactly these cases.
 */
export function loaReminderDue(
  kind: TrackTargetKind,
  status: string | null | undefined,
  loaStatus: string | null | undefined,
): boolean {
  return !isTerminalStatus(kind, status) && isLoaWaiting(loaStatus);
}

/** The kind of DCF, which decides how the LOA for the cross connect arrives. */
export type LoaKind = "on-net" | "provider-supplied" | "off-net" | "unknown";

/**
 * How the order's LOA will arrive. Edge ports are off-net by definition; otherwise the embedded
 * DCF's tags tell. Without the DCF's tags there is no telling, and the view says so.
 */
export function loaKind(order: PortOrder): LoaKind {
  if (order.isEdgePort === true) return "off-net";
  const dcf = order.dataCenterFacility;
  const tags = dcf?.tags;
  const locationTags = dcf?.costbookLocation?.tags;
  if (isOffNet(tags) || isOffNet(locationTags)) return "off-net";
  if (!Array.isArray(tags)) return "unknown";
  if (isProviderSuppliedLoa(tags)) return "provider-supplied";
  return "on-net";
}

const LOA_STEPS: Record<LoaKind, string> = {
  "on-net":
    "On-net data center: the person who placed the order gets an email from the provider; upload the LOA in reply to it. The LOA is available in about 24 hours.",
  "provider-supplied":
    "The provider supplies the LOA: it uploads the LOA to the port, then you install the cross connect.",
  "off-net":
    "Off-net (extended) location: the provider orders the interconnect through a partner and forwards the partner's LOA — expect 4–6 weeks. It can also be downloaded from the port order.",
  unknown:
    "It depends on the data center, whose kind the order does not say. On-net: upload the LOA in reply to the order email (about 24 hours). Provider-supplied LOA: the provider uploads it. Off-net (extended): 4–6 weeks through a partner.",
};

/** Ended without a port: failed or cancelled (the status rules), or cancelled by its flags. */
function didNotGoThrough(order: PortOrder): boolean {
  const ending = statusEnding("port-order", order.status);
  return (
    order.cancelled === true ||
    isSet(order.cancelledAt) ||
    ending === "failed" ||
    ending === "cancelled"
  );
}

/** The next LOA step in words, or why there is none. */
export function nextLoaStep(order: PortOrder): string {
  if (didNotGoThrough(order)) return "None — the order did not go through.";
  if (isLoaSettled(order.loaStatus)) return "None — the LOA step is complete.";
  return LOA_STEPS[loaKind(order)];
}

/**
 * LOA status values that are placeholders, not a state a person knows: the provider's
 * specification answers a new order with `TODO` (no LOA yet). The sandbox's later values
 * (PENDING, RECEIVED, APPROVED) are plain words and shown as they came.
 */
const LOA_PLACEHOLDERS: Record<string, string> = {
  todo: "not issued yet",
  tbd: "not issued yet",
  none: "not issued yet",
  null: "not issued yet",
  "n/a": "not required",
  na: "not required",
  not_required: "not required",
};

/**
 * An LOA status in words a person understands ("TODO" is "not issued yet"), else the provider's
 * value as it came — plain text: a caller putting it into mrkdwn escapes it (views/format.ts's
 * loaStatusText); undefined when there is none.
 */
export function loaStatusWords(loaStatus: string | null | undefined): string | undefined {
  if (typeof loaStatus !== "string" || loaStatus.trim() === "") return undefined;
  const key = statusKey(loaStatus);
  return Object.hasOwn(LOA_PLACEHOLDERS, key) ? LOA_PLACEHOLDERS[key] : loaStatus;
}
