import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/log.js";
import { createProvider, type ProviderApi } from "../../src/provider/api.js";
import { OPERATIONS } from "../../src/provider/operations.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { SINGAPORE_QUOTE as SINGAPORE } from "./helpers.js";

const SINGAPORE_QUOTE = { ...SINGAPORE, bandwidthUnit: "Mbps" as const };

/**
 * The bot's own client against the sandbox, over HTTP: every one of the 32 operations goes
 * through ProviderApi and the sandbox answers it successfully (it validates each request
 * against the same OpenAPI document the client's types come from).
 */
describe("the provider client against the sandbox: all 32 operations", () => {
  let sandbox: Sandbox;
  let api: ProviderApi;

  beforeAll(async () => {
    sandbox = await startSandbox({
      edgeQuote: { readyAfterPolls: 1, readyAfterMs: 1e12 },
      edgeSyncPriceDelayMs: 10,
    });
    api = createProvider({
      baseUrl: sandbox.url,
      apiKey: "client-e2e-key",
      logger: createLogger({ level: "silent" }),
    });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  it("calls each operation once or more and gets a 2xx for every one", async () => {
    const me = await api.whoami();
    expect(me).toMatchObject({
      companyId: sandbox.apiUser.companyId,
      companyUsername: sandbox.apiUser.companyUsername,
    });
    const company = me.companyUsername;

    const london = (await api.searchDcfs({ text: "london", page: 1, pageSize: 10 }))[0]!;
    const dcfs = await api.listDcfs({
      where: { "dataCenterFacility.ready": true },
      skip: 0,
      limit: 50,
    });
    const iad = dcfs.find((d) => d.username === "ironbridge-iad1")!;
    const [portPrice] = await api.pricePorts([{ dcf: iad.id!, speed: 10000, durationUnit: "y" }], {
      includeCrossConnect: true,
    });
    expect(portPrice?.price).toBeGreaterThan(0);
    const [connectionPrice] = await api.priceConnections([
      {
        bandwidth: 500,
        classOfService: "SILVER",
        duration: { value: 12, unit: "m" },
        srcDcf: iad.id!,
        destDcf: london.id!,
      },
    ]);
    expect(connectionPrice?.factors?.length).toBeGreaterThan(0);

    const order = await api.createPortOrder(company, {
      dataCenterFacility: "ironbridge-iad1",
      speed: "10000",
      durationUnit: "y",
      portName: "client-e2e-01",
      paymentType: "invoice",
    });
    expect((await api.getPortOrder(company, order.id!)).status).toBe("created");

    const ports = await api.listPorts(company, { deleted: false });
    const iadPort = ports.find((p) => p.name === "iad-core-01")!;
    expect((await api.getPort(company, iadPort.id!)).id).toBe(iadPort.id);
    await api.getPortInfo(me.companyId, iadPort.id!);
    const metros = await api.listMetroCapabilities(company);
    const partner = (await api.listPorts("globex-cloud")).find((p) => p.name === "globex-iad-01")!;
    const l2 = {
      duration: 12,
      durationUnit: "m",
      paymentType: "invoice",
      classOfService: "SILVER",
      speed: 500,
      type: "LAYER2",
      evergreen: false,
    } as const;
    await api.createLayer2Connection(company, {
      name: "client-p2p",
      portId: iadPort.id!,
      destPortId: partner.id!,
      destCompany: "globex-cloud",
      destMetroId: partner.metroId!,
      ...l2,
    });
    const lonMetro = metros.find((m) => m.id === london.dataCenterFacility?.metroId)!;
    await api.createLayer2Connection(company, {
      name: "client-b2b",
      portId: iadPort.id!,
      destCompany: "globex-cloud",
      destMetroId: lonMetro.id!,
      destDcf: london.id!,
      destRegionId: lonMetro.regionIds![0]!,
      ...l2,
    });

    expect(await api.suggestPrivateAsn()).toBeGreaterThan(0);
    const asns = await api.listVerifiedAsns(me.companyId);
    await api.createGiaService(me.companyId, {
      accessPortId: iadPort.id!,
      name: "client-iod",
      rateLimit: 1000,
      type: "DYNAMIC",
      privateAsn: false,
      asnId: asns[0]!.id!,
      autoAssignBgpKey: true,
      ipBlock: 28,
      duration: { quantity: 30, unit: "d" },
      paymentType: "payg",
      ipGeoCountry: "US",
      ipGeoCity: "",
    });
    await api.listCloudRouters(me.companyId);

    await api.listEdgeCountries();
    await api.listEdgeBandwidths();
    await api.listEdgeContractTerms();
    await api.getEdgePriceSync(SINGAPORE_QUOTE);
    const started = await api.startEdgeQuote(SINGAPORE_QUOTE);
    await api.getEdgeQuoteResult(started.responseId!);
    const ready = await api.getEdgeQuoteResult(started.responseId!);
    const quoteKey = (ready.data as Array<{ quoteKey: string }>)[0]!.quoteKey;
    await api.applyEdgeDiscount(quoteKey, "NETSAVE10");
    await api.listEdgeLocations();
    const draft = await api.createDraft({ name: null, speed: 500, edgePayload: { quoteKey } });
    await api.updateDraft(draft.id!, {
      name: "client draft",
      speed: 1000,
      edgePayload: { quoteKey },
    });
    await api.listDrafts();
    const spare = await api.createDraft({ speed: 200, edgePayload: {} });
    await api.createEdgePortOrder(company, {
      portName: "client-edge-01",
      speed: 500,
      paymentType: "invoice",
      edgePayload: { draftOrderId: draft.id },
    });
    await api.listEdgeOrders({});
    await api.listEdgeOrders({ page: 1, size: 1 });
    await api.listEdgeOrdersV1(company);
    await api.sendEdgeSelect({
      ...SINGAPORE_QUOTE,
      bandwidth: "10",
      bandwidthUnit: "Gbps" as const,
    });
    await api.sendEdgeEnquiry(SINGAPORE_QUOTE);
    await api.deleteDraft(spare.id!);

    const summary = (await (await fetch(`${sandbox.url}/__sandbox/requests?summary=1`)).json()) as {
      byOperation: Record<string, number>;
      byStatus: Record<string, number>;
    };
    for (const operationId of Object.keys(OPERATIONS)) {
      expect(summary.byOperation[operationId], operationId).toBeGreaterThan(0);
    }
    expect(Object.keys(summary.byStatus).every((status) => Number(status) < 300)).toBe(true);
  });
});
