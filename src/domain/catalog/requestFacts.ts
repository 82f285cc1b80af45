/**
 * Facts of the provider's request rules that the use cases and the views both need: how a speed
 * is read, the classes of service, the IO-D limits, private ASNs, Singapore (where an Edge order
 * needs more). The zod rules that check a request (src/provider/rules/)
 * and the forms that offer the choices (views/) read them here, so a form cannot offer what the
 * rules refuse. Pure.
 */

import { isRecord } from "../records.js";

const SPEED_TEXT =
  /^(\d+(?:\.\d+)?)\s*(m|mb|mbps|mbit|mbits|mbit\/s|mb\/s|g|gb|gbps|gbit|gbits|gbit\/s|gb\/s)?$/i;

/**
 * Reads a speed as Mbps. The spec does not show the element shape of a DCF's `speeds`, and
 * people type speeds in many ways, so this accepts a positive integer (Mbps), a numeric
 * string, an object {value, name?} (as in port records), and "10G", "10 Gbps", "100M",
 * "1000 Mbps" (case-insensitive). A unit-less number is Mbps. Anything else is undefined.
 */
export function speedMbps(x: unknown): number | undefined {
  if (typeof x === "number") return Number.isSafeInteger(x) && x > 0 ? x : undefined;
  if (typeof x === "string") {
    const m = SPEED_TEXT.exec(x.trim());
    if (!m) return undefined;
    const factor = m[2]?.toLowerCase().startsWith("g") ? 1000 : 1;
    // Rounding absorbs binary float noise such as 1.1 * 1000 = 1100.0000000000002.
    const mbps = Math.round(Number(m[1]) * factor * 1e6) / 1e6;
    return Number.isSafeInteger(mbps) && mbps > 0 ? mbps : undefined;
  }
  if (isRecord(x)) {
    if (x.value !== undefined) return speedMbps(x.value);
    if (x.name !== undefined) return speedMbps(x.name);
  }
  return undefined;
}

/** The distinct readable speeds of a DCF, ascending, in Mbps; unreadable elements are skipped. */
export function dcfSpeedsMbps(speeds: readonly unknown[]): number[] {
  const out = new Set<number>();
  for (const s of speeds) {
    const mbps = speedMbps(s);
    if (mbps !== undefined) out.add(mbps);
  }
  return [...out].sort((a, b) => a - b);
}

/**
 * Longest name the bot sends (the spec gives no limit; a longer one is a paste mistake). The
 * name rule (src/provider/rules/names.ts) refuses longer ones and the forms (views/) cap their
 * name inputs at it.
 */
export const NAME_MAX = 100;

export const CLASSES_OF_SERVICE = ["GOLD", "SILVERPLUS", "SILVER", "BRONZE"] as const;

export const IOD_IPV6_BLOCK = 48;
export const BGP_KEY_MIN = 6;
export const BGP_KEY_MAX = 24;

/** 16-bit and 32-bit private ASN ranges (RFC 6996). */
export const PRIVATE_ASN_RANGES = [
  [64512, 65534],
  [4200000000, 4294967294],
] as const;

export function isPrivateAsn(asn: number): boolean {
  return Number.isSafeInteger(asn) && PRIVATE_ASN_RANGES.some(([lo, hi]) => asn >= lo && asn <= hi);
}

const SINGAPORE = new Set(["sg", "sgp", "singapore"]);
const COUNTRY_KEY = /code|iso|alpha|name|label|value|country/i;

/**
 * Spec gap: the country object's fields are not shown. Heuristic: it is Singapore when any
 * top-level string field whose key looks like a code or a name (code, iso, isoCode, alpha2,
 * name, label, value, country...) equals SG, SGP or Singapore, ignoring case and spaces.
 */
export function isSingapore(country: unknown): boolean {
  if (!isRecord(country)) return false;
  return Object.entries(country).some(
    ([key, value]) =>
      COUNTRY_KEY.test(key) &&
      typeof value === "string" &&
      SINGAPORE.has(value.trim().toLowerCase()),
  );
}
