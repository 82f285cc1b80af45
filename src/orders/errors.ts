/**
 * "This order cannot be looked up yet" as opposed to "the look-up failed": e.g. a port order
 * whose port the provider has not created yet (the provider lists no port orders, only ports).
 * The placement journal escalates it with cause `not-lookable`, never as "not found".
 *
 * Defined here until the journal's own `NotLookableError` (src/jobs/placement.ts) is merged;
 * the lead unifies the two (the name is what callers test until then).
 */
export class NotLookableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NotLookableError";
  }
}

/** True for a NotLookableError from here or from the journal (matched by name across modules). */
export function isNotLookable(error: unknown): boolean {
  return error instanceof Error && error.name === "NotLookableError";
}
