import { describe, expect, it } from "vitest";
import { paginate } from "../../src/domain/paging.js";
import {
  classesOfService,
  cloudRoutersView,
  ROUTER_PAGE_SIZE,
  rateLimitText,
} from "../../views/lookups/routers.js";
import { routerBare, routerFull } from "./fixtures.js";
import { expectWithinSlackLimits, readable } from "./support.js";

const firstPage = { page: 0, pageSize: ROUTER_PAGE_SIZE, hasNext: false };

describe("cloudRoutersView", () => {
  it("shows each router with its sites and peers", () => {
    const reply = cloudRoutersView([routerFull, routerBare], firstPage);
    const text = readable(reply.blocks);
    expect(text).toContain("*eu-backbone*  ·  :large_green_circle: CREATED");
    // The provider's "1000MB" in the units network engineers use.
    expect(text).toContain("Bandwidth 1,000 Mbps · Duration 12 months · 2 sites");
    expect(text).toContain(
      "• *ams-site* · port `5f2a9c0e1b3d4a5f6e7d8c9b` · 500 Mbps · GOLD 20% · SILVER 30% · primary · :large_green_circle: CREATED",
    );
    expect(text).toContain("↳ peer SELF · AS 64512 · `10.0.0.1/30` · :large_green_circle: CREATED");
    // The second site is really deleted (port id only in snake case, no rate unit).
    expect(text).toContain(
      "• *fra-site* · port `5f2a9c0e1b3d4a5f6e7d8c01` · 1,000 Mbps · :large_orange_circle: DELETING · :wastebasket: deleted",
    );
    // Unknown peer status verbatim.
    expect(text).toContain("↳ peer PARTNER · AS 65001 · `10.0.1.1/30` · SWAYING");
    // The router and the first site carry the epoch: not deleted.
    expect(text.match(/:wastebasket: deleted/g)).toHaveLength(1);
    // A bare router still renders.
    expect(text).toContain("*Unnamed cloud router*  ·  —");
    expect(text).toContain("0 sites");
    expectWithinSlackLimits(reply.blocks);
  });

  it("says a router's bandwidth in Mbps or Gbps, and other text as it came", () => {
    const bandwidthOf = (bandwidth: string) =>
      readable(cloudRoutersView([{ ...routerBare, bandwidth }], firstPage).blocks);
    expect(bandwidthOf("1500MB")).toContain("Bandwidth 1,500 Mbps ·");
    expect(bandwidthOf("10 Gbps")).toContain("Bandwidth 10 Gbps ·");
    expect(bandwidthOf("2GB")).toContain("Bandwidth 2 Gbps ·");
    expect(bandwidthOf("lots <b>")).toContain("Bandwidth lots &lt;b&gt; ·");
  });

  it("formats rate limits and classes of service", () => {
    expect(rateLimitText({ rate: 500, unit: "Mbps" })).toBe("500 Mbps");
    expect(rateLimitText({ rate: 2000 })).toBe("2,000 Mbps");
    expect(rateLimitText({})).toBeUndefined();
    expect(
      classesOfService([
        { name: "GOLD", value: 20 },
        { name: "SILVER", value: 30 },
      ]),
    ).toBe("GOLD 20% · SILVER 30%");
    expect(classesOfService([{ value: 10 }, { name: "BRONZE" }])).toBe("? 10% · BRONZE —");
    expect(classesOfService(undefined)).toBeUndefined();
  });

  it("pages many routers with many sites within Slack's limits", () => {
    const routers = Array.from({ length: 23 }, (_, r) => ({
      ...routerFull,
      id: `router-${r}`,
      name: `router-${r}`,
      sites: Array.from({ length: 80 }, (_, s) => ({
        ...routerFull.sites![0]!,
        id: `site-${r}-${s}`,
        name: `site-${s}`,
      })),
    }));
    const { items, page } = paginate(routers, 4, ROUTER_PAGE_SIZE);
    const reply = cloudRoutersView(items, page);
    expectWithinSlackLimits(reply.blocks);
    expect(reply.page).toEqual({ index: 4, hasNext: false });
    const text = readable(reply.blocks);
    expect(text).toContain("*router-20*");
    expect(text).toContain("*router-22*");
    expect(text).toContain("Showing 21–23 of 23");
    expect(text).toMatch(/…and \d+ more/);
  });

  it("says when there are none", () => {
    expect(cloudRoutersView([], firstPage).text).toContain("no cloud routers");
  });
});
