import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/log.js";
import type { MetroCapability, ProviderApi } from "../../src/provider/api.js";
import { listMetros } from "../../src/usecases/metros.js";

const IDENTITY = {
  userId: "u1",
  companyId: "c0ffee0000000000000000c1",
  companyUsername: "acme-networks",
  companyName: "Acme Networks",
};

const METROS: MetroCapability[] = [
  {
    id: "m-lon",
    name: "London",
    code: "LON",
    country: "GB",
    capabilities: { layer2: true },
    regionIds: ["r1"],
  },
  {
    id: "m-ams",
    name: "Amsterdam",
    code: "AMS",
    country: "NL",
    capabilities: { layer2: true },
    regionIds: ["r2", "r3"],
  },
  { id: "m-old", name: "Atlantis", code: "ATL", country: "XX", deleted: true },
  { id: "m-fra", name: "Frankfurt", code: "FRA", country: "DE", capabilities: { layer2: false } },
];

function deps() {
  const asked: string[] = [];
  return {
    asked,
    deps: {
      provider: {
        listMetroCapabilities: async (companyUsername: string) => {
          asked.push(companyUsername);
          return METROS;
        },
      } as Partial<ProviderApi> as ProviderApi,
      identity: async () => IDENTITY,
      logger: createLogger({ level: "silent" }),
    },
  };
}

describe("listMetros", () => {
  it("lists the company's live metros by name, a page at a time", async () => {
    const { deps: d, asked } = deps();
    const first = await listMetros(d, { page: 0, pageSize: 2 });
    expect(asked).toEqual([IDENTITY.companyUsername]);
    expect(first.metros.map((m) => m.name)).toEqual(["Amsterdam", "Frankfurt"]);
    expect(first.page).toEqual({ page: 0, pageSize: 2, hasNext: true, total: 3 });
    const second = await listMetros(d, { page: 1, pageSize: 2 });
    expect(second.metros.map((m) => m.name)).toEqual(["London"]);
  });

  it("narrows by name, code or country, case aside, and keeps what was typed", async () => {
    const { deps: d } = deps();
    expect(
      (await listMetros(d, { page: 0, pageSize: 10, text: " ams " })).metros.map((m) => m.id),
    ).toEqual(["m-ams"]);
    expect(
      (await listMetros(d, { page: 0, pageSize: 10, text: "gb" })).metros.map((m) => m.id),
    ).toEqual(["m-lon"]);
    const none = await listMetros(d, { page: 0, pageSize: 10, text: "atlantis" });
    expect(none.metros).toEqual([]);
    expect(none.query).toBe("atlantis");
  });
});
