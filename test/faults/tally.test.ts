import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/approvals/index.js";
import { figures, type TallySources, tallyApproval } from "./placementTally.js";
import { threadOrderProblems } from "./threadOrder.js";

// The crash suite's own judgement, on hand-made records: a count that could never fail would
// prove nothing about the bot.

const APPROVAL = { id: "apr_aaaaaaaaaaaaaaaa", portName: "p-1", threadTs: "1700000000.000100" };
const ORDER = { orderId: "order-1", portId: "port-1" };
const AT = "2026-01-01T10:00:00.000Z";
const AFTER = Date.parse(AT) + 1_000;

function record(change: Partial<ApprovalRequest>): ApprovalRequest {
  return {
    id: APPROVAL.id,
    kind: "port",
    title: "p-1",
    summary: [],
    call: { operation: "createPortOrder", pathParams: {}, body: {} },
    requester: { userId: "U0REQUEST1" },
    slack: {},
    sandbox: true,
    status: "placed",
    attempts: 1,
    history: [{ at: AT, actor: "w", from: "executing", to: "placed" }],
    createdAt: AT,
    updatedAt: AT,
    ...change,
  };
}

function sources(input: {
  record: ApprovalRequest | null;
  orders?: Array<typeof ORDER>;
  read?: string[];
  replies?: Array<{ text: string; atMs: number }>;
}): TallySources {
  return {
    record: async () => input.record,
    providerOrders: () => input.orders ?? [ORDER],
    wasRead: (id) => (input.read ?? []).includes(id),
    thread: () => input.replies ?? [],
  };
}

describe("the crash suite's tally of one approval", () => {
  it("keeps the promise: placed as the order, told with its id, tracked", async () => {
    const tally = await tallyApproval(
      sources({
        record: record({ result: { providerId: "order-1", record: {} } }),
        read: ["order-1"],
        replies: [{ text: "Ordered `order-1`", atMs: AFTER }],
      }),
      APPROVAL,
    );
    expect(tally.problems).toEqual([]);
    expect(figures([tally])).toMatchObject({ placedOnce: 1, brokenPromises: 0 });
  });

  it("counts a port id recorded as an order id, and accepts it recorded as a port", async () => {
    const asOrder = await tallyApproval(
      sources({
        record: record({ result: { providerId: "port-1", record: {} } }),
        read: ["port-1"],
        replies: [{ text: "Ordered `port-1`", atMs: AFTER }],
      }),
      APPROVAL,
    );
    expect(asOrder.portIdAsOrderId).toBe(true);
    expect(figures([asOrder]).portIdAsOrderId).toBe(1);
    const asPort = await tallyApproval(
      sources({
        record: record({
          result: {
            providerId: "port-1",
            record: {},
            resource: "port",
          } as ApprovalRequest["result"],
        }),
        read: ["port-1"],
        replies: [{ text: "Port `port-1` found", atMs: AFTER }],
      }),
      APPROVAL,
    );
    expect(asPort.problems).toEqual([]);
  });

  it("counts two orders, an unknown with nobody told, and an untracked or untold placement", async () => {
    const twice = await tallyApproval(
      sources({ record: record({}), orders: [ORDER, { orderId: "order-2", portId: "port-2" }] }),
      APPROVAL,
    );
    expect(figures([twice]).providerOrdersTwoOrMore).toBe(1);
    const untold = await tallyApproval(
      sources({
        record: record({
          status: "unknown",
          history: [{ at: AT, actor: "w", from: "executing", to: "unknown" }],
        }),
        orders: [],
        // Told before it became unknown does not count.
        replies: [{ text: "Approved", atMs: AFTER - 5_000 }],
      }),
      APPROVAL,
    );
    expect(figures([untold])).toMatchObject({
      leftExecutingOrUnknownUntold: 1,
      noOrderNotFailed: 1,
    });
    const quietPlacement = await tallyApproval(
      sources({ record: record({ result: { providerId: "order-1", record: {} } }) }),
      APPROVAL,
    );
    expect(quietPlacement.problems).toEqual([
      "placed, but the thread was not told the provider's id",
      "placed, but nobody reads order-1 at the provider",
    ]);
  });

  it("accepts a refusal with nothing ordered, not one with an order", async () => {
    const failed = record({
      status: "failed",
      history: [{ at: AT, actor: "w", from: "executing", to: "failed" }],
    });
    const told = [{ text: "The provider refused", atMs: AFTER }];
    expect(
      (await tallyApproval(sources({ record: failed, orders: [], replies: told }), APPROVAL))
        .problems,
    ).toEqual([]);
    expect(
      (await tallyApproval(sources({ record: failed, replies: told }), APPROVAL)).problems,
    ).toEqual(["failed, yet the provider holds an order"]);
  });
});

describe("the crash suite's reading of a thread's order", () => {
  const root = "Port order p-1 · provider id `order-1`";

  it("accepts approved, placed, then the tracker's statuses forward", () => {
    expect(
      threadOrderProblems({
        root,
        replies: [
          "Approved by <@U1>. Placing the order now.",
          "Ordered · approved by <@U1> · provider id `order-1` is *created*",
          "Port order `order-1`: status created → *allocated*.",
        ],
        providerId: "order-1",
      }),
    ).toEqual([]);
  });

  it("finds a duplicate, a stale approval after the order, a stale message and a status going back", () => {
    expect(
      threadOrderProblems({
        root: "Approved — placing the order",
        replies: [
          "Ordered `order-1` is *allocated*",
          "Approved by <@U1>. Placing the order now.",
          "Port order `order-1`: status *created*.",
          "Port order `order-1`: status *created*.",
        ],
        providerId: "order-1",
      }),
    ).toEqual([
      'posted twice: "Port order `order-1`: status *created*."',
      'after the order, a stale "Approved by <@U1>. Placing the order now."',
      "the approval message does not show the order",
      'status went back to created: "Port order `order-1`: status *created*."',
      'status went back to created: "Port order `order-1`: status *created*."',
    ]);
  });
});
