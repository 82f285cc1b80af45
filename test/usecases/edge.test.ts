import { describe, expect, it } from "vitest";
import type {
  EdgeOrderListItem,
  EdgeOrderQuery,
  EdgePage,
  ProviderApi,
} from "../../src/provider/api.js";
import {
  DRAFT_STATUS,
  draftFromListItem,
  listEdgeDrafts,
  listEdgeLocations,
  listEdgeOrders,
} from "../../src/usecases/edge/lists.js";

function edgeList(answer: (query: EdgeOrderQuery | undefined) => EdgePage<EdgeOrderListItem>) {
  const queries: Array<EdgeOrderQuery | undefined> = [];
  const deps = {
    provider: {
      listEdgeOrders: async (query?: EdgeOrderQuery) => {
        queries.push(query);
        return answer(query);
      },
    } as Partial<ProviderApi> as ProviderApi,
  };
  return { deps, queries };
}

const items = (n: number, kind = "ORDER"): EdgeOrderListItem[] =>
  Array.from({ length: n }, (_, i) => ({
    id: `e${i}`,
    portName: `edge ${i}`,
    objectType: kind,
    status: kind === "DRAFT ORDER" ? "DRAFT" : "created",
  }));

describe("listEdgeLocations", () => {
  it("pages the one-go location list here", async () => {
    const locations = Array.from({ length: 65 }, (_, i) => ({ city: `City ${i}`, country: "NL" }));
    const deps = {
      provider: { listEdgeLocations: async () => locations } as Partial<ProviderApi> as ProviderApi,
    };
    const first = await listEdgeLocations(deps, { page: 0, pageSize: 60 });
    expect(first.locations).toHaveLength(60);
    expect(first.page).toEqual({ page: 0, pageSize: 60, hasNext: true, total: 65 });
    const second = await listEdgeLocations(deps, { page: 1, pageSize: 60 });
    expect(second.locations.map((l) => l.city)).toEqual(
      [60, 61, 62, 63, 64].map((i) => `City ${i}`),
    );
    expect(second.page.hasNext).toBe(false);
  });
});

describe("listEdgeOrders", () => {
  it("asks the provider for one page (page and size together, from 1) and trusts its total", async () => {
    const { deps, queries } = edgeList(() => ({ items: items(10), page: 2, size: 10, total: 20 }));
    const result = await listEdgeOrders(deps, { page: 1, pageSize: 10 });
    expect(queries).toEqual([{ page: "2", size: "10" }]);
    expect(result.items).toHaveLength(10);
    expect(result.page).toEqual({ page: 1, pageSize: 10, hasNext: false, total: 20 });
  });

  it("takes a full page as 'maybe more' when no total comes back", async () => {
    const full = edgeList(() => ({ items: items(10) }));
    expect((await listEdgeOrders(full.deps, { page: 0, pageSize: 10 })).page.hasNext).toBe(true);
    const short = edgeList(() => ({ items: items(3) }));
    expect((await listEdgeOrders(short.deps, { page: 0, pageSize: 10 })).page.hasNext).toBe(false);
  });

  it("pages here when the provider sent the whole list anyway", async () => {
    const { deps } = edgeList(() => ({ items: items(25), total: 25 }));
    const result = await listEdgeOrders(deps, { page: 1, pageSize: 10 });
    expect(result.items.map((i) => i.id)).toEqual(
      items(25)
        .slice(10, 20)
        .map((i) => i.id),
    );
    expect(result.page).toEqual({ page: 1, pageSize: 10, hasNext: true, total: 25 });
  });
});

describe("listEdgeDrafts", () => {
  it("asks for the draft status and shows drafts in the draft record's words", async () => {
    const { deps, queries } = edgeList(() => ({
      items: [
        {
          id: "d1",
          portName: "Draft order 01-02-2025",
          objectType: "DRAFT ORDER",
          status: "DRAFT",
          speed: 1000,
          daysUntilDelete: 2,
          createdAt: "2025-01-02T10:00:00.000Z",
          edgePayload: { country: "NL" },
        },
        // Another kind of record sharing the status is not a draft.
        { id: "p1", portName: "edge port", objectType: "PORT", status: "DRAFT" },
      ],
      total: 2,
    }));
    const result = await listEdgeDrafts(deps, { page: 0, pageSize: 10 });
    expect(queries).toEqual([{ page: "1", size: "10", status: DRAFT_STATUS }]);
    expect(result.drafts).toEqual([
      {
        id: "d1",
        name: "Draft order 01-02-2025",
        status: "DRAFT",
        speed: 1000,
        daysUntilDelete: 2,
        createdAt: "2025-01-02T10:00:00.000Z",
        edgePayload: { country: "NL" },
      },
    ]);
    expect(result.page.hasNext).toBe(false);
  });

  it("keeps a draft whose list item lacks fields", () => {
    expect(draftFromListItem({ status: "DRAFT" })).toEqual({ id: "", status: "DRAFT" });
  });
});
