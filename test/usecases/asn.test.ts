import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/log.js";
import type { Asn, ProviderApi } from "../../src/provider/api.js";
import { httpError } from "../../src/provider/errors.js";
import { type AsnDeps, lookUpAsns } from "../../src/usecases/asn.js";

const IDENTITY = {
  userId: "u1",
  companyId: "c0ffee0000000000000000c1",
  companyUsername: "acme-networks",
  companyName: "Acme Networks",
};

const PUBLIC: Asn[] = [
  { id: "a-64500", asn: "64500", private: false, status: "VERIFIED" },
  { id: "a-64501", asn: "64501", private: false, status: "VERIFIED" },
];
const PRIVATE: Asn[] = [{ id: "a-65010", asn: "65010", private: true, status: "VERIFIED" }];

function setup(provider: Partial<ProviderApi>) {
  const logLines: string[] = [];
  const deps: AsnDeps = {
    provider: provider as ProviderApi,
    identity: async () => IDENTITY,
    logger: createLogger({
      level: "debug",
      destination: new Writable({
        write(chunk, _enc, cb) {
          logLines.push(chunk.toString());
          cb();
        },
      }),
    }),
  };
  return { deps, logLines };
}

const listVerifiedAsns: ProviderApi["listVerifiedAsns"] = async (_companyId, options = {}) =>
  options.private ? PRIVATE : PUBLIC;

describe("lookUpAsns", () => {
  it("gives the suggestion and the verified ASNs, public then private", async () => {
    const asked: unknown[][] = [];
    const { deps } = setup({
      suggestPrivateAsn: async () => 65391,
      listVerifiedAsns: async (...args) => {
        asked.push(args);
        return listVerifiedAsns(...args);
      },
    });
    const overview = await lookUpAsns(deps);
    expect(overview.suggestedPrivateAsn).toBe(65391);
    expect(overview.verified.map((a) => a.asn)).toEqual(["64500", "64501", "65010"]);
    expect(asked).toEqual([[IDENTITY.companyId], [IDENTITY.companyId, { private: true }]]);
  });

  it("shows each record once when both lists carry it", async () => {
    const { deps } = setup({
      suggestPrivateAsn: async () => 65391,
      listVerifiedAsns: async () => [...PUBLIC, ...PRIVATE],
    });
    const overview = await lookUpAsns(deps);
    expect(overview.verified.map((a) => a.id)).toEqual(["a-64500", "a-64501", "a-65010"]);
  });

  it("still lists the verified ASNs when the suggestion fails", async () => {
    const { deps, logLines } = setup({
      suggestPrivateAsn: async () => {
        throw httpError(
          {
            operation: "getPrivateAsnSuggestion",
            method: "GET",
            path: "/api/private-asn/suggestion",
            subject: "the private ASN suggestion",
          },
          503,
          undefined,
        );
      },
      listVerifiedAsns,
    });
    const overview = await lookUpAsns(deps);
    expect(overview.suggestedPrivateAsn).toBeUndefined();
    expect(overview.verified).toHaveLength(3);
    expect(logLines.join("")).toContain("private ASN suggestion unavailable");
  });

  it("fails when a verified list fails: half a list would mislead", async () => {
    const { deps } = setup({
      suggestPrivateAsn: async () => 65391,
      listVerifiedAsns: async (_id, options = {}) => {
        if (options.private) throw new Error("private list failed");
        return PUBLIC;
      },
    });
    await expect(lookUpAsns(deps)).rejects.toThrow("private list failed");
  });
});
