import { describe, expect, it } from "vitest";
import {
  MAX_TERM_DAYS,
  MAX_TERM_MONTHS,
  MAX_TERM_WEEKS,
  maxTermText,
  monthsOfTerm,
} from "../../src/domain/catalog/terms.js";

describe("the longest term (src/domain/catalog/terms.ts)", () => {
  it("is ten years in every unit a form asks a term in", () => {
    expect(MAX_TERM_MONTHS).toBe(120);
    expect(MAX_TERM_WEEKS).toBe(522);
    expect(MAX_TERM_DAYS).toBe(3653);
    expect(maxTermText("months")).toBe("120 months (10 years)");
    expect(maxTermText("days")).toBe("3,653 days (10 years)");
  });

  it("monthsOfTerm counts every term up to the maximum, which the forms accept, and no longer", () => {
    expect(monthsOfTerm(MAX_TERM_MONTHS, "m")).toBe(120);
    expect(monthsOfTerm("120", "months")).toBe(120);
    expect(monthsOfTerm(10, "year")).toBe(120);
    expect(monthsOfTerm(1, "m")).toBe(1);
    // Longer than any form takes: a record holding one predates the bound.
    expect(monthsOfTerm(MAX_TERM_MONTHS + 1, "m")).toBeUndefined();
    expect(monthsOfTerm(9999, "m")).toBeUndefined();
    expect(monthsOfTerm(11, "y")).toBeUndefined();
    expect(monthsOfTerm(12, "w")).toBeUndefined();
    expect(monthsOfTerm(0, "m")).toBeUndefined();
  });
});
