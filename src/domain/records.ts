/**
 * The one test for "a plain JSON-like object" (not null, not an array) that every layer uses to
 * read the provider's, Slack's and a thrown error's loosely typed shapes. Pure.
 */

/** An object whose fields are still to be read. */
export type UnknownRecord = Record<string, unknown>;

/** True for an object that is neither null nor an array. */
export const isRecord = (x: unknown): x is UnknownRecord =>
  typeof x === "object" && x !== null && !Array.isArray(x);
