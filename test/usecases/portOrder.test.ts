import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApprovalInputSchema } from "../../src/approvals/types.js";
import { dcfRef } from "../../src/domain/catalog/dcfs.js";
import type {
  Dcf,
  DcfFilter,
  Port,
  PortPriceConfig,
  PricingResult,
  ProviderApi,
} from "../../src/provider/api.js";
import { httpError } from "../../src/provider/errors.js";
import {
  type CheckedPortOrder,
  checkPortOrder,
  type PortOrderDeps,
  requestedPortNames,
  speedForOrder,
} from "../../src/usecases/portOrder/check.js";
import {
  loaPathOf,
  type PortOrderForm,
  previewPortOrder,
  readPortOrderForm,
} from "../../src/usecases/portOrder/form.js";
import { portOrderSubmission, portPriceText } from "../../src/usecases/portOrder/submission.js";
import { DcfDirectory } from "../../src/usecases/shared/dcfDirectory.js";
import { connect, deleteKeys, newStore, portOrderInput, runPrefix } from "../approvals/support.js";
import { scanErrorWords } from "../support/plainWords.js";
import { dcfEdgeFree, dcfOffNet, dcfOnNet } from "../views/fixtures.js";

const IDENTITY = {
  userId: "u1",
  companyId: "c0ffee0000000000000000c1",
  companyUsername: "acme-networks",
  companyName: "Acme Networks",
};

const YEAR = { value: 1, unit: "y", durationUnit: "y" } as const;
const MONTH = { value: 1, unit: "m", durationUnit: "m" } as const;

/** dcfOnNet as the provider lists it today (the fixture is an old record, epoch deletedAt). */
const onNet: Dcf = { ...dcfOnNet, deletedAt: null };
const offNetReady: Dcf = {
  ...dcfOffNet,
  dataCenterFacility: { ...dcfOffNet.dataCenterFacility, ready: true },
};

interface FakeProvider {
  provider: ProviderApi;
  calls: { listDcfs: DcfFilter[]; listPorts: string[]; pricePorts: PortPriceConfig[][] };
}

/** A provider answering from these records; any method may be replaced per test. */
function fakeProvider(
  options: {
    dcfs?: Dcf[];
    ports?: Port[];
    price?: (config: PortPriceConfig) => PricingResult;
    overrides?: Partial<ProviderApi>;
  } = {},
): FakeProvider {
  const calls: FakeProvider["calls"] = { listDcfs: [], listPorts: [], pricePorts: [] };
  const dcfs = options.dcfs ?? [onNet, offNetReady];
  const provider = {
    async listDcfs(filter: DcfFilter = {}) {
      calls.listDcfs.push(filter);
      const id = (filter.where as { id?: unknown } | undefined)?.id;
      return dcfs.filter((d) => id === undefined || d.id === id);
    },
    async listPorts(companyUsername: string) {
      calls.listPorts.push(companyUsername);
      return options.ports ?? [];
    },
    async pricePorts(ports: readonly PortPriceConfig[]) {
      calls.pricePorts.push([...ports]);
      return ports.map(
        options.price ??
          ((p) => ({
            type: "PORT",
            price: p.durationUnit === "y" ? 12 * p.speed : 1.1 * p.speed,
            basicMonthlyAmount: p.durationUnit === "y" ? p.speed : 1.1 * p.speed,
          })),
      );
    },
    ...options.overrides,
  } as unknown as ProviderApi;
  return { provider, calls };
}

function deps(fake: FakeProvider, requested: string[] = []): PortOrderDeps {
  return {
    provider: fake.provider,
    identity: async () => IDENTITY,
    requestedNames: async () => requested,
  };
}

const validForm: PortOrderForm = {
  dcf: dcfRef(onNet),
  speed: "10000",
  term: "1y",
  portName: "  ams-core-9 ",
};

const pricingFailure = httpError(
  { operation: "pricePorts", method: "POST", path: "/api/pricing/calculate", subject: "the price" },
  400,
  '{"code":400,"message":"no price for this speed"}',
);

describe("readPortOrderForm", () => {
  it("reads what the form offered, trimming the port name", () => {
    expect(readPortOrderForm(validForm)).toEqual({
      choices: { dcfId: onNet.id, speedMbps: 10000, term: YEAR, portName: "ams-core-9" },
      errors: {},
    });
    // "12m" is the same 1-year term; month to month is "1m".
    expect(readPortOrderForm({ ...validForm, term: "12m" }).choices.term).toEqual(YEAR);
    expect(readPortOrderForm({ ...validForm, term: "1m" }).choices.term).toEqual(MONTH);
  });

  it("says what is missing, field by field", () => {
    expect(readPortOrderForm({}).errors).toEqual({
      dcf: "Choose a data center",
      speed: "Choose a speed",
      term: "Choose a term",
      portName: "Port name is required",
    });
  });

  it("refuses anything the form never offered, without throwing", () => {
    const junk: PortOrderForm[] = [
      { dcf: "hint:short", speed: "1e9", term: "36m", portName: "a\tb" },
      { dcf: 42, speed: { value: 10000 }, term: ["1y"], portName: 7 },
      { dcf: "x".repeat(151), speed: "0", term: "3y", portName: "x".repeat(1_000_000) },
      { dcf: "a b|c", speed: "-100", term: "4w", portName: "   " },
    ];
    for (const form of junk) {
      const { choices, errors } = readPortOrderForm(form);
      expect(choices).toEqual({});
      expect(Object.keys(errors).sort()).toEqual(["dcf", "portName", "speed", "term"]);
    }
    expect(readPortOrderForm(junk[0]!).errors).toMatchObject({
      dcf: "Pick a data center from the list",
      speed: "Choose one of the speeds listed",
      term: "Choose 1 year or month to month",
      portName: expect.stringContaining("line breaks, tabs"),
    });
    expect(readPortOrderForm(junk[2]!).errors.portName).toContain("at most 100");
  });
});

describe("loaPathOf", () => {
  it("follows the DCF's tags the way /connect order does", () => {
    expect(loaPathOf(onNet)).toMatchObject({ kind: "on-net" });
    expect(loaPathOf(onNet).text).toContain("about 24 hours");
    expect(loaPathOf(dcfOffNet)).toMatchObject({ kind: "off-net" });
    expect(loaPathOf(dcfOffNet).text).toContain("4–6 weeks");
    expect(loaPathOf({ id: "x", tags: ["PROVIDER_SUPPLIED_LOA"] }).kind).toBe("provider-supplied");
    // Off-net may be marked on the costbook location only.
    expect(
      loaPathOf({ id: "x", tags: [], costbookLocation: { tags: ["EXTENDED"] } } as Dcf).kind,
    ).toBe("off-net");
    // Without tags there is no telling; the text says so and lists every path.
    expect(loaPathOf({ id: "x" }).kind).toBe("unknown");
    expect(loaPathOf({ id: "x" }).text).toContain("4–6 weeks");
  });
});

describe("speedForOrder", () => {
  it("sends the speed in the DCF's own form, as text", () => {
    expect(speedForOrder(onNet, 10000)).toBe("10000");
    expect(speedForOrder(dcfOffNet, 1000)).toBe("1000");
    expect(speedForOrder(dcfEdgeFree, 2500)).toBe("2500");
    expect(speedForOrder({ id: "x", dataCenterFacility: { speeds: ["10G"] } }, 10000)).toBe("10G");
  });
});

describe("checkPortOrder", () => {
  it("looks the DCF up afresh and returns the exact body, the price and the LOA path", async () => {
    const fake = fakeProvider();
    const check = await checkPortOrder(deps(fake), validForm);
    expect(check.ok).toBe(true);
    if (!check.ok) return;
    expect(check.value.body).toEqual({
      dataCenterFacility: onNet.username,
      speed: "10000",
      durationUnit: "y",
      portName: "ams-core-9",
      paymentType: "invoice",
    });
    expect(check.value.companyUsername).toBe("acme-networks");
    expect(check.value.price.price).toBe(120000);
    expect(check.value.loa.kind).toBe("on-net");
    expect(fake.calls.listDcfs).toEqual([{ where: { id: onNet.id } }]);
    expect(fake.calls.listPorts).toEqual(["acme-networks"]);
    expect(fake.calls.pricePorts).toEqual([[{ dcf: onNet.id, speed: 10000, durationUnit: "y" }]]);
  });

  it("says every problem in a network engineer's words: no API field paths, no rule numbers", async () => {
    const { messages, leaks } = await scanErrorWords({ ...validForm }, async (form) => {
      const check = await checkPortOrder(deps(fakeProvider(), ["taken-name"]), form);
      return check.ok ? undefined : check.errors;
    });
    expect(leaks).toEqual({});
    expect(messages.length).toBeGreaterThanOrEqual(6);
  });

  it("refuses a speed the DCF does not offer, next to Speed", async () => {
    const check = await checkPortOrder(deps(fakeProvider()), { ...validForm, speed: "400000" });
    expect(check).toEqual({
      ok: false,
      errors: {
        speed: "Speed must be one of this data center's speeds: 1000, 10000, 100000 Mbps",
      },
    });
  });

  it("refuses a DCF that is gone or not ready", async () => {
    const gone = await checkPortOrder(deps(fakeProvider({ dcfs: [] })), validForm);
    expect(gone).toEqual({ ok: false, errors: { dcf: "Pick a data center from the list" } });
    const notReady = await checkPortOrder(deps(fakeProvider({ dcfs: [dcfOffNet] })), {
      ...validForm,
      dcf: dcfRef(dcfOffNet),
    });
    expect(notReady.ok).toBe(false);
    if (!notReady.ok) expect(notReady.errors.dcf).toContain("not ready");
  });

  it("refuses a port name the company or an open request already uses, ignoring case", async () => {
    const ports = [{ id: "p1", name: "AMS-Core-9" } as Port];
    const taken = await checkPortOrder(deps(fakeProvider({ ports })), validForm);
    expect(taken).toEqual({
      ok: false,
      errors: {
        portName: 'Your company already has a port named "ams-core-9"; choose another name',
      },
    });
    const requested = await checkPortOrder(deps(fakeProvider(), ["AMS-CORE-9 "]), validForm);
    expect(requested.ok).toBe(false);
    if (!requested.ok) expect(requested.errors.portName).toContain("already waiting");
  });

  it("refuses a name whose newness cannot be checked", async () => {
    const fake = fakeProvider({
      overrides: {
        listPorts: async () => {
          throw new Error("connection reset");
        },
      },
    });
    const check = await checkPortOrder(deps(fake), validForm);
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(Object.keys(check.errors)).toEqual(["portName"]);
      expect(check.errors.portName).toContain("Couldn't check that this port name is new");
    }
  });

  it("refuses what the provider cannot price (its serviceability check)", async () => {
    const fake = fakeProvider({
      overrides: {
        pricePorts: async () => {
          throw pricingFailure;
        },
      },
    });
    const check = await checkPortOrder(deps(fake), validForm);
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(Object.keys(check.errors)).toEqual(["speed"]);
      expect(check.errors.speed).toContain("could not price this port");
    }
  });

  it("answers within its deadline when the provider hangs", async () => {
    const hang = () => new Promise<never>(() => {});
    const fake = fakeProvider({ overrides: { listDcfs: hang, listPorts: hang, pricePorts: hang } });
    const started = Date.now();
    const check = await checkPortOrder(deps(fake), validForm, 50);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(check.ok).toBe(false);
    if (!check.ok) {
      expect(check.errors.dcf).toContain("took too long");
      expect(check.errors.portName).toContain("took too long");
    }
  });

  it("shows every problem at once and calls nothing for a form it cannot read", async () => {
    const both = await checkPortOrder(deps(fakeProvider()), {
      ...validForm,
      speed: "400000",
      portName: "bad\nname",
    });
    expect(both.ok).toBe(false);
    if (!both.ok) expect(Object.keys(both.errors).sort()).toEqual(["portName", "speed"]);

    const fake = fakeProvider();
    const junk = await checkPortOrder(deps(fake), { dcf: "hint:none", speed: "x", term: "1y" });
    expect(junk.ok).toBe(false);
    expect(fake.calls).toEqual({ listDcfs: [], listPorts: [], pricePorts: [] });
  });
});

describe("previewPortOrder", () => {
  function directory(fake: FakeProvider) {
    return { provider: fake.provider, directory: new DcfDirectory(fake.provider) };
  }

  it("shows the DCF and its LOA path, and prices only once speed and term are chosen", async () => {
    const fake = fakeProvider();
    const picked = await previewPortOrder(directory(fake), { dcf: dcfRef(offNetReady) });
    expect(picked.chosen).toEqual({ dcf: offNetReady });
    expect(picked.loa?.text).toContain("4–6 weeks");
    expect(picked.price).toBeUndefined();
    expect(fake.calls.pricePorts).toEqual([]);

    const priced = await previewPortOrder(directory(fake), {
      dcf: dcfRef(offNetReady),
      speed: "1000",
      term: "1m",
    });
    expect(priced.price).toEqual({
      kind: "priced",
      speedMbps: 1000,
      term: MONTH,
      result: { type: "PORT", price: 1100, basicMonthlyAmount: 1100 },
    });
    expect(fake.calls.pricePorts).toEqual([
      [{ dcf: offNetReady.id, speed: 1000, durationUnit: "m" }],
    ]);
  });

  it("does not price a speed the chosen DCF does not offer (one kept from the previous DCF)", async () => {
    const fake = fakeProvider();
    const preview = await previewPortOrder(directory(fake), {
      dcf: dcfRef(offNetReady),
      speed: "100000",
      term: "1y",
    });
    expect(preview.speedMbps).toBeUndefined();
    expect(preview.price).toEqual({
      kind: "unavailable",
      message: "100G is not offered here: choose one of 1G, 10G",
    });
    expect(fake.calls.pricePorts).toEqual([]);
  });

  it("says why there is no price or DCF, never throws", async () => {
    const failing = fakeProvider({
      overrides: {
        pricePorts: async () => {
          throw pricingFailure;
        },
      },
    });
    const noPrice = await previewPortOrder(directory(failing), {
      dcf: dcfRef(onNet),
      speed: "1000",
      term: "1y",
    });
    expect(noPrice.price?.kind).toBe("unavailable");

    const notReady = await previewPortOrder(directory(fakeProvider({ dcfs: [dcfOffNet] })), {
      dcf: dcfRef(dcfOffNet),
      speed: "1000",
      term: "1y",
    });
    expect(notReady.price).toMatchObject({
      kind: "unavailable",
      message: expect.stringContaining("not ready"),
    });

    const gone = await previewPortOrder(directory(fakeProvider({ dcfs: [] })), {
      dcf: dcfRef(onNet),
    });
    expect(gone.chosen).toEqual({ problem: "That data center is no longer listed; pick another" });

    const forged = await previewPortOrder(directory(fakeProvider()), { dcf: { value: 1 } });
    expect(forged.chosen).toMatchObject({ problem: expect.stringContaining("from the list") });
  });
});

describe("portOrderSubmission", () => {
  const checked: CheckedPortOrder = {
    dcf: onNet,
    speedMbps: 10000,
    term: YEAR,
    body: {
      dataCenterFacility: "equinix-am3",
      speed: "10000",
      durationUnit: "y",
      portName: "ams-core-9",
      paymentType: "invoice",
    },
    companyUsername: "acme-networks",
    price: { price: 14400, basicMonthlyAmount: 1200 },
    loa: loaPathOf(onNet),
  };

  it("carries every field in words, the exact call, the name to find it by and the price", () => {
    const submission = portOrderSubmission(
      checked,
      { userId: "U0REQUEST1", channelId: "C0GENERAL1" },
      "USD",
    );
    expect(submission).toEqual({
      kind: "port",
      title: "ams-core-9",
      summary: [
        { label: "Data center", value: "Equinix AM3 (equinix-am3)" },
        { label: "Speed", value: "10G (10,000 Mbps)" },
        { label: "Term", value: "1 year (12 months)" },
        { label: "Port name", value: "ams-core-9" },
        { label: "Payment type", value: "Invoice" },
        { label: "LOA path", value: checked.loa.text },
      ],
      call: {
        operation: "createPortOrder",
        pathParams: { companyUsername: "acme-networks" },
        body: checked.body,
      },
      reconcileKey: "ams-core-9",
      price: {
        total: 14400,
        monthly: 1200,
        text: "14,400.00 USD for 1 year (1,200.00 USD a month)",
        termMonths: 12,
      },
      requester: { userId: "U0REQUEST1", channelId: "C0GENERAL1" },
    });
    // The approval store accepts it as it is.
    expect(createApprovalInputSchema.safeParse({ ...submission, sandbox: true }).success).toBe(
      true,
    );
  });

  it("words the price for month to month, and says when there is none", () => {
    expect(portPriceText({ price: 1100, basicMonthlyAmount: 1100 }, MONTH, "EUR")).toBe(
      "1,100.00 EUR a month, month to month",
    );
    expect(portPriceText({}, YEAR, "USD")).toBe("The provider returned no price");
    const noPrice = portOrderSubmission({ ...checked, price: {} }, { userId: "U0REQUEST1" }, "USD");
    expect(noPrice.price).toEqual({ text: "The provider returned no price", termMonths: 12 });
    expect(noPrice.requester).toEqual({ userId: "U0REQUEST1" });
  });
});

describe("requestedPortNames (real Redis)", () => {
  const redis = connect();
  const prefix = runPrefix("port-order-names");

  beforeAll(async () => {
    await redis.ping();
  });
  afterAll(async () => {
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });

  it("lists the port names requests hold (port and Edge): not rejected, withdrawn or failed ones, not connections", async () => {
    const { store } = newStore(redis, prefix);
    const port = (name: string, kind: "port" | "edge" | "layer2" = "port") =>
      store.create(portOrderInput({ kind, title: name, reconcileKey: name }));
    const approve = (id: string) => store.decide(id, { by: "U0APPROVE1", action: "approve" });

    await port("Waiting ");
    await approve((await port("approved")).id);
    const placed = await port("placed");
    await approve(placed.id);
    await store.claim(placed.id, "worker-1");
    await store.complete(placed.id, { providerId: "o2", record: {} });
    const failed = await port("refused-by-provider");
    await approve(failed.id);
    await store.claim(failed.id, "worker-1");
    await store.fail(failed.id, { message: "the provider refused" });
    const rejected = await port("rejected");
    await store.decide(rejected.id, { by: "U0APPROVE1", action: "reject", reason: "no" });
    const withdrawn = await port("withdrawn");
    await store.cancel(withdrawn.id, withdrawn.requester.userId, "withdrawn by the requester");
    await port("an-edge-port", "edge");
    await port("a connection", "layer2");

    const names = await requestedPortNames(store);
    expect(names.sort()).toEqual(["an-edge-port", "approved", "placed", "waiting"]);
  });
});
