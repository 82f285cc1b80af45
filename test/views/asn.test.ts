import { describe, expect, it } from "vitest";
import { asnView, prefixCount } from "../../views/lookups/asn.js";
import { asnBare, asnPrivateUnknownStatus, asnPublic } from "./fixtures.js";
import { expectNoRawAngleBrackets, expectWithinSlackLimits, readable } from "./support.js";

describe("asnView", () => {
  it("shows the suggested private ASN and each verified ASN", () => {
    const reply = asnView({ asn: 64600 }, [asnPublic, asnPrivateUnknownStatus]);
    const text = readable(reply.blocks);
    expect(text).toContain("*Suggested private ASN:* `64600`");
    expect(text).toContain("*Verified ASNs (2)*");
    expect(text).toContain(
      "• `AS13335` · AS-SET `AS-EXAMPLE` · public · :white_check_mark: VERIFIED · 4 prefixes configured (3 IPv4, 1 IPv6)",
    );
    expect(text).toContain(`record \`${asnPublic.id}\``);
    // No `private` flag: told from the number; an unknown status is shown verbatim.
    expect(text).toContain(
      "• `AS64512` · no AS-SET · private · RECHECKING · no prefixes configured",
    );
    // The epoch in deleted_at is "not deleted".
    expect(text).not.toContain("deleted");
    expect(reply.text).toContain("64600");
    expectWithinSlackLimits(reply.blocks);
  });

  it("says when the suggestion call failed and when no ASN is verified", () => {
    const text = readable(asnView(undefined, []).blocks);
    expect(text).toContain("*Suggested private ASN:* unknown");
    expect(text).toContain("*Verified ASNs:* none");
    expect(text).toContain("support team");
  });

  it("renders bare and deallocated records", () => {
    const reply = asnView({ asn: 64512 }, [
      asnBare,
      { ...asnPublic, deallocatedAt: "2026-01-01T00:00:00.000Z" },
    ]);
    const text = readable(reply.blocks);
    expect(text).toContain("`AS?`");
    expect(text).toContain(":wastebasket: deallocated");
    expectWithinSlackLimits(reply.blocks);
  });

  it("counts a prefix once across the registry and the service layer", () => {
    expect(prefixCount(asnPublic)).toBe("4 prefixes configured (3 IPv4, 1 IPv6)");
    expect(prefixCount({ id: "x", ipPrefixConfiguredInSLV6: ["2001:db8::/48"] })).toBe(
      "1 prefix configured (0 IPv4, 1 IPv6)",
    );
  });

  it("stays within limits with many ASNs and escapes provider text", () => {
    const many = Array.from({ length: 200 }, (_, i) => ({
      ...asnPublic,
      id: `id-${i}`,
      asn: String(64600 + i),
      asSet: "AS-<SET>&",
    }));
    const reply = asnView({ asn: 64512 }, many);
    expectWithinSlackLimits(reply.blocks);
    expectNoRawAngleBrackets(reply.blocks);
    expect(readable(reply.blocks)).toMatch(/…and \d+ more/);
  });
});
