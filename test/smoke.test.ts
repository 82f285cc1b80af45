import { describe, expect, it } from "vitest";

describe("toolchain", () => {
  it("runs TypeScript tests as ES modules", () => {
    expect(typeof import.meta.url).toBe("string");
  });
});
