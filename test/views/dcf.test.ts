import { describe, expect, it } from "vitest";
import { isOffNet } from "../../src/domain/catalog/dcfTags.js";
import { DCF_PAGE_SIZE, dcfFeatures, dcfListView } from "../../views/dcf.js";
import { dcfBare, dcfEdgeFree, dcfOffNet, dcfOnNet, metroAms } from "./fixtures.js";
import { expectNoRawAngleBrackets, expectWithinSlackLimits, readable } from "./support.js";

const firstPage = { page: 0, pageSize: DCF_PAGE_SIZE, hasNext: false };

describe("dcfListView", () => {
  it("shows what a person needs to price and order at each facility", () => {
    const reply = dcfListView([dcfOnNet, dcfOffNet], {
      ...firstPage,
      query: "am",
      metros: [metroAms],
    });
    const text = readable(reply.blocks);
    expect(text).toContain('Data centers matching "am"');
    // On-net: place from the primary address (not the registered one), metro name and code.
    expect(text).toContain("*Equinix AM3*  ·  Amsterdam, NL");
    expect(text).not.toContain("Haarlem");
    expect(text).toContain("Metro: Amsterdam (AMS)");
    expect(text).toContain("Speeds: 1G, 10G, 100G");
    expect(text).toContain(":white_check_mark: ready");
    expect(text).toContain("cross-connect bundling");
    expect(text).toContain("Username `equinix-am3`");
    expect(text).toContain(`ID \`${dcfOnNet.id}\``);
    // The epoch in deletedAt is "not deleted".
    expect(text).not.toContain("deleted");
    // Off-net: speeds given as objects, metro unknown → its id, not ready.
    expect(text).toContain("Lisbon, PT");
    expect(text).toContain("Speeds: 1G, 10G");
    expect(text).toContain("Metro: `5f1a2b3c4d5e6f7a8b9c0d99`");
    expect(text).toContain("off-net");
    expect(text).toContain("not ready yet");
    expect(text).toContain("/connect price port");
    expect(reply.page).toEqual({ index: 0, hasNext: false });
    expectWithinSlackLimits(reply.blocks);
  });

  it("translates tags to words and shows unknown tags as they came, escaped", () => {
    expect(dcfFeatures(dcfEdgeFree)).toEqual(["Edge", "free cross connect", "SHINY_NEW_TAG"]);
    expect(dcfFeatures(dcfOffNet)).toEqual(["off-net"]);
    expect(isOffNet(["extended"])).toBe(true);
    expect(isOffNet(["EDGE"])).toBe(false);
    const reply = dcfListView([dcfEdgeFree], firstPage);
    const text = readable(reply.blocks);
    expect(text).toContain("Edge · free cross connect · SHINY_NEW_TAG");
    expect(text).toContain("Edge &amp; Co &lt;Amsterdam&gt; 2");
    expect(text).toContain("Speeds: 100M, 1G, 2.5G");
    expectNoRawAngleBrackets(reply.blocks);
  });

  it("renders a record with nothing but an id", () => {
    const reply = dcfListView([dcfBare], firstPage);
    const text = readable(reply.blocks);
    expect(text).toContain("Unnamed data center");
    expect(text).toContain("Speeds: —");
    expect(text).toContain(`ID \`${dcfBare.id}\``);
    expectWithinSlackLimits(reply.blocks);
  });

  it("says clearly when nothing matches, with a hint", () => {
    const reply = dcfListView([], { ...firstPage, query: "xyz" });
    expect(reply.text).toBe('No data center matches "xyz".');
    expect(readable(reply.blocks)).toMatch(/airport code/);
    expect(readable(reply.blocks)).toContain("/connect dcf amsterdam");
  });

  it("keeps a page of many facilities far below Slack's limits and pages the rest", () => {
    const many = Array.from({ length: 40 }, (_, i) => ({
      ...dcfOnNet,
      id: `id-${i}`,
      username: `dcf-${i}`,
      name: `Facility ${i} ${"with a very long name ".repeat(20)}`,
      tags: Array.from({ length: 30 }, (_, t) => `TAG_${t}`),
    }));
    const reply = dcfListView(many, { page: 2, pageSize: 40, hasNext: false, total: 200 });
    expectWithinSlackLimits(reply.blocks);
    const sections = reply.blocks.filter((b) => b.type === "section");
    expect(sections.length).toBeLessThanOrEqual(12);
    expect(reply.page).toEqual({ index: 2, hasNext: true });
    expect(readable(reply.blocks)).toContain("Showing 81–92 of 200");
  });

  it("says when a later page is empty", () => {
    const reply = dcfListView([], { page: 3, pageSize: 10, hasNext: false, query: "ams" });
    expect(reply.text).toBe('No more data centers match "ams".');
    expect(reply.page).toEqual({ index: 3, hasNext: false });
  });
});
