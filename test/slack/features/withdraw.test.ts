// The Withdraw listener (src/slack/features/withdraw), clicked where its button is shown: the
// requester's own confirmation (answer replaces it), a card in a channel (told privately), and
// App Home's *My requests* (no channel: the answer goes to the requester's DM).
import { afterAll, describe, expect, it } from "vitest";
import { readRequest } from "../../../src/orders/readModel.js";
import { homePublisher } from "../../../src/slack/features/home/publish.js";
import { registerWithdrawListeners } from "../../../src/slack/features/withdraw/index.js";
import type { ListenerDeps } from "../../../src/slack/listeners.js";
import { ACTION_WITHDRAW, withdrawnView } from "../../../views/approvals/approvals.js";
import { describeFailure } from "../../../views/failures.js";
import { fakeClient, fakeRegistry, listenerServices } from "../../support/fakeSlack.js";
import {
  approvalSettings,
  click,
  pendingRequest,
  REQUESTER,
  redisStore,
  storeOrders,
  toldTexts,
} from "./support.js";

const redis = redisStore("slack-features-withdraw");
afterAll(() => redis.close());

const exercised = new Set<string>();

function feature(orders: Partial<ListenerDeps["orders"]> = {}) {
  const store = redis.store;
  const lifecycle = storeOrders(store, orders);
  const services = listenerServices({
    approvals: approvalSettings(store),
    orders: lifecycle.orders,
    jobs: { tracker: { list: async () => [] } } as never,
  });
  const registry = fakeRegistry();
  registerWithdrawListeners(registry.registry, services);
  const run = (args: Record<string, unknown>) => {
    exercised.add(ACTION_WITHDRAW);
    return registry.run("action", ACTION_WITHDRAW, args);
  };
  return { store, services, registry, run, followedUp: lifecycle.followedUp };
}

/** Every button in a view's blocks (actions elements and section accessories). */
function buttonsOf(blocks: unknown): Array<{ action_id: string; value?: string }> {
  const found: Array<{ action_id: string; value?: string }> = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (node && typeof node === "object") {
      const o = node as Record<string, unknown>;
      if (o.type === "button" && typeof o.action_id === "string") {
        found.push(o as { action_id: string; value?: string });
      }
      Object.values(o).forEach(walk);
    }
  };
  walk(blocks);
  return found;
}

describe("Withdraw", () => {
  it("on the requester's own confirmation: withdraws and replaces the confirmation", async () => {
    const { run, store, followedUp } = feature();
    const record = await pendingRequest(store);
    const c = click(ACTION_WITHDRAW, record.id, {
      userId: REQUESTER,
      channel: "C0GENERAL1",
      ephemeral: true,
    });
    await run(c.args);
    expect(c.acks.acked).toEqual([undefined]);
    const withdrawn = await store.get(record.id);
    expect(withdrawn?.status).toBe("cancelled");
    expect(followedUp.map((r) => r.id)).toEqual([record.id]);
    const view = withdrawnView(readRequest(withdrawn as NonNullable<typeof withdrawn>));
    expect(c.responses.responded).toEqual([
      { replace_original: true, text: view.text, blocks: view.blocks },
    ]);
    expect(toldTexts(c.slack)).toEqual([]);
  });

  it("on a card in a channel: withdraws and tells the requester privately there", async () => {
    const { run, store } = feature();
    const record = await pendingRequest(store);
    const c = click(ACTION_WITHDRAW, record.id, {
      userId: REQUESTER,
      channel: "C0GENERAL1",
      messageTs: "1700000000.000200",
    });
    await run(c.args);
    expect((await store.get(record.id))?.status).toBe("cancelled");
    expect(c.responses.responded).toEqual([]);
    const [told] = c.slack.callsTo("chat.postEphemeral");
    expect(told).toMatchObject({ channel: "C0GENERAL1", user: REQUESTER });
    expect(String(told?.text)).toMatch(/^:leftwards_arrow_with_hook: You withdrew/);
  });

  it("from App Home's *My requests*: the Home's own button withdraws, answered in the requester's DM", async () => {
    const { run, store, services } = feature();
    const record = await pendingRequest(store);
    // The Home the requester sees, as published: its Withdraw button is the one clicked.
    const home = fakeClient();
    await homePublisher(services, home.client)(REQUESTER);
    const [published] = home.callsTo("views.publish");
    expect(published?.user_id).toBe(REQUESTER);
    const withdraw = buttonsOf(published?.view).find(
      (b) => b.action_id === ACTION_WITHDRAW && b.value === record.id,
    );
    expect(withdraw).toBeDefined();

    const c = click(ACTION_WITHDRAW, withdraw?.value, { userId: REQUESTER, home: true });
    await run(c.args);
    expect(c.acks.acked).toEqual([undefined]);
    expect((await store.get(record.id))?.status).toBe("cancelled");
    expect(c.responses.responded).toEqual([]);
    expect(c.slack.callsTo("chat.postEphemeral")).toEqual([]);
    const dms = c.slack.callsTo("chat.postMessage");
    expect(dms).toHaveLength(1);
    expect(dms[0]?.channel).toBe(REQUESTER);
    expect(String(dms[0]?.text)).toMatch(/^:leftwards_arrow_with_hook: You withdrew/);
  });

  it("refuses anyone but the requester, and a request already decided, changing nothing", async () => {
    const { run, store } = feature();
    const record = await pendingRequest(store);
    const other = click(ACTION_WITHDRAW, record.id, { userId: "U0OTHER01", home: true });
    await run(other.args);
    expect((await store.get(record.id))?.status).toBe("pending");
    expect(toldTexts(other.slack)[0]).toMatch(/^:no_entry: /);

    await store.approve(record.id, { by: "U0APPROVE1" });
    const late = click(ACTION_WITHDRAW, record.id, {
      userId: REQUESTER,
      channel: "C0GENERAL1",
      ephemeral: true,
    });
    await run(late.args);
    // A refusal on the confirmation is told beside it, not in its place.
    expect(late.responses.responded).toEqual([]);
    expect(toldTexts(late.slack)[0]).toMatch(/can't withdraw .*already approved/);
    expect((await store.get(record.id))?.status).toBe("approved");
  });

  it("says a forged value is not a request id, and acks a click without a value", async () => {
    const { run } = feature();
    const forged = click(ACTION_WITHDRAW, "<script>", { userId: REQUESTER, home: true });
    await run(forged.args);
    expect(toldTexts(forged.slack)[0]).toMatch(/`script` is not a request id/);
    const empty = click(ACTION_WITHDRAW, undefined, { userId: REQUESTER, home: true });
    await run(empty.args);
    expect(empty.acks.acked).toEqual([undefined]);
    expect(empty.slack.calls).toEqual([]);
  });

  it("words a failure once (describeFailure), and never throws when even that cannot be said", async () => {
    const broken = new Error("boom");
    const { run, store, services } = feature();
    const record = await pendingRequest(store);
    services.approvals.store = Object.assign(Object.create(store), {
      cancel: async () => {
        throw broken;
      },
    });
    const c = click(ACTION_WITHDRAW, record.id, { userId: REQUESTER, home: true });
    await run(c.args);
    expect(toldTexts(c.slack)).toEqual([describeFailure(broken)]);
    const mute = click(ACTION_WITHDRAW, record.id, { userId: REQUESTER, home: true });
    mute.slack.failWith("chat.postMessage", "channel_not_found");
    await expect(run(mute.args)).resolves.toBeUndefined();
  });
});

describe("every withdraw listener", () => {
  it("is exercised above", () => {
    const { registry } = feature();
    expect(registry.ids("action")).toEqual([...exercised]);
    expect([...registry.ids("view"), ...registry.ids("options")]).toEqual([]);
  });
});
