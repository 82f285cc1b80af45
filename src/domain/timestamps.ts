/**
 * Reading the provider's timestamps: whether a deletedAt/cancelledAt-style field really says
 * "this happened". Used by the use cases (a deleted DCF is not offered) and the views
 * (views/time.ts re-exports these). Pure.
 */

/**
 * A provider timestamp as a Date, or undefined when it is missing, unreadable or the epoch.
 * Older records carry the epoch in deletedAt/cancelledAt to mean "not set" (docs/provider/provider-api.md,
 * Conventions), and no real event of this provider happened in 1970.
 */
export function parseTimestamp(value: unknown): Date | undefined {
  if (typeof value !== "string" && typeof value !== "number") return undefined;
  if (typeof value === "string" && value.trim() === "") return undefined;
  const date = new Date(value);
  const ms = date.getTime();
  return Number.isFinite(ms) && ms > 0 ? date : undefined;
}

/** True when a deletedAt/cancelledAt-style field really says "this happened". */
export function isSet(value: unknown): boolean {
  return parseTimestamp(value) !== undefined;
}
