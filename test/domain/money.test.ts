import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { DEFAULT_CURRENCY, formatMoney, isCurrencyCode } from "../../src/domain/money.js";

describe("formatMoney", () => {
  it("puts the currency code after the amount, never a symbol", () => {
    expect(formatMoney(1200, "USD")).toBe("1,200.00 USD");
    expect(formatMoney(1234.5, "EUR")).toBe("1,234.50 EUR");
    expect(formatMoney(0, "GBP")).toBe("0.00 GBP");
    expect(formatMoney(1_000_000, "USD")).toBe("1,000,000.00 USD");
  });

  it("uses the currency's own minor units", () => {
    expect(formatMoney(1234.4, "JPY")).toBe("1,234 JPY");
    expect(formatMoney(1.2345, "BHD")).toBe("1.235 BHD");
  });

  it("leaves a missing or broken amount to the caller", () => {
    for (const amount of [undefined, null, Number.NaN, Number.POSITIVE_INFINITY, "12", {}]) {
      expect(formatMoney(amount, "USD")).toBeUndefined();
    }
  });
});

describe("PRICE_CURRENCY", () => {
  it("is an ISO 4217 code, upper-cased, USD when unset", () => {
    expect(DEFAULT_CURRENCY).toBe("USD");
    expect(loadConfig({}).currency).toBe("USD");
    expect(loadConfig({ PRICE_CURRENCY: "eur" }).currency).toBe("EUR");
    expect(loadConfig({ PRICE_CURRENCY: " GBP " }).currency).toBe("GBP");
    expect(isCurrencyCode("CHF")).toBe(true);
  });

  it("refuses what is not a currency code, naming the variable and not the value", () => {
    for (const value of ["$", "US", "DOLLARS", "XYZ", "€"]) {
      expect(() => loadConfig({ PRICE_CURRENCY: value })).toThrow(
        /PRICE_CURRENCY must be an ISO 4217 currency code/,
      );
    }
  });
});
