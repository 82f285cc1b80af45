import { describe, expect, it } from "vitest";
import { serviceDetailView, serviceNotFoundText } from "../../views/lookups/services.js";
import { NOW, TZ } from "./fixtures.js";
import {
  bareService,
  iodService,
  layer2BusinessToBusiness,
  layer2PortToPort,
} from "./serviceFixtures.js";
import { expectNoRawAngleBrackets, expectWithinSlackLimits, readable } from "./support.js";

describe("serviceDetailView", () => {
  it("a port-to-port layer 2 connection: status, both ports with their data centers, bandwidth and term", () => {
    const reply = serviceDetailView(layer2PortToPort, TZ, NOW);
    const text = readable(reply.blocks);
    expect(text).toContain("Layer 2 connection ams-to-lon");
    expect(text).toContain(":large_green_circle: ACTIVE");
    expect(text).toContain("*Connection ID*\n`6a1b2c3d4e5f6a7b8c9d0e1f`");
    expect(text).toContain("*Bandwidth*\n2,000 Mbps");
    expect(text).toContain(
      "*Source*\n*ams-core-1* `5f2a9c0e1b3d4a5f6e7d8c9b`\nEquinix AM3 (`equinix-am3`)\nAmsterdam (AMS)",
    );
    expect(text).toContain("*Destination*\n*lon-core-01* `5f2a9c0e1b3d4a5f6e7d8c00`\nEquinix LD5");
    expect(text).toContain("*Class of service*\nSILVER");
    expect(text).toContain("*Term*\n12 months");
    expect(text).toContain("*Evergreen*\nYes");
    expect(text).toContain("Requested by <@U0REQUESTER> through this bot");
    expect(text).toContain("`/connect port 5f2a9c0e1b3d4a5f6e7d8c9b`");
    expect(reply.text).toBe("Layer 2 connection ams-to-lon: ACTIVE, 2,000 Mbps");
    expectWithinSlackLimits(reply.blocks);
  });

  it("business-to-business: the partner company and its data center, and who is awaited", () => {
    const text = readable(serviceDetailView(layer2BusinessToBusiness, TZ, NOW).blocks);
    expect(text).toContain("PENDING — waiting for the other company to accept");
    // Without names (a connection not requested through the bot), the ids.
    expect(text).toContain(
      "*Destination*\nCompany `globex-cloud`\ndata center `dcf-fr5`\nmetro `metro-fra`\nregion `eu-1`",
    );
    expect(text).toContain("*Bandwidth*\n200 Mbps");
  });

  it("business-to-business with the names the request gave: names, not ids (issue 32, item 17)", () => {
    const named = {
      ...layer2BusinessToBusiness,
      partner: {
        ...layer2BusinessToBusiness.partner,
        dcfName: "Globex FR5",
        metroName: "Frankfurt (FRA)",
        regionName: "Europe",
      },
    };
    const text = readable(serviceDetailView(named, TZ, NOW).blocks);
    expect(text).toContain(
      "*Destination*\nCompany `globex-cloud`\ndata center Globex FR5\nmetro Frankfurt (FRA)\nregion Europe",
    );
    expect(text).not.toMatch(/dcf-fr5|metro-fra|eu-1/);
  });

  it("an IO-D service: access port, rate limit, both address blocks, the ASN and the BGP session", () => {
    const reply = serviceDetailView(iodService, TZ, NOW);
    const text = readable(reply.blocks);
    expect(text).toContain("IO-D service ams-internet");
    expect(text).toContain("*Service ID*\n`6a1b2c3d4e5f6a7b8c9d0e3f`");
    expect(text).toContain("*Rate limit*\n500 Mbps");
    expect(text).toContain("*Access port*\n*ams-core-1* `5f2a9c0e1b3d4a5f6e7d8c9b`\nEquinix AM3");
    expect(text).toContain("*Term*\n30 days");
    expect(text).toContain("*IPv4 block*\n`203.0.113.16/28`");
    expect(text).toContain("*IPv6 block*\n`2001:db8:1200::/48`");
    expect(text).toContain("*ASN*\nAS64500 (public)");
    expect(text).toContain("*Routing*\nDYNAMIC");
    expect(text).toContain(
      "*BGP session*\nESTABLISHED · peer `203.0.113.17` · AS64500 · local `203.0.113.18`",
    );
    expect(text).not.toContain("Destination");
    expectWithinSlackLimits(reply.blocks);
  });

  it("an IO-D service whose blocks are not reported yet shows the requested sizes", () => {
    const text = readable(
      serviceDetailView(
        {
          ...iodService,
          ipv4Blocks: [],
          ipv6Blocks: [],
          ipv4PrefixLength: 28,
          ipv6PrefixLength: 48,
        },
        TZ,
        NOW,
      ).blocks,
    );
    expect(text).toContain("*IPv4 block*\na /28 (requested; not reported yet)");
    expect(text).toContain("*IPv6 block*\na /48 (requested; not reported yet)");
  });

  it("with nothing but an id: shows the id and says the status was not reported", () => {
    const reply = serviceDetailView(bareService, TZ, NOW);
    const text = readable(reply.blocks);
    expect(text).toContain("Connection 6a1b2c3d4e5f6a7b8c9d0e4f");
    expect(text).toContain("status not reported");
    expect(text).toContain("`6a1b2c3d4e5f6a7b8c9d0e4f`");
    expect(text).not.toContain("undefined");
    expectWithinSlackLimits(reply.blocks);
  });

  it("escapes provider text", () => {
    const reply = serviceDetailView(
      { ...layer2BusinessToBusiness, name: "<!channel>", partner: { company: "<@U1>" } },
      TZ,
      NOW,
    );
    expectNoRawAngleBrackets(reply.blocks);
    expect(reply.text).not.toContain("<!channel>");
  });
});

describe("serviceNotFoundText", () => {
  it("names the id and where to find real ones", () => {
    expect(serviceNotFoundText("layer2", "abc")).toBe(
      "No layer 2 connection with id `abc` on your ports. The connections of a port and their ids: `/connect port &lt;portId&gt;` (port ids: `/connect ports`).",
    );
    expect(serviceNotFoundText("iod", "abc")).toContain("No IO-D service with id `abc`");
  });
});
