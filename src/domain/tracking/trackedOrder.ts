/**
 * What a tracker follows and what it reads at each step: shared by the tracker (src/orders/tracking,
 * which decides when to say something) and its words (views/approvals/trackerMessages.ts, which say it). Pure:
 * which statuses end or wait is src/domain/tracking/statuses.ts's; here only what a tracked target is and
 * which port a finished order leaves to follow.
 */

import {
  isTerminalStatus,
  statusEnding,
  type TrackTarget,
  type TrackTargetKind,
} from "./statuses.js";

/** The flavour of a port order's LOA step (on-net about a day, off-net weeks, Edge a partner's). */
export type OrderKind = "on-net" | "off-net" | "edge";

export interface PortSummary {
  id?: string;
  name?: string;
  /** Mbps, as a number or the provider's text (e.g. "10000 Mbps"). */
  speed?: number | string;
  location?: string;
  /** The port's own status, when the order read embeds it (e.g. ACTIVE, READY). */
  status?: string;
}

/** What a tracker reads from the provider at each step (see src/orders/tracking/input.ts `ReadTarget`). */
export interface OrderSnapshot {
  status: string;
  loaStatus?: string;
  /** Who the status waits on, in words from the read (e.g. the partner's company), if it says. */
  waitingOn?: string;
  port?: PortSummary;
  /** A short line from the read worth showing at the end (e.g. an ERROR's reason). */
  details?: string;
}

/** What is tracked, as the messages name it. `target` absent: a port order (older records). */
export interface OrderRef {
  orderId: string;
  kind: OrderKind;
  target?: TrackTarget;
  /** The company a layer 2 connection waits on, as the request named it (its destCompany). */
  counterparty?: string;
}

export function targetKindOf(ref: OrderRef): TrackTargetKind {
  return ref.target?.kind ?? (ref.kind === "edge" ? "edge-order" : "port-order");
}

/**
 * The port a finished order left to follow: one whose status is known and not final yet (its
 * activation is still ahead). Without a status there is nothing to tell, and nothing is followed.
 */
export function portToFollow(ref: OrderRef, snapshot: OrderSnapshot): string | undefined {
  const kind = targetKindOf(ref);
  if (kind !== "port-order" && kind !== "edge-order") return undefined;
  if (statusEnding(kind, snapshot.status) !== "success") return undefined;
  const port = snapshot.port;
  if (!port?.id || !port.status || isTerminalStatus("port", port.status)) return undefined;
  return port.id;
}

/**
 * A port order that ended and leaves no port on its way to being live: following it would end
 * at its first read (the tracker follows a done order's port until the port is live), so the
 * Track button starts nothing for it.
 */
export function nothingLeftToFollow(order: {
  status?: string | null;
  port?: PortSummary | null;
}): boolean {
  const status = order.status ?? "";
  if (!isTerminalStatus("port-order", status)) return false;
  const port = order.port ?? undefined;
  return portToFollow({ orderId: "", kind: "on-net" }, { status, port }) === undefined;
}
