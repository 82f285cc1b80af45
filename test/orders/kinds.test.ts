import { describe, expect, it } from "vitest";
import { APPROVAL_KINDS, type ApprovalRequest } from "../../src/approvals/index.js";
import { lookUpOrder, ORDER_KINDS, placeOrder } from "../../src/orders/kinds.js";
import { NotLookableError } from "../../src/orders/placement/contract.js";
import type { ProviderApi } from "../../src/provider/api.js";
import { placedNextStepsText } from "../../views/approvals/approvalThread.js";

function request(overrides: Partial<ApprovalRequest> = {}): ApprovalRequest {
  const at = "2026-11-26T08:00:00.000Z";
  return {
    id: "apr_aaaaaaaaaaaaaaaa",
    kind: "port",
    title: "syd-core-01",
    summary: [],
    call: {
      operation: "createPortOrder",
      pathParams: { companyUsername: "acme" },
      body: { portName: "syd-core-01" },
    },
    reconcileKey: "syd-core-01",
    requester: { userId: "U0REQUEST1" },
    slack: {},
    sandbox: true,
    status: "unknown",
    attempts: 1,
    history: [],
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

/** A provider with only the calls a test gives; any other call fails the test. */
function provider(calls: Partial<Record<keyof ProviderApi, unknown>>): ProviderApi {
  return new Proxy(calls, {
    get(target, name) {
      const call = target[name as keyof ProviderApi];
      if (!call) throw new Error(`unexpected provider call ${String(name)}`);
      return call;
    },
  }) as unknown as ProviderApi;
}

describe("the per-kind order table", () => {
  it("has every entry for every approval kind, each operation once", () => {
    for (const kind of APPROVAL_KINDS) {
      const spec = ORDER_KINDS[kind];
      expect(spec.label.trim(), kind).not.toBe("");
      expect(spec.operation, kind).toMatch(/^create[A-Za-z0-9]+$/);
      for (const entry of [
        "place",
        "lookUp",
        "trackTarget",
        "nextSteps",
        "counterparty",
      ] as const) {
        expect(typeof spec[entry], `${kind}.${entry}`).toBe("function");
      }
    }
    const operations = APPROVAL_KINDS.map((kind) => ORDER_KINDS[kind].operation);
    expect(new Set(operations).size).toBe(APPROVAL_KINDS.length);
    // No entry for a kind that does not exist.
    expect(Object.keys(ORDER_KINDS).sort()).toEqual([...APPROVAL_KINDS].sort());
  });

  it("places exactly the approved call, and refuses a record naming another operation", async () => {
    const sent: unknown[] = [];
    const api = provider({
      createPortOrder: async (company: string, body: unknown) => {
        sent.push([company, body]);
        return { id: "ord-1", status: "created", portName: "syd-core-01" };
      },
    });
    const placed = await placeOrder(api, request({ status: "executing" }));
    expect(sent).toEqual([["acme", { portName: "syd-core-01" }]]);
    expect(placed).toMatchObject({ providerId: "ord-1", status: "created", resource: "order" });

    const tampered = request({
      call: {
        operation: "createLayer2Connection",
        pathParams: { companyUsername: "acme" },
        body: {},
      },
    });
    await expect(placeOrder(api, tampered)).rejects.toThrow(/not createPortOrder; not placed/);
    expect(sent).toHaveLength(1);
  });

  describe("looking an order up after an unknown outcome", () => {
    it("records a port found by name as the port (its id and status), never as an order id", async () => {
      const api = provider({
        listPorts: async () => [
          { id: "port-other", name: "syd-core-010", status: "LIVE" },
          { id: "port-77", name: "syd-core-01", status: "CONFIGURED" },
        ],
      });
      const found = await lookUpOrder(api, request(), "acme");
      expect(found).toEqual({
        found: true,
        result: expect.objectContaining({
          providerId: "port-77",
          status: "CONFIGURED",
          resource: "port",
        }),
      });
      if (!found.found) return;
      // Followed as a port, not as /ports/orders/<port id>.
      expect(ORDER_KINDS.port.trackTarget(request(), found.result)).toEqual({
        kind: "port",
        id: "port-77",
      });
      const said = placedNextStepsText(
        ORDER_KINDS.port.nextSteps(request(), found.result),
        found.result,
      );
      expect(said).toContain("port `port-77`");
      expect(said).not.toMatch(/Order `/);
    });

    it("finds nothing for a port order whose port does not exist yet, and says it may still come", async () => {
      const api = provider({ listPorts: async () => [{ id: "p1", name: "SYD-CORE-01" }] });
      const found = await lookUpOrder(api, request(), "acme");
      expect(found.found).toBe(false);
      expect(!found.found && found.detail).toMatch(/shows up only once its port exists/);
    });

    it("finds layer 2 and IO-D connections on the company's ports, and says when none is there", async () => {
      const ports = [
        { id: "p1", name: "a", connections: [{ id: "c-9", name: "other", status: "ACTIVE" }] },
        { id: "p2", name: "b", connections: [{ id: "c-1", name: "l2-core", status: "PENDING" }] },
      ];
      const api = provider({ listPorts: async () => ports });
      const layer2 = request({
        kind: "layer2",
        reconcileKey: "l2-core",
        call: {
          operation: "createLayer2Connection",
          pathParams: { companyUsername: "acme" },
          body: {},
        },
      });
      const found = await lookUpOrder(api, layer2, "acme");
      expect(found).toMatchObject({
        found: true,
        result: { providerId: "c-1", status: "PENDING", resource: "connection" },
      });
      if (found.found) {
        expect(ORDER_KINDS.layer2.trackTarget(layer2, found.result)).toEqual({
          kind: "layer2",
          id: "c-1",
        });
        expect(
          placedNextStepsText(ORDER_KINDS.layer2.nextSteps(layer2, found.result), found.result),
        ).toContain("normal wait");
        expect(ORDER_KINDS.layer2.counterparty(layer2)).toBeUndefined();
        const partner = { ...layer2, call: { ...layer2.call, body: { destCompany: "globex" } } };
        expect(ORDER_KINDS.layer2.counterparty(partner)).toBe("globex");
      }
      const iod = { ...layer2, kind: "iod" as const, reconcileKey: "other" };
      expect(await lookUpOrder(api, iod, "acme")).toMatchObject({
        found: true,
        result: { providerId: "c-9", resource: "service" },
      });
      expect(await lookUpOrder(api, { ...layer2, reconcileKey: "missing" }, "acme")).toEqual({
        found: false,
      });
    });

    it("finds an Edge port order by its port name, ignoring drafts", async () => {
      const edge = request({
        kind: "edge",
        reconcileKey: "edge-1",
        call: { operation: "createEdgePortOrder", pathParams: { companyName: "acme" }, body: {} },
      });
      const withDraft = provider({
        listEdgeOrders: async () => ({
          items: [{ id: "d-1", portName: "edge-1", objectType: "DRAFT ORDER" }],
        }),
      });
      expect(await lookUpOrder(withDraft, edge, "acme")).toEqual({ found: false });
      const withOrder = provider({
        listEdgeOrders: async () => ({
          items: [{ id: "eo-1", portName: "edge-1", status: "ORDERED", objectType: "ORDER" }],
        }),
      });
      const found = await lookUpOrder(withOrder, edge, "acme");
      expect(found).toMatchObject({
        found: true,
        result: { providerId: "eo-1", resource: "order" },
      });
      if (found.found) {
        expect(ORDER_KINDS.edge.trackTarget(edge, found.result)).toEqual({
          kind: "edge-order",
          id: "eo-1",
        });
      }
    });

    it("cannot look up a request without a unique name", async () => {
      const api = provider({ listPorts: async () => [] });
      await expect(
        lookUpOrder(api, request({ kind: "layer2", reconcileKey: undefined }), "acme"),
      ).rejects.toBeInstanceOf(NotLookableError);
    });
  });

  it("follows a placed port order by its order id, and nothing without an id", () => {
    expect(
      ORDER_KINDS.port.trackTarget(request(), {
        providerId: "ord-1",
        resource: "order",
        record: {},
      }),
    ).toEqual({ kind: "port-order", id: "ord-1" });
    // Records written before `resource` existed hold order ids.
    expect(ORDER_KINDS.port.trackTarget(request(), { providerId: "ord-2", record: {} })).toEqual({
      kind: "port-order",
      id: "ord-2",
    });
    for (const kind of APPROVAL_KINDS) {
      expect(
        ORDER_KINDS[kind].trackTarget(request({ kind }), { record: {} }),
        kind,
      ).toBeUndefined();
    }
  });

  it("says what happens next, escaping what the provider sent", () => {
    const said1 = {
      providerId: "ord-1",
      status: "<!channel>",
      resource: "order" as const,
      record: { loaStatus: "PENDING" },
    };
    const said = placedNextStepsText(ORDER_KINDS.port.nextSteps(request(), said1), said1);
    expect(said).toContain("Order `ord-1`");
    expect(said).toContain("LOA");
    expect(said).not.toContain("<!channel>");
    // The provider's placeholder LOA status at creation, in words.
    const placed2 = {
      providerId: "ord-2",
      status: "created",
      resource: "order" as const,
      record: { loaStatus: "TODO" },
    };
    const placed = placedNextStepsText(ORDER_KINDS.port.nextSteps(request(), placed2), placed2);
    expect(placed).toContain("Order `ord-2` is *created* (LOA: not issued yet).");
    expect(
      placedNextStepsText(
        ORDER_KINDS.iod.nextSteps(request({ kind: "iod" }), { providerId: "s-1", record: {} }),
        { providerId: "s-1", record: {} },
      ),
    ).toBe("IO-D service `s-1` was accepted.");
  });
});
