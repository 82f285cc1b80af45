// Reading what the provider sends back, tolerantly: older records, statuses the spec does not
// list, a port's connections. Nothing here rejects a value it does not know. (A speed in any of
// its shapes is read by speedMbps in src/domain/catalog/requestFacts.ts, the one reader the bot has.)

import { isTerminalStatus } from "../domain/tracking/statuses.js";

const EPOCH_MS = 0;

/**
 * A deletedAt/cancelledAt as a real timestamp or null. Older records carry the epoch
 * ("1970-01-01T00:00:00.000Z", or 0) instead of null: that means "never".
 */
export function nullIfEpoch<T extends string | number>(ts: T | null | undefined): T | null {
  if (ts === null || ts === undefined) return null;
  if (typeof ts === "number") return ts === EPOCH_MS ? null : ts;
  const text = ts.trim();
  if (text === "") return null;
  if (/^0+$/.test(text)) return null;
  const ms = Date.parse(text);
  return ms === EPOCH_MS ? null : ts;
}

/** Port order statuses from the provider's documentation (docs/provider/provider-notes.md), lower case. */
export const knownOrderStatuses = [
  "created",
  "allocated",
  "activating",
  "progressing",
  "processing",
  "done",
  "error",
  "cancelled",
] as const;
export type KnownOrderStatus = (typeof knownOrderStatuses)[number];

/** done (success), error and cancelled end an order (the status rules' answer). */
export function isTerminalOrderStatus(status: string | null | undefined): boolean {
  return isTerminalStatus("port-order", status);
}

export function isKnownOrderStatus(status: string | null | undefined): status is KnownOrderStatus {
  return (
    typeof status === "string" &&
    (knownOrderStatuses as readonly string[]).includes(status.trim().toLowerCase())
  );
}

/**
 * A status as people should see it: the provider's value as it came (unknown ones included,
 * never rejected), or "unknown" when the record has none.
 */
export function displayStatus(status: unknown): string {
  if (typeof status === "string" && status.trim() !== "") return status.trim();
  if (typeof status === "number") return String(status);
  return "unknown";
}

/** A layer 2 connection or IO-D service as a port's `connections` lists it (shape not shown). */
export type ConnectionEntry = Record<string, unknown>;

/**
 * The entries of a port's `connections`, each a plain record. The provider offers no read of
 * one connection or IO-D service: this list is where they are found, by id or by name.
 */
export function connectionsOf(port: unknown): ConnectionEntry[] {
  const list = (port as { connections?: unknown } | null | undefined)?.connections;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (entry): entry is ConnectionEntry =>
      typeof entry === "object" && entry !== null && !Array.isArray(entry),
  );
}

/** The connection with this id, and every port whose `connections` carry it (its ends). */
export function findConnectionById<P>(
  ports: readonly P[],
  id: string,
): { entry: ConnectionEntry; carrying: P[] } | undefined {
  let entry: ConnectionEntry | undefined;
  const carrying: P[] = [];
  for (const port of Array.isArray(ports) ? ports : []) {
    const match = connectionsOf(port).find((c) => c.id === id);
    if (!match) continue;
    entry ??= match;
    carrying.push(port);
  }
  return entry ? { entry, carrying } : undefined;
}
