// The lifecycle API (src/orders/requests.ts) without Slack: every transition a person makes,
// every refusal reason, the approval policy and names, on the real approvals store and the real
// OrderLifecycle on the test Redis. What the lifecycle drives (notifier, placement queue,
// tracker) is faked and records what it was asked, so the follow-up of each step is visible.
import type { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ApprovalPolicy,
  ApprovalStore,
  parseApprovalPolicy,
} from "../../src/approvals/index.js";
import { StorageUnavailableError } from "../../src/domain/errors.js";
import { createLogger } from "../../src/log.js";
import {
  type DecisionSettings,
  OrderRequests,
  type OrderRequestsOptions,
  originOf,
  type StepResult,
} from "../../src/orders/index.js";
import { type LifecycleJobs, OrderLifecycle } from "../../src/orders/lifecycle.js";
import type { LookUpAgainOutcome, PlacementContext } from "../../src/orders/placement/contract.js";
import type { TrackedOrder } from "../../src/orders/tracking/index.js";
import type { ProviderApi } from "../../src/provider/api.js";
import { refusedText } from "../../views/approvals/lifecycleRefusals.js";
import {
  connect,
  deleteKeys,
  portOrderInput,
  runPrefix,
  unreachableRedis,
} from "../approvals/support.js";

const CHANNEL = "C0APPROVALS";
const TS = "1700000000.000100";
const APPROVER = "U0APPROVER1";
const APPROVER_TWO = "U0APPROVER2";
const REQUESTER = "UREQ00001";
const NETWORK_ALEX = "U0NETALEX";
const NETWORK_BEA = "U0NETBEA1";
const FINANCE_FIN = "U0FINANCE";

const prefix = runPrefix("orders-lifecycle-api");
let redis: Redis;
let count = 0;

beforeAll(() => {
  redis = connect();
});
afterAll(async () => {
  await deleteKeys(redis, prefix);
  redis.disconnect();
});

const GROUPS: Record<string, string[]> = {
  S0NETWORK: [NETWORK_ALEX, NETWORK_BEA],
  S0FINANCE: [FINANCE_FIN],
};
const groups = async (id: string) => GROUPS[id] ?? [];

function policyOf(text: string): ApprovalPolicy {
  const parsed = parseApprovalPolicy(text);
  if (!parsed.ok) throw new Error(parsed.problems.join("; "));
  return parsed.policy;
}

const POLICY = policyOf(`
groups:
  network: [S0NETWORK]
  finance: [S0FINANCE]
rules:
  - name: 1,000 a month or more
    monthlyFrom: 1000
    approvals: 2
    from: [network, finance]
    atLeastOneFrom: finance
  - name: Under 1,000 a month
    approvals: 1
    from: [network]
`);

/** An API over its own store, with the lifecycle's jobs faked (they record what they are asked). */
function api(
  settings: Partial<DecisionSettings> = {},
  options: Partial<OrderRequestsOptions> = {},
  wrap: (store: ApprovalStore) => ApprovalStore = (store) => store,
) {
  count += 1;
  const own = `${prefix}${count}:`;
  const store = wrap(new ApprovalStore({ redis, prefix: `${own}approvals` }));
  const enqueued: string[] = [];
  const said: string[] = [];
  let lookUp: LookUpAgainOutcome = "escalated";
  let postsFail = false;
  const jobs: LifecycleJobs = {
    notifier: {
      post: async (input) => {
        if (postsFail) throw new Error("the notifier's queue is out of reach");
        said.push(input.key);
        return { queued: true };
      },
      update: async (input) => {
        said.push(input.key);
        return { queued: true };
      },
      updateRendered: async () => ({ queued: true }),
      refreshHome: async () => ({ queued: true }),
    },
    placement: {
      enqueue: async (id) => void enqueued.push(id),
      lookUpAgain: async () => lookUp,
    },
    tracker: { track: async () => ({ joined: false }) as never, get: async () => null },
  };
  const lifecycle = new OrderLifecycle({
    store,
    provider: {} as ProviderApi,
    companyUsername: async () => "acme",
    redis,
    prefix: `${own}orders`,
    notifier: jobs.notifier,
    placement: () => jobs.placement,
    tracker: () => jobs.tracker,
  });
  const stopped: string[] = [];
  const requests = new OrderRequests({
    store,
    lifecycle,
    settings: {
      channel: CHANNEL,
      approvers: [APPROVER],
      requesters: [],
      allowSelfApproval: false,
      ...settings,
    },
    currency: "EUR",
    sandbox: true,
    tracker: {
      stop: async (orderId, by, { isApprover } = {}) => {
        if (orderId !== "ord-1") return { ok: false, reason: "not-tracked" };
        if (by !== REQUESTER && !(await isApprover?.(by)))
          return { ok: false, reason: "not-allowed" };
        stopped.push(orderId);
        return {
          ok: true,
          tracking: { target: { kind: "edge-order", id: orderId } } as TrackedOrder,
        };
      },
    },
    logger: createLogger({ level: "silent" }),
    ...options,
  });
  return {
    store,
    lifecycle,
    requests,
    enqueued,
    said,
    stopped,
    setLookUp: (outcome: LookUpAgainOutcome) => {
      lookUp = outcome;
    },
    failPosts: () => {
      postsFail = true;
    },
  };
}

/** A submitted request whose approval message was posted at CHANNEL/TS. */
async function posted(
  parts: ReturnType<typeof api>,
  overrides: Parameters<typeof portOrderInput>[0] = {},
) {
  const { sandbox: _sandbox, ...submission } = portOrderInput({
    requester: { userId: REQUESTER, channelId: "C0ASKED" },
    ...overrides,
  });
  const submitted = await parts.requests.submit({ submission, groups });
  if (!submitted.ok) throw new Error(`not submitted: ${submitted.reason}`);
  await parts.requests.approvalPosted(submitted.record, {
    approvalChannel: CHANNEL,
    approvalTs: TS,
  });
  const record = await parts.store.get(submitted.record.id);
  if (!record) throw new Error("gone");
  return record;
}

const onItsMessage = { channel: CHANNEL, messageTs: TS };

/** A step's result once its follow-up (started, not awaited, by the API) has run too. */
async function settled(step: Promise<StepResult>): Promise<StepResult> {
  const result = await step;
  if (result.ok) await result.followUp;
  return result;
}

describe("submit", () => {
  it("stores a pending request with the currency, the sandbox flag and its origin", async () => {
    const parts = api();
    const { sandbox: _s, ...submission } = portOrderInput();
    const result = await parts.requests.submit({ submission, groups, origin: "Fx0WORKFLOW1" });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.record).toMatchObject({ status: "pending", sandbox: true });
    expect(result.record.price?.currency).toBe("EUR");
    expect(originOf(result.record)).toBe("Fx0WORKFLOW1");
    expect(originOf((await parts.store.get(result.record.id))!)).toBe("Fx0WORKFLOW1");
  });

  it("fixes the policy's rule for its amount on the request", async () => {
    const parts = api({ policy: POLICY, approvers: ["S0NETWORK", "S0FINANCE"] });
    const big = await posted(parts, { price: { monthly: 1200, text: "1,200" } });
    const small = await posted(parts, { price: { monthly: 100, text: "100" } });
    expect(big.requirement).toMatchObject({ rule: "1,000 a month or more", approvals: 2 });
    expect(small.requirement).toMatchObject({ rule: "Under 1,000 a month", approvals: 1 });
  });

  it("refuses: approvals not set up, not a requester, a taken name, a bad origin", async () => {
    const { sandbox: _s, ...submission } = portOrderInput({ requester: { userId: REQUESTER } });
    expect(await api({ channel: undefined }).requests.submit({ submission, groups })).toMatchObject(
      {
        ok: false,
        reason: "approvals_not_set_up",
      },
    );
    expect(
      await api({ requesters: ["S0NETWORK"] }).requests.submit({ submission, groups }),
    ).toMatchObject({ ok: false, reason: "not_a_requester" });
    const parts = api();
    expect((await parts.requests.submit({ submission, groups })).ok).toBe(true);
    expect(
      await parts.requests.submit({
        submission: { ...submission, reconcileKey: ` ${submission.reconcileKey?.toUpperCase()} ` },
        groups,
      }),
    ).toMatchObject({ ok: false, reason: "name_taken" });
    expect(await parts.requests.submit({ submission, groups, origin: "two words" })).toMatchObject({
      ok: false,
      reason: "invalid_origin",
    });
  });

  it("approvalPosted keeps the first place; a later post of the same request loses its buttons", async () => {
    const parts = api();
    const record = await posted(parts);
    const late = "1700000000.000200";
    await parts.requests.approvalPosted(record, { approvalChannel: CHANNEL, approvalTs: late });
    expect((await parts.store.get(record.id))?.slack.approvalTs).toBe(TS);
    expect(parts.said).toEqual([`superseded:${late}`]);
  });

  it("cardPosted keeps the first card; a later card of the same request loses its Withdraw", async () => {
    const parts = api();
    const record = await posted(parts);
    const first = { cardChannel: "C0ASKED", cardTs: "1700000000.000300" };
    await parts.requests.cardPosted(record, first);
    // The maintenance reconciler's card, or the form's late one: the first kept stays.
    const late = { cardChannel: "D0REQUEST1", cardTs: "1700000000.000400" };
    await parts.requests.cardPosted(record, late);
    expect((await parts.store.get(record.id))?.slack).toMatchObject(first);
    expect(parts.said).toEqual([`card-superseded:${late.cardTs}`]);
  });

  it("of ten concurrent submissions of one name, creates exactly one", async () => {
    const parts = api();
    const { sandbox: _s, ...submission } = portOrderInput();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => parts.requests.submit({ submission, groups })),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok).map((r) => !r.ok && r.reason)).toEqual(
      Array(9).fill("name_taken"),
    );
  });

  it("answers storage_unavailable when Redis is out of reach, as a value", async () => {
    const down = unreachableRedis();
    const parts = api({}, { store: new ApprovalStore({ redis: down, prefix: `${prefix}down:` }) });
    const { sandbox: _s, ...submission } = portOrderInput();
    expect(await parts.requests.submit({ submission, groups })).toMatchObject({
      ok: false,
      reason: "storage_unavailable",
      error: { code: "storage_unavailable" },
    });
    expect(
      await parts.requests.approve({
        id: "apr_aaaaaaaaaaaaaaaa",
        by: APPROVER,
        groups,
        at: { home: true },
      }),
    ).toMatchObject({ ok: false, reason: "storage_unavailable" });
    down.disconnect();
  });
});

describe("approve", () => {
  it("answers once stored, before the follow-up starts; the follow-up then tells the thread and queues the placement", async () => {
    const parts = api();
    const record = await posted(parts);
    const result = await parts.requests.approve({
      id: record.id,
      by: APPROVER,
      groups,
      at: onItsMessage,
    });
    // The answer (a click's ack) comes first: nothing of the follow-up has run yet.
    expect(parts.said).toEqual([]);
    if (!result.ok) throw new Error(result.reason);
    expect(result.record.status).toBe("approved");
    expect(await result.followUp).toBe(true);
    expect((await parts.store.get(record.id))?.status).toBe("approved");
    expect(parts.enqueued).toEqual([record.id]);
    expect(parts.said.some((key) => key.startsWith("h0:approved"))).toBe(true);
  });

  it("a failed follow-up is logged and answers false, never a rejection; the step stays recorded", async () => {
    const parts = api();
    const record = await posted(parts);
    parts.failPosts();
    const result = await parts.requests.approve({
      id: record.id,
      by: APPROVER,
      groups,
      at: onItsMessage,
    });
    if (!result.ok) throw new Error(result.reason);
    expect(await result.followUp).toBe(false);
    expect((await parts.store.get(record.id))?.status).toBe("approved");
  });

  it("works from the approver's App Home", async () => {
    const parts = api();
    const record = await posted(parts);
    expect(
      await parts.requests.approve({ id: record.id, by: APPROVER, groups, at: { home: true } }),
    ).toMatchObject({ ok: true });
  });

  it("takes the buttons off a stray message of the request that is clicked (a post whose place was never kept), and only there", async () => {
    const parts = api();
    const record = await posted(parts);
    const approve = (at: object) =>
      parts.requests.approve({ id: record.id, by: APPROVER, groups, at });
    // Another post of this request in its channel: refused, and that post loses its buttons.
    expect(await approve({ channel: CHANNEL, messageTs: "1700000000.000200" })).toMatchObject({
      ok: false,
      reason: "not_its_message",
    });
    expect(parts.said.filter((key) => key.startsWith("superseded:"))).toEqual([
      "superseded:1700000000.000200",
    ]);
    // Elsewhere (another channel, or App Home's own checks) nothing is updated.
    expect(await approve({ channel: "C0OTHER", messageTs: "1700000000.000300" })).toMatchObject({
      ok: false,
      reason: "not_its_message",
    });
    expect(parts.said.filter((key) => key.startsWith("superseded:"))).toHaveLength(1);
    expect((await parts.store.get(record.id))?.status).toBe("pending");
    expect(parts.enqueued).toEqual([]);
  });

  it("refuses and changes nothing: not found, not an approver, self-approval, not its message, not pending", async () => {
    const parts = api({ approvers: [APPROVER, APPROVER_TWO, REQUESTER] });
    const record = await posted(parts);
    const approve = (by: string, at: object = onItsMessage, id = record.id) =>
      parts.requests.approve({ id, by, groups, at });
    expect(await approve(APPROVER, onItsMessage, "apr_aaaaaaaaaaaaaaaa")).toMatchObject({
      ok: false,
      reason: "not_found",
    });
    expect(await approve("U0STRANGER")).toMatchObject({ ok: false, reason: "not_an_approver" });
    expect(await approve(REQUESTER)).toMatchObject({ ok: false, reason: "self_approval" });
    expect(await approve(APPROVER, { channel: CHANNEL, messageTs: "1.1" })).toMatchObject({
      ok: false,
      reason: "not_its_message",
    });
    expect(await approve(APPROVER, { channel: "C0OTHER", messageTs: TS })).toMatchObject({
      ok: false,
      reason: "not_its_message",
    });
    expect((await parts.store.get(record.id))?.status).toBe("pending");
    expect(parts.enqueued).toEqual([]);
    expect((await settled(approve(APPROVER))).ok).toBe(true);
    expect(await approve(APPROVER_TWO)).toMatchObject({
      ok: false,
      reason: "not_pending",
      refusal: { reason: "not-pending" },
    });
    expect(parts.enqueued).toEqual([record.id]);
  });

  it("lets the requester approve their own request when ALLOW_SELF_APPROVAL says so", async () => {
    const parts = api({ approvers: [REQUESTER], allowSelfApproval: true });
    const record = await posted(parts);
    expect(
      await parts.requests.approve({ id: record.id, by: REQUESTER, groups, at: onItsMessage }),
    ).toMatchObject({ ok: true });
  });

  it("answers too_slow when the checks outlast their budget, and changes nothing", async () => {
    const parts = api({ approvers: ["S0SLOW"] });
    const record = await posted(parts);
    let release: () => void = () => {};
    const slowGroups = () =>
      new Promise<string[]>((resolve) => {
        release = () => resolve([APPROVER]);
      });
    const result = await parts.requests.approve({
      id: record.id,
      by: APPROVER,
      groups: slowGroups,
      at: onItsMessage,
      checksWithinMs: 50,
    });
    release();
    expect(result).toMatchObject({ ok: false, reason: "too_slow" });
    expect((await parts.store.get(record.id))?.status).toBe("pending");
  });

  it("under the policy: two approvals, one from finance; a second click by one person and a last one outside finance are refused", async () => {
    const parts = api({ policy: POLICY, approvers: ["S0NETWORK", "S0FINANCE"] });
    const record = await posted(parts, { price: { monthly: 5000, text: "5,000" } });
    const approve = (by: string) =>
      parts.requests.approve({ id: record.id, by, groups, at: onItsMessage });
    expect(await approve(NETWORK_ALEX)).toMatchObject({ ok: true, record: { status: "pending" } });
    expect(await approve(NETWORK_ALEX)).toMatchObject({
      ok: false,
      reason: "already_approved_by_you",
    });
    expect(await approve(NETWORK_BEA)).toMatchObject({ ok: false, reason: "group_required" });
    expect(await approve(APPROVER)).toMatchObject({ ok: false, reason: "not_an_approver" });
    expect(parts.enqueued).toEqual([]);
    expect(await settled(approve(FINANCE_FIN))).toMatchObject({
      ok: true,
      record: { status: "approved" },
    });
    expect(parts.enqueued).toEqual([record.id]);
  });

  it("mayDecide: the requirement's approvers, not one already counted, not the requester", async () => {
    const parts = api({ policy: POLICY, approvers: ["S0NETWORK", "S0FINANCE"] });
    const record = await posted(parts, { price: { monthly: 5000, text: "5,000" } });
    const may = (by: string, r = record) => parts.requests.mayDecide(r, { by, groups });
    expect(await may(NETWORK_ALEX)).toBe(true);
    expect(await may(APPROVER)).toBe(false);
    expect(await may(REQUESTER)).toBe(false);
    const once = await parts.requests.approve({
      id: record.id,
      by: NETWORK_ALEX,
      groups,
      at: { home: true },
    });
    if (!once.ok) throw new Error(once.reason);
    expect(await may(NETWORK_ALEX, once.record)).toBe(false);
    expect(await may(FINANCE_FIN, once.record)).toBe(true);
  });

  it("policy(): the file's rules, or one approval from APPROVERS", () => {
    expect(api({ policy: POLICY }).requests.policy()).toBe(POLICY);
    expect(api().requests.policy().rules).toHaveLength(1);
  });
});

describe("reject", () => {
  it("needs a reason; rejected, the requester is told and the name is free again", async () => {
    const parts = api({ approvers: [APPROVER, APPROVER_TWO] });
    const record = await posted(parts);
    const reject = (reason: string, by = APPROVER) =>
      parts.requests.reject({ id: record.id, by, groups, at: onItsMessage, reason });
    expect(await reject("  ")).toMatchObject({ ok: false, reason: "reason_required" });
    expect(await settled(reject("too dear"))).toMatchObject({
      ok: true,
      record: { status: "rejected" },
    });
    expect(parts.said).toContain("h0:requester");
    expect(await reject("again", APPROVER_TWO)).toMatchObject({
      ok: false,
      reason: "not_pending",
    });
    const again = await posted(parts, { reconcileKey: record.reconcileKey });
    expect(again.status).toBe("pending");
  });

  it("checkDecider: the checks alone, nothing stored; not_pending once decided", async () => {
    const parts = api();
    const record = await posted(parts);
    const check = (by: string) =>
      parts.requests.checkDecider({ id: record.id, by, groups, at: onItsMessage });
    expect(await check("U0STRANGER")).toMatchObject({ ok: false, reason: "not_an_approver" });
    expect(await check(APPROVER)).toMatchObject({ ok: true, record: { status: "pending" } });
    expect((await parts.store.get(record.id))?.history).toHaveLength(0);
    await parts.requests.approve({ id: record.id, by: APPROVER, groups, at: onItsMessage });
    expect(await check(APPROVER)).toMatchObject({ ok: false, reason: "not_pending" });
  });
});

describe("withdraw", () => {
  it("by the requester while pending; refused for others, after a decision, or for a malformed id", async () => {
    const parts = api();
    const record = await posted(parts);
    expect(await parts.requests.withdraw({ id: "nonsense", by: REQUESTER })).toMatchObject({
      ok: false,
      reason: "not_a_request_id",
    });
    expect(await parts.requests.withdraw({ id: record.id, by: APPROVER })).toMatchObject({
      ok: false,
      reason: "not_requester",
    });
    expect(await parts.requests.withdraw({ id: record.id, by: REQUESTER })).toMatchObject({
      ok: true,
      record: { status: "cancelled" },
    });
    const other = await posted(parts);
    await parts.requests.approve({ id: other.id, by: APPROVER, groups, at: onItsMessage });
    expect(await parts.requests.withdraw({ id: other.id, by: REQUESTER })).toMatchObject({
      ok: false,
      reason: "not_pending",
    });
  });
});

/** A request approved and claimed by a worker, then `end` (failed or unknown). */
async function placedBadly(parts: ReturnType<typeof api>, end: "failed" | "unknown") {
  const record = await posted(parts);
  await settled(parts.requests.approve({ id: record.id, by: APPROVER, groups, at: onItsMessage }));
  const claimed = await parts.store.claim(record.id, "worker-a");
  if (!claimed.ok) throw new Error("not claimed");
  const moved =
    end === "failed"
      ? await parts.store.fail(record.id, { message: "refused" })
      : await parts.store.markUnknown(record.id, "timeout after sending");
  if (!moved.ok) throw new Error(`not ${end}`);
  return moved.record;
}

describe("after a placement went wrong", () => {
  it("retry: failed → approved and queued; name_taken when another request holds the name now", async () => {
    const parts = api({ approvers: [APPROVER, APPROVER_TWO] });
    const failed = await placedBadly(parts, "failed");
    const retry = (by = APPROVER) =>
      parts.requests.retry({ id: failed.id, by, groups, at: onItsMessage });
    const taker = await posted(parts, { reconcileKey: failed.reconcileKey });
    expect(await retry()).toMatchObject({ ok: false, reason: "name_taken", heldBy: taker.id });
    await parts.requests.withdraw({ id: taker.id, by: REQUESTER });
    expect(await settled(retry())).toMatchObject({ ok: true, record: { status: "approved" } });
    expect(parts.enqueued.filter((id) => id === failed.id)).toHaveLength(2);
    expect(await retry(APPROVER_TWO)).toMatchObject({ ok: false, reason: "not_failed" });
  });

  it("place again: only after a look-up found nothing; then unknown → approved", async () => {
    const parts = api();
    const unknown = await placedBadly(parts, "unknown");
    const placeAgain = () =>
      parts.requests.placeAgain({ id: unknown.id, by: APPROVER, groups, at: onItsMessage });
    expect(await placeAgain()).toMatchObject({ ok: false, reason: "look_up_first" });
    const ctx: PlacementContext = {
      notifier: { post: async () => ({ queued: true }) } as never,
      notifyScope: `approval:${unknown.id}`,
      notifyKey: "place:1",
    } as PlacementContext;
    await parts.lifecycle
      .placementCallbacks()
      .onEscalate(unknown, { kind: "not-found", detail: "no port by that name" }, ctx);
    expect(await placeAgain()).toMatchObject({ ok: true, record: { status: "approved" } });
  });

  it("mark as failed: unknown → failed, and the name is free again", async () => {
    const parts = api();
    const unknown = await placedBadly(parts, "unknown");
    const result = await parts.requests.markFailed({
      id: unknown.id,
      by: APPROVER,
      groups,
      at: onItsMessage,
    });
    expect(result).toMatchObject({ ok: true, record: { status: "failed" } });
    expect((await posted(parts, { reconcileKey: unknown.reconcileKey })).status).toBe("pending");
  });

  it("retry: refused for a request marked as failed (it may exist at the provider), nothing changed", async () => {
    const parts = api();
    const unknown = await placedBadly(parts, "unknown");
    const decision = { id: unknown.id, by: APPROVER, groups, at: onItsMessage };
    expect(await settled(parts.requests.markFailed(decision))).toMatchObject({ ok: true });
    const before = await parts.store.get(unknown.id);
    const enqueued = parts.enqueued.length;
    const said = parts.said.length;

    const retried = await parts.requests.retry(decision);
    expect(retried).toMatchObject({ ok: false, reason: "marked_failed" });
    expect(!retried.ok && refusedText(retried)).toContain("it is not sent again");
    expect(await parts.store.get(unknown.id)).toEqual(before);
    expect(parts.enqueued.length).toBe(enqueued);
    expect(parts.said.length).toBe(said);
  });

  it("look up again: the outcome, or not_unknown once settled; the approver checks first", async () => {
    const parts = api();
    const unknown = await placedBadly(parts, "unknown");
    const lookUp = async (by = APPROVER) => {
      const checked = await parts.requests.lookUpAgain({
        id: unknown.id,
        by,
        groups,
        at: onItsMessage,
      });
      return checked.ok ? checked.lookUp() : checked;
    };
    expect(await lookUp("U0STRANGER")).toMatchObject({ ok: false, reason: "not_an_approver" });
    expect(await lookUp()).toMatchObject({ ok: true, outcome: "escalated" });
    parts.setLookUp("not-unknown");
    expect(await lookUp()).toMatchObject({ ok: false, reason: "not_unknown" });
  });
});

describe("stop tracking", () => {
  it("by who started it or an approver; refused for others and for an order not tracked", async () => {
    const parts = api({ approvers: ["S0NETWORK"] });
    expect(
      await parts.requests.stopTracking({ orderId: "ord-1", by: "U0STRANGER", groups }),
    ).toEqual({ ok: false, reason: "not_allowed" });
    expect(await parts.requests.stopTracking({ orderId: "ord-9", by: REQUESTER, groups })).toEqual({
      ok: false,
      reason: "not_tracked",
    });
    expect(
      await parts.requests.stopTracking({ orderId: "ord-1", by: NETWORK_BEA, groups }),
    ).toEqual({ ok: true, kind: "edge-order" });
    expect(parts.stopped).toEqual(["ord-1"]);
  });
});

/**
 * A store whose next `method` call is kept in Redis but answered as a write its replica WAIT did
 * not confirm (StorageUnavailableError, as the store's confirmed writes do): the click is not
 * acked and the person clicks again.
 */
function keptButUnconfirmed(method: "approve" | "decide" | "cancel" | "markFailed") {
  let armed = true;
  return (store: ApprovalStore): ApprovalStore =>
    new Proxy(store, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver);
        if (property !== method || typeof value !== "function") return value;
        return async (...args: unknown[]) => {
          const result = await value.apply(target, args);
          if (!armed) return result;
          armed = false;
          throw new StorageUnavailableError(new Error("not confirmed by a replica"));
        };
      },
    });
}

describe("a step kept although its confirmation was lost, then clicked again", () => {
  it("reject: refused as decided, and the thread, the message and the requester are told now, once", async () => {
    const parts = api({}, {}, keptButUnconfirmed("decide"));
    const record = await posted(parts);
    const reject = () =>
      parts.requests.reject({
        id: record.id,
        by: APPROVER,
        groups,
        at: onItsMessage,
        reason: "no",
      });
    expect(await reject()).toMatchObject({ ok: false, reason: "storage_unavailable" });
    expect((await parts.store.get(record.id))?.status).toBe("rejected");
    expect(parts.said).toEqual([]);
    expect(await reject()).toMatchObject({ ok: false, reason: "not_pending" });
    expect(parts.said).toEqual(expect.arrayContaining(["h0:rejected", "h0:requester"]));
    // The Reject button again (its checks open the reason modal): followed up again, keyed.
    const said = parts.said.length;
    expect(
      await parts.requests.checkDecider({ id: record.id, by: APPROVER, groups, at: onItsMessage }),
    ).toMatchObject({ ok: false, reason: "not_pending" });
    expect(parts.said.slice(said)).toEqual(expect.arrayContaining(["h0:rejected"]));
  });

  it("withdraw: followed up on the retry; a cancel without the withdrawal note is not", async () => {
    const parts = api({}, {}, keptButUnconfirmed("cancel"));
    const record = await posted(parts);
    const withdraw = (id = record.id) => parts.requests.withdraw({ id, by: REQUESTER });
    expect(await withdraw()).toMatchObject({ ok: false, reason: "storage_unavailable" });
    expect(parts.said).toEqual([]);
    expect(await withdraw()).toMatchObject({ ok: false, reason: "not_pending" });
    expect(parts.said).toContain("h0:cancelled");
    // A request cancelled because its approval message failed (no withdrawal note).
    const other = await posted(parts);
    await parts.requests.approvalNotPosted(other);
    const said = parts.said.length;
    expect(await withdraw(other.id)).toMatchObject({ ok: false, reason: "not_pending" });
    expect(parts.said.slice(said)).toEqual([]);
  });

  it("approve: a counted approval and a last one are followed up on the retry; not another approver's click", async () => {
    const parts = api(
      { policy: POLICY, approvers: ["S0NETWORK", "S0FINANCE"] },
      {},
      keptButUnconfirmed("approve"),
    );
    const record = await posted(parts, { price: { monthly: 5000, text: "5,000" } });
    const approve = (by: string) =>
      parts.requests.approve({ id: record.id, by, groups, at: onItsMessage });
    expect(await approve(NETWORK_ALEX)).toMatchObject({ reason: "storage_unavailable" });
    expect(parts.said).toEqual([]);
    expect(await approve(NETWORK_ALEX)).toMatchObject({ reason: "already_approved_by_you" });
    expect(parts.said).toContain("h0:pending");
    expect(await settled(approve(FINANCE_FIN))).toMatchObject({
      ok: true,
      record: { status: "approved" },
    });
    expect(parts.enqueued).toEqual([record.id]);
    expect(await approve(FINANCE_FIN)).toMatchObject({ reason: "not_pending" });
    const said = parts.said.length;
    expect(await approve(NETWORK_BEA)).toMatchObject({ ok: false, reason: "not_pending" });
    expect(parts.said.slice(said)).toEqual([]);
    // The fake queue counts each call; the real one adds a placement job once (its job id).
    expect(parts.enqueued).toEqual([record.id, record.id]);
  });

  it("mark as failed: followed up on the second click; a retry of it is refused and says nothing", async () => {
    const parts = api({}, {}, keptButUnconfirmed("markFailed"));
    const unknown = await placedBadly(parts, "unknown");
    const markFailed = () =>
      parts.requests.markFailed({ id: unknown.id, by: APPROVER, groups, at: onItsMessage });
    const saidFailed = () => parts.said.filter((key) => key.endsWith(":failed"));
    expect(await markFailed()).toMatchObject({ ok: false, reason: "storage_unavailable" });
    expect(saidFailed()).toEqual([]);
    expect(await markFailed()).toMatchObject({ ok: false, reason: "not_unknown" });
    expect(saidFailed()).toHaveLength(1);
    const said = parts.said.length;
    const retried = await parts.requests.retry({
      id: unknown.id,
      by: APPROVER,
      groups,
      at: onItsMessage,
    });
    expect(retried).toMatchObject({ ok: false, reason: "marked_failed" });
    expect(parts.said.slice(said)).toEqual([]);
  });
});
