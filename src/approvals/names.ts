import type { ApprovalKind, ApprovalRequest, ApprovalStatus } from "./types.js";

/**
 * Order names are unique: the name is how an order whose outcome is unknown is found again at
 * the provider (`reconcileKey`), so two live requests must never ask for the same one. The
 * store reserves a request's name in the same atomic step that creates it (see store.ts and the
 * README's "Names").
 */

/**
 * Which names collide: port and Edge orders both make ports (one list of port names at the
 * provider); layer 2 connections and IO-D services are both connections on a port.
 */
const NAME_SCOPES = {
  port: "port",
  edge: "port",
  layer2: "connection",
  iod: "connection",
} as const satisfies Record<ApprovalKind, string>;

export type NameScope = (typeof NAME_SCOPES)[ApprovalKind];

/** The namespace a request's name is unique in. */
export function nameScope(kind: ApprovalKind): NameScope {
  return NAME_SCOPES[kind];
}

/**
 * The one rule of which names are taken by requests (issue 29: the forms had three lists that
 * disagreed, and a request the provider refused kept its name in the port form): a request
 * holds its name while it may still become an order or is one — exactly the statuses whose
 * steps keep the name key (steps.ts: `keep`/`reserve`); rejected, cancelled and failed release
 * it. The reservation is the guard; forms read this for a friendly early answer.
 */
export const NAME_HOLDING_STATUSES = [
  "pending",
  "approved",
  "executing",
  "unknown",
  "placed",
] as const satisfies readonly ApprovalStatus[];

/** Whether a request in `status` holds its name (see NAME_HOLDING_STATUSES). */
export function holdsItsName(status: ApprovalStatus): boolean {
  return (NAME_HOLDING_STATUSES as readonly ApprovalStatus[]).includes(status);
}

/** The names (normalized) that `requests` hold in `scope`. */
export function namesHeldIn(
  scope: NameScope,
  requests: Iterable<Pick<ApprovalRequest, "kind" | "status" | "reconcileKey">>,
): Set<string> {
  const names = new Set<string>();
  for (const request of requests) {
    if (nameScope(request.kind) !== scope || !holdsItsName(request.status)) continue;
    const name = normalizedName(request.reconcileKey ?? "");
    if (name !== "") names.add(name);
  }
  return names;
}

/**
 * The form names are compared in: trimmed and lower-cased, as the forms' own checks compare
 * them with the provider's names ("Core-1 " and "core-1" are one name). Empty when blank.
 */
export function normalizedName(name: string): string {
  return name.trim().toLowerCase();
}

/**
 * `create` was asked for a name another live request holds (waiting, approved, being placed,
 * unknown or placed within its retention); nothing was written.
 */
export class NameReservedError extends Error {
  constructor(
    /** The name as it was asked for (trimmed). */
    override readonly name: string,
    /** The id of the request holding it. */
    readonly heldBy: string,
  ) {
    super(`The name "${name}" is held by approval request ${heldBy}`);
  }
}
