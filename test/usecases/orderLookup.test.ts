import { describe, expect, it } from "vitest";
import type { PortOrderRead, ProviderApi } from "../../src/provider/api.js";
import { httpError } from "../../src/provider/errors.js";
import {
  lookUpPortOrder,
  type OrderDeps,
  type OrderTracking,
  requestOrderTracking,
  type TrackOrderRequest,
} from "../../src/usecases/orderLookup.js";

const IDENTITY = {
  userId: "u1",
  companyId: "c0ffee0000000000000000c1",
  companyUsername: "acme-networks",
  companyName: "Acme Networks",
};

const call = {
  operation: "getPortOrder",
  method: "GET",
  path: "/api/company/{companyName}/ports/orders/{orderId}",
  subject: "the port order status",
};

function depsWith(getPortOrder: ProviderApi["getPortOrder"]): OrderDeps {
  return {
    provider: { getPortOrder } as Partial<ProviderApi> as ProviderApi,
    identity: async () => IDENTITY,
  };
}

describe("lookUpPortOrder", () => {
  it("reads the order in the company's name", async () => {
    const asked: string[][] = [];
    const order = { id: "o1", status: "processing", loaStatus: "PENDING" } as PortOrderRead;
    const deps = depsWith(async (company, id) => {
      asked.push([company, id]);
      return order;
    });
    expect(await lookUpPortOrder(deps, "o1")).toEqual({ found: true, order });
    expect(asked).toEqual([[IDENTITY.companyUsername, "o1"]]);
  });

  it("answers 'not found' for a 404 and lets other failures through", async () => {
    const missing = depsWith(async () => {
      throw httpError(call, 404, undefined);
    });
    expect(await lookUpPortOrder(missing, "o404")).toEqual({ found: false, orderId: "o404" });
    const forbidden = depsWith(async () => {
      throw httpError(call, 403, '{"error":{"message":"Not your order"}}');
    });
    await expect(lookUpPortOrder(forbidden, "o403")).rejects.toMatchObject({ httpStatus: 403 });
  });
});

describe("requestOrderTracking", () => {
  const request: TrackOrderRequest = { orderId: "o1", userId: "U1", channelId: "C1" };

  it("starts nothing and says so when no tracker is plugged in", async () => {
    expect(await requestOrderTracking(undefined, request)).toEqual({
      started: false,
      reason: "no-tracker",
    });
  });

  it("hands the click to the tracker and passes its words on", async () => {
    const seen: TrackOrderRequest[] = [];
    const tracking: OrderTracking = {
      track: async (r) => {
        seen.push(r);
        return { text: "Tracking order o1 in this channel." };
      },
    };
    expect(await requestOrderTracking(tracking, request)).toEqual({
      started: true,
      text: "Tracking order o1 in this channel.",
    });
    expect(seen).toEqual([request]);
  });

  it("lets a tracker failure through", async () => {
    const tracking: OrderTracking = {
      track: async () => {
        throw new Error("redis down");
      },
    };
    await expect(requestOrderTracking(tracking, request)).rejects.toThrow("redis down");
  });
});
