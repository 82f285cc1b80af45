import { Writable } from "node:stream";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offeredAsnChoices } from "../../src/domain/catalog/iod.js";
import { createLogger } from "../../src/log.js";
import type { Asn, Port, PortCapabilities, ProviderApi } from "../../src/provider/api.js";
import { httpError } from "../../src/provider/errors.js";
import type { IodDeps, IodForm } from "../../src/usecases/iod/form.js";
import { loadIodModal } from "../../src/usecases/iod/load.js";
import { checkIodSubmission } from "../../src/usecases/iod/submission.js";
import { connect, deleteKeys, newStore, portOrderInput, runPrefix } from "../approvals/support.js";
import { apiWordsIn, scanErrorWords } from "../support/plainWords.js";

// The IO-D flow against an in-memory provider and a real Redis for the approval records.

const IDENTITY = {
  userId: "u1",
  companyId: "600000000000000000000001",
  companyUsername: "acme-networks",
  companyName: "Acme Networks",
};
const REQUESTER = { userId: "U0REQUEST1", channelId: "C0GENERAL1" };
const BGP_KEY = "s3cret-Key-42";

function port(id: string, name: string, remaining: number, extra: Partial<Port> = {}): Port {
  return {
    id,
    name,
    companyId: IDENTITY.companyId,
    speed: { value: 10000, name: "10000 Mbps" },
    capacity: { total: 10000, utilised: 10000 - remaining, remaining },
    dataCenterFacility: { id: "dcf-1", name: "Equinix AM3" },
    ...extra,
  };
}

const enabled = port("500000000000000000000001", "ams-core-1", 4000, {
  connections: [{ id: "c1", name: "Existing-Service", status: "ACTIVE", speed: 6000 }],
});
const notEnabled = port("500000000000000000000002", "ams-nni-1", 10000);
const full = port("500000000000000000000003", "ams-full-1", 0);
const gone = port("500000000000000000000004", "ams-old-1", 10000, { deleted: true });

const publicAsn: Asn = {
  id: "3e1f7a2b-4c5d-4e6f-8a9b-0c1d2e3f4a5b",
  asn: "64500",
  asSet: "AS-ACME",
  private: false,
  status: "VERIFIED",
};
const pendingAsn: Asn = {
  ...publicAsn,
  id: "3e1f7a2b-4c5d-4e6f-8a9b-0c1d2e3f4a5c",
  status: "PENDING",
};
const privateAsn: Asn = { ...publicAsn, id: "3e1f7a2b-4c5d-4e6f-8a9b-0c1d2e3f4a5d", private: true };

const infoCall = {
  operation: "getPortInfo",
  method: "GET",
  path: "/app-user/{companyId}/ports/{portId}/info",
  subject: "the port info",
};

interface Calls {
  suggest: number;
  asns: number;
  info: string[];
}

function fakeProvider(overrides: Partial<ProviderApi> = {}) {
  const calls: Calls = { suggest: 0, asns: 0, info: [] };
  const provider: Partial<ProviderApi> = {
    listPorts: async () => [enabled, notEnabled, full, gone],
    getPortInfo: async (_companyId, portId): Promise<PortCapabilities> => {
      calls.info.push(portId);
      return { capabilities: { giaStandardV1: portId === enabled.id } };
    },
    suggestPrivateAsn: async () => {
      calls.suggest += 1;
      return 64512;
    },
    // The provider's filter is checked again: a pending and a private record slip through here.
    listVerifiedAsns: async () => {
      calls.asns += 1;
      return [publicAsn, pendingAsn, privateAsn];
    },
    ...overrides,
  };
  return { provider, calls };
}

describe("the IO-D flow", () => {
  let redis: Redis;
  const prefix = runPrefix("flows-iod");
  let store: ReturnType<typeof newStore>["store"];

  beforeAll(async () => {
    redis = connect();
    store = newStore(redis, prefix).store;
    await store.create(
      portOrderInput({
        kind: "iod",
        title: "pending",
        reconcileKey: "pending-service",
        call: { operation: "createGiaService", pathParams: {}, body: {} },
      }),
    );
  });
  afterAll(async () => {
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });

  function deps(provider: Partial<ProviderApi>, logLines: string[] = []): IodDeps {
    return {
      provider: provider as ProviderApi,
      identity: async () => IDENTITY,
      logger: createLogger({
        level: "debug",
        destination: new Writable({
          write(chunk, _e, cb) {
            logLines.push(chunk.toString());
            cb();
          },
        }),
      }),
      approvals: { store, approvers: ["U0APPROVE1"], requesters: [], allowSelfApproval: false },
    };
  }

  const dynamicPrivate = (overrides: IodForm = {}): IodForm => ({
    accessPort: enabled.id,
    routing: "DYNAMIC",
    asnChoice: "private-requested",
    privateAsn: "64512",
    bgpKey: BGP_KEY,
    ipBlock: "28",
    ipv6: "48",
    rateLimit: "500",
    duration: "30",
    geoCountry: " nl ",
    geoCity: "Amsterdam",
    name: "ams-internet-1",
    ...overrides,
  });

  describe("loadIodModal", () => {
    it("lists only ports with free capacity and checks each one's IO-D capability once", async () => {
      const { provider, calls } = fakeProvider();
      const data = await loadIodModal(deps(provider), { accessPort: notEnabled.id });
      expect(data.ports.ok && data.ports.value.map((p) => p.name)).toEqual([
        "ams-core-1",
        "ams-nni-1",
      ]);
      // Every listed port's, once: the form orders and marks them by it (issue 32, item 15).
      expect([...calls.info].sort()).toEqual([enabled.id, notEnabled.id].sort());
      expect(data.enabled).toEqual(
        new Map([
          [enabled.id, true],
          [notEnabled.id, false],
        ]),
      );
      expect(data.capability).toEqual({ kind: "not-enabled" });
    });

    it("DYNAMIC: the suggestion and the verified public ASNs (checked again), public offered", async () => {
      const { provider } = fakeProvider();
      const data = await loadIodModal(deps(provider), {});
      expect(data.values.routing).toBe("DYNAMIC");
      expect(data.suggestedAsn).toBe(64512);
      expect(data.publicAsns).toEqual({ ok: true, value: [publicAsn] });
      expect(offeredAsnChoices(data)).toEqual(["private-requested", "private-auto", "public"]);
      expect(data.asnChoice).toBe("private-requested");
    });

    it("STATIC asks for no ASN at all", async () => {
      const { provider, calls } = fakeProvider();
      const data = await loadIodModal(deps(provider), { routing: "STATIC", asnChoice: "public" });
      expect(calls.suggest).toBe(0);
      expect(calls.asns).toBe(0);
      expect(data.asnChoice).toBeUndefined();
    });

    it("without verified public ASNs a public choice falls back to what is offered", async () => {
      const { provider } = fakeProvider({ listVerifiedAsns: async () => [pendingAsn] });
      const data = await loadIodModal(deps(provider), { asnChoice: "public" });
      expect(offeredAsnChoices(data)).toEqual(["private-requested", "private-auto"]);
      expect(data.asnChoice).toBe("private-requested");
    });

    it("a failed suggestion or capability check is shown, not thrown", async () => {
      const { provider } = fakeProvider({
        suggestPrivateAsn: async () => {
          throw httpError({ ...infoCall, operation: "getPrivateAsnSuggestion" }, 500, undefined);
        },
        getPortInfo: async () => {
          throw httpError(infoCall, 500, undefined);
        },
      });
      const data = await loadIodModal(deps(provider), { accessPort: enabled.id });
      expect(data.suggestedAsn).toBeUndefined();
      expect(data.capability?.kind).toBe("unknown");
    });
  });

  describe("checkIodSubmission", () => {
    async function ready(form: IodForm, provider = fakeProvider().provider, logLines?: string[]) {
      const check = await checkIodSubmission(deps(provider, logLines), {
        form,
        requester: REQUESTER,
      });
      if (check.kind !== "ready") throw new Error(JSON.stringify(check.errors));
      return check.submission;
    }

    it("DYNAMIC with a chosen private ASN: the body of rule 1 and 3; the BGP key only in the body", async () => {
      const logLines: string[] = [];
      const submission = await ready(dynamicPrivate(), fakeProvider().provider, logLines);
      expect(submission.kind).toBe("iod");
      expect(submission.reconcileKey).toBe("ams-internet-1");
      expect(submission.call).toEqual({
        operation: "createGiaService",
        pathParams: { companyId: IDENTITY.companyId },
        body: {
          accessPortId: enabled.id,
          name: "ams-internet-1",
          rateLimit: 500,
          type: "DYNAMIC",
          privateAsn: true,
          privateAsnRequested: 64512,
          bgpKey: BGP_KEY,
          ipBlock: 28,
          enableIpv6: true,
          ipv6Block: 48,
          duration: { quantity: 30, unit: "d" },
          paymentType: "payg",
          ipGeoCountry: "NL",
          ipGeoCity: "Amsterdam",
        },
      });
      const summary = Object.fromEntries(submission.summary.map((l) => [l.label, l.value]));
      expect(summary["BGP key"]).toBe("set (hidden)");
      expect(summary.ASN).toBe("Private AS64512 (the provider's suggestion)");
      expect(summary["Access port"]).toContain(enabled.id);
      expect(summary["IPv4 block"]).toBe("/28");
      expect(summary.IPv6).toBe("On, a /48 block");
      expect(summary["Rate limit"]).toBe("500 Mbps");
      expect(summary.Term).toBe("30 days");
      expect(summary["IP geolocation"]).toBe("NL, Amsterdam");
      const { call: _call, ...shown } = submission;
      expect(JSON.stringify(shown)).not.toContain(BGP_KEY);
      expect(logLines.join("")).not.toContain(BGP_KEY);
    });

    it("DYNAMIC with private auto-assign and no key: both assigned", async () => {
      const submission = await ready(
        dynamicPrivate({ asnChoice: "private-auto", bgpKey: "   ", privateAsn: "99" }),
      );
      expect(submission.call.body).toMatchObject({
        privateAsn: true,
        privateAsnAutoAssign: true,
        autoAssignBgpKey: true,
      });
      expect(submission.call.body).not.toHaveProperty("privateAsnRequested");
      expect(submission.call.body).not.toHaveProperty("bgpKey");
    });

    it("DYNAMIC with a public ASN: its record id, no private ASN fields, no IPv4 block when none", async () => {
      const submission = await ready(
        dynamicPrivate({ asnChoice: "public", publicAsn: publicAsn.id, ipBlock: "none" }),
      );
      const body = submission.call.body as Record<string, unknown>;
      expect(body).toMatchObject({ privateAsn: false, asnId: publicAsn.id, bgpKey: BGP_KEY });
      for (const absent of ["privateAsnRequested", "privateAsnAutoAssign", "ipBlock"]) {
        expect(body).not.toHaveProperty(absent);
      }
    });

    it("STATIC: privateAsn true with auto-assign; hidden ASN and BGP values are never sent", async () => {
      const submission = await ready(
        dynamicPrivate({ routing: "STATIC", asnChoice: "public", publicAsn: publicAsn.id }),
      );
      expect(submission.call.body).toEqual({
        accessPortId: enabled.id,
        name: "ams-internet-1",
        rateLimit: 500,
        type: "STATIC",
        privateAsn: true,
        privateAsnAutoAssign: true,
        ipBlock: 28,
        enableIpv6: true,
        ipv6Block: 48,
        duration: { quantity: 30, unit: "d" },
        paymentType: "payg",
        ipGeoCountry: "NL",
        ipGeoCity: "Amsterdam",
      });
      const summary = Object.fromEntries(submission.summary.map((l) => [l.label, l.value]));
      expect(summary["BGP key"]).toContain("static routing");
      expect(summary["Private ASN flag"]).toContain("the provider's rule for static routing");
    });

    async function errorsOf(form: IodForm, provider = fakeProvider().provider) {
      const check = await checkIodSubmission(deps(provider), { form, requester: REQUESTER });
      if (check.kind !== "invalid") throw new Error("expected errors");
      return check.errors;
    }

    it("says every problem in a network engineer's words: no API field paths, no rule numbers", async () => {
      // The scan finds what the form used to say, and passes words and examples.
      expect(
        apiWordsIn(
          "(IO-D rule 3) Rate limit can't be more than the port's remaining capacity (capacity.remaining)",
        ),
      ).toEqual(["capacity.remaining", "rule 3"]);
      expect(apiWordsIn("ports.0.speed")).toEqual(["ports.0"]);
      expect(apiWordsIn("Two letters, e.g. SG; 1.5 Gbps; /48 only")).toEqual([]);
      for (const valid of [
        dynamicPrivate(),
        dynamicPrivate({ asnChoice: "public", publicAsn: pendingAsn.id }),
        dynamicPrivate({ routing: "STATIC" }),
      ]) {
        const { messages, leaks } = await scanErrorWords(valid, async (form) => {
          const check = await checkIodSubmission(deps(fakeProvider().provider), {
            form,
            requester: REQUESTER,
          });
          return check.kind === "invalid" ? check.errors : undefined;
        });
        expect(leaks).toEqual({});
        expect(messages.length).toBeGreaterThanOrEqual(8);
      }
    });

    it("refuses a port that is not IO-D enabled, plainly", async () => {
      const errors = await errorsOf(dynamicPrivate({ accessPort: notEnabled.id }));
      expect(errors.accessPort).toBe(
        "Port ams-nni-1 is not enabled for Internet On-Demand (IO-D), so an IO-D service can't be ordered on it. Pick another port, or ask the provider to enable IO-D on this one.",
      );
    });

    it("refuses when the capability can't be checked, and a port not offered", async () => {
      const unknown = await errorsOf(
        dynamicPrivate(),
        fakeProvider({
          getPortInfo: async () => {
            throw httpError(infoCall, 503, undefined);
          },
        }).provider,
      );
      expect(unknown.accessPort).toContain("Couldn't check whether this port is IO-D enabled");
      const fullPort = await errorsOf(dynamicPrivate({ accessPort: full.id }));
      expect(fullPort.accessPort).toBe("Pick one of your ports with free capacity from the list");
    });

    it("refuses a term longer than ten years next to Duration, and takes ten years", async () => {
      for (const duration of ["3654", "99999", "1000000"]) {
        expect(await errorsOf(dynamicPrivate({ duration }))).toEqual({
          duration: "Duration must be at most 3,653 days (10 years)",
        });
      }
      expect((await errorsOf(dynamicPrivate({ duration: "0" }))).duration).toBe(
        "Duration must be a whole number of days, from 1 to 3,653",
      );
      const longest = await ready(dynamicPrivate({ duration: "3653" }));
      expect(longest.price?.termDays).toBe(3653);
    });

    it("each IO-D rule, next to its field, said in words", async () => {
      const errors = await errorsOf(
        dynamicPrivate({
          bgpKey: "abc",
          ipv6: "56",
          privateAsn: "64500",
          rateLimit: "4001",
          geoCountry: "Netherlands",
          name: "EXISTING-service",
        }),
      );
      expect(errors.bgpKey).toBe("BGP key must be 6 to 24 characters");
      expect(errors.ipv6).toBe("IPv6 block can only be /48");
      expect(errors.privateAsn).toContain("Private ASN must be in 64512–65534");
      expect(errors.rateLimit).toBe("The port has 4,000 Mbps left; choose 4,000 Mbps or less");
      expect(errors.geoCountry).toContain("two-letter");
      expect(errors.name).toContain("already exists");
      expect(JSON.stringify(errors)).not.toContain('abc"');
    });

    it("refuses two letters that name no country, next to Geo country; takes a real code", async () => {
      const made = await errorsOf(dynamicPrivate({ geoCountry: "xx" }));
      expect(made.geoCountry).toBe(
        "Geo country XX is not a country code: use the country's two letters, e.g. SG or NL",
      );
      expect((await errorsOf(dynamicPrivate({ geoCountry: "EU" }))).geoCountry).toContain(
        "not a country code",
      );
      expect((await ready(dynamicPrivate({ geoCountry: "sg" }))).call.body).toMatchObject({
        ipGeoCountry: "SG",
      });
    });

    it("a public ASN that is not a verified one (rule 2), no IPv4 block with a private ASN (rule 1) or STATIC (rule 5)", async () => {
      const publicErrors = await errorsOf(
        dynamicPrivate({ asnChoice: "public", publicAsn: pendingAsn.id }),
      );
      expect(publicErrors.publicAsn).toBe("Pick one of your verified ASNs from the list");
      const noBlock = await errorsOf(dynamicPrivate({ ipBlock: "none" }));
      expect(noBlock.ipBlock).toContain("A private ASN needs an IPv4 block");
      const noStaticBlock = await errorsOf(dynamicPrivate({ routing: "STATIC", ipBlock: "none" }));
      expect(noStaticBlock.ipBlock).toContain("Static routing needs an IPv4 block");
      const oddBlock = await errorsOf(dynamicPrivate({ ipBlock: "8" }));
      expect(oddBlock.ipBlock).toBe("Pick an IPv4 block size from the list");
    });

    it("forged routing, ASN choice and a name of a request still waiting", async () => {
      const errors = await errorsOf(
        dynamicPrivate({ routing: "BGP", asnChoice: "mine", name: "Pending-Service" }),
      );
      expect(errors.routing).toBe("Choose dynamic (BGP) or static routing");
      expect(errors.asnChoice).toBe("Choose a private or a public ASN");
      expect(errors.name).toContain("already exists");
    });

    it("answers within the deadline when the provider hangs", async () => {
      const started = Date.now();
      const check = await checkIodSubmission(
        deps(fakeProvider({ getPortInfo: () => new Promise<PortCapabilities>(() => {}) }).provider),
        { form: dynamicPrivate(), requester: REQUESTER, deadlineMs: 100 },
      );
      expect(Date.now() - started).toBeLessThan(1000);
      expect(check.kind).toBe("invalid");
      if (check.kind === "invalid") expect(check.errors.accessPort).toContain("slow to answer");
    });
  });
});
