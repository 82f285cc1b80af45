// Time-driven progression, computed lazily from (createdAt, now): nothing is scheduled, so
// ten thousand tracked orders cost nothing until someone reads one.
import { DAY, HOUR, MINUTE } from "./clock.js";
import type { OrderKind, PortOrder, ServiceRecord } from "./model.js";

/**
 * LOA status values the sandbox uses (the spec shows only TODO):
 * TODO (nothing yet) → PENDING (LOA requested; on-net the customer uploads it, off-net a partner
 * supplies it) → RECEIVED (LOA in hand, cross connect being installed) → APPROVED (done).
 */
export const LOA_STATUSES = ["TODO", "PENDING", "RECEIVED", "APPROVED"] as const;

export interface OrderStage {
  status: string;
  loaStatus: string;
  /** Offset from the order's creation. */
  afterMs: number;
}

/** When the provider's administrator approves a new order. */
export const APPROVAL_AFTER_MS = 10 * MINUTE;

/** The stages an order of `kind` goes through; `loaDays` is that order's LOA wait. */
export function orderStages(kind: OrderKind, loaDays: number): OrderStage[] {
  const loaMs = loaDays * DAY;
  switch (kind) {
    case "ON_NET":
      // About 24 hours: approval, provisioning, the customer's LOA, then the cross connect.
      return [
        { status: "created", loaStatus: "TODO", afterMs: 0 },
        { status: "allocated", loaStatus: "PENDING", afterMs: APPROVAL_AFTER_MS },
        { status: "processing", loaStatus: "PENDING", afterMs: HOUR },
        { status: "processing", loaStatus: "RECEIVED", afterMs: 20 * HOUR },
        { status: "done", loaStatus: "APPROVED", afterMs: DAY },
      ];
    case "OFF_NET":
      // 4 to 6 weeks: the provider orders the interconnect through a partner and waits for its LOA.
      return [
        { status: "created", loaStatus: "TODO", afterMs: 0 },
        { status: "allocated", loaStatus: "PENDING", afterMs: APPROVAL_AFTER_MS },
        { status: "processing", loaStatus: "PENDING", afterMs: HOUR },
        { status: "processing", loaStatus: "RECEIVED", afterMs: loaMs },
        { status: "done", loaStatus: "APPROVED", afterMs: loaMs + DAY },
      ];
    case "EDGE":
      // Edge ports are provisioned by a partner's local loop: `loaDays` days after approval.
      return [
        { status: "created", loaStatus: "TODO", afterMs: 0 },
        { status: "allocated", loaStatus: "PENDING", afterMs: APPROVAL_AFTER_MS },
        { status: "activating", loaStatus: "RECEIVED", afterMs: loaMs },
        { status: "done", loaStatus: "APPROVED", afterMs: loaMs + 4 * HOUR },
      ];
  }
}

/** LOA wait in days for a new order: 4-6 weeks off-net, 1 day on-net, 5-10 days for Edge. */
export function loaDaysFor(kind: OrderKind, draw: () => number): number {
  switch (kind) {
    case "ON_NET":
      return 1;
    case "OFF_NET":
      return 28 + Math.floor(draw() * 15);
    case "EDGE":
      return 5 + Math.floor(draw() * 6);
  }
}

export interface OrderState {
  status: string;
  loaStatus: string;
  /** When the order reached its current status (sandbox ms). */
  sinceMs: number;
  /** True when the order is done, so its port exists. */
  done: boolean;
  /** When the order became done, if it did. */
  doneAtMs?: number;
}

export function orderStateAt(order: PortOrder, nowMs: number): OrderState {
  const stages = orderStages(order.kind, order.loaDays);
  let current = stages[0]!;
  for (const stage of stages) {
    if (nowMs - order.createdAtMs >= stage.afterMs) current = stage;
  }
  let state: OrderState = {
    status: current.status,
    loaStatus: current.loaStatus,
    sinceMs: order.createdAtMs + current.afterMs,
    done: current.status === "done",
  };
  if (order.override) {
    state = {
      status: order.override.status ?? state.status,
      loaStatus: order.override.loaStatus ?? state.loaStatus,
      sinceMs: order.override.atMs,
      done: (order.override.status ?? state.status) === "done",
    };
  }
  if (state.done) {
    const doneStage = stages[stages.length - 1]!;
    state.doneAtMs =
      order.override?.status === "done"
        ? order.override.atMs
        : order.createdAtMs + doneStage.afterMs;
  }
  return state;
}

/** When a created connection or IO-D service leaves CREATING. */
export const SERVICE_PROVISIONING_MS = 5 * MINUTE;
/** When the other company accepts a port-to-port layer 2 connection to its port. */
export const OTHER_COMPANY_ACCEPTS_MS = DAY;
/** When the other company accepts a business-to-business connection: days, not hours. */
export const BUSINESS_PARTNER_ACCEPTS_MS = 3 * DAY;
/** From ACCEPTED to ACTIVE: the provider sets up the accepted connection. */
export const ACCEPTED_TO_ACTIVE_MS = 5 * MINUTE;

/**
 * A connection whose name contains this word (any letter case) is denied by the other company
 * when it would have accepted: the playground's way to see a DENIED (sandbox README).
 */
export const DENY_WORD = "deny";

export interface ServiceStage {
  status: string;
  /** Offset from the service's creation. */
  afterMs: number;
}

/** A layer 2 connection sent to a data center and region rather than to a port. */
function isBusinessToBusiness(service: ServiceRecord): boolean {
  return service.kind === "LAYER2" && service.request.destPortId === undefined;
}

/**
 * The statuses a layer 2 connection or IO-D service goes through:
 * - IO-D, and layer 2 within the company: CREATING → (5 min) ACTIVE.
 * - Layer 2 that waits on another company: CREATING → (5 min) PENDING → ACCEPTED → (5 min)
 *   ACTIVE; the other company accepts after a day port-to-port, after 3 days
 *   business-to-business. A name containing "deny" is DENIED at that moment instead.
 */
export function serviceStages(service: ServiceRecord): ServiceStage[] {
  const creating = { status: "CREATING", afterMs: 0 };
  if (!service.awaitsOtherCompany) {
    return [creating, { status: "ACTIVE", afterMs: SERVICE_PROVISIONING_MS }];
  }
  const answerAt = isBusinessToBusiness(service)
    ? BUSINESS_PARTNER_ACCEPTS_MS
    : OTHER_COMPANY_ACCEPTS_MS;
  const pending = { status: "PENDING", afterMs: SERVICE_PROVISIONING_MS };
  if (service.name.toLowerCase().includes(DENY_WORD)) {
    return [creating, pending, { status: "DENIED", afterMs: answerAt }];
  }
  return [
    creating,
    pending,
    { status: "ACCEPTED", afterMs: answerAt },
    { status: "ACTIVE", afterMs: answerAt + ACCEPTED_TO_ACTIVE_MS },
  ];
}

/** The status of a layer 2 connection or IO-D service at `nowMs` (an admin override wins). */
export function serviceStatusAt(service: ServiceRecord, nowMs: number): string {
  if (service.override) return service.override.status;
  const age = nowMs - service.createdAtMs;
  let current = "CREATING";
  for (const stage of serviceStages(service)) {
    if (age >= stage.afterMs) current = stage.status;
  }
  return current;
}
