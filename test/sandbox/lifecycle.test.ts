// State machines on the sandbox clock: port orders, drafts, Edge quotations, layer 2 and IO-D.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { call, type Loose, openSandbox, SINGAPORE_QUOTE } from "./helpers.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe("sandbox lifecycles", () => {
  let sandbox: Sandbox;
  let company: string;
  const get = (path: string, query?: Record<string, string>) =>
    call<Loose>(sandbox.url, "GET", path, query ? { query } : {});

  beforeEach(async () => {
    sandbox = await openSandbox({ edgeQuote: { readyAfterPolls: 3, readyAfterMs: 1e12 } });
    company = sandbox.apiUser.companyUsername;
  });

  afterEach(async () => {
    await sandbox.close();
  });

  async function orderPort(dcf: string, speed: string, portName: string) {
    const answer = await call<Loose>(sandbox.url, "PUT", `/api/company/${company}/ports/orders`, {
      body: { dataCenterFacility: dcf, speed, durationUnit: "y", portName, paymentType: "invoice" },
    });
    expect(answer.status).toBe(200);
    return answer.body;
  }

  const readOrder = async (id: string) =>
    (await get(`/api/company/${company}/ports/orders/${id}`)).body;
  const portNames = async () =>
    ((await get(`/api/company/${company}/ports`)).body.results as Loose[]).map((p) => p.name);

  it("creates an on-net port order as the API user and moves it to done on the clock", async () => {
    const created = await orderPort("ironbridge-iad1", "10000", "lifecycle-on-net");
    expect(created).toMatchObject({
      status: "created",
      loaStatus: "TODO",
      requestSource: "NETBRIDGE_API",
      createdBy: sandbox.apiUser.username,
      isEdgePort: false,
      type: "PHYSICAL",
      speed: { value: 10000 },
      companyId: sandbox.apiUser.companyId,
    });

    const seen: string[] = [];
    for (const step of [5 * MINUTE, 10 * MINUTE, 2 * HOUR, 19 * HOUR, 4 * HOUR]) {
      sandbox.clock.advance(step);
      const o = await readOrder(created.id);
      seen.push(`${o.status}/${o.loaStatus}`);
    }
    expect(seen).toEqual([
      "created/TODO",
      "allocated/PENDING",
      "processing/PENDING",
      "processing/RECEIVED",
      "done/APPROVED",
    ]);
    const done = await readOrder(created.id);
    expect(done.port.id).toEqual(expect.any(String));
    const port = await get(`/api/company/${company}/ports/${done.port.id}`);
    expect(port.status).toBe(200);
    expect(port.body).toMatchObject({
      name: "lifecycle-on-net",
      status: "ACTIVE",
      speed: { value: 10000 },
    });
    expect(await portNames()).toContain("lifecycle-on-net");
  });

  it("keeps an off-net order waiting 4 to 6 weeks for its LOA", async () => {
    const created = await orderPort("harborline-111-eighth", "1000", "lifecycle-off-net");
    sandbox.clock.advance(27 * DAY);
    expect(await readOrder(created.id)).toMatchObject({
      status: "processing",
      loaStatus: "PENDING",
    });
    expect(await portNames()).not.toContain("lifecycle-off-net");
    sandbox.clock.advance(16 * DAY);
    expect(await readOrder(created.id)).toMatchObject({ status: "done", loaStatus: "APPROVED" });
    expect(await portNames()).toContain("lifecycle-off-net");
  });

  it("lets the admin endpoint set any status, which freezes progression", async () => {
    const created = await orderPort("ironbridge-iad1", "1000", "lifecycle-admin");
    const admin = await call<Loose>(sandbox.url, "POST", `/__sandbox/orders/${created.id}`, {
      auth: false,
      body: { status: "done", loaStatus: "APPROVED" },
    });
    expect(admin.status).toBe(200);
    expect(admin.body.port.id).toEqual(expect.any(String));
    expect(await portNames()).toContain("lifecycle-admin");

    const errored = await orderPort("ironbridge-iad1", "1000", "lifecycle-error");
    await call(sandbox.url, "POST", `/__sandbox/orders/${errored.id}`, {
      auth: false,
      body: { status: "error" },
    });
    sandbox.clock.advance(10 * DAY);
    expect(await readOrder(errored.id)).toMatchObject({ status: "error", loaStatus: "TODO" });
    expect(await portNames()).not.toContain("lifecycle-error");

    await call(sandbox.url, "POST", `/__sandbox/orders/${errored.id}`, {
      auth: false,
      body: { status: "on-hold-by-partner" },
    });
    expect((await readOrder(errored.id)).status).toBe("on-hold-by-partner");

    const cancelled = await orderPort("ironbridge-iad1", "1000", "lifecycle-cancelled");
    await call(sandbox.url, "POST", `/__sandbox/orders/${cancelled.id}`, {
      auth: false,
      body: { status: "cancelled" },
    });
    expect(await readOrder(cancelled.id)).toMatchObject({ status: "cancelled", cancelled: true });
  });

  it("advances the clock through the admin endpoint", async () => {
    const created = await orderPort("ironbridge-iad1", "1000", "lifecycle-http-clock");
    const advanced = await call<Loose>(sandbox.url, "POST", "/__sandbox/clock/advance", {
      auth: false,
      body: { ms: 2 * DAY },
    });
    expect(advanced.status).toBe(200);
    expect(Date.parse(advanced.body.now) - sandbox.clock.nowMs()).toBe(0);
    expect((await readOrder(created.id)).status).toBe("done");
  });

  it("keeps a draft for 30 days, updates it, and lets an Edge order carrying it delete it", async () => {
    const created = await call<Loose>(sandbox.url, "POST", "/v2/api/draft/orders", {
      body: { speed: 500, edgePayload: { step: 1 } },
    });
    expect(created.body).toMatchObject({
      name: "Draft order 06-01-2025",
      deleteIn: 30,
      status: "DRAFT",
    });
    const updated = await call<Loose>(
      sandbox.url,
      "PATCH",
      `/v2/api/draft/orders/${created.body.id}`,
      {
        body: { name: "Jurong office", speed: 1000, edgePayload: { step: 2 } },
      },
    );
    expect(updated.body).toMatchObject({
      name: "Jurong office",
      speed: 1000,
      edgePayload: { step: 2 },
    });

    sandbox.clock.advance(10 * DAY);
    const drafts = await get("/v2/api/draft/orders");
    expect(drafts.body.map((d: Loose) => [d.id, d.deleteIn])).toEqual([[created.body.id, 20]]);
    const list = await get("/v2/edge-ports/orders");
    expect(list.body.data).toContainEqual(
      expect.objectContaining({
        id: created.body.id,
        objectType: "DRAFT ORDER",
        status: "DRAFT",
        daysUntilDelete: 20,
      }),
    );

    const order = await call<Loose>(
      sandbox.url,
      "POST",
      `/api/company/${company}/ports/edge-orders`,
      {
        body: {
          name: "sg-edge-draft",
          speed: "500",
          edgePayload: { draftOrderId: created.body.id },
        },
      },
    );
    expect(order.status).toBe(200);
    expect(order.body).toMatchObject({
      isEdgePort: true,
      status: "created",
      portName: "sg-edge-draft",
    });
    expect((await get("/v2/api/draft/orders")).body).toEqual([]);
    const after = await get("/v2/edge-ports/orders");
    expect(after.body.data.map((i: Loose) => i.objectType)).toEqual(["ORDER"]);
  });

  it("finishes an Edge order when its offer's lead time said, not sooner", async () => {
    const order = await call<Loose>(
      sandbox.url,
      "POST",
      `/api/company/${company}/ports/edge-orders`,
      {
        body: {
          name: "edge-lead-time",
          speed: "500",
          edgePayload: { price: { leadTimeDays: 30 } },
        },
      },
    );
    expect(order.status).toBe(200);
    sandbox.clock.advance(29 * DAY);
    expect((await readOrder(order.body.id)).status).not.toBe("done");
    sandbox.clock.advance(DAY + 5 * HOUR);
    expect((await readOrder(order.body.id)).status).toBe("done");
  });

  it("expires a draft after 30 days of sandbox time", async () => {
    const created = await call<Loose>(sandbox.url, "POST", "/v2/api/draft/orders", {
      body: { name: "old", speed: 200, edgePayload: {} },
    });
    sandbox.clock.advance(29 * DAY + 23 * HOUR);
    expect((await get("/v2/api/draft/orders")).body).toHaveLength(1);
    sandbox.clock.advance(HOUR);
    expect((await get("/v2/api/draft/orders")).body).toEqual([]);
    const patch = await call(sandbox.url, "PATCH", `/v2/api/draft/orders/${created.body.id}`, {
      body: { speed: 200, edgePayload: {} },
    });
    expect(patch.status).toBe(404);
    expect(
      (await call(sandbox.url, "DELETE", `/v2/api/draft/orders/${created.body.id}`)).status,
    ).toBe(404);
  });

  it("makes an Edge quotation ready after the configured number of polls", async () => {
    const started = await call<Loose>(sandbox.url, "POST", "/v2/edge/price/search", {
      body: SINGAPORE_QUOTE,
    });
    expect(started.body).toEqual({ responseId: expect.any(String), status: "PENDING" });
    const statuses: string[] = [];
    let last: Loose;
    for (let i = 0; i < 4; i++) {
      last = (await get(`/v2/edge/price/result/${started.body.responseId}`)).body;
      statuses.push(last.status);
    }
    expect(statuses).toEqual(["PENDING", "PENDING", "PENDING", "COMPLETED"]);
    expect(last["formatted-address"]).toBe(SINGAPORE_QUOTE["formatted-address"]);
    expect(last.data.length).toBeGreaterThanOrEqual(2);
    const item = last.data[0];
    expect(item).toMatchObject({
      quoteKey: expect.any(String),
      monthlyPrice: expect.any(Number),
      term: { value: 12 },
    });

    const discounted = await get("/v2/edge-ports/calculate-price", {
      quoteKey: item.quoteKey,
      discountCode: "NETSAVE10",
    });
    expect(discounted.status).toBe(200);
    expect(discounted.body.data[0].monthlyPrice).toBeCloseTo(item.monthlyPrice * 0.9, 2);
    const unknownCode = await get("/v2/edge-ports/calculate-price", {
      quoteKey: item.quoteKey,
      discountCode: "BOGUS",
    });
    expect(unknownCode.status).toBe(404);
    expect(unknownCode.body.error.message).toMatch(/BOGUS/);
  });

  it("makes an Edge quotation ready after readyAfterMs of sandbox time", async () => {
    await sandbox.close();
    sandbox = await openSandbox({ edgeQuote: { readyAfterPolls: 1000, readyAfterMs: 30_000 } });
    const started = await call<Loose>(sandbox.url, "POST", "/v2/edge/price/search", {
      body: SINGAPORE_QUOTE,
    });
    expect((await get(`/v2/edge/price/result/${started.body.responseId}`)).body.status).toBe(
      "PENDING",
    );
    sandbox.clock.advance(30_000);
    expect((await get(`/v2/edge/price/result/${started.body.responseId}`)).body.status).toBe(
      "COMPLETED",
    );
  });

  it("shows layer 2 and IO-D records on the port, moving on the clock", async () => {
    const ports = (await get(`/api/company/${company}/ports`)).body.results as Loose[];
    const iad = ports.find((p) => p.name === "iad-core-01");
    const partner = (await get("/api/company/globex-cloud/ports")).body.results.find(
      (p: Loose) => p.name === "globex-iad-01",
    );
    const before = iad.capacity.remaining;

    const l2 = await call<Loose>(
      sandbox.url,
      "PUT",
      `/api/v2/company/${company}/connections/layer2`,
      {
        body: {
          name: "to-globex",
          portId: iad.id,
          destPortId: partner.id,
          destCompany: "globex-cloud",
          destMetroId: partner.metroId,
          duration: 12,
          durationUnit: "m",
          paymentType: "invoice",
          classOfService: "SILVER",
          speed: 1000,
          type: "LAYER2",
        },
      },
    );
    expect(l2.status).toBe(200);
    expect(l2.body).toMatchObject({
      id: expect.any(String),
      type: "LAYER2",
      status: "CREATING",
      speed: 1000,
    });

    const asnList = (await get(`/app-user/${sandbox.apiUser.companyId}/asns`)).body as Loose[];
    const iod = await call<Loose>(
      sandbox.url,
      "POST",
      `/app-user/${sandbox.apiUser.companyId}/gia-service`,
      {
        body: {
          accessPortId: iad.id,
          name: "iod-1",
          rateLimit: 500,
          type: "STATIC",
          privateAsn: false,
          privateAsnAutoAssign: true,
          ipBlock: 29,
        },
      },
    );
    expect(iod.status).toBe(200);
    expect(iod.body).toMatchObject({ status: "CREATING", accessPortId: iad.id, rateLimit: 500 });
    expect(asnList.length).toBeGreaterThan(0);

    const connection = async (id: string) => {
      const port = (await get(`/api/company/${company}/ports/${iad.id}`)).body;
      return { entry: port.connections.find((c: Loose) => c.id === id), capacity: port.capacity };
    };
    const first = await connection(l2.body.id);
    expect(first.entry).toMatchObject({ status: "CREATING", type: "LAYER2", speed: 1000 });
    expect((await connection(iod.body.id)).entry).toMatchObject({
      status: "CREATING",
      type: "GIA",
    });
    expect(first.capacity.remaining).toBe(before - 1500);

    sandbox.clock.advance(10 * MINUTE);
    expect((await connection(l2.body.id)).entry.status).toBe("PENDING");
    expect((await connection(iod.body.id)).entry.status).toBe("ACTIVE");
    sandbox.clock.advance(DAY);
    expect((await connection(l2.body.id)).entry.status).toBe("ACTIVE");

    // The destination port of the other company shows the connection too.
    const dest = (await get(`/api/company/globex-cloud/ports/${partner.id}`)).body;
    expect(dest.connections.map((c: Loose) => c.id)).toContain(l2.body.id);

    const override = await call<Loose>(
      sandbox.url,
      "POST",
      `/__sandbox/connections/${l2.body.id}`,
      {
        auth: false,
        body: { status: "DENIED" },
      },
    );
    expect(override.body.status).toBe("DENIED");
    expect((await connection(l2.body.id)).entry.status).toBe("DENIED");
  });

  it("keeps a business-to-business layer 2 PENDING for days, then ACCEPTED and ACTIVE; one named 'deny' is DENIED; IO-D goes ACTIVE", async () => {
    const ports = (await get(`/api/company/${company}/ports`)).body.results as Loose[];
    const source = ports.find((p) => p.name === "lon-core-01");
    const iodPort = ports.find((p) => p.name === "iad-core-01");
    const metro = sandbox.state.world.metros.find((m) => m.layer2 && m.code === "AMS")!;
    const dcf = sandbox.state.world.dcfs.find((d) => d.metroId === metro.id && d.ready)!;
    const b2b = (name: string) =>
      call<Loose>(sandbox.url, "PUT", `/api/v2/company/${company}/connections/layer2`, {
        body: {
          name,
          portId: source.id,
          destCompany: "globex-cloud",
          destMetroId: metro.id,
          destDcf: dcf.id,
          destRegionId: metro.regionId,
          duration: 6,
          durationUnit: "m",
          paymentType: "invoice",
          classOfService: "SILVER",
          speed: 100,
          type: "LAYER2",
          evergreen: false,
        },
      });
    const accepted = await b2b("b2b-accepted");
    const denied = await b2b("b2b-please-DENY-me");
    const iod = await call<Loose>(
      sandbox.url,
      "POST",
      `/app-user/${sandbox.apiUser.companyId}/gia-service`,
      {
        body: {
          accessPortId: iodPort.id,
          name: "iod-timeline",
          rateLimit: 100,
          type: "STATIC",
          privateAsn: true,
          privateAsnAutoAssign: true,
          ipBlock: 29,
        },
      },
    );
    for (const created of [accepted, denied, iod]) {
      expect(created.status).toBe(200);
      expect(created.body.status).toBe("CREATING");
    }
    const status = async (id: string) => {
      const all = (await get(`/api/company/${company}/ports`)).body.results as Loose[];
      const entries = all.flatMap((p) => (p.connections ?? []) as Loose[]);
      return entries.find((c) => c.id === id)?.status;
    };
    const statuses = async () => [
      await status(accepted.body.id),
      await status(denied.body.id),
      await status(iod.body.id),
    ];

    const utilised = async () =>
      (await get(`/api/company/${company}/ports/${source.id}`)).body.capacity.utilised as number;
    sandbox.clock.advance(10 * MINUTE);
    expect(await statuses()).toEqual(["PENDING", "PENDING", "ACTIVE"]);
    const pendingUtilised = await utilised();
    // Days of waiting on the other company: still PENDING after two days.
    sandbox.clock.advance(2 * DAY);
    expect(await statuses()).toEqual(["PENDING", "PENDING", "ACTIVE"]);
    sandbox.clock.advance(DAY - 10 * MINUTE + MINUTE);
    expect(await statuses()).toEqual(["ACCEPTED", "DENIED", "ACTIVE"]);
    sandbox.clock.advance(5 * MINUTE);
    expect(await statuses()).toEqual(["ACTIVE", "DENIED", "ACTIVE"]);
    // A denied connection no longer takes the source port's capacity.
    expect((await utilised()) - pendingUtilised).toBe(-100);
  });

  it("records send-select and send-enquiry", async () => {
    expect(
      (
        await call(sandbox.url, "POST", "/v2/admin/edge-orders/send-select", {
          body: SINGAPORE_QUOTE,
        })
      ).status,
    ).toBe(204);
    expect(
      (
        await call(sandbox.url, "POST", "/v2/admin/edge-orders/send-enquiry", {
          body: SINGAPORE_QUOTE,
        })
      ).status,
    ).toBe(204);
    expect(sandbox.state.enquiries.map((e) => e.kind)).toEqual(["select", "enquiry"]);
    const admin = await call<Loose>(sandbox.url, "GET", "/__sandbox/enquiries", { auth: false });
    expect(admin.body[1].body["formatted-address"]).toBe(SINGAPORE_QUOTE["formatted-address"]);
  });

  it("pages the Edge list only when both page and size are given, and filters by status", async () => {
    for (const speed of [100, 200, 500]) {
      await call(sandbox.url, "POST", "/v2/api/draft/orders", { body: { speed, edgePayload: {} } });
    }
    await call(sandbox.url, "POST", `/api/company/${company}/ports/edge-orders`, {
      body: { portName: "edge-x", speed: 1000, edgePayload: {} },
    });
    expect((await get("/v2/edge-ports/orders")).body.data).toHaveLength(4);
    expect((await get("/v2/edge-ports/orders", { page: "2" })).body.data).toHaveLength(4);
    expect((await get("/v2/edge-ports/orders", { size: "2" })).body.data).toHaveLength(4);
    const paged = (await get("/v2/edge-ports/orders", { page: "2", size: "3" })).body;
    expect(paged).toMatchObject({ page: 2, size: 3, total: 4 });
    expect(paged.data).toHaveLength(1);
    const created = (await get("/v2/edge-ports/orders", { status: "created" })).body.data;
    expect(created.map((i: Loose) => i.portName)).toEqual(["edge-x"]);
  });
});
