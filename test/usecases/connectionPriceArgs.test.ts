import { describe, expect, it } from "vitest";
import { parseConnectionPriceArgs } from "../../src/usecases/pricing/connectionPriceArgs.js";

const words = (text: string) => text.split(" ");

describe("parseConnectionPriceArgs", () => {
  it.each([
    ["ams lon 500", { src: "ams", dest: "lon", bandwidthMbps: 500 }],
    ["ams lon 1G", { src: "ams", dest: "lon", bandwidthMbps: 1000 }],
    ["ams lon 1 Gbps", { src: "ams", dest: "lon", bandwidthMbps: 1000 }],
    ["ams lon", { src: "ams", dest: "lon" }],
    ["ams", { src: "ams" }],
    [
      "ironbridge iad1 to science park 200",
      {
        src: "ironbridge iad1",
        dest: "science park",
        bandwidthMbps: 200,
      },
    ],
    ["500", { bandwidthMbps: 500 }],
    ["a b c", { unsplit: "a b c" }],
  ])("reads %j", (text, expected) => {
    expect(parseConnectionPriceArgs(words(text))).toEqual(expected);
  });

  it("keeps a quoted name with spaces as one end", () => {
    expect(parseConnectionPriceArgs(["ironbridge iad1", "lon", "50"])).toEqual({
      src: "ironbridge iad1",
      dest: "lon",
      bandwidthMbps: 50,
    });
  });
});
