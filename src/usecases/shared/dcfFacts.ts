// Small readings of a provider DCF record that several use cases need: is it deleted, which
// DCF id a select option's value names, its airport codes for matching typed text. Pure; the
// provider-independent facts (ready, offered speeds, references) are in src/domain/catalog/dcfs.ts.
import { isSet } from "../../domain/timestamps.js";
import type { Dcf } from "../../provider/api.js";

export function isDeleted(dcf: Dcf): boolean {
  return isSet(dcf.deletedAt);
}

const DCF_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** The DCF id of a select option's value; undefined for anything we did not put there. */
export function parseDcfRef(value: unknown): string | undefined {
  if (typeof value !== "string" || value.length > 150) return undefined;
  const id = value.split("|", 1)[0] ?? "";
  return DCF_ID.test(id) ? id : undefined;
}

/** Trimmed and lower-cased, for matching what a person typed; "" for anything not text. */
export function lower(x: unknown): string {
  return typeof x === "string" ? x.trim().toLowerCase() : "";
}

/** The DCF's airport codes, lower-cased ("ams", "lhr"). */
export function airportCodes(dcf: Dcf): string[] {
  const codes = dcf.dataCenterFacility?.airportCodes;
  return Array.isArray(codes) ? codes.filter((c) => typeof c === "string").map(lower) : [];
}
