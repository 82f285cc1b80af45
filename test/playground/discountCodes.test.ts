import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { EDGE_DISCOUNT_CODES } from "../../src/sandbox/edge.js";

// The sandbox's Edge discount codes are listed where a person trying the playground looks: the
// page's sidebar (sandbox mode only) and the README. A code added to the sandbox must be listed.
describe("the sandbox's Edge discount codes", () => {
  const codes = Object.entries(EDGE_DISCOUNT_CODES);

  it("are all listed in the playground's sidebar with their discount", () => {
    const page = readFileSync("src/playground/static/index.html", "utf8");
    const listed = /id="sandbox-discount-codes">([\s\S]*?)<\/div>/.exec(page)?.[1] ?? "";
    expect(codes.length).toBeGreaterThan(0);
    for (const [code, share] of codes) {
      expect(listed).toContain(`<code>${code}</code> ${Math.round(share * 100)} % off`);
    }
  });

  it("are all listed in the README", () => {
    const readme = readFileSync("README.md", "utf8");
    for (const [code, share] of codes) {
      expect(readme).toContain(`\`${code}\` (${Math.round(share * 100)} % off`);
    }
  });
});
