import { describe, expect, it } from "vitest";
import { isCountryCode } from "../../src/domain/catalog/countries.js";

describe("isCountryCode", () => {
  it("knows real two-letter codes and refuses made-up ones and regions", () => {
    for (const code of ["NL", "SG", "US", "GB", "DE", "AQ", "XK"])
      expect(isCountryCode(code)).toBe(true);
    for (const code of ["XX", "QQ", "AA", "ZZ", "EU", "nl", "NLD", ""])
      expect(isCountryCode(code)).toBe(false);
  });
});
