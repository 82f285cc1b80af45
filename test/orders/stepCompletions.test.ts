import type { Redis } from "ioredis";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../src/approvals/index.js";
import type { CompleteStepInput } from "../../src/jobs/notifier/notifier.js";
import { StepCompletions } from "../../src/orders/stepCompletions.js";
import { stepNamesOf } from "../../src/stepWiring.js";
import { NO_STEP_NAMES } from "../../views/steps/steps.js";
import { connect, deleteKeys, runPrefix, testLogger } from "../jobs/support.js";

/**
 * How a request's end becomes its step's end (src/orders/stepCompletions.ts), against a real
 * Redis with the notifier replaced by a recorder: once per request however often its end is
 * seen, the right words for each end, and an end missed (Redis out of reach when the change was
 * seen) queued later by the reconciler.
 */
describe("StepCompletions", () => {
  const prefix = runPrefix("step-completions");
  let redis: Redis;
  let queued: CompleteStepInput[];
  let records: Map<string, ApprovalRequest>;
  let completions: StepCompletions;
  /** The notifier's answer: a key already queued is a duplicate, as in the outbox. */
  const seenKeys = new Set<string>();

  function request(overrides: Partial<ApprovalRequest> = {}): ApprovalRequest {
    return {
      id: "apr_aaaaaaaaaaaaaaaa",
      kind: "port",
      title: "ams-web-1",
      summary: [],
      call: { operation: "createPortOrder", pathParams: {}, body: {} },
      price: { text: "1,200.00 USD for 1 year", monthly: 100, total: 1200 },
      requester: { userId: "U0REQUEST1" },
      slack: { cardChannel: "C0GENERAL1", cardTs: "1700000000.000100" },
      sandbox: true,
      status: "pending",
      attempts: 0,
      history: [],
      createdAt: "2026-11-28T07:00:00.000Z",
      updatedAt: "2026-11-28T07:00:00.000Z",
      step: { executionId: "Fx0123ABC", callbackId: "request_port_order" },
      ...overrides,
    };
  }

  beforeAll(() => {
    redis = connect();
  });
  beforeEach(async () => {
    await deleteKeys(redis, prefix);
    queued = [];
    seenKeys.clear();
    records = new Map();
    completions = new StepCompletions({
      redis,
      prefix,
      notifier: {
        completeStep: async (input: CompleteStepInput) => {
          const key = `${input.scope}/${input.key}`;
          if (seenKeys.has(key)) return { queued: false, reason: "duplicate" as const };
          seenKeys.add(key);
          queued.push(input);
          return { queued: true as const };
        },
      },
      get: async (id) => records.get(id),
      names: stepNamesOf(
        async (id) => ({ U0APPROVE1: "alex", U0REQUEST1: "rita", U0OUTSIDE1: "oscar" })[id] ?? id,
        async (id) => id,
      ),
      logger: testLogger(),
    });
  });
  afterAll(async () => {
    await deleteKeys(redis, prefix);
    redis.disconnect();
  });

  it("ends a placed request's step once, with its order, in the card's thread", async () => {
    await completions.keepToken("Fx0123ABC", "xwfp-token-1");
    await completions.opened("Fx0123ABC", "apr_aaaaaaaaaaaaaaaa");
    await completions.onChange(request());
    expect(queued).toEqual([]);
    const placed = request({
      status: "placed",
      result: { providerId: "ORD-1", status: "created", record: {} },
    });
    await completions.onChange(placed);
    await completions.onChange(placed);
    expect(await completions.reconcile()).toBe(0);
    expect(queued).toEqual([
      {
        scope: "approval:apr_aaaaaaaaaaaaaaaa",
        key: "step:end",
        channel: "C0GENERAL1",
        executionId: "Fx0123ABC",
        token: "xwfp-token-1",
        outputs: {
          request_id: "apr_aaaaaaaaaaaaaaaa",
          order_id: "ORD-1",
          status: "created",
          summary: expect.stringContaining("Order ORD-1, status created."),
        },
        gone: {
          channel: "C0GENERAL1",
          threadTs: "1700000000.000100",
          text: expect.stringContaining("no longer waits"),
        },
      },
    ]);
    // The token is not kept once the end is queued.
    expect(await redis.keys(`${prefix}:token:*`)).toEqual([]);
  });

  it("words a rejection as plain text: the approver's name, people in the reason by name, hostile text inert", async () => {
    await completions.keepToken("Fx0123ABC", "xwfp-token-1");
    await completions.onChange(
      request({
        title: "<!channel> now",
        status: "rejected",
        decision: {
          by: "U0APPROVE1",
          at: "2026-11-28T07:01:00.000Z",
          action: "reject",
          reason: "budget frozen <@U0OUTSIDE1> <!channel>",
        },
      }),
    );
    expect(queued[0]?.error).toBe(
      "Rejected by @alex: budget frozen @oscar ‹!channel› (request apr_aaaaaaaaaaaaaaaa)",
    );
    expect(queued[0]?.outputs).toBeUndefined();
    expect(queued[0]?.gone?.text).toContain("&lt;!channel&gt; now");
  });

  it("words a withdrawal and a provider's refusal", async () => {
    await completions.keepToken("Fx0123ABC", "xwfp-token-1");
    await completions.onChange(
      request({
        status: "cancelled",
        history: [
          { at: "2026-11-28T07:01:00.000Z", actor: "U0REQUEST1", from: "pending", to: "cancelled" },
        ],
      }),
    );
    await completions.keepToken("Fx0456DEF", "xwfp-token-2");
    await completions.onChange(
      request({
        id: "apr_bbbbbbbbbbbbbbbb",
        step: { executionId: "Fx0456DEF", callbackId: "request_port_order" },
        status: "failed",
        error: { message: "speed 25000 is not offered here", httpStatus: 400 },
      }),
    );
    expect(queued.map((q) => q.error)).toEqual([
      "Withdrawn by @rita before it was approved (request apr_aaaaaaaaaaaaaaaa)",
      "The provider did not place the order: speed 25000 is not offered here. An approver may still retry it in the approvals channel; this workflow does not wait for that (request apr_bbbbbbbbbbbbbbbb)",
    ]);
  });

  it("says a request marked as failed was marked so, by whom, never that the provider refused it", async () => {
    await completions.keepToken("Fx0789GHI", "xwfp-token-3");
    await completions.onChange(
      request({
        id: "apr_cccccccccccccccc",
        step: { executionId: "Fx0789GHI", callbackId: "request_port_order" },
        status: "failed",
        error: { message: "Marked as failed" },
        history: [
          { at: "2026-11-28T07:01:00.000Z", actor: "host:1", from: "executing", to: "unknown" },
          { at: "2026-11-28T07:02:00.000Z", actor: "U0APPROVE1", from: "unknown", to: "failed" },
        ],
      }),
    );
    expect(queued.map((q) => q.error)).toEqual([
      "Marked as failed by @alex after its outcome stayed unknown (request apr_cccccccccccccccc)",
    ]);
  });

  it("an end missed while Redis was out of reach is queued by the reconciler", async () => {
    await completions.keepToken("Fx0123ABC", "xwfp-token-1");
    await completions.opened("Fx0123ABC", "apr_aaaaaaaaaaaaaaaa");
    // The change is seen while Redis cannot be read: nothing is queued, nothing is thrown.
    const broken = new StepCompletions({
      redis: { get: () => Promise.reject(new Error("Connection is closed.")) } as never,
      prefix,
      notifier: {
        completeStep: async () => {
          throw new Error("unreachable");
        },
      },
      get: async () => undefined,
      names: async () => NO_STEP_NAMES,
      logger: testLogger(),
    });
    const placed = request({
      status: "placed",
      result: { providerId: "ORD-1", status: "created", record: {} },
    });
    await expect(broken.onChange(placed)).resolves.toBeUndefined();
    expect(queued).toEqual([]);
    records.set(placed.id, placed);
    expect(await completions.reconcile()).toBe(1);
    expect(queued.map((q) => q.outputs?.order_id)).toEqual(["ORD-1"]);
    expect(await redis.hgetall(`${prefix}:open`)).toEqual({});
    expect(await completions.reconcile()).toBe(0);
  });

  it("leaves requests without a step, and those still going, alone", async () => {
    await completions.keepToken("Fx0123ABC", "xwfp-token-1");
    const { step: _none, ...withoutStep } = request({ status: "placed" });
    await completions.onChange(withoutStep);
    for (const status of ["pending", "approved", "executing", "unknown"] as const) {
      await completions.onChange(request({ status }));
    }
    expect(queued).toEqual([]);
  });
});
