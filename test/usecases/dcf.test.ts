import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/log.js";
import type {
  DcfSearch,
  DcfSearchResult,
  MetroCapability,
  ProviderApi,
} from "../../src/provider/api.js";
import { httpError } from "../../src/provider/errors.js";
import {
  companyMetros,
  DCF_QUERY_MAX,
  type DcfDeps,
  METRO_CACHE_MS,
  parseDcfQuery,
  searchFacilities,
} from "../../src/usecases/dcf.js";

const IDENTITY = {
  userId: "u1",
  companyId: "c0ffee0000000000000000c1",
  companyUsername: "acme-networks",
  companyName: "Acme Networks",
};

const METROS: MetroCapability[] = [
  { id: "m-ams", name: "Amsterdam", code: "AMS", capabilities: { layer2: true } },
  { id: "m-lon", name: "London", code: "LON" },
];

function dcfs(n: number, prefix = "DC"): DcfSearchResult[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `dcf-${prefix}-${i}`,
    name: `${prefix} ${i}`,
    username: `${prefix.toLowerCase()}-${i}`,
    dataCenterFacility: { metroId: "m-ams" },
  }));
}

function setup(
  answers: {
    search?: (search: DcfSearch) => Promise<DcfSearchResult[]>;
    metros?: () => Promise<MetroCapability[]>;
  } = {},
) {
  const searches: DcfSearch[] = [];
  const metroCalls: string[] = [];
  const provider = {
    searchDcfs: async (search: DcfSearch = {}) => {
      searches.push(search);
      return answers.search ? answers.search(search) : dcfs(3);
    },
    listMetroCapabilities: async (companyUsername: string) => {
      metroCalls.push(companyUsername);
      return answers.metros ? answers.metros() : METROS;
    },
  } as Partial<ProviderApi> as ProviderApi;
  const logLines: string[] = [];
  const logger = createLogger({
    level: "debug",
    destination: new Writable({
      write(chunk, _enc, cb) {
        logLines.push(chunk.toString());
        cb();
      },
    }),
  });
  let now = 1_000_000;
  const deps: DcfDeps = {
    provider,
    identity: async () => IDENTITY,
    logger,
    now: () => now,
  };
  return {
    deps,
    searches,
    metroCalls,
    logLines,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

describe("searchFacilities", () => {
  it("sends the text and a 1-based page of the asked size, and names the metros", async () => {
    const t = setup({ search: async () => dcfs(10) });
    const result = await searchFacilities(t.deps, { text: " ams ", page: 2, pageSize: 10 });
    expect(t.searches).toEqual([{ text: "ams", page: 3, pageSize: 10 }]);
    expect(t.metroCalls).toEqual([IDENTITY.companyUsername]);
    expect(result.query).toBe("ams");
    expect(result.metros.map((m) => m.name)).toEqual(["Amsterdam", "London"]);
    expect(result.dcfs).toHaveLength(10);
    expect(result.page).toEqual({ page: 2, pageSize: 10, hasNext: true });
  });

  it("sends no text criteria for an empty search and ends the list on a short page", async () => {
    const t = setup({ search: async () => dcfs(4) });
    const result = await searchFacilities(t.deps, { text: "", page: 0, pageSize: 10 });
    expect(t.searches).toEqual([{ page: 1, pageSize: 10 }]);
    expect(result.page.hasNext).toBe(false);
  });

  it("never shows more than a page when the provider ignores the page size", async () => {
    const t = setup({ search: async () => dcfs(36) });
    const result = await searchFacilities(t.deps, { page: 0, pageSize: 10 });
    expect(result.dcfs.map((d) => d.name)).toEqual(dcfs(10).map((d) => d.name));
  });

  it("still answers, with metro ids only, when the metro call fails (and logs why)", async () => {
    const t = setup({
      metros: async () => {
        throw httpError(
          {
            operation: "listMetroCapabilities",
            method: "GET",
            path: "/api/company/{companyUsername}/metro/capabilities",
            subject: "the metro list",
          },
          500,
          undefined,
        );
      },
    });
    const result = await searchFacilities(t.deps, { text: "ams", page: 0, pageSize: 10 });
    expect(result.dcfs).toHaveLength(3);
    expect(result.metros).toEqual([]);
    expect(t.logLines.join("")).toContain("metro names unavailable");
  });

  it("fails when the search itself fails: there is nothing to show", async () => {
    const t = setup({
      search: async () => {
        throw new Error("boom");
      },
    });
    await expect(searchFacilities(t.deps, { page: 0, pageSize: 10 })).rejects.toThrow("boom");
  });
});

describe("the metro cache", () => {
  it("asks for metros once per few minutes, not once per search", async () => {
    const t = setup();
    await searchFacilities(t.deps, { text: "a", page: 0, pageSize: 10 });
    await searchFacilities(t.deps, { text: "b", page: 1, pageSize: 10 });
    t.advance(METRO_CACHE_MS - 1);
    await searchFacilities(t.deps, { text: "c", page: 0, pageSize: 10 });
    expect(t.metroCalls).toHaveLength(1);
    t.advance(1);
    await searchFacilities(t.deps, { text: "d", page: 0, pageSize: 10 });
    expect(t.metroCalls).toHaveLength(2);
  });

  it("does not keep a failure: the next search asks again", async () => {
    let fail = true;
    const t = setup({
      metros: async () => {
        if (fail) throw new Error("metro call failed");
        return METROS;
      },
    });
    await expect(companyMetros(t.deps, "acme-networks")).rejects.toThrow("metro call failed");
    fail = false;
    expect((await companyMetros(t.deps, "acme-networks")).map((m) => m.code)).toEqual([
      "AMS",
      "LON",
    ]);
    expect(t.metroCalls).toHaveLength(2);
  });

  it("is kept per provider client and per company", async () => {
    const a = setup();
    const b = setup();
    await companyMetros(a.deps, "acme-networks");
    await companyMetros(b.deps, "acme-networks");
    await companyMetros(a.deps, "globex-cloud");
    await companyMetros(a.deps, "acme-networks");
    expect(a.metroCalls).toEqual(["acme-networks", "globex-cloud"]);
    expect(b.metroCalls).toEqual(["acme-networks"]);
  });
});

describe("parseDcfQuery", () => {
  it("joins the words and squeezes spaces", () => {
    expect(parseDcfQuery(["  new", "", "york  "])).toEqual({ ok: true, query: "new york" });
    expect(parseDcfQuery([])).toEqual({ ok: true, query: "" });
  });

  it("refuses text longer than a search needs", () => {
    expect(parseDcfQuery(["a".repeat(DCF_QUERY_MAX)]).ok).toBe(true);
    expect(parseDcfQuery(["a".repeat(DCF_QUERY_MAX + 1)])).toEqual({
      ok: false,
      problem: "too-long",
    });
  });
});
