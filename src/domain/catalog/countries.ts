/**
 * Whether a two-letter code names a country or territory (ISO 3166-1 alpha-2, as the IO-D form's
 * IP geolocation country takes it): read from the runtime's own region names (ICU, full in the
 * Node the bot runs on), so "XX" or "QQ" is refused while every real code is known. A code the
 * data does not name comes back as itself; ZZ is "Unknown Region", and macro-regions such as EU
 * are not countries.
 */

const NOT_COUNTRIES = new Set(["ZZ", "EU", "EZ", "UN", "QO"]);
const regionNames = new Intl.DisplayNames(["en"], { type: "region", fallback: "code" });

export function isCountryCode(code: string): boolean {
  if (!/^[A-Z]{2}$/.test(code) || NOT_COUNTRIES.has(code)) return false;
  try {
    return regionNames.of(code) !== code;
  } catch {
    return false;
  }
}
