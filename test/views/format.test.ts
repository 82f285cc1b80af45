import { describe, expect, it } from "vitest";
import { paginate } from "../../src/domain/paging.js";
import { isSet, parseTimestamp } from "../../src/domain/timestamps.js";
import {
  code,
  formatMbps,
  formatSpeed,
  formatTerm,
  loaStatusText,
  statusBadge,
  statusHint,
} from "../../views/format.js";
import { linesWithin, pageItems, rangeText } from "../../views/list.js";
import { formatAbsolute, formatWhen } from "../../views/time.js";
import { CREATED, EPOCH, NOW, TZ } from "./fixtures.js";

describe("formatSpeed", () => {
  it("says speeds the way people do", () => {
    expect(formatSpeed(100)).toBe("100M");
    expect(formatSpeed(1000)).toBe("1G");
    expect(formatSpeed(2500)).toBe("2.5G");
    expect(formatSpeed(10000)).toBe("10G");
    expect(formatSpeed(100000)).toBe("100G");
    expect(formatSpeed(400000)).toBe("400G");
  });

  it("shows a dash for a missing or nonsensical speed", () => {
    expect(formatSpeed(undefined)).toBe("—");
    expect(formatSpeed(null)).toBe("—");
    expect(formatSpeed(Number.NaN)).toBe("—");
    expect(formatSpeed(-1)).toBe("—");
  });
});

describe("statusBadge", () => {
  it("adds an emoji to known statuses of every kind of record", () => {
    expect(statusBadge("ACTIVE")).toBe(":large_green_circle: ACTIVE");
    expect(statusBadge("created")).toBe(":hourglass_flowing_sand: created");
    expect(statusBadge("done")).toBe(":white_check_mark: done");
    expect(statusBadge("error")).toBe(":red_circle: error");
    expect(statusBadge("PENDING_ACCEPTANCE")).toBe(":hourglass_flowing_sand: PENDING_ACCEPTANCE");
    expect(statusBadge("READY")).toBe(":electric_plug: READY");
  });

  it("tells an order waiting for approval from a cloud router that exists", () => {
    expect(statusBadge("created")).toBe(":hourglass_flowing_sand: created");
    expect(statusBadge("CREATED")).toBe(":large_green_circle: CREATED");
    expect(statusHint("created")).toContain("approve");
    expect(statusHint("CREATED")).toBeUndefined();
    expect(statusHint("ERROR")).toBeUndefined();
  });

  it("shows unknown statuses verbatim, escaped, and never throws", () => {
    expect(statusBadge("FROBNICATING")).toBe("FROBNICATING");
    expect(statusBadge("constructor")).toBe("constructor");
    expect(statusBadge("<b>&")).toBe("&lt;b&gt;&amp;");
    expect(statusBadge(undefined)).toBe("—");
    expect(statusBadge("")).toBe("—");
  });
});

describe("loaStatusWords", () => {
  it("says the provider's placeholder LOA statuses in words and shows the rest as they came", () => {
    expect(loaStatusText("TODO")).toBe("not issued yet");
    expect(loaStatusText(" todo ")).toBe("not issued yet");
    expect(loaStatusText("N/A")).toBe("not required");
    expect(loaStatusText("APPROVED")).toBe("APPROVED");
    expect(loaStatusText("<b>odd</b>")).toBe("&lt;b&gt;odd&lt;/b&gt;");
    expect(loaStatusText("")).toBeUndefined();
    expect(loaStatusText(undefined)).toBeUndefined();
  });
});

describe("small formatters", () => {
  it("formats terms, bandwidth and inline code", () => {
    expect(formatTerm(12, "m")).toBe("12 months");
    expect(formatTerm(1, "y")).toBe("1 year");
    expect(formatTerm(4, "w")).toBe("4 weeks");
    expect(formatTerm(3, "fortnight")).toBe("3 fortnight");
    expect(formatTerm(undefined, undefined)).toBe("—");
    // Before a noun: "there is no 3-year term".
    expect(formatTerm(3, "y", "adjective")).toBe("3-year");
    expect(formatTerm(36, "m", "adjective")).toBe("36-month");
    expect(formatTerm(3, "fortnight", "adjective")).toBe("3-fortnight");
    expect(formatMbps(7500)).toBe("7,500 Mbps");
    expect(code("a`b<c>")).toBe("`a'b&lt;c&gt;`");
  });
});

describe("time", () => {
  it("shows relative and absolute time in the person's zone", () => {
    expect(formatWhen(CREATED, TZ, NOW)).toBe("3 days ago (12 Nov 2026, 14:05 CET)");
    expect(formatWhen(CREATED, "America/New_York", NOW)).toBe(
      "3 days ago (12 Nov 2026, 08:05 EST)",
    );
  });

  it("falls back to UTC for a missing or unknown zone", () => {
    const date = new Date(CREATED);
    expect(formatAbsolute(date, undefined)).toBe("12 Nov 2026, 13:05 UTC");
    expect(formatAbsolute(date, "Mars/Olympus_Mons")).toBe("12 Nov 2026, 13:05 UTC");
  });

  it("treats the epoch, null and garbage as not set", () => {
    expect(parseTimestamp(EPOCH)).toBeUndefined();
    expect(isSet(EPOCH)).toBe(false);
    expect(isSet(null)).toBe(false);
    expect(isSet("not a date")).toBe(false);
    expect(isSet("")).toBe(false);
    expect(isSet(CREATED)).toBe(true);
    expect(formatWhen(EPOCH, TZ, NOW)).toBeUndefined();
    expect(formatWhen({}, TZ, NOW)).toBeUndefined();
  });
});

describe("list helpers", () => {
  it("cuts a whole list into pages", () => {
    const items = Array.from({ length: 25 }, (_, i) => i);
    expect(paginate(items, 0, 10)).toEqual({
      items: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
      page: { page: 0, pageSize: 10, hasNext: true, total: 25 },
    });
    expect(paginate(items, 2, 10).items).toEqual([20, 21, 22, 23, 24]);
    expect(paginate(items, 2, 10).page.hasNext).toBe(false);
    expect(paginate(items, 9, 10).items).toEqual([]);
  });

  it("holds back what does not fit and says there is more", () => {
    const items = Array.from({ length: 30 }, (_, i) => i);
    const { shown, hasNext, first } = pageItems(
      items,
      { page: 1, pageSize: 30, hasNext: false },
      12,
    );
    expect(shown).toHaveLength(12);
    expect(hasNext).toBe(true);
    expect(first).toBe(31);
    expect(rangeText(31, 12, 100)).toBe("Showing 31–42 of 100");
    expect(rangeText(1, 1)).toBe("Showing item 1");
    expect(rangeText(1, 0)).toBe("Nothing on this page");
  });

  it("keeps joined lines under a limit without cutting a line", () => {
    const lines = Array.from({ length: 200 }, (_, i) => `line number ${i}`);
    const text = linesWithin(lines, 300);
    expect(text.length).toBeLessThanOrEqual(300);
    expect(text).toMatch(/…and \d+ more/);
    const kept = text.split("\n").slice(0, -1);
    for (const line of kept) expect(lines).toContain(line);
    const remaining = Number(/and (\d+) more/.exec(text)?.[1]);
    expect(kept.length + remaining).toBe(200);
    expect(linesWithin(["x".repeat(500)], 100).length).toBeLessThanOrEqual(100);
  });
});
