import { describe, expect, it } from "vitest";
import { TRACK_TARGET_KINDS } from "../../src/domain/tracking/statuses.js";
import { stopTrackingText } from "../../views/lookups/tracking.js";

describe("/connect track stop's answer", () => {
  it("names what stopped by its kind, as every other surface names it", () => {
    const said = TRACK_TARGET_KINDS.map((kind) => stopTrackingText({ ok: true, kind }, "x-1"));
    expect(said).toEqual([
      "Tracking stopped: Port order `x-1`.",
      "Tracking stopped: Port `x-1`.",
      "Tracking stopped: Layer 2 connection `x-1`.",
      "Tracking stopped: IO-D service `x-1`.",
      "Tracking stopped: Edge port order `x-1`.",
    ]);
  });

  it("says nothing is tracked under an id without guessing its kind, and points at the list", () => {
    expect(stopTrackingText({ ok: false, reason: "not_tracked" }, "<!channel>")).toBe(
      "Nothing is being tracked under `&lt;!channel&gt;`. `/connect track` lists what is.",
    );
    expect(stopTrackingText({ ok: false, reason: "not_allowed" }, "x-1")).toMatch(
      /^Only the person who started tracking this order, or an approver/,
    );
  });
});
