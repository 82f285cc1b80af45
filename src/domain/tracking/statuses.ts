/**
 * The status rules of everything the bot follows after ordering: which statuses end the wait
 * (and how) and which ones wait on someone (when an LOA needs nothing more: loa.ts). This module is their
 * one home: the tracker (src/jobs), the order views (views/lookups/orders.ts) and the provider's reading
 * helpers (src/provider/normalize.ts) ask it, so they cannot disagree. Pure; imports nothing.
 *
 * Values are the provider's documented ones (port orders lower case; ports and connections upper
 * case). Other values appear: they are not in these tables, end nothing and wait on nobody, and
 * callers show them as they came.
 */

/** What the tracker can follow: each kind is read by its own provider call. */
export type TrackTargetKind = "port-order" | "port" | "layer2" | "iod" | "edge-order";

export const TRACK_TARGET_KINDS: readonly TrackTargetKind[] = [
  "port-order",
  "port",
  "layer2",
  "iod",
  "edge-order",
];

/**
 * Each followed kind in people's words, one entry per kind: every surface that names what is
 * tracked (thread lines, `/connect track`, App Home, the command's answers) says it this way.
 * An Edge port order is named as the order form calls it (src/domain/orderKinds.ts).
 */
export const TRACK_TARGET_LABEL = {
  "port-order": "Port order",
  "edge-order": "Edge port order",
  port: "Port",
  layer2: "Layer 2 connection",
  iod: "IO-D service",
} as const satisfies Record<TrackTargetKind, string>;

/** The same, inside a sentence ("Tracking port order …"): names keep their capitals. */
export const TRACK_TARGET_NOUN = {
  "port-order": "port order",
  "edge-order": "Edge port order",
  port: "port",
  layer2: "layer 2 connection",
  iod: "IO-D service",
} as const satisfies Record<TrackTargetKind, string>;

export interface TrackTarget {
  kind: TrackTargetKind;
  id: string;
}

export function isTrackTargetKind(value: unknown): value is TrackTargetKind {
  return typeof value === "string" && (TRACK_TARGET_KINDS as readonly string[]).includes(value);
}

/** How a status ends the wait: it worked, it did not, or someone took it away. */
export type Ending = "success" | "failed" | "cancelled";

/**
 * Who a status waits on. `other-company`: the company at the far end of a layer 2 connection
 * must accept it; `partner`: a cloud or partner must; `provider`: the provider's people;
 * `customer`: the customer (e.g. the cross connect to a READY port).
 */
export type Awaited = "provider" | "customer" | "other-company" | "partner";

export interface StatusRule {
  ends?: Ending;
  waitsOn?: Awaited;
}

type StatusRules = Readonly<Record<string, StatusRule>>;

const PORT_ORDER: StatusRules = {
  // A new order waits until an administrator of the provider approves it.
  created: { waitsOn: "provider" },
  allocated: {},
  activating: {},
  progressing: {},
  processing: {},
  done: { ends: "success" },
  error: { ends: "failed" },
  cancelled: { ends: "cancelled" },
};

const PORT: StatusRules = {
  activating: {},
  // Allocated, waiting for the physical connection (the customer's cross connect).
  ready: { waitsOn: "customer" },
  active: { ends: "success" },
  disabling: {},
  disabled: { ends: "cancelled" },
  deleting: {},
  deleted: { ends: "cancelled" },
  unknown: {},
  onboarding: {},
};

// Layer 2 connections and IO-D services share the connection statuses (both are entries in a
// port's `connections`); an IO-D service never waits on another company, but a value is a value.
const CONNECTION: StatusRules = {
  creating: {},
  pending: { waitsOn: "other-company" },
  pending_acceptance: { waitsOn: "partner" },
  accepted: {},
  active: { ends: "success" },
  manual: { waitsOn: "provider" },
  error: { ends: "failed" },
  denied: { ends: "failed" },
  cancelled: { ends: "cancelled" },
  disabling: {},
  disabled: { ends: "cancelled" },
  deleting: {},
  deleted: { ends: "cancelled" },
};

const RULES = {
  "port-order": PORT_ORDER,
  "edge-order": PORT_ORDER,
  port: PORT,
  layer2: CONNECTION,
  iod: CONNECTION,
} satisfies Record<TrackTargetKind, StatusRules>;

/**
 * A status as a comparable key: trimmed, lower case, spaces and hyphens as "_" (the provider
 * writes PENDING_ACCEPTANCE; people and older records write "PENDING ACCEPTANCE").
 */
export function statusKey(status: string | null | undefined): string {
  return (status ?? "")
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}

export function sameStatus(a: string | undefined, b: string | undefined): boolean {
  return statusKey(a) === statusKey(b);
}

/** The rule of a known status of that kind, or undefined for a value the provider never listed. */
export function statusRule(kind: TrackTargetKind, status: string | null | undefined) {
  const key = statusKey(status);
  const rules: StatusRules = RULES[kind];
  return Object.hasOwn(rules, key) ? rules[key] : undefined;
}

export function isKnownStatus(kind: TrackTargetKind, status: string | null | undefined): boolean {
  return statusRule(kind, status) !== undefined;
}

/** How this status ends the wait, or undefined while it goes on (unknown values included). */
export function statusEnding(
  kind: TrackTargetKind,
  status: string | null | undefined,
): Ending | undefined {
  return statusRule(kind, status)?.ends;
}

export function isTerminalStatus(
  kind: TrackTargetKind,
  status: string | null | undefined,
): boolean {
  return statusEnding(kind, status) !== undefined;
}

/** Who this status waits on, if anyone. */
export function statusWaitsOn(
  kind: TrackTargetKind,
  status: string | null | undefined,
): Awaited | undefined {
  return statusRule(kind, status)?.waitsOn;
}

/** True while the status waits on another company, a cloud or a partner to accept. */
export function waitsOnAcceptance(
  kind: TrackTargetKind,
  status: string | null | undefined,
): boolean {
  const awaited = statusWaitsOn(kind, status);
  return awaited === "other-company" || awaited === "partner";
}

/** Every known status of a kind, as keys (tests feed each through every user of these rules). */
export function knownStatusKeys(kind: TrackTargetKind): string[] {
  return Object.keys(RULES[kind]);
}
