import { describe, expect, it } from "vitest";
import { defuseFormulas } from "../../../src/orders/spend/ledgerCsv.js";

describe("defuseFormulas", () => {
  it("puts a ' before a formula sign wherever a spreadsheet could start a cell with it", () => {
    expect(defuseFormulas("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
    expect(defuseFormulas("x;=1+2")).toBe("x;'=1+2");
    expect(defuseFormulas('x, "-2')).toBe(`x, "'-2`);
    expect(defuseFormulas("a\n+3\r@SUM(1)")).toBe("a\n'+3\r'@SUM(1)");
    expect(defuseFormulas("\tx")).toBe("'\tx");
  });

  it("defuses the full-width signs too (read as = + - @ by spreadsheets in some locales)", () => {
    for (const sign of ["＝", "＋", "－", "＠"]) {
      expect(defuseFormulas(`${sign}HYPERLINK(1)`)).toBe(`'${sign}HYPERLINK(1)`);
      expect(defuseFormulas(`x;${sign}1`)).toBe(`x;'${sign}1`);
      expect(defuseFormulas(`x, "${sign}1`)).toBe(`x, "'${sign}1`);
    }
  });

  it("leaves a sign inside a cell, and text without one, as it is", () => {
    expect(defuseFormulas("ams-core-1")).toBe("ams-core-1");
    expect(defuseFormulas("a＝b and 1+2")).toBe("a＝b and 1+2");
    expect(defuseFormulas("")).toBe("");
  });
});
