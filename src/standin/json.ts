/**
 * The one check every part of the stand-in makes on decoded JSON (request args, payloads, acks,
 * blocks): is this a plain object whose fields can be read. Written once here so the Web API,
 * the modal filler and the driver agree on what counts as one.
 */

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
