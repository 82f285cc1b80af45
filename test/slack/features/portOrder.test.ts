// Listener unit tests of `/connect port order` (src/slack/features/portOrder): every listener id
// the feature registers, called with fake ack/client/respond (test/support/fakeSlack.ts) and a
// provider and approvals store answering from memory. The end-to-end suites
// (test/e2e/portOrder*.test.ts) stay beside these.
import { describe, expect, it } from "vitest";
import type { ApprovalRequest } from "../../../src/approvals/index.js";
import { NameReservedError } from "../../../src/approvals/index.js";
import { dcfRef } from "../../../src/domain/catalog/dcfs.js";
import { BlockedError } from "../../../src/domain/errors.js";
import type { Dcf, Port, ProviderApi } from "../../../src/provider/api.js";
import type { CommandContext } from "../../../src/slack/connect.js";
import { portOrder } from "../../../src/slack/features/portOrder/command.js";
import { registerPortOrderListeners } from "../../../src/slack/features/portOrder/index.js";
import { groupMembersVia } from "../../../src/slack/kit/index.js";
import type { ListenerDeps } from "../../../src/slack/listeners.js";
import { SANDBOX_LABEL } from "../../../views/blocks.js";
import { ACTION_ORDER_THIS_PORT, encodePortOrderThis } from "../../../views/orderThis.js";
import {
  PORT_ORDER_ACTIONS,
  PORT_ORDER_BLOCKS,
  PORT_ORDER_VIEW,
} from "../../../views/portOrder/portOrderModal.js";
import {
  fakeAck,
  fakeClient,
  fakeRegistry,
  fakeRespond,
  listenerServices,
} from "../../support/fakeSlack.js";
import { dcfOnNet } from "../../views/fixtures.js";

const IDENTITY = {
  userId: "UBOT",
  companyId: "c0ffee0000000000000000c1",
  companyUsername: "acme-networks",
  companyName: "Acme Networks",
};
const REQUESTER = "U1";
const CHANNEL = "C1";
const APPROVALS_CHANNEL = "C9";

const ams: Dcf = { ...dcfOnNet, deletedAt: null };

/** A provider answering from `ams` and `ports`; each test may replace a method. */
function fakeProvider(overrides: Partial<ProviderApi> = {}, ports: Port[] = []): ProviderApi {
  return {
    async listDcfs(filter: { where?: { id?: string } } = {}) {
      const id = filter.where?.id;
      return [ams].filter((d) => id === undefined || d.id === id);
    },
    async searchDcfs() {
      return [ams];
    },
    async listPorts() {
      return ports;
    },
    async pricePorts(configs: Array<{ speed: number; durationUnit: string }>) {
      return configs.map((c) => ({
        type: "PORT",
        price: 12 * c.speed,
        basicMonthlyAmount: c.speed,
      }));
    },
    ...overrides,
  } as unknown as ProviderApi;
}

/** An approvals store in memory: what was created, and a way to make `create` refuse. */
function fakeStore(create?: () => Promise<ApprovalRequest>) {
  const created: ApprovalRequest[] = [];
  const store = {
    async findByStatus() {
      return [];
    },
    async list() {
      return [];
    },
    async namesHeld() {
      return new Set<string>();
    },
    async get() {
      return null;
    },
    async create(input: Omit<ApprovalRequest, "id" | "status" | "createdAt">) {
      if (create) return create();
      const approval = {
        ...input,
        id: `A${created.length + 1}`,
        status: "pending",
        history: [],
        attempts: 0,
        createdAt: new Date(0).toISOString(),
      } as unknown as ApprovalRequest;
      created.push(approval);
      return approval;
    },
    async keepCard() {},
    async keepApprovalMessage() {},
    async cancel() {},
  };
  return { store, created };
}

function services(
  parts: {
    provider?: ProviderApi;
    store?: ReturnType<typeof fakeStore>["store"];
    approvers?: string[];
    requesters?: string[];
    sandbox?: boolean;
  } = {},
): ListenerDeps {
  return listenerServices({
    provider: parts.provider ?? fakeProvider(),
    identity: async () => IDENTITY,
    sandbox: parts.sandbox ?? false,
    approvals: {
      channel: APPROVALS_CHANNEL,
      approvers: parts.approvers ?? ["U9"],
      requesters: parts.requesters ?? [],
      store: parts.store ?? fakeStore().store,
      orderUpdates: "off",
    },
    orders: { changed: async () => undefined },
  } as unknown as Partial<ListenerDeps>);
}

function registered(svc: ListenerDeps) {
  const registry = fakeRegistry();
  registerPortOrderListeners(registry.registry, svc);
  return registry;
}

/** The view's blocks as JSON, to look for a block id or a word. */
const text = (view: unknown) => JSON.stringify(view);

/** A block_actions body from the port order form, with these choices. */
function formAction(
  actionId: string,
  values: Record<string, unknown>,
  callbackId = PORT_ORDER_VIEW,
  ts = "1700000000.000001",
) {
  return {
    user: { id: REQUESTER },
    actions: [{ action_id: actionId, action_ts: ts }],
    view: {
      id: "V1",
      callback_id: callbackId,
      private_metadata: JSON.stringify({ c: CHANNEL }),
      state: { values },
    },
  };
}

const picked = (value: string) => ({ selected_option: { value } });

/** The form's state as Slack sends it: data center, speed, term and name filled. */
function filled(portName = "ams-core-9") {
  return {
    [PORT_ORDER_BLOCKS.dcf]: { [PORT_ORDER_ACTIONS.dcf]: picked(dcfRef(ams)) },
    [PORT_ORDER_BLOCKS.speed]: { [PORT_ORDER_ACTIONS.speed]: picked("10000") },
    [PORT_ORDER_BLOCKS.term]: { [PORT_ORDER_ACTIONS.term]: picked("1y") },
    [PORT_ORDER_BLOCKS.portName]: { [PORT_ORDER_ACTIONS.portName]: { value: portName } },
  };
}

/** The view_submission of the form, with every input block present. */
function submission(values: Record<string, unknown>) {
  return {
    body: { user: { id: REQUESTER } },
    view: {
      id: "V1",
      callback_id: PORT_ORDER_VIEW,
      private_metadata: JSON.stringify({ c: CHANNEL }),
      blocks: Object.values(PORT_ORDER_BLOCKS).map((block_id) => ({ type: "input", block_id })),
      state: { values },
    },
  };
}

describe("registerPortOrderListeners", () => {
  it("registers the options load, the form's changes, Enter, Order this and the submission", () => {
    const registry = registered(services());
    expect(registry.ids("options")).toEqual([PORT_ORDER_ACTIONS.dcf]);
    expect(registry.ids("action").sort()).toEqual(
      [
        PORT_ORDER_ACTIONS.portName,
        ACTION_ORDER_THIS_PORT,
        PORT_ORDER_ACTIONS.dcf,
        PORT_ORDER_ACTIONS.speed,
        PORT_ORDER_ACTIONS.term,
      ].sort(),
    );
    expect(registry.ids("view")).toEqual([PORT_ORDER_VIEW]);
    expect(registry.ids("command")).toEqual([]);
  });
});

describe("the data center options load", () => {
  it("answers with the data centers matching what was typed", async () => {
    const registry = registered(services());
    const a = fakeAck();
    await registry.run("options", PORT_ORDER_ACTIONS.dcf, {
      ack: a.ack,
      payload: { value: "ams" },
    });
    expect(a.acked).toHaveLength(1);
    expect(text(a.acked[0])).toContain(dcfRef(ams));
  });

  it("answers with a hint, not an error, when the provider fails", async () => {
    const provider = fakeProvider({
      searchDcfs: async () => {
        throw new Error("down");
      },
    });
    const registry = registered(services({ provider }));
    const a = fakeAck();
    await registry.run("options", PORT_ORDER_ACTIONS.dcf, {
      ack: a.ack,
      payload: { value: "ams" },
    });
    const answer = a.acked[0] as { options: Array<{ value: string }> };
    expect(answer.options.length).toBeGreaterThan(0);
    expect(text(answer)).not.toContain(dcfRef(ams));
  });

  it("asks for more when fewer than two characters are typed, without asking the provider", async () => {
    let searched = false;
    const provider = fakeProvider({
      searchDcfs: async () => {
        searched = true;
        return [ams];
      },
    });
    const a = fakeAck();
    await registered(services({ provider })).run("options", PORT_ORDER_ACTIONS.dcf, {
      ack: a.ack,
      payload: {},
    });
    expect(a.acked).toHaveLength(1);
    expect(searched).toBe(false);
  });
});

describe("Enter in the port name", () => {
  it("is acked and changes nothing", async () => {
    const slack = fakeClient();
    const a = fakeAck();
    await registered(services()).run("action", PORT_ORDER_ACTIONS.portName, {
      ack: a.ack,
      client: slack.client,
      body: formAction(PORT_ORDER_ACTIONS.portName, filled()),
    });
    expect(a.acked).toEqual([undefined]);
    expect(slack.calls).toEqual([]);
  });
});

describe("the form changed (data center, speed, term)", () => {
  for (const actionId of [
    PORT_ORDER_ACTIONS.dcf,
    PORT_ORDER_ACTIONS.speed,
    PORT_ORDER_ACTIONS.term,
  ]) {
    it(`${actionId}: acks, then rebuilds the form with that data center's speeds and the price`, async () => {
      const slack = fakeClient();
      const a = fakeAck();
      await registered(services()).run("action", actionId, {
        ack: a.ack,
        client: slack.client,
        body: formAction(actionId, filled()),
      });
      expect(a.acked).toEqual([undefined]);
      const [update] = slack.callsTo("views.update");
      expect(update?.view_id).toBe("V1");
      const view = update?.view as { callback_id: string; private_metadata: string };
      expect(view.callback_id).toBe(PORT_ORDER_VIEW);
      // Where to confirm is kept across the rebuild.
      expect(view.private_metadata).toBe(JSON.stringify({ c: CHANNEL }));
      expect(text(view)).toContain(PORT_ORDER_BLOCKS.speed);
      expect(text(view)).toContain("1,000 Mbps");
      expect(text(view)).toContain("120,000.00 USD");
    });
  }

  it("leaves another form alone", async () => {
    const slack = fakeClient();
    const a = fakeAck();
    await registered(services()).run("action", PORT_ORDER_ACTIONS.dcf, {
      ack: a.ack,
      client: slack.client,
      body: formAction(PORT_ORDER_ACTIONS.dcf, filled(), "another_form"),
    });
    expect(a.acked).toEqual([undefined]);
    expect(slack.calls).toEqual([]);
  });
});

describe("Order this (under a port price)", () => {
  const button = (value: string) => ({
    user: { id: REQUESTER },
    trigger_id: "T1",
    channel: { id: CHANNEL },
    actions: [{ action_id: ACTION_ORDER_THIS_PORT, value }],
  });
  const value = encodePortOrderThis({ dcf: dcfRef(ams), speedMbps: 10000, term: "1y" });

  async function press(svc: ListenerDeps, slack = fakeClient(), buttonValue = value) {
    const a = fakeAck();
    const r = fakeRespond();
    await registered(svc).run("action", ACTION_ORDER_THIS_PORT, {
      ack: a.ack,
      respond: r.respond,
      client: slack.client,
      body: button(buttonValue),
      action: { action_id: ACTION_ORDER_THIS_PORT, value: buttonValue },
    });
    return { acked: a.acked, responded: r.responded, slack };
  }

  it("opens a loading modal at once, then fills it with the priced choices, the LOA path and price", async () => {
    const { acked, responded, slack } = await press(services({ sandbox: true }));
    expect(acked).toEqual([undefined]);
    expect(responded).toEqual([]);
    const [opened] = slack.callsTo("views.open");
    expect(opened?.trigger_id).toBe("T1");
    expect(opened?.view).toMatchObject({ callback_id: PORT_ORDER_VIEW });
    expect(text(opened?.view)).toContain("Loading");
    const [update] = slack.callsTo("views.update");
    const form = text(update?.view);
    expect(form).toContain(`"initial_option":{"text":{"type":"plain_text","text":"Equinix AM3`);
    expect(form).toContain('"value":"10000"');
    expect(form).toContain('"value":"1y"');
    expect(form).toContain("120,000.00 USD");
    expect(form).toContain(SANDBOX_LABEL);
    expect(update?.view).toMatchObject({ private_metadata: JSON.stringify({ c: CHANNEL }) });
  });

  it("says privately why not when approvals are not set up, and opens nothing", async () => {
    const { responded, slack } = await press(services({ approvers: [] }));
    expect(responded).toEqual([
      {
        response_type: "ephemeral",
        replace_original: false,
        text: expect.stringContaining("APPROVALS_CHANNEL and APPROVERS"),
      },
    ]);
    expect(slack.calls).toEqual([]);
  });

  it("says privately why not to someone who may not request orders", async () => {
    const { responded, slack } = await press(services({ requesters: ["U0PERMITTED"] }));
    expect(responded[0]?.text).toContain("You are not allowed to request orders");
    expect(slack.callsTo("views.open")).toEqual([]);
  });

  it("ignores a forged button value", async () => {
    const { acked, responded, slack } = await press(services(), fakeClient(), "{not json");
    expect(acked).toEqual([undefined]);
    expect(responded).toEqual([]);
    expect(slack.calls).toEqual([]);
  });

  it("says so when Slack refuses to open the form", async () => {
    const slack = fakeClient();
    slack.failWith("views.open", "expired_trigger_id");
    const { responded } = await press(services(), slack);
    expect(responded).toEqual([
      {
        response_type: "ephemeral",
        replace_original: false,
        text: "Couldn't open the order form (Slack refused it); type `/connect port order`.",
      },
    ]);
  });
});

describe("the form submitted", () => {
  async function submit(svc: ListenerDeps, values: Record<string, unknown>, slack = fakeClient()) {
    const a = fakeAck();
    await registered(svc).run("view", PORT_ORDER_VIEW, {
      ack: a.ack,
      client: slack.client,
      ...submission(values),
    });
    return { acked: a.acked, slack };
  }

  it("shows every problem next to its field and stores nothing", async () => {
    const { store, created } = fakeStore();
    const { acked, slack } = await submit(services({ store }), {});
    expect(acked).toEqual([
      {
        response_action: "errors",
        errors: {
          [PORT_ORDER_BLOCKS.dcf]: "Choose a data center",
          [PORT_ORDER_BLOCKS.speed]: "Choose a speed",
          [PORT_ORDER_BLOCKS.term]: "Choose a term",
          [PORT_ORDER_BLOCKS.portName]: expect.any(String),
        },
      },
    ]);
    expect(created).toEqual([]);
    expect(slack.calls).toEqual([]);
  });

  it("refuses a port name the company already has, next to the name", async () => {
    const provider = fakeProvider({}, [{ id: "P1", name: "AMS-CORE-9" } as Port]);
    const { acked } = await submit(services({ provider }), filled("ams-core-9"));
    expect(acked).toEqual([
      {
        response_action: "errors",
        errors: {
          [PORT_ORDER_BLOCKS.portName]:
            'Your company already has a port named "ams-core-9"; choose another name',
        },
      },
    ]);
  });

  it("closes the form, posts the request for approval and tells the requester privately", async () => {
    const { store, created } = fakeStore();
    const { acked, slack } = await submit(services({ store }), filled());
    expect(acked).toEqual([undefined]);
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({
      kind: "port",
      title: "ams-core-9",
      reconcileKey: "ams-core-9",
      requester: { userId: REQUESTER, channelId: CHANNEL },
    });
    const [approval] = slack.callsTo("chat.postMessage");
    expect(approval?.channel).toBe(APPROVALS_CHANNEL);
    const [told] = slack.callsTo("chat.postEphemeral");
    expect(told).toMatchObject({ channel: CHANNEL, user: REQUESTER });
    expect(String(told?.text)).toContain("ams-core-9");
  });

  it("keeps the form open with the error at the name when the name was taken meanwhile", async () => {
    const { store } = fakeStore(async () => {
      throw new NameReservedError("ams-core-9", "A0");
    });
    const { acked, slack } = await submit(services({ store }), filled());
    expect(acked).toEqual([
      {
        response_action: "errors",
        errors: {
          [PORT_ORDER_BLOCKS.portName]:
            'A request named "ams-core-9" is already waiting or being ordered; choose another name',
        },
      },
    ]);
    expect(slack.calls).toEqual([]);
  });

  it("closes the form and tells the requester when the request could not be stored", async () => {
    const { store } = fakeStore(async () => {
      throw new Error("redis down");
    });
    const { acked, slack } = await submit(services({ store }), filled());
    expect(acked).toEqual([undefined]);
    const [told] = slack.callsTo("chat.postEphemeral");
    expect(String(told?.text)).toMatch(/^:warning: .*ams-core-9.*nothing was ordered/);
  });

  it("answers at the data center field when the check itself breaks", async () => {
    const provider = fakeProvider();
    const svc = services({ provider });
    (svc as { identity: ListenerDeps["identity"] }).identity = () => {
      throw new Error("bug");
    };
    const { acked } = await submit(svc, filled());
    expect(acked).toHaveLength(1);
    expect(text(acked[0])).toContain("errors");
  });
});

describe("/connect port order", () => {
  function context(svc: ListenerDeps, parts: Partial<CommandContext> = {}) {
    const slack = fakeClient();
    const replies: unknown[] = [];
    const opened: unknown[] = [];
    const ctx = {
      name: "port order",
      args: [],
      page: 0,
      userId: REQUESTER,
      channelId: CHANNEL,
      triggerId: "T1",
      requests: svc.requests,
      groups: groupMembersVia(slack.client),
      permalink: async () => undefined,
      timeZone: async () => undefined,
      reply: async (r: unknown) => void replies.push(r),
      openModal: async (view: unknown) => {
        opened.push(view);
        return { update: async () => {} };
      },
      ...parts,
    } as CommandContext;
    return { ctx, svc, replies, opened };
  }

  it("opens the form, remembering the channel to confirm in", async () => {
    const { ctx, svc, replies, opened } = context(services());
    await portOrder(ctx, svc);
    expect(replies).toEqual([]);
    expect(opened).toHaveLength(1);
    expect(opened[0]).toMatchObject({
      callback_id: PORT_ORDER_VIEW,
      private_metadata: JSON.stringify({ c: CHANNEL }),
    });
  });

  it("says approvals are not set up instead of opening the form", async () => {
    const { ctx, svc, replies, opened } = context(services({ approvers: [] }));
    await portOrder(ctx, svc);
    expect(text(replies)).toContain("APPROVALS_CHANNEL and APPROVERS");
    expect(opened).toEqual([]);
  });

  it("refuses someone who may not request orders (the router answers a BlockedError)", async () => {
    const { ctx, svc, opened } = context(services({ requesters: ["U0PERMITTED"] }));
    await expect(portOrder(ctx, svc)).rejects.toBeInstanceOf(BlockedError);
    expect(opened).toEqual([]);
  });

  it("asks for the command when there is no trigger id, and says so when Slack refuses", async () => {
    const noTrigger = context(services(), { triggerId: undefined });
    await portOrder(noTrigger.ctx, noTrigger.svc);
    expect(text(noTrigger.replies)).toContain("to open the order form");

    const refused = context(services(), {
      openModal: async () => {
        throw new Error("expired_trigger_id");
      },
    });
    await portOrder(refused.ctx, refused.svc);
    expect(text(refused.replies)).toContain("Couldn't open the order form (Slack refused it)");
  });
});
