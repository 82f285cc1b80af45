import { describe, expect, it } from "vitest";
import { paginate } from "../../src/domain/paging.js";
import {
  deletionCountdown,
  EDGE_ITEM_PAGE_SIZE,
  EDGE_LOCATION_PAGE_SIZE,
  edgeDraftsView,
  edgeLocationsView,
  edgeOrdersView,
} from "../../views/edge/edge.js";
import { drafts, edgeItems, edgeLocations, NOW, TZ } from "./fixtures.js";
import { expectWithinSlackLimits, readable } from "./support.js";

const itemsPage = { page: 0, pageSize: EDGE_ITEM_PAGE_SIZE, hasNext: false };

describe("edgeLocationsView", () => {
  it("lists city and country, tolerating missing parts", () => {
    const reply = edgeLocationsView(edgeLocations, {
      page: 0,
      pageSize: EDGE_LOCATION_PAGE_SIZE,
      hasNext: false,
    });
    const text = readable(reply.blocks);
    expect(text).toContain("• Amsterdam, Netherlands");
    expect(text).toContain("• Lisbon, Portugal");
    expect(text).toContain("• Singapore");
    expect(text).toContain("• —");
    expect(text).toContain("/connect edge quote");
    expectWithinSlackLimits(reply.blocks);
  });

  it("pages hundreds of locations within Slack's limits", () => {
    const many = Array.from({ length: 500 }, (_, i) => ({
      city: `City ${i} ${"long ".repeat(30)}`,
      country: "Country",
    }));
    const { items, page } = paginate(many, 1, EDGE_LOCATION_PAGE_SIZE);
    const reply = edgeLocationsView(items, page);
    expectWithinSlackLimits(reply.blocks);
    expect(reply.page).toEqual({ index: 1, hasNext: true });
    expect(readable(reply.blocks)).toContain("• City 60 ");
  });

  it("says when none are offered", () => {
    expect(edgeLocationsView([], { page: 0, pageSize: 60, hasNext: false }).text).toContain(
      "No Edge locations",
    );
  });
});

describe("edgeOrdersView", () => {
  it("shows drafts, orders and ports with type, status, speed, name and creation", () => {
    const reply = edgeOrdersView(edgeItems, itemsPage, TZ, NOW);
    const text = readable(reply.blocks);
    expect(text).toContain("*edge-lisbon-1* · DRAFT ORDER · :memo: DRAFT");
    expect(text).toContain(
      "1G · created 3 days ago (12 Nov 2026, 14:05 CET) · :warning: *deleted in 2 days*",
    );
    expect(text).toContain("*edge-ams-1* · PORT · :white_check_mark: done");
    expect(text).toContain("10G · created");
    expect(text).toContain("ORDER · QUOTING_AGAIN");
    expect(text).toContain("*Unnamed* · —");
    expectWithinSlackLimits(reply.blocks);
  });

  it("says when there are none", () => {
    const reply = edgeOrdersView([], itemsPage);
    expect(readable(reply.blocks)).toContain("/connect edge quote");
  });
});

describe("edgeDraftsView", () => {
  it("shows the days until deletion and warns when it is 3 days or fewer", () => {
    const reply = edgeDraftsView(drafts, itemsPage, TZ, NOW);
    const text = readable(reply.blocks);
    expect(text).toContain("*Draft order 01-11-2026* · 1G · :memo: DRAFT");
    expect(text).toContain(":warning: *deleted in 2 days*");
    expect(text).toContain("*Draft order* · 100M");
    expect(text).toContain("deleted in 20 days");
    expect(text).not.toContain(":warning: *deleted in 20 days*");
    expect(text).toContain(":warning: 1 draft is deleted within 3 days");
    expect(text).toContain("`67f0c1a2b3c4d5e6f7a8b9cb`");
    expect(reply.text).toContain("deleted in 2 days");
    expectWithinSlackLimits(reply.blocks);
  });

  it("offers Rename, Re-quote, Order and Delete on each draft that has an id", () => {
    const reply = edgeDraftsView(drafts, itemsPage, TZ, NOW);
    const actionIds = reply.blocks
      .filter((b) => b.type === "actions")
      .flatMap((b) =>
        "elements" in b ? b.elements.map((e) => ("action_id" in e ? e.action_id : "")) : [],
      );
    for (const id of [
      "edge_draft_rename",
      "edge_draft_requote",
      "edge_draft_order",
      "edge_draft_delete",
    ]) {
      expect(actionIds.filter((a) => a === id)).toHaveLength(drafts.filter((d) => d.id).length);
    }
  });

  it("reads daysUntilDelete when deleteIn is missing", () => {
    const text = readable(
      edgeDraftsView([{ id: "d", daysUntilDelete: 1 }], itemsPage, undefined, NOW).blocks,
    );
    expect(text).toContain(":warning: *deleted in 1 day*");
  });

  it("words the countdown", () => {
    expect(deletionCountdown(0)).toBe(":warning: *deleted today*");
    expect(deletionCountdown(3)).toBe(":warning: *deleted in 3 days*");
    expect(deletionCountdown(4)).toBe("deleted in 4 days");
    expect(deletionCountdown(undefined)).toBeUndefined();
    expect(deletionCountdown("soon")).toBeUndefined();
  });

  it("says when there are none", () => {
    expect(edgeDraftsView([], itemsPage).text).toBe("No Edge draft orders.");
  });
});
