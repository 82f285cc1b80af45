// Seed data and pricing: deterministic, realistic in shape, and priced by the published formula.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { call, type Loose, openSandbox } from "./helpers.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("sandbox seed data", () => {
  let a: Sandbox;
  let b: Sandbox;
  let c: Sandbox;

  beforeAll(async () => {
    [a, b, c] = await Promise.all([
      openSandbox({ seed: 1234 }),
      openSandbox({ seed: 1234 }),
      openSandbox({ seed: 99 }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([a, b, c].map((s) => s?.close()));
  });

  const dcfs = async (s: Sandbox) =>
    (await call<Loose>(s.url, "GET", "/v2/data-center-facility")).body as Loose[];

  it("serves the same DCF list for the same seed, and different ids for another seed", async () => {
    const [first, second, other] = await Promise.all([dcfs(a), dcfs(b), dcfs(c)]);
    expect(second).toEqual(first);
    expect(other.map((d) => d.name)).toEqual(first.map((d) => d.name));
    expect(other.map((d) => d.id)).not.toEqual(first.map((d) => d.id));
    expect(b.apiUser).toEqual(a.apiUser);
  });

  it("creates the same ids for the same calls on the same seed", async () => {
    const order = async (s: Sandbox) =>
      (
        await call<Loose>(s.url, "PUT", `/api/company/${s.apiUser.companyUsername}/ports/orders`, {
          body: {
            dataCenterFacility: "ironbridge-iad1",
            speed: "1000",
            durationUnit: "y",
            portName: "same",
            paymentType: "invoice",
          },
        })
      ).body.id;
    expect(await order(a)).toBe(await order(b));
  });

  it("has at least 30 DCFs over at least 8 metros in at least 3 regions, with the documented shapes", async () => {
    const list = await dcfs(a);
    expect(list.length).toBeGreaterThanOrEqual(30);
    const metroIds = new Set(list.map((d) => d.dataCenterFacility.metroId));
    expect(metroIds.size).toBeGreaterThanOrEqual(8);
    const metros = (
      await call<Loose>(
        a.url,
        "GET",
        `/api/company/${a.apiUser.companyUsername}/metro/capabilities`,
      )
    ).body.results as Loose[];
    expect(new Set(metros.flatMap((m) => m.regionIds)).size).toBeGreaterThanOrEqual(3);
    expect(metros.some((m) => m.capabilities.layer2 === false)).toBe(true);
    for (const d of list) {
      expect(d.id).toMatch(UUID);
      expect(d.dataCenterFacility.id).toBe(d.id);
      expect(d.username).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(d.dataCenterFacility.airportCodes.length).toBeGreaterThan(0);
      expect(d.dataCenterFacility.speeds.every((s: unknown) => Number.isInteger(s))).toBe(true);
    }
    const tags = list.flatMap((d) => d.tags);
    for (const tag of ["OFF_NET", "EXTENDED", "EDGE", "FREE_CROSS_CONNECT"])
      expect(tags).toContain(tag);
    expect(list.some((d) => d.deletedAt === "1970-01-01T00:00:00.000Z")).toBe(true);
    expect(list.some((d) => d.dataCenterFacility.ready === false)).toBe(true);
    const singapore = (await call<Loose>(a.url, "GET", "/v2/edge/countries")).body.data as Loose[];
    expect(singapore.map((x) => x.name)).toContain("Singapore");
  });

  it("filters the DCF listing on dotted fields with skip and limit", async () => {
    const all = await dcfs(a);
    const metroId = all[0].dataCenterFacility.metroId;
    const filter = JSON.stringify({
      where: { "dataCenterFacility.metroId": metroId, "dataCenterFacility.ready": true },
    });
    const inMetro = (
      await call<Loose>(a.url, "GET", "/v2/data-center-facility", { query: { filter } })
    ).body as Loose[];
    expect(inMetro.length).toBeGreaterThan(1);
    expect(inMetro.every((d) => d.dataCenterFacility.metroId === metroId)).toBe(true);
    const paged = JSON.stringify({ where: { tags: "EDGE" }, skip: 1, limit: 2 });
    const edge = (
      await call<Loose>(a.url, "GET", "/v2/data-center-facility", { query: { filter: paged } })
    ).body as Loose[];
    const allEdge = all.filter((d) => d.tags.includes("EDGE"));
    expect(edge.map((d) => d.id)).toEqual(allEdge.slice(1, 3).map((d) => d.id));
  });

  it("searches DCFs case-insensitively over name, city, airport codes and metro, with pages", async () => {
    const search = async (criteria: unknown, query: Record<string, string> = {}) =>
      (
        await call<Loose>(a.url, "GET", "/v2/data-center-facility/search", {
          query: { criteria: JSON.stringify(criteria), ...query },
        })
      ).body as Loose[];
    expect((await search({ text: "FRA" })).map((d) => d.name)).toContain(
      "Cobalt Hanauer Landstrasse",
    );
    expect(
      (await search({ name: "jfk" })).every((d) =>
        d.dataCenterFacility.airportCodes.includes("JFK"),
      ),
    ).toBe(true);
    const tokyo = await search({ text: "tokyo" });
    expect(tokyo).toHaveLength(3);
    expect(tokyo[0].products.length).toBeGreaterThan(0);
    expect(tokyo[0].isFollowing).toBe(false);
    expect(await search({ text: "ironbridge ashburn" })).toHaveLength(1);
    const page2 = await search({}, { page: "2", pageSize: "5" });
    expect(page2.map((d) => d.id)).toEqual((await dcfs(a)).slice(5, 10).map((d) => d.id));
  });

  it("has ports of several types with capacities, cos mappings and IO-D capabilities both ways", async () => {
    const ports = (
      await call<Loose>(a.url, "GET", `/api/company/${a.apiUser.companyUsername}/ports`)
    ).body.results as Loose[];
    expect(new Set(ports.map((p) => p.type))).toEqual(new Set(["PHYSICAL", "NNI", "PHYSICAL_NSP"]));
    expect(ports.some((p) => p.deleted)).toBe(true);
    const live = (
      await call<Loose>(a.url, "GET", `/api/company/${a.apiUser.companyUsername}/ports`, {
        query: { deleted: "false" },
      })
    ).body.results as Loose[];
    expect(live.some((p) => p.deleted)).toBe(false);
    const gia = await Promise.all(
      live.map(
        async (p) =>
          (await call<Loose>(a.url, "GET", `/app-user/${a.apiUser.companyId}/ports/${p.id}/info`))
            .body.capabilities.giaStandardV1,
      ),
    );
    expect(gia).toContain(true);
    expect(gia).toContain(false);
    for (const p of live) {
      expect(p.capacity.total).toBe(p.speed.value);
      expect(p.capacity.remaining).toBe(p.capacity.total - p.capacity.utilised);
      expect(Object.keys(p.cosMapping).sort()).toEqual(["BRONZE", "GOLD", "SILVER", "SILVERPLUS"]);
    }
  });
});

describe("sandbox pricing", () => {
  let s: Sandbox;
  let list: Loose[];
  const byName = (name: string) => list.find((d) => d.name === name);

  beforeAll(async () => {
    s = await openSandbox();
    list = (await call<Loose>(s.url, "GET", "/v2/data-center-facility")).body;
  });

  afterAll(async () => {
    await s?.close();
  });

  const price = async (body: unknown) => {
    const answer = await call<Loose>(s.url, "POST", "/api/pricing/calculate", { body });
    expect(answer.status, answer.text).toBe(200);
    return answer.body.results as Loose[];
  };

  it("prices ports by DCF region, speed and term, with the cross connect when asked", async () => {
    const iad = byName("Ironbridge IAD1");
    const lon = byName("Ironbridge Docklands LD8");
    const free = byName("Meridian Ashburn Campus");
    const [yearly, monthly, faster, london, freeXc] = await price({
      ports: [
        { dcf: iad.id, speed: 1000, durationUnit: "y" },
        { dcf: iad.id, speed: 1000, durationUnit: "m" },
        { dcf: iad.id, speed: 10000, durationUnit: "y" },
        { dcf: lon.id, speed: 1000, durationUnit: "y" },
        { dcf: free.id, speed: 1000, durationUnit: "y" },
      ],
      includeCrossConnect: true,
    });
    expect(yearly).toMatchObject({
      type: "PORT",
      price: 4200,
      basicMonthlyAmount: 350,
      preAuthAmount: 350,
      crossConnectAmount: 300,
    });
    expect(yearly.entity.dcf.id).toBe(iad.id);
    expect(monthly.price).toBe(402.5);
    expect(faster.price).toBeGreaterThan(yearly.price);
    expect(london.price).toBe(4830);
    expect(freeXc.crossConnectAmount).toBe(0);
    const without = await price({ ports: [{ dcf: iad.id, speed: 1000, durationUnit: "y" }] });
    expect(without[0].crossConnectAmount).toBeUndefined();
  });

  it("prices connections by the published formula and its factors", async () => {
    const iad = byName("Ironbridge IAD1");
    const lon = byName("Ironbridge Docklands LD8");
    const off = byName("Harborline Croydon");
    const [transatlantic, offNet] = await price({
      connections: [
        {
          bandwidth: 500,
          classOfService: "SILVER",
          duration: { value: 12, unit: "m" },
          srcDcf: iad.id,
          destDcf: lon.id,
        },
        {
          bandwidth: 500,
          classOfService: "GOLD",
          duration: { value: 12, unit: "m" },
          srcDcf: iad.id,
          destDcf: off.id,
        },
      ],
    });
    for (const r of [transatlantic, offNet]) {
      expect(r.formula).toBe("(bandwidthCost*multiplier)*duration/(1-margin)+portFee");
      const f = Object.fromEntries(r.factors.map((x: Loose) => [x.name, x.number]));
      expect(Object.keys(f).sort()).toEqual([
        "bandwidthCost",
        "duration",
        "margin",
        "multiplier",
        "nniFee",
        "portFee",
      ]);
      expect(r.price).toBeCloseTo(
        (f.bandwidthCost * f.multiplier * f.duration) / (1 - f.margin) + f.portFee,
        2,
      );
      expect(r.basicMonthlyAmount).toBeCloseTo(
        (f.bandwidthCost * f.multiplier) / (1 - f.margin),
        2,
      );
      const refs = r.factors.filter((x: Loose) => x.ref !== null);
      expect(refs.map((x: Loose) => x.name)).toEqual(["bandwidthCost"]);
      expect(refs[0].ref).toMatchObject({
        from: { name: "North America" },
        to: { name: "Europe" },
        price: { price: f.bandwidthCost, bandwidth: { from: 201, to: 500 } },
      });
    }
    expect(transatlantic.factors.find((x: Loose) => x.name === "bandwidthCost").ref.price.cos).toBe(
      "SILVER",
    );
    expect(offNet.factors.find((x: Loose) => x.name === "portFee").number).toBe(50);
    expect(offNet.price).toBeGreaterThan(transatlantic.price);
  });
});
