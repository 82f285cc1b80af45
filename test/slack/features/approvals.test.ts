// The approval listeners (src/slack/features/approvals), each called as Bolt would with fake
// ack/client: who may click where, ack only once stored, refusals told privately, the reject
// modal's checks. Records live in a real approvals store on the shared Redis (unique prefix).
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { StorageUnavailableError } from "../../../src/domain/errors.js";
import {
  CHECK_BUDGET_MS,
  NOT_ITS_MESSAGE,
} from "../../../src/slack/features/approvals/approverClick.js";
import { registerApprovalListeners } from "../../../src/slack/features/approvals/index.js";
import type { ListenerDeps } from "../../../src/slack/listeners.js";
import {
  ACTION_APPROVE,
  ACTION_LOOK_UP_AGAIN,
  ACTION_MARK_FAILED,
  ACTION_PLACE_AGAIN,
  ACTION_REJECT,
  ACTION_RETRY,
} from "../../../views/approvals/approvals.js";
import {
  BLOCK_REJECT_REASON,
  INPUT_REJECT_REASON,
  REJECT_CHECKS_TOO_SLOW,
  VIEW_REJECT_REASON,
} from "../../../views/approvals/rejectModal.js";
import { ACTION_VIEW_IN_APPROVALS } from "../../../views/approvals/requestCard.js";
import { describeFailure } from "../../../views/failures.js";
import { fakeAck, fakeClient, fakeRegistry, listenerServices } from "../../support/fakeSlack.js";
import {
  APPROVALS_CHANNEL,
  APPROVER,
  approvalSettings,
  click,
  pendingRequest,
  REQUESTER,
  redisStore,
  storeOrders,
  toldTexts,
} from "./support.js";

const redis = redisStore("slack-features-approvals");
afterAll(() => redis.close());
afterEach(() => vi.useRealTimers());

const exercised = { action: new Set<string>(), view: new Set<string>() };

function feature(parts: { orders?: Partial<ListenerDeps["orders"]>; approvers?: string[] } = {}) {
  const store = redis.store;
  const { orders, followedUp } = storeOrders(store, parts.orders);
  const services = listenerServices({
    approvals: approvalSettings(store, parts.approvers),
    orders,
  });
  const registry = fakeRegistry();
  registerApprovalListeners(registry.registry, services);
  const run = (kind: "action" | "view", id: string, args: Record<string, unknown>) => {
    exercised[kind].add(id);
    return registry.run(kind, id, args);
  };
  return { store, services, registry, run, followedUp };
}

/** A click on the request's own approval message. */
function onItsMessage(
  actionId: string,
  record: { id: string; slack: { approvalTs?: string } },
  userId = APPROVER,
) {
  return click(actionId, record.id, {
    userId,
    channel: APPROVALS_CHANNEL,
    messageTs: record.slack.approvalTs,
  });
}

describe("View in approvals", () => {
  it("only acks: the button is a link", async () => {
    const { run } = feature();
    const acks = fakeAck();
    await run("action", ACTION_VIEW_IN_APPROVALS, { ack: acks.ack });
    expect(acks.acked).toEqual([undefined]);
  });
});

describe("Approve", () => {
  it("records the approval, acks once, then follows up", async () => {
    const acksWhenFollowedUp: number[] = [];
    const { run, store } = feature({
      orders: { followUp: async () => void acksWhenFollowedUp.push(c.acks.acked.length) },
    });
    const record = await pendingRequest(store);
    const c = onItsMessage(ACTION_APPROVE, record);
    await run("action", ACTION_APPROVE, c.args);
    expect(c.acks.acked).toHaveLength(1);
    expect((await store.get(record.id))?.status).toBe("approved");
    // The follow-up started only once the click was acked, and the listener waited for it.
    expect(acksWhenFollowedUp).toEqual([1]);
    expect(toldTexts(c.slack)).toEqual([]);
  });

  it("works from the approver's own App Home, where there is no channel or message", async () => {
    const { run, store } = feature();
    const record = await pendingRequest(store);
    const c = click(ACTION_APPROVE, record.id, { userId: APPROVER, home: true });
    await run("action", ACTION_APPROVE, c.args);
    expect((await store.get(record.id))?.status).toBe("approved");
  });

  it("answers a refused App Home click in the DM, naming the request it is about", async () => {
    const { run, store } = feature();
    const record = await pendingRequest(store);
    await store.cancel(record.id, record.requester.userId, "withdrawn");
    const c = click(ACTION_APPROVE, record.id, { userId: APPROVER, home: true });
    await run("action", ACTION_APPROVE, c.args);
    const [told, ...more] = toldTexts(c.slack);
    expect(more).toEqual([]);
    // Away from the request, the DM says which one: its title and id, then why.
    expect(told).toMatch(new RegExp(`^\\*.+\\* \\(\`${record.id}\`\\): The requester `));
    expect((await store.get(record.id))?.status).toBe("cancelled");
  });

  it("refuses (privately) a click on another message or channel, and changes nothing", async () => {
    const { run, store } = feature();
    const record = await pendingRequest(store);
    const c = click(ACTION_APPROVE, record.id, {
      userId: APPROVER,
      channel: APPROVALS_CHANNEL,
      messageTs: "1700000000.999999",
    });
    await run("action", ACTION_APPROVE, c.args);
    expect(c.acks.acked).toHaveLength(1);
    expect(c.slack.callsTo("chat.postEphemeral")).toEqual([
      { channel: APPROVALS_CHANNEL, user: APPROVER, text: NOT_ITS_MESSAGE },
    ]);
    expect((await store.get(record.id))?.status).toBe("pending");
  });

  it("refuses someone who is not an approver, and the requester", async () => {
    const { run, store } = feature();
    const record = await pendingRequest(store);
    for (const userId of ["U0STRANGER", REQUESTER]) {
      const c = onItsMessage(ACTION_APPROVE, record, userId);
      await run("action", ACTION_APPROVE, c.args);
      expect(c.acks.acked).toHaveLength(1);
      expect(toldTexts(c.slack)).toHaveLength(1);
    }
    expect((await store.get(record.id))?.status).toBe("pending");
  });

  it("says so when the request is gone, and acks a click carrying no value", async () => {
    const { run } = feature();
    const gone = click(ACTION_APPROVE, "apr_aaaaaaaaaaaaaaaa", {
      userId: APPROVER,
      channel: APPROVALS_CHANNEL,
      messageTs: "1.2",
    });
    await run("action", ACTION_APPROVE, gone.args);
    expect(toldTexts(gone.slack)).toEqual(["I can't find this request any more."]);
    const empty = click(ACTION_APPROVE, undefined, { userId: APPROVER, channel: "C1" });
    await run("action", ACTION_APPROVE, empty.args);
    expect(empty.acks.acked).toHaveLength(1);
    expect(empty.slack.calls).toEqual([]);
  });

  it("does not ack when storage is down (Slack shows the click failed) and says why", async () => {
    const { services, registry } = feature();
    const down = new StorageUnavailableError(new Error("Connection is closed."));
    services.approvals.store = {
      get: async () => {
        throw down;
      },
    } as never;
    const c = click(ACTION_APPROVE, "apr_aaaaaaaaaaaaaaaa", {
      userId: APPROVER,
      channel: APPROVALS_CHANNEL,
      messageTs: "1.2",
    });
    await expect(registry.run("action", ACTION_APPROVE, c.args)).rejects.toBe(down);
    expect(c.acks.acked).toEqual([]);
    await vi.waitFor(() => expect(toldTexts(c.slack)).toEqual([describeFailure(down)]));
  });

  it("refuses after CHECK_BUDGET_MS when the checks are too slow (a user group look-up hangs)", async () => {
    vi.useFakeTimers();
    const { run, store } = feature({ approvers: ["S0GROUP01"] });
    const record = await pendingRequest(store);
    const c = onItsMessage(ACTION_APPROVE, record);
    const slowClient = new Proxy(c.slack.client, {
      get: (target, name) =>
        name === "usergroups"
          ? { users: { list: () => new Promise(() => undefined) } }
          : Reflect.get(target, name),
    });
    const done = run("action", ACTION_APPROVE, { ...c.args, client: slowClient });
    await vi.advanceTimersByTimeAsync(CHECK_BUDGET_MS - 1);
    expect(c.acks.acked).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await done;
    expect(c.acks.acked).toHaveLength(1);
    expect(toldTexts(c.slack)[0]).toMatch(/couldn't check this click in time/);
    expect((await store.get(record.id))?.status).toBe("pending");
  });

  it("tells the approver when the follow-up failed, the approval being recorded all the same", async () => {
    const { run, store } = feature({
      orders: {
        followUp: async () => {
          throw new Error("thread unavailable");
        },
      },
    });
    const record = await pendingRequest(store);
    const c = onItsMessage(ACTION_APPROVE, record);
    await run("action", ACTION_APPROVE, c.args);
    expect((await store.get(record.id))?.status).toBe("approved");
    expect(toldTexts(c.slack)).toEqual([
      ":white_check_mark: Recorded. I couldn't post about it just now; the thread will catch up.",
    ]);
  });
});

describe("Retry, Place again, Mark failed", () => {
  it("refuse a request that is not in a state they apply to, privately, after the ack", async () => {
    const { run, store } = feature();
    const record = await pendingRequest(store);
    for (const id of [ACTION_RETRY, ACTION_MARK_FAILED]) {
      const c = onItsMessage(id, record);
      await run("action", id, c.args);
      expect(c.acks.acked).toHaveLength(1);
      expect(toldTexts(c.slack)).toHaveLength(1);
    }
    expect((await store.get(record.id))?.status).toBe("pending");
  });

  it("Place again asks for a look-up first when the lifecycle says so", async () => {
    const { run, store } = feature({
      orders: {
        placeAgain: async (id: string) =>
          ({ ok: false, reason: "look-up-first", record: await store.get(id) }) as never,
      },
    });
    const record = await pendingRequest(store);
    const c = onItsMessage(ACTION_PLACE_AGAIN, record);
    await run("action", ACTION_PLACE_AGAIN, c.args);
    expect(toldTexts(c.slack)).toEqual([
      "*Place again* is offered only after a look-up found nothing: press *Look up again* first.",
    ]);
  });

  it("a step that moved the request is followed up and nothing is told", async () => {
    const { run, store, followedUp } = feature({
      orders: {
        markFailed: async (id: string) => ({ ok: true, record: await store.get(id) }) as never,
      },
    });
    const record = await pendingRequest(store);
    const c = onItsMessage(ACTION_MARK_FAILED, record);
    await run("action", ACTION_MARK_FAILED, c.args);
    expect(followedUp.map((r) => r.id)).toEqual([record.id]);
    expect(toldTexts(c.slack)).toEqual([]);
  });
});

describe("Look up again", () => {
  it("acks first, then says what the look-up found", async () => {
    const outcomes = ["reconciled", "escalated", "not-unknown"] as const;
    for (const outcome of outcomes) {
      const acksWhenLookedUp: number[] = [];
      const lookUpAgain = async () => {
        acksWhenLookedUp.push(c.acks.acked.length);
        return outcome;
      };
      const { run, store } = feature({ orders: { lookUpAgain } as never });
      const record = await pendingRequest(store);
      const c = onItsMessage(ACTION_LOOK_UP_AGAIN, record);
      await run("action", ACTION_LOOK_UP_AGAIN, c.args);
      expect(c.acks.acked).toHaveLength(1);
      expect(acksWhenLookedUp).toEqual([1]);
      const [told] = toldTexts(c.slack);
      if (outcome === "reconciled") expect(told).toMatch(/^:white_check_mark: Settled/);
      if (outcome === "escalated") expect(told).toMatch(/^:mag: Still not found/);
      if (outcome === "not-unknown") expect(told).toMatch(/pending|waiting/i);
    }
  });
});

describe("Reject and its reason modal", () => {
  it("opens the reason modal carrying where it was clicked", async () => {
    const { run, store } = feature();
    const record = await pendingRequest(store);
    const c = onItsMessage(ACTION_REJECT, record);
    await run("action", ACTION_REJECT, c.args);
    const [opened] = c.slack.callsTo("views.open");
    const view = opened?.view as { callback_id: string; private_metadata: string };
    expect(view.callback_id).toBe(VIEW_REJECT_REASON);
    expect(JSON.parse(view.private_metadata)).toEqual({
      id: record.id,
      channel: APPROVALS_CHANNEL,
      ts: record.slack.approvalTs,
    });
    const home = click(ACTION_REJECT, record.id, { userId: APPROVER, home: true });
    await run("action", ACTION_REJECT, home.args);
    const homeView = home.slack.callsTo("views.open")[0]?.view as { private_metadata: string };
    expect(JSON.parse(homeView.private_metadata)).toMatchObject({ home: APPROVER });
  });

  it("says a decided request can no longer be rejected, without a modal", async () => {
    const { run, store } = feature();
    const record = await pendingRequest(store);
    await store.approve(record.id, { by: APPROVER });
    const c = onItsMessage(ACTION_REJECT, record);
    await run("action", ACTION_REJECT, c.args);
    expect(c.slack.callsTo("views.open")).toEqual([]);
    expect(toldTexts(c.slack)).toHaveLength(1);
  });

  function submit(metadata: object | string, reason: string, userId = APPROVER) {
    const slack = fakeClient();
    const acks = fakeAck();
    return {
      slack,
      acks,
      args: {
        ack: acks.ack,
        client: slack.client,
        body: { user: { id: userId } },
        view: {
          private_metadata: typeof metadata === "string" ? metadata : JSON.stringify(metadata),
          state: {
            values: { [BLOCK_REJECT_REASON]: { [INPUT_REJECT_REASON]: { value: reason } } },
          },
        },
      },
    };
  }

  const fieldError = (text: string) => ({
    response_action: "errors",
    errors: { [BLOCK_REJECT_REASON]: text },
  });

  it("records the rejection, then closes the modal, then follows up", async () => {
    const acksWhenFollowedUp: number[] = [];
    const { run, store } = feature({
      orders: { followUp: async () => void acksWhenFollowedUp.push(s.acks.acked.length) },
    });
    const record = await pendingRequest(store);
    const s = submit(
      { id: record.id, channel: APPROVALS_CHANNEL, ts: record.slack.approvalTs },
      "too dear",
    );
    await run("view", VIEW_REJECT_REASON, s.args);
    expect(s.acks.acked).toEqual([undefined]);
    expect((await store.get(record.id))?.status).toBe("rejected");
    expect(acksWhenFollowedUp).toEqual([1]);
  });

  it("keeps the modal open with a field error: no reason, wrong place, not an approver, gone, storage down", async () => {
    const { run, store, services } = feature();
    const record = await pendingRequest(store);
    const origin = { id: record.id, channel: APPROVALS_CHANNEL, ts: record.slack.approvalTs };
    const cases: Array<[ReturnType<typeof submit>, string]> = [
      [submit(origin, "   "), "Please say why, so the requester can fix it."],
      [submit({ ...origin, ts: "1.1" }, "no"), NOT_ITS_MESSAGE],
      // A modal of before the origin was carried (a bare id): refused like any other place.
      [submit(record.id, "no"), NOT_ITS_MESSAGE],
      // Someone else's Home.
      [submit({ ...origin, channel: "", ts: "", home: "U0OTHER" }, "no"), NOT_ITS_MESSAGE],
      [submit({ ...origin, id: "apr_aaaaaaaaaaaaaaaa" }, "no"), "This request no longer exists."],
    ];
    for (const [s, text] of cases) {
      await run("view", VIEW_REJECT_REASON, s.args);
      expect(s.acks.acked).toEqual([fieldError(text)]);
    }
    const stranger = submit(origin, "no", "U0STRANGER");
    await run("view", VIEW_REJECT_REASON, stranger.args);
    expect(stranger.acks.acked).toHaveLength(1);
    expect(stranger.acks.acked[0]).toMatchObject({ response_action: "errors" });
    expect((await store.get(record.id))?.status).toBe("pending");

    const down = new StorageUnavailableError(new Error("Connection is closed."));
    services.approvals.store = {
      get: async () => {
        throw down;
      },
    } as never;
    const s = submit(origin, "no");
    await run("view", VIEW_REJECT_REASON, s.args);
    expect(s.acks.acked).toEqual([fieldError(describeFailure(down))]);
  });

  it("answers within CHECK_BUDGET_MS when the checks are too slow (a user group look-up hangs): the modal stays open, nothing recorded", async () => {
    vi.useFakeTimers();
    const { run, store } = feature({ approvers: ["S0GROUP01"] });
    const record = await pendingRequest(store);
    const s = submit(
      { id: record.id, channel: APPROVALS_CHANNEL, ts: record.slack.approvalTs },
      "too dear",
    );
    const slowClient = new Proxy(s.slack.client, {
      get: (target, name) =>
        name === "usergroups"
          ? { users: { list: () => new Promise(() => undefined) } }
          : Reflect.get(target, name),
    });
    const done = run("view", VIEW_REJECT_REASON, { ...s.args, client: slowClient });
    await vi.advanceTimersByTimeAsync(CHECK_BUDGET_MS - 1);
    expect(s.acks.acked).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    await done;
    expect(s.acks.acked).toEqual([fieldError(REJECT_CHECKS_TOO_SLOW)]);
    expect((await store.get(record.id))?.status).toBe("pending");
  });

  it("accepts the submission from the approver's own Home", async () => {
    const { run, store } = feature();
    const record = await pendingRequest(store);
    const s = submit({ id: record.id, channel: "", ts: "", home: APPROVER }, "not needed");
    await run("view", VIEW_REJECT_REASON, s.args);
    expect(s.acks.acked).toEqual([undefined]);
    expect((await store.get(record.id))?.status).toBe("rejected");
  });
});

describe("every approvals listener", () => {
  it("is exercised above", () => {
    const { registry } = feature();
    expect(registry.ids("action").sort()).toEqual([...exercised.action].sort());
    expect(registry.ids("view").sort()).toEqual([...exercised.view].sort());
    expect(registry.ids("options")).toEqual([]);
  });
});
