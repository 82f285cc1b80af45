import { describe, expect, it } from "vitest";
import type { CloudRouter, ProviderApi } from "../../src/provider/api.js";
import { listRouters } from "../../src/usecases/routers.js";

const IDENTITY = {
  userId: "u1",
  companyId: "c0ffee0000000000000000c1",
  companyUsername: "acme-networks",
  companyName: "Acme Networks",
};

const routers = (n: number): CloudRouter[] =>
  Array.from({ length: n }, (_, i) => ({ id: `r${i}`, name: `router ${i}` }));

describe("listRouters", () => {
  it("lists the company's cloud routers a page at a time", async () => {
    const asked: string[] = [];
    const deps = {
      provider: {
        listCloudRouters: async (companyId: string) => {
          asked.push(companyId);
          return routers(7);
        },
      } as Partial<ProviderApi> as ProviderApi,
      identity: async () => IDENTITY,
    };
    const first = await listRouters(deps, { page: 0, pageSize: 5 });
    expect(asked).toEqual([IDENTITY.companyId]);
    expect(first.routers.map((r) => r.id)).toEqual(["r0", "r1", "r2", "r3", "r4"]);
    expect(first.page).toEqual({ page: 0, pageSize: 5, hasNext: true, total: 7 });
    const second = await listRouters(deps, { page: 1, pageSize: 5 });
    expect(second.routers.map((r) => r.id)).toEqual(["r5", "r6"]);
    expect(second.page.hasNext).toBe(false);
    const beyond = await listRouters(deps, { page: 5, pageSize: 5 });
    expect(beyond.routers).toEqual([]);
  });
});
