import { describe, expect, it } from "vitest";
import type { MetroCapability } from "../../src/provider/api.js";
import { metrosView } from "../../views/lookups/metros.js";
import { readable } from "./support.js";

const page = (total: number) => ({ page: 0, pageSize: 25, hasNext: false, total });

describe("metrosView", () => {
  it("says per metro whether layer 2 business-to-business can be ordered there, and how many regions", () => {
    const metros: MetroCapability[] = [
      {
        id: "m-ams",
        name: "Amsterdam",
        code: "AMS",
        country: "NL",
        capabilities: { layer2: true },
        regionIds: ["r2", "r3"],
      },
      {
        id: "m-fra",
        name: "Frankfurt",
        code: "FRA",
        country: "DE",
        capabilities: { layer2: false },
      },
      { id: "m-x", name: "Nowhere" },
    ];
    const reply = metrosView(metros, page(3), "");
    const shown = readable(reply.blocks);
    expect(shown).toContain("*Amsterdam* (AMS, NL)");
    expect(shown).toContain("layer 2 business-to-business (2 regions)");
    expect(shown).toContain("*Frankfurt* (FRA, DE)");
    expect(shown).toContain("no layer 2 business-to-business");
    expect(shown).toContain("not stated");
    expect(shown).toContain("/connect l2");
    expect(reply.text).toContain("Amsterdam");
  });

  it("says what to try when nothing matches, with the words typed escaped", () => {
    const reply = metrosView([], page(0), "<!here>");
    expect(reply.text).toContain("No metro matches");
    expect(reply.text).not.toContain("<!here>");
    expect(reply.text).toContain("/connect metros");
  });
});
