import {
  isTrackTargetKind,
  TRACK_TARGET_KINDS,
  type TrackTarget,
} from "../../domain/tracking/statuses.js";
import type { OrderKind, OrderSnapshot } from "../../domain/tracking/trackedOrder.js";
import { CHANNEL_ID, MESSAGE_TS } from "../../jobs/slackIds.js";
import { isOrderTarget, ORDER_KINDS } from "./records.js";

/**
 * What goes into a tracker, checked: a `track()` call (refused with TrackInputError when it
 * is malformed, before anything is written) and each answer of the injected reader (a read
 * without a status is a failed read that backs off, never a crash of the step).
 */

/** What a reader answers for a target, normalised (raw: the provider's record, for logs). */
export interface TargetRead extends OrderSnapshot {
  raw?: unknown;
}

/** A port order as read for tracking (the older name of a target read). */
export type OrderRead = TargetRead;

/** Reads a port order (GET /api/company/{companyName}/ports/orders/{orderId}). */
export type ReadOrder = (companyName: string, orderId: string) => Promise<OrderRead>;

/** Reads any tracked target; throws when it cannot (the step backs off and tries again). */
export type ReadTarget = (target: TrackTarget, companyName: string) => Promise<TargetRead>;

export interface TrackInput {
  /** What to follow. Without it, `orderId` names a port order (or an Edge one with kind edge). */
  target?: TrackTarget;
  orderId?: string;
  companyName: string;
  channel: string;
  threadTs: string;
  /** A message to keep up to date with the status; without one, the tracker posts its own. */
  statusMessageTs?: string;
  /** The Slack user who asked (the owner: may stop it; gets the partner reminders). */
  requestedBy: string;
  /** A port order's LOA flavour (on-net, off-net, edge); ignored for other targets. */
  kind?: OrderKind;
  /** The company a layer 2 connection waits on (its destCompany), named while it waits. */
  counterparty?: string;
  /** The caller's own reference (an approval request's id), handed back to the observer. */
  ref?: string;
}

export class TrackInputError extends Error {
  override readonly name = "TrackInputError";
}

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const USER_PATTERN = /^[UWB][A-Z0-9]{2,40}$/;

/** The target and LOA flavour of a track() call; refuses bad input with a clear message. */
export function resolveTrackInput(input: TrackInput): { target: TrackTarget; kind: OrderKind } {
  if (input.target !== undefined && input.orderId !== undefined) {
    throw new TrackInputError("give either target or orderId, not both");
  }
  let target: TrackTarget;
  if (input.target !== undefined) {
    const given = input.target as Partial<TrackTarget> | null;
    if (!isTrackTargetKind(given?.kind)) {
      throw new TrackInputError(`target.kind must be one of ${TRACK_TARGET_KINDS.join(", ")}`);
    }
    if (!ID_PATTERN.test(given?.id ?? "")) {
      throw new TrackInputError("target.id must be 1–128 letters, digits, '.', '_', ':' or '-'");
    }
    target = { kind: given.kind, id: given.id as string };
  } else {
    if (!ID_PATTERN.test(input.orderId ?? "")) {
      throw new TrackInputError("orderId must be 1–128 letters, digits, '.', '_', ':' or '-'");
    }
    target = { kind: input.kind === "edge" ? "edge-order" : "port-order", id: input.orderId! };
  }
  if (typeof input.companyName !== "string" || input.companyName.trim() === "") {
    throw new TrackInputError("companyName is required");
  }
  if (input.companyName.length > 200) throw new TrackInputError("companyName is too long");
  if (!CHANNEL_ID.test(input.channel ?? "")) {
    throw new TrackInputError("channel must be a Slack channel ID");
  }
  if (!MESSAGE_TS.test(input.threadTs ?? "")) {
    throw new TrackInputError("threadTs must be a Slack message ts");
  }
  if (input.statusMessageTs !== undefined && !MESSAGE_TS.test(input.statusMessageTs)) {
    throw new TrackInputError("statusMessageTs must be a Slack message ts");
  }
  if (!USER_PATTERN.test(input.requestedBy ?? "")) {
    throw new TrackInputError("requestedBy must be a Slack user ID");
  }
  if (input.kind !== undefined && !ORDER_KINDS.includes(input.kind)) {
    throw new TrackInputError(`kind must be one of ${ORDER_KINDS.join(", ")}`);
  }
  if (
    input.counterparty !== undefined &&
    (typeof input.counterparty !== "string" || input.counterparty.length > 200)
  ) {
    throw new TrackInputError("counterparty must be a company name of at most 200 characters");
  }
  if (input.ref !== undefined && !ID_PATTERN.test(input.ref)) {
    throw new TrackInputError("ref must be an id (letters, digits, ._:-; at most 128)");
  }
  if (target.kind === "port-order" && input.kind === "edge") {
    throw new TrackInputError("an Edge order is tracked as an edge-order target");
  }
  return { target, kind: loaFlavour(target, input.kind) };
}

/** The LOA wording of a port order; Edge orders have their own; other targets have no LOA. */
function loaFlavour(target: TrackTarget, kind: OrderKind | undefined): OrderKind {
  if (target.kind === "edge-order") return "edge";
  if (target.kind === "port-order") return kind ?? "on-net";
  return "on-net";
}

/** The older `readOrder` option: it reads port and Edge orders, and nothing else. */
export function ordersOnly(readOrder: ReadOrder | undefined): ReadTarget | undefined {
  if (!readOrder) return undefined;
  return (target, companyName) => {
    if (!isOrderTarget(target)) {
      return Promise.reject(new Error(`no reader for ${target.kind} targets on this worker`));
    }
    return readOrder(companyName, target.id);
  };
}

/** A reader's answer, checked: a read without a status is a failed read, never a crash. */
export function toSnapshot(read: TargetRead): OrderSnapshot {
  if (typeof read !== "object" || read === null || typeof read.status !== "string") {
    throw new Error("the read has no status");
  }
  const status = read.status.trim() === "" ? "unknown" : read.status.trim();
  return {
    status,
    loaStatus: text(read.loaStatus),
    waitingOn: text(read.waitingOn),
    details: text(read.details),
    port: typeof read.port === "object" && read.port !== null ? read.port : undefined,
  };
}

function text(value: unknown): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim() : undefined;
}
