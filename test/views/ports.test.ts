import { describe, expect, it } from "vitest";
import { paginate } from "../../src/domain/paging.js";
import {
  capacityText,
  connectionsSummary,
  PORT_PAGE_SIZE,
  portDetailView,
  portListView,
} from "../../views/lookups/ports.js";
import {
  capabilitiesIod,
  capabilitiesNoIod,
  EPOCH,
  NOW,
  portActive,
  portBare,
  portOld,
  TZ,
} from "./fixtures.js";
import { expectNoRawAngleBrackets, expectWithinSlackLimits, readable } from "./support.js";

const firstPage = { page: 0, pageSize: PORT_PAGE_SIZE, hasNext: false };

describe("portListView", () => {
  it("shows each port's status, link, speed, capacity, location, services and connections", () => {
    const reply = portListView([portActive, portOld, portBare], firstPage);
    const text = readable(reply.blocks);
    expect(text).toContain(
      "*ams-core-1*  ·  :large_green_circle: ACTIVE  ·  link :large_green_circle: UP",
    );
    expect(text).toContain("10G · PHYSICAL · Equinix AM3 · Amsterdam (AMS) · Services: L2, IOD");
    expect(text).toContain(
      "Capacity: 2,500 Mbps used (25%) · 7,500 Mbps free (75%) of 10,000 Mbps",
    );
    expect(text).toContain("3 connections (1 ACTIVE, 1 ERROR, 1 FROBNICATING)");
    expect(text).toContain(`ID \`${portActive.id}\``);
    // The unknown status is shown verbatim; the epoch in deletedAt is not "deleted".
    expect(text).toContain("*legacy-nni*  ·  HIBERNATING");
    // Speed given only by name; metro only by id.
    expect(text).toContain("1G · NNI · metro `5f1a2b3c4d5e6f7a8b9c0d99`");
    expect(text).not.toContain("deleted");
    // A bare record still renders.
    expect(text).toContain("*Unnamed port*");
    expect(text).toContain("No connections");
    expect(reply.page).toEqual({ index: 0, hasNext: false });
    expectWithinSlackLimits(reply.blocks);
  });

  it("marks a deleted port", () => {
    const reply = portListView(
      [{ ...portActive, deletedAt: "2026-11-01T00:00:00.000Z", status: "DELETED" }],
      firstPage,
    );
    expect(readable(reply.blocks)).toContain(":wastebasket: deleted");
  });

  it("pages a long list within Slack's limits", () => {
    const ports = Array.from({ length: 45 }, (_, i) => ({
      ...portActive,
      id: `port-${i}`,
      name: `port-${i}`,
      connections: Array.from({ length: 50 }, (_, c) => ({
        id: `c${c}`,
        name: `conn-${c}`,
        status: c % 2 ? "ACTIVE" : "PENDING",
      })),
    }));
    const { items, page } = paginate(ports, 1, PORT_PAGE_SIZE);
    const reply = portListView(items, page);
    expectWithinSlackLimits(reply.blocks);
    expect(reply.page).toEqual({ index: 1, hasNext: true });
    const text = readable(reply.blocks);
    expect(text).toContain("*port-10*");
    expect(text).toContain("*port-19*");
    expect(text).not.toContain("*port-20*");
    expect(text).toContain("Showing 11–20 of 45");
    expect(text).toContain("50 connections (25 PENDING, 25 ACTIVE)");
  });

  it("says when there are no ports", () => {
    const reply = portListView([], firstPage);
    expect(reply.text).toContain("no ports");
    expect(readable(reply.blocks)).toContain("/connect port order");
  });
});

describe("capacity and connections", () => {
  it("computes the missing part of the capacity", () => {
    expect(capacityText(portOld)).toBe("0 Mbps used (0%) · 1,000 Mbps free (100%) of 1,000 Mbps");
    expect(capacityText(portBare)).toBeUndefined();
    expect(capacityText({ id: "p", speed: { value: 1000 }, capacity: { remaining: 250 } })).toBe(
      "750 Mbps used (75%) · 250 Mbps free (25%) of 1,000 Mbps",
    );
    expect(connectionsSummary({ id: "p", connections: [{ id: "x" }] })).toBe(
      "1 connection (1 no status)",
    );
  });
});

describe("portDetailView", () => {
  it("shows one port in full with its IO-D capability", () => {
    const reply = portDetailView(portActive, capabilitiesIod, TZ, NOW);
    const text = readable(reply.blocks);
    expect(text).toContain("Port ams-core-1");
    expect(text).toContain(":white_check_mark: IO-D enabled");
    expect(text).toContain(`*Port ID*\n\`${portActive.id}\``);
    expect(text).toContain("*Speed*\n10G");
    expect(text).toContain(
      "*Link state*\n:large_green_circle: UP since 3 days ago (12 Nov 2026, 14:05 CET)",
    );
    expect(text).toContain("*Data center*\nEquinix AM3 `equinix-am3`");
    expect(text).toContain("*Metro*\nAmsterdam (AMS)");
    expect(text).toContain("*Capacity*\n2,500 Mbps used (25%)");
    expect(text).toContain("*VLAN ranges*\n100–199, 300");
    expect(text).toContain("GOLD: EF, CS5\nSILVERPLUS: AF41\nSILVER: AF31\nBRONZE: —");
    expect(text).toMatch(/\*Created\*\n.*\(10 Jan 2026, 10:00 CET\)/);
    expect(text).toMatch(/\*First active\*\n.*\(12 Jan 2026, 10:00 CET\)/);
    expect(text).toContain(
      "• *to-london* · :large_green_circle: ACTIVE · 1,000 Mbps · LAYER2 · `c1`",
    );
    expect(text).toContain("• *to-frankfurt* · :red_circle: ERROR · 500 Mbps · Layer 2 · `c2`");
    expect(text).toContain("• *to-paris* · FROBNICATING · 100 Mbps · LAYER2");
    expect(text).toContain("/connect iod");
    expect(text).toContain(
      `DCF id \`${portActive.dataCenterFacilityId}\` · metro id \`${portActive.metroId}\``,
    );
    expect(reply.page).toBeUndefined();
    expectWithinSlackLimits(reply.blocks);
    expectNoRawAngleBrackets(reply.blocks);
  });

  it("says not enabled, or unknown when the info call failed", () => {
    expect(readable(portDetailView(portActive, capabilitiesNoIod, TZ, NOW).blocks)).toContain(
      "Not IO-D enabled",
    );
    expect(readable(portDetailView(portActive, { capabilities: {} }, TZ, NOW).blocks)).toContain(
      "Not IO-D enabled",
    );
    const unknown = readable(portDetailView(portActive, undefined, TZ, NOW).blocks);
    expect(unknown).toContain("IO-D capability unknown");
    expect(unknown).not.toContain("IO-D enabled");
  });

  it("renders old and bare records without throwing", () => {
    const old = readable(portDetailView(portOld, undefined, TZ, NOW).blocks);
    expect(old).toContain("HIBERNATING");
    expect(old).toContain("*Speed*\n1G");
    expect(old).not.toContain("*Deleted*");
    expect(old).not.toContain("1970");
    const bare = portDetailView(portBare, undefined, undefined, NOW);
    expect(readable(bare.blocks)).toContain(`Port ${portBare.id}`);
    expect(readable(bare.blocks)).toContain("*Connections* — none");
    expectWithinSlackLimits(bare.blocks);
    // Junk where arrays and objects belong.
    const junk = {
      id: "j",
      connections: null,
      vlanRange: [{}],
      cosMapping: null,
      linkState: "DOWN",
    };
    expect(() =>
      portDetailView(junk as unknown as typeof portBare, undefined, "Not/AZone", NOW),
    ).not.toThrow();
    // The epoch is no "since".
    const epochLink = portDetailView(
      { ...portOld, linkStateUpSince: EPOCH, linkState: "UP" },
      undefined,
      TZ,
      NOW,
    );
    expect(readable(epochLink.blocks)).toContain("*Link state*\n:large_green_circle: UP\n");
  });

  it("keeps a port with hundreds of connections within the section limit", () => {
    const port = {
      ...portActive,
      connections: Array.from({ length: 300 }, (_, i) => ({
        id: `conn-id-${i}`,
        name: `connection number ${i}`,
        status: "ACTIVE",
        speed: 1000,
        type: "LAYER2",
      })),
    };
    const reply = portDetailView(port, capabilitiesIod, TZ, NOW);
    expectWithinSlackLimits(reply.blocks);
    expect(readable(reply.blocks)).toMatch(/…and \d+ more/);
  });
});
