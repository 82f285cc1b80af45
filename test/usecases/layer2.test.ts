import { Writable } from "node:stream";
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/log.js";
import type {
  ConnectionPriceConfig,
  Dcf,
  MetroCapability,
  Port,
  ProviderApi,
} from "../../src/provider/api.js";
import { httpError } from "../../src/provider/errors.js";
import { bandwidthProblem } from "../../src/usecases/layer2/check.js";
import type { Layer2Deps, Layer2Form } from "../../src/usecases/layer2/form.js";
import { loadLayer2Modal } from "../../src/usecases/layer2/load.js";
import { checkLayer2Submission } from "../../src/usecases/layer2/submission.js";
import { takenNames } from "../../src/usecases/shared/orderForms.js";
import { connect, deleteKeys, newStore, portOrderInput, runPrefix } from "../approvals/support.js";
import { scanErrorWords } from "../support/plainWords.js";
import { connectionPriceResult } from "../views/fixtures.js";

// The layer 2 flow against an in-memory provider (every answer under the test's control) and a
// real Redis for the approval records that reserve names.

const IDENTITY = {
  userId: "u1",
  companyId: "600000000000000000000001",
  companyUsername: "acme-networks",
  companyName: "Acme Networks",
};
const REQUESTER = { userId: "U0REQUEST1", channelId: "C0GENERAL1" };

const ams: MetroCapability = {
  id: "metro-ams",
  name: "Amsterdam",
  code: "AMS",
  regionIds: ["r-eu"],
  capabilities: { layer2: true },
};
const yyz: MetroCapability = {
  id: "metro-yyz",
  name: "Toronto",
  code: "YYZ",
  regionIds: ["r-na"],
  capabilities: { layer2: false },
};

function dcf(id: string, metroId: string, extra: Partial<Dcf> = {}): Dcf {
  return {
    id,
    name: `DCF ${id}`,
    username: id,
    dataCenterFacility: { metroId, ready: true },
    costbookLocation: { regions: [{ id: "r-eu", name: "Europe" }] },
    ...extra,
  };
}

const source: Port = {
  id: "500000000000000000000001",
  name: "ams-core-1",
  companyId: IDENTITY.companyId,
  speed: { value: 10000, name: "10000 Mbps" },
  dataCenterFacilityId: "dcf-ams-1",
  dataCenterFacility: { id: "dcf-ams-1", name: "Equinix AM3" },
  metroId: ams.id,
  capacity: { total: 10000, utilised: 2500, remaining: 7500 },
  connections: [{ id: "c1", name: "Existing-Connection", status: "ACTIVE", speed: 2500 }],
};
const theirs: Port = {
  id: "500000000000000000000099",
  name: "globex-lon-01",
  companyId: "600000000000000000000099",
  company: { username: "globex-cloud", name: "Globex Cloud" },
  speed: { value: 1000, name: "1000 Mbps" },
  dataCenterFacilityId: "dcf-lon-1",
  dataCenterFacility: { id: "dcf-lon-1", name: "Telehouse North" },
  metroId: "metro-lon",
  metro: { id: "metro-lon", name: "London", code: "LON" },
  capacity: { total: 1000, utilised: 800, remaining: 200 },
};

const getPortCall = {
  operation: "getPort",
  method: "GET",
  path: "/api/company/{companyName}/ports/{portId}",
  subject: "the port",
};
const pricingCall = {
  operation: "calculatePricing",
  method: "POST",
  path: "/api/pricing/calculate",
  subject: "the pricing request",
};

interface Fake {
  provider: Partial<ProviderApi>;
  priced: ConnectionPriceConfig[];
  dcfFilters: unknown[];
}

function fakeProvider(overrides: Partial<ProviderApi> = {}): Fake {
  const priced: ConnectionPriceConfig[] = [];
  const dcfFilters: unknown[] = [];
  const provider: Partial<ProviderApi> = {
    listPorts: async () => [source],
    getPort: async (_company, portId) => {
      if (portId === theirs.id) return theirs;
      if (portId === source.id) return source;
      throw httpError(getPortCall, 404, '{"error":{"message":"Port not found"}}');
    },
    listMetroCapabilities: async () => [ams, yyz],
    listDcfs: async (filter) => {
      dcfFilters.push(filter);
      // A provider that ignores the filter: other metros, not ready and deleted ones come back.
      return [
        dcf("dcf-ams-2", ams.id),
        dcf("dcf-ams-3", ams.id, { dataCenterFacility: { metroId: ams.id, ready: false } }),
        dcf("dcf-ams-4", ams.id, { deletedAt: "2025-01-01T00:00:00.000Z" }),
        dcf("dcf-yyz-1", yyz.id),
      ];
    },
    priceConnections: async (configs) => {
      priced.push(...configs);
      return [connectionPriceResult];
    },
    ...overrides,
  };
  return { provider, priced, dcfFilters };
}

describe("the layer 2 flow", () => {
  let redis: Redis;
  const prefix = runPrefix("flows-layer2");
  let store: ReturnType<typeof newStore>["store"];

  beforeAll(async () => {
    redis = connect();
    store = newStore(redis, prefix).store;
    // A request still waiting for approval holds its name.
    await store.create(
      portOrderInput({
        kind: "layer2",
        title: "pending",
        reconcileKey: "Pending-Name",
        call: { operation: "createLayer2Connection", pathParams: {}, body: {} },
      }),
    );
  });
  afterAll(async () => {
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });

  function deps(fake: Fake): Layer2Deps {
    return {
      provider: fake.provider as ProviderApi,
      identity: async () => IDENTITY,
      logger: createLogger({
        level: "silent",
        destination: new Writable({ write: (_c, _e, cb) => cb() }),
      }),
      approvals: { store, approvers: ["U0APPROVE1"], requesters: [], allowSelfApproval: false },
    };
  }

  const portToPort = (overrides: Layer2Form = {}): Layer2Form => ({
    mode: "port-to-port",
    sourcePort: source.id,
    destPort: theirs.id,
    bandwidth: "100",
    classOfService: "GOLD",
    duration: "12",
    durationUnit: "m",
    evergreen: false,
    name: "ams-to-globex",
    ...overrides,
  });

  const b2b = (overrides: Layer2Form = {}): Layer2Form => ({
    mode: "business-to-business",
    sourcePort: source.id,
    destMetro: ams.id,
    destDcf: "dcf-ams-2",
    destRegion: "r-eu",
    destCompany: "globex-cloud",
    bandwidth: "300",
    classOfService: "SILVER",
    duration: "6",
    durationUnit: "m",
    evergreen: true,
    name: "ams-b2b",
    ...overrides,
  });

  describe("loadLayer2Modal", () => {
    it("port-to-port: looks the destination up and prices source DCF to destination DCF", async () => {
      const fake = fakeProvider();
      const data = await loadLayer2Modal(deps(fake), portToPort());
      expect(data.source?.id).toBe(source.id);
      expect(data.destination).toEqual({ ok: true, value: theirs });
      expect(fake.priced).toEqual([
        {
          srcDcf: "dcf-ams-1",
          destDcf: "dcf-lon-1",
          bandwidth: 100,
          classOfService: "GOLD",
          duration: { value: 12, unit: "m" },
        },
      ]);
      expect(data.price?.ok && data.price.value.key).toMatch(/^[A-Za-z0-9_-]{22}$/);
    });

    it("does not price before the inputs that determine the price are complete", async () => {
      const fake = fakeProvider();
      const data = await loadLayer2Modal(deps(fake), portToPort({ bandwidth: "" }));
      expect(data.price).toBeUndefined();
      expect(fake.priced).toEqual([]);
    });

    it("says what is wrong with the bandwidth as it is typed, and asks no price for it", async () => {
      for (const bandwidth of ["0", "-5", "1.5", "7501", "99999999", "201"]) {
        const fake = fakeProvider();
        const data = await loadLayer2Modal(deps(fake), portToPort({ bandwidth }));
        // The same words the submission says next to Bandwidth.
        expect(data.bandwidthProblem).toBe(
          bandwidthProblem(bandwidth, { source, destination: theirs }),
        );
        expect(data.bandwidthProblem).toBeDefined();
        expect(data.price).toBeUndefined();
        expect(fake.priced).toEqual([]);
      }
      // Nothing typed yet: nothing to say; a bandwidth that fits is priced.
      const empty = await loadLayer2Modal(deps(fakeProvider()), portToPort({ bandwidth: "" }));
      expect(empty.bandwidthProblem).toBeUndefined();
      const fits = fakeProvider();
      const ok = await loadLayer2Modal(deps(fits), portToPort({ bandwidth: "200" }));
      expect(ok.bandwidthProblem).toBeUndefined();
      expect(fits.priced.map((c) => c.bandwidth)).toEqual([200]);
    });

    it("an unknown or malformed destination is a problem to show, not an error", async () => {
      const unknown = await loadLayer2Modal(deps(fakeProvider()), portToPort({ destPort: "ffff" }));
      expect(unknown.destination).toEqual({ ok: false, problem: "No port has the id ffff." });
      const fake = fakeProvider();
      const malformed = await loadLayer2Modal(deps(fake), portToPort({ destPort: "../../x y" }));
      expect(malformed.destination?.ok).toBe(false);
      expect(malformed.price).toBeUndefined();
    });

    it("business-to-business: layer 2 metros only; the chosen metro's ready DCFs; named regions", async () => {
      const fake = fakeProvider();
      const data = await loadLayer2Modal(deps(fake), b2b());
      expect(data.metros).toEqual({ ok: true, value: { layer2: [ams], without: [yyz] } });
      expect(fake.dcfFilters).toEqual([{ where: { "dataCenterFacility.metroId": ams.id } }]);
      expect(data.dcfs?.ok && data.dcfs.value.map((d) => d.id)).toEqual(["dcf-ams-2"]);
      expect(data.regions).toEqual([{ id: "r-eu", name: "Europe" }]);
      expect(fake.priced[0]).toMatchObject({ srcDcf: "dcf-ams-1", destDcf: "dcf-ams-2" });
    });

    it("a metro without layer 2 is not a metro to choose", async () => {
      const data = await loadLayer2Modal(deps(fakeProvider()), b2b({ destMetro: yyz.id }));
      expect(data.metro).toBeUndefined();
      expect(data.price).toBeUndefined();
    });

    it("a failing part becomes a problem where it would be shown", async () => {
      const data = await loadLayer2Modal(
        deps(
          fakeProvider({
            listPorts: async () => {
              throw httpError({ ...getPortCall, operation: "listPorts" }, 500, undefined);
            },
          }),
        ),
        portToPort(),
      );
      expect(data.ports.ok).toBe(false);
      expect(data.destination?.ok).toBe(true);
      const priced = await loadLayer2Modal(
        deps(
          fakeProvider({
            priceConnections: async () => {
              throw httpError(
                pricingCall,
                400,
                '{"code":400,"message":"Layer 2 is not available"}',
              );
            },
          }),
        ),
        portToPort(),
      );
      expect(priced.price).toEqual({
        ok: false,
        problem: expect.stringMatching(/layer 2 is not available/i),
      });
    });
  });

  describe("bandwidthProblem", () => {
    const ends = { source, destination: theirs };
    const wholeNumber =
      "Bandwidth must be a whole number of Mbps, from 1 to 200 Mbps (the free capacity of globex-lon-01)";

    it("a whole number of Mbps, at least 1", () => {
      for (const typed of ["0", "-5", "1.5", "", "ten", undefined, 1.5, -5]) {
        expect(bandwidthProblem(typed, ends)).toBe(wholeNumber);
      }
    });

    it("at most the source port's free capacity", () => {
      expect(bandwidthProblem("7501", { source })).toBe(
        "Bandwidth must be at most 7,500 Mbps: the free capacity of ams-core-1",
      );
      expect(bandwidthProblem("7500", { source })).toBeUndefined();
    });

    it("at most the destination port's free capacity, when it has less free", () => {
      expect(bandwidthProblem("201", ends)).toBe(
        "Bandwidth must be at most 200 Mbps: the free capacity of globex-lon-01",
      );
    });

    it("within both: no problem", () => {
      expect(bandwidthProblem("1", ends)).toBeUndefined();
      expect(bandwidthProblem(" 200 ", ends)).toBeUndefined();
    });

    it("never above the fastest port, even when no port says its capacity", () => {
      expect(bandwidthProblem("100001", {})).toBe(
        "Bandwidth must be at most 100,000 Mbps: the speed of the fastest port",
      );
      expect(bandwidthProblem("100000", {})).toBeUndefined();
    });

    it("a port with nothing free: says so rather than 'at most 0 Mbps'", () => {
      const full: Port = { ...source, capacity: { total: 10000, utilised: 10000, remaining: 0 } };
      expect(bandwidthProblem("1", { source: full })).toBe(
        "ams-core-1 has no free capacity: no bandwidth fits; choose another port",
      );
    });
  });

  describe("checkLayer2Submission", () => {
    async function shownKey(form: Layer2Form, fake = fakeProvider()) {
      const data = await loadLayer2Modal(deps(fake), form);
      if (!data.price?.ok) throw new Error("no price");
      return data.price.value.key;
    }

    it("says every problem in a network engineer's words: no API field paths, no rule numbers", async () => {
      for (const valid of [portToPort(), b2b()]) {
        const { messages, leaks } = await scanErrorWords(valid, async (form) => {
          const check = await checkLayer2Submission(deps(fakeProvider()), {
            form,
            requester: REQUESTER,
            currency: "USD",
          });
          return check.kind === "invalid" ? check.errors : undefined;
        });
        expect(leaks).toEqual({});
        expect(messages.length).toBeGreaterThanOrEqual(10);
      }
    });

    it("port-to-port: exactly the body the rule allows, every field in the summary, and the price", async () => {
      const form = portToPort();
      const check = await checkLayer2Submission(deps(fakeProvider()), {
        form,
        shownPrice: await shownKey(form),
        requester: REQUESTER,
        currency: "USD",
      });
      expect(check.kind).toBe("ready");
      if (check.kind !== "ready") return;
      const { submission } = check;
      expect(submission.kind).toBe("layer2");
      expect(submission.reconcileKey).toBe("ams-to-globex");
      expect(submission.requester).toEqual(REQUESTER);
      expect(submission.call).toEqual({
        operation: "createLayer2Connection",
        pathParams: { companyUsername: "acme-networks" },
        body: {
          name: "ams-to-globex",
          portId: source.id,
          destPortId: theirs.id,
          destCompany: "globex-cloud",
          destMetroId: "metro-lon",
          duration: 12,
          durationUnit: "m",
          paymentType: "invoice",
          classOfService: "GOLD",
          speed: 100,
          type: "LAYER2",
          evergreen: false,
        },
      });
      expect(submission.title).not.toMatch(/[\r\n]/);
      const summary = Object.fromEntries(submission.summary.map((l) => [l.label, l.value]));
      expect(summary["Connection type"]).toContain("Port-to-port");
      expect(summary["Source port"]).toContain(source.id);
      expect(summary["Destination port"]).toContain(theirs.id);
      expect(summary["Destination company"]).toBe("globex-cloud (another company)");
      expect(summary["Destination metro"]).toContain("London (LON)");
      expect(summary.Bandwidth).toBe("100 Mbps");
      expect(summary["Class of service"]).toBe("GOLD");
      expect(summary.Term).toBe("12 months");
      expect(summary.Evergreen).toBe("No");
      expect(summary.Payment).toBe("Invoice");
      expect(summary["Waits on"]).toContain("globex-cloud must accept");
      expect(summary["Provider notice"]).toContain("going to change");
      expect(submission.price).toEqual({
        total: 6870,
        monthly: 572.5,
        text: "6,870.00 USD for 12 months (572.50 USD a month)",
        termMonths: 12,
      });
    });

    it("names the port fee as a one-off part of the price when the total holds it once", async () => {
      // As the sandbox prices: 12 × 560.00 a month + the 150.00 port fee = 6,870.00.
      const withFee = { ...connectionPriceResult, price: 6870, basicMonthlyAmount: 560 };
      const fake = fakeProvider({ priceConnections: async () => [withFee] });
      const form = portToPort();
      const check = await checkLayer2Submission(deps(fake), {
        form,
        shownPrice: await shownKey(form, fake),
        requester: REQUESTER,
        currency: "USD",
      });
      if (check.kind !== "ready") throw new Error(JSON.stringify(check));
      expect(check.submission.price).toEqual({
        total: 6870,
        monthly: 560,
        oneOff: 150,
        text: "6,870.00 USD for 12 months (560.00 USD a month, plus 150.00 USD once)",
        termMonths: 12,
      });
    });

    it("refuses a term longer than ten years next to Duration, and takes ten years", async () => {
      for (const duration of ["121", "9999"]) {
        const check = await checkLayer2Submission(deps(fakeProvider()), {
          form: portToPort({ duration }),
          requester: REQUESTER,
          currency: "USD",
        });
        if (check.kind !== "invalid") throw new Error(`expected errors for ${duration}`);
        expect(check.errors).toEqual({
          duration: "Duration must be at most 120 months (10 years)",
        });
      }
      const form = portToPort({ duration: "120" });
      const fake = fakeProvider();
      const longest = await checkLayer2Submission(deps(fake), {
        form,
        shownPrice: await shownKey(form, fake),
        requester: REQUESTER,
        currency: "USD",
      });
      if (longest.kind !== "ready") throw new Error(JSON.stringify(longest));
      // The ledger counts it: a term the form accepts is never "term unknown".
      expect(longest.submission.price?.termMonths).toBe(120);
    });

    it("business-to-business: destination by DCF and region, no destination port", async () => {
      const form = b2b();
      const check = await checkLayer2Submission(deps(fakeProvider()), {
        form,
        shownPrice: await shownKey(form),
        requester: REQUESTER,
        currency: "USD",
      });
      if (check.kind !== "ready") throw new Error(JSON.stringify(check));
      expect(check.submission.call.body).toEqual({
        name: "ams-b2b",
        portId: source.id,
        destCompany: "globex-cloud",
        destMetroId: ams.id,
        destDcf: "dcf-ams-2",
        destRegionId: "r-eu",
        duration: 6,
        durationUnit: "m",
        paymentType: "invoice",
        classOfService: "SILVER",
        speed: 300,
        type: "LAYER2",
        evergreen: true,
      });
      const summary = Object.fromEntries(check.submission.summary.map((l) => [l.label, l.value]));
      expect(summary["Destination data center"]).toBe("DCF dcf-ams-2 (dcf-ams-2)");
      expect(summary["Destination region"]).toBe("Europe (r-eu)");
      expect(summary.Evergreen).toContain("Yes");
    });

    it("to the company itself there is nobody to wait on", async () => {
      const form = b2b({ destCompany: "ACME-networks" });
      const check = await checkLayer2Submission(deps(fakeProvider()), {
        form,
        shownPrice: await shownKey(form),
        requester: REQUESTER,
        currency: "USD",
      });
      if (check.kind !== "ready") throw new Error(JSON.stringify(check));
      const labels = check.submission.summary.map((l) => l.label);
      expect(labels).not.toContain("Waits on");
    });

    it("asks to review the price when none was shown, or another one", async () => {
      const form = portToPort();
      for (const shownPrice of [undefined, "some-other-price"]) {
        const check = await checkLayer2Submission(deps(fakeProvider()), {
          form,
          ...(shownPrice ? { shownPrice } : {}),
          requester: REQUESTER,
          currency: "USD",
        });
        expect(check.kind).toBe("review");
        if (check.kind === "review") expect(check.data.price?.ok).toBe(true);
      }
    });

    it("refuses what a person can get wrong, each next to its field", async () => {
      const check = await checkLayer2Submission(deps(fakeProvider()), {
        form: portToPort({ bandwidth: "300", name: "existing-connection" }),
        requester: REQUESTER,
        currency: "USD",
      });
      expect(check.kind).toBe("invalid");
      if (check.kind !== "invalid") return;
      // 300 fits the source (7,500 free) but not the destination (200 free).
      expect(check.errors.bandwidth).toBe(
        "Bandwidth must be at most 200 Mbps: the free capacity of globex-lon-01",
      );
      expect(check.errors.name).toContain("already exists");

      const over = await checkLayer2Submission(deps(fakeProvider()), {
        form: portToPort({ destPort: source.id, bandwidth: "7501", name: "pending-name" }),
        requester: REQUESTER,
        currency: "USD",
      });
      if (over.kind !== "invalid") throw new Error("expected errors");
      expect(over.errors.bandwidth).toBe(
        "Bandwidth must be at most 7,500 Mbps: the free capacity of ams-core-1",
      );
      expect(over.errors.destPort).toContain("another port than the source");
      expect(over.errors.name).toContain("already exists");
    });

    it("refuses forged values with the rule's words", async () => {
      const check = await checkLayer2Submission(deps(fakeProvider()), {
        form: portToPort({
          mode: "point-to-multipoint",
          durationUnit: "w",
          classOfService: "PLATINUM",
          evergreen: ["yes", "no"],
          duration: "0",
          name: "bad\nname",
          sourcePort: theirs.id,
        }),
        requester: REQUESTER,
        currency: "USD",
      });
      if (check.kind !== "invalid") throw new Error("expected errors");
      expect(check.errors.mode).toBe("Choose port-to-port or business-to-business");
      expect(check.errors.durationUnit).toBe("Duration unit must be months");
      expect(check.errors.classOfService).toContain("GOLD, SILVERPLUS, SILVER, BRONZE");
      expect(check.errors.evergreen).toBeDefined();
      expect(check.errors.duration).toBeDefined();
      expect(check.errors.sourcePort).toBe("Pick one of your ports from the list");
      expect(check.errors.name).toContain("line breaks");
    });

    it("business-to-business: a DCF or region of another metro and a company that is no username", async () => {
      const check = await checkLayer2Submission(deps(fakeProvider()), {
        form: b2b({ destDcf: "dcf-yyz-1", destRegion: "r-na", destCompany: "<@U123>" }),
        requester: REQUESTER,
        currency: "USD",
      });
      if (check.kind !== "invalid") throw new Error("expected errors");
      expect(check.errors.destDcf).toBe("Pick a data center in Amsterdam from the list");
      expect(check.errors.destRegion).toBe("Pick one of the regions of Amsterdam");
      expect(check.errors.destCompany).toContain("company username");
    });

    it("no price, no request: the provider's reason goes next to the destination", async () => {
      const check = await checkLayer2Submission(
        deps(
          fakeProvider({
            priceConnections: async () => {
              throw httpError(
                pricingCall,
                400,
                '{"code":400,"message":"Layer 2 is not available"}',
              );
            },
          }),
        ),
        { form: portToPort(), requester: REQUESTER, currency: "USD" },
      );
      if (check.kind !== "invalid") throw new Error("expected errors");
      expect(check.errors.destPort).toContain("No price for this connection");
      expect(check.errors.destPort).toMatch(/layer 2 is not available/i);
    });

    it("answers within the deadline when the provider hangs", async () => {
      const started = Date.now();
      const check = await checkLayer2Submission(
        deps(fakeProvider({ listPorts: () => new Promise<Port[]>(() => {}) })),
        { form: portToPort(), requester: REQUESTER, currency: "USD", deadlineMs: 100 },
      );
      expect(Date.now() - started).toBeLessThan(1000);
      expect(check).toEqual({
        kind: "invalid",
        errors: { sourcePort: expect.stringContaining("slow to answer") },
      });
    });
  });

  it("takenNames: connection names on every port and names of requests still on their way", async () => {
    const names = await takenNames({ approvals: deps(fakeProvider()).approvals }, [source, theirs]);
    expect(names.has("existing-connection")).toBe(true);
    expect(names.has("pending-name")).toBe(true);
    expect(names.has("syd-core-01")).toBe(false);
  });
});
