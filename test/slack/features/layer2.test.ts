// The layer 2 feature's listeners with fake ack/client/respond (test/support/fakeSlack.ts): the
// "Order this" button, the form's rebuilds and Enter acks, and its submission's refusal paths.
// The submission that reaches approval is the end-to-end suite's (test/e2e/layer2.test.ts).
import type { ModalView } from "@slack/types";
import { describe, expect, it } from "vitest";
import type { Port, ProviderApi } from "../../../src/provider/api.js";
import { registerLayer2Listeners } from "../../../src/slack/features/layer2/index.js";
import type { ListenerDeps } from "../../../src/slack/listeners.js";
import { SANDBOX_LABEL } from "../../../views/blocks.js";
import {
  LAYER2_ACTIONS,
  LAYER2_BLOCKS,
  LAYER2_DISPATCH_FIELDS,
  LAYER2_ENTER_ONLY_FIELDS,
  LAYER2_REVIEW_BLOCK,
  LAYER2_VIEW,
} from "../../../views/layer2/layer2Modal.js";
import { ACTION_ORDER_THIS_L2, encodeLayer2OrderThis } from "../../../views/orderThis.js";
import {
  fakeAck,
  fakeClient,
  fakeRegistry,
  fakeRespond,
  listenerServices,
} from "../../support/fakeSlack.js";
import { connectionPriceResult } from "../../views/fixtures.js";
import {
  APPROVALS_NOT_SET_UP,
  APPROVALS_SET_UP,
  expectEnterOnly,
  expectOtherFormLeftAlone,
  expectRebuiltInPlace,
  IDENTITY,
  submittedView,
} from "./orderFormSupport.js";

const port: Port = {
  id: "500000000000000000000001",
  name: "ams-core-1",
  speed: { value: 10000, name: "10000 Mbps" },
  dataCenterFacilityId: "dcf-ams-1",
  dataCenterFacility: { id: "dcf-ams-1", name: "Equinix AM3" },
  capacity: { total: 10000, utilised: 0, remaining: 10000 },
};

function setUp(
  parts: { provider?: Partial<ProviderApi>; approvals?: unknown; sandbox?: boolean } = {},
) {
  const provider: Partial<ProviderApi> = {
    listPorts: async () => [port],
    listDcfs: async () => [],
    listMetroCapabilities: async () => [],
    ...parts.provider,
  };
  const services = listenerServices({
    provider: provider as ProviderApi,
    identity: async () => IDENTITY,
    approvals: (parts.approvals ?? APPROVALS_SET_UP) as ListenerDeps["approvals"],
    ...(parts.sandbox ? { sandbox: true } : {}),
  });
  const slack = fakeRegistry();
  registerLayer2Listeners(slack.registry, services);
  return { slack, services };
}

const ORDER_THIS_VALUE = encodeLayer2OrderThis({
  srcDcfId: "dcf-ams-1",
  destDcfId: "dcf-lon-1",
  bandwidthMbps: 500,
  classOfService: "GOLD",
  duration: { value: 12, unit: "m" },
});

function buttonBody(value: string) {
  return {
    ack: undefined,
    body: { user: { id: "U0REQUEST1" }, trigger_id: "T1", channel: { id: "C0GENERAL1" } },
    action: { value },
  };
}

function openedView(client: ReturnType<typeof fakeClient>): ModalView {
  return client.callsTo("views.update").at(-1)?.view as ModalView;
}

const submitted = (values: Record<string, unknown> = {}, metadata = {}) =>
  submittedView(LAYER2_VIEW, LAYER2_BLOCKS, values, metadata);

describe("layer 2 listeners", () => {
  it("registers the Order this button, each rebuilding input, each Enter-only input and the form", () => {
    const { slack } = setUp();
    expect(slack.ids("action").sort()).toEqual(
      [
        ACTION_ORDER_THIS_L2,
        ...LAYER2_DISPATCH_FIELDS.map((f) => LAYER2_ACTIONS[f]),
        ...LAYER2_ENTER_ONLY_FIELDS.map((f) => LAYER2_ACTIONS[f]),
      ].sort(),
    );
    expect(slack.ids("view")).toEqual([LAYER2_VIEW]);
    expect(slack.ids("options")).toEqual([]);
  });
});

describe("Order this (layer 2)", () => {
  it("acks and does nothing with a value that does not parse", async () => {
    const { slack } = setUp();
    const { ack, acked } = fakeAck();
    const { respond, responded } = fakeRespond();
    const client = fakeClient();
    await slack.run("action", ACTION_ORDER_THIS_L2, {
      ...buttonBody("not json"),
      ack,
      respond,
      client: client.client,
    });
    expect(acked).toEqual([undefined]);
    expect(responded).toEqual([]);
    expect(client.calls).toEqual([]);
  });

  it("refuses privately under the price, opening nothing, when approvals are not set up", async () => {
    const { slack } = setUp({ approvals: APPROVALS_NOT_SET_UP });
    const { ack, acked } = fakeAck();
    const { respond, responded } = fakeRespond();
    const client = fakeClient();
    await slack.run("action", ACTION_ORDER_THIS_L2, {
      ...buttonBody(ORDER_THIS_VALUE),
      ack,
      respond,
      client: client.client,
    });
    expect(acked).toEqual([undefined]);
    expect(responded).toEqual([
      {
        response_type: "ephemeral",
        replace_original: false,
        text: expect.stringMatching(/APPROVALS_CHANNEL and APPROVERS/),
      },
    ]);
    expect(client.calls).toEqual([]);
  });

  it("refuses a person who is not a requester", async () => {
    const { slack } = setUp({ approvals: { ...APPROVALS_SET_UP, requesters: ["U0SOMEONE1"] } });
    const { ack } = fakeAck();
    const { respond, responded } = fakeRespond();
    const client = fakeClient();
    await slack.run("action", ACTION_ORDER_THIS_L2, {
      ...buttonBody(ORDER_THIS_VALUE),
      ack,
      respond,
      client: client.client,
    });
    expect(responded.map((r) => r.text)).toEqual([
      expect.stringMatching(/not allowed to request orders/),
    ]);
    expect(client.calls).toEqual([]);
  });

  it("opens a loading modal, then fills the form prefilled from the price, answering in the channel", async () => {
    const { slack } = setUp({
      provider: {
        listDcfs: async () => [
          {
            id: "dcf-lon-1",
            name: "Telehouse North",
            dataCenterFacility: { metroId: "metro-lon" },
          },
        ],
      },
    });
    const { ack } = fakeAck();
    const { respond, responded } = fakeRespond();
    const client = fakeClient();
    await slack.run("action", ACTION_ORDER_THIS_L2, {
      ...buttonBody(ORDER_THIS_VALUE),
      ack,
      respond,
      client: client.client,
    });
    expect(responded).toEqual([]);
    const [opened] = client.callsTo("views.open");
    expect(opened?.trigger_id).toBe("T1");
    expect(JSON.stringify(opened?.view)).toContain("Loading your ports");
    const view = openedView(client);
    expect(view.callback_id).toBe(LAYER2_VIEW);
    expect(JSON.parse(view.private_metadata ?? "{}")).toEqual({ c: "C0GENERAL1" });
    const shown = JSON.stringify(view.blocks);
    // Business-to-business, from the port in the priced source data center, at the priced speed.
    expect(shown).toContain(port.id);
    expect(shown).toContain('"initial_value":"500"');
  });

  it("says why when Slack refuses to open the form", async () => {
    const { slack } = setUp();
    const { ack } = fakeAck();
    const { respond, responded } = fakeRespond();
    const client = fakeClient();
    client.failWith("views.open", "expired_trigger_id");
    await slack.run("action", ACTION_ORDER_THIS_L2, {
      ...buttonBody(ORDER_THIS_VALUE),
      ack,
      respond,
      client: client.client,
    });
    expect(responded).toHaveLength(1);
    expect(responded[0]).toMatchObject({ response_type: "ephemeral", replace_original: false });
    expect(String(responded[0]?.text)).not.toBe("");
  });
});

describe("layer 2 form changes", () => {
  for (const field of LAYER2_DISPATCH_FIELDS) {
    it(`acks ${field} at once and rebuilds the form in place`, async () => {
      const { slack } = setUp({ sandbox: true });
      const view = await expectRebuiltInPlace(slack, LAYER2_ACTIONS[field], LAYER2_VIEW);
      expect(JSON.stringify(view.blocks)).toContain(SANDBOX_LABEL);
    });
  }

  it("leaves another form alone", async () => {
    await expectOtherFormLeftAlone(setUp().slack, LAYER2_ACTIONS.mode);
  });

  for (const field of LAYER2_ENTER_ONLY_FIELDS) {
    it(`acks Enter in ${field} and nothing else`, async () => {
      await expectEnterOnly(setUp().slack, LAYER2_ACTIONS[field]);
    });
  }
});

describe("layer 2 form submitted", () => {
  it("refuses at the name field while approvals are not set up", async () => {
    const { slack } = setUp({ approvals: APPROVALS_NOT_SET_UP });
    const { ack, acked } = fakeAck();
    const client = fakeClient();
    await slack.run("view", LAYER2_VIEW, { ...submitted(), ack, client: client.client });
    expect(acked).toEqual([
      {
        response_action: "errors",
        errors: { [LAYER2_BLOCKS.name]: expect.stringMatching(/APPROVALS_CHANNEL/) },
      },
    ]);
    expect(client.calls).toEqual([]);
  });

  it("answers every problem next to its field and submits nothing", async () => {
    const { slack } = setUp();
    const { ack, acked } = fakeAck();
    const client = fakeClient();
    await slack.run("view", LAYER2_VIEW, { ...submitted(), ack, client: client.client });
    expect(acked).toHaveLength(1);
    const answer = acked[0] as { response_action: string; errors: Record<string, string> };
    expect(answer.response_action).toBe("errors");
    expect(answer.errors[LAYER2_BLOCKS.sourcePort]).toBe("Choose the source port");
    expect(answer.errors[LAYER2_BLOCKS.destPort]).toBe("Enter the destination port id");
    expect(client.calls).toEqual([]);
  });

  it("shows the price for review, updating the form, when none was shown for these inputs", async () => {
    const theirs: Port = {
      id: "500000000000000000000099",
      name: "globex-lon-01",
      companyId: "600000000000000000000099",
      company: { username: "globex-cloud", name: "Globex Cloud" },
      speed: { value: 1000, name: "1000 Mbps" },
      dataCenterFacilityId: "dcf-lon-1",
      dataCenterFacility: { id: "dcf-lon-1", name: "Telehouse North" },
      metroId: "metro-lon",
      capacity: { total: 1000, utilised: 0, remaining: 1000 },
    };
    const { slack } = setUp({
      provider: {
        getPort: async () => theirs,
        priceConnections: async () => [connectionPriceResult],
      },
    });
    const selected = (value: string) => ({ type: "static_select", selected_option: { value } });
    const typed = (value: string) => ({ type: "plain_text_input", value });
    const at = (field: keyof typeof LAYER2_BLOCKS, entry: unknown) => ({
      [LAYER2_BLOCKS[field]]: { [LAYER2_ACTIONS[field]]: entry },
    });
    const values = {
      ...at("mode", { type: "radio_buttons", selected_option: { value: "port-to-port" } }),
      ...at("sourcePort", selected(port.id)),
      ...at("destPort", typed(theirs.id)),
      ...at("bandwidth", { type: "number_input", value: "100" }),
      ...at("classOfService", selected("GOLD")),
      ...at("duration", { type: "number_input", value: "12" }),
      ...at("durationUnit", selected("m")),
      ...at("evergreen", { type: "checkboxes", selected_options: [] }),
      ...at("name", typed("ams-to-globex")),
    };
    const { ack, acked } = fakeAck();
    const client = fakeClient();
    await slack.run("view", LAYER2_VIEW, {
      ...submitted(values, { channelId: "C0GENERAL1" }),
      ack,
      client: client.client,
    });
    expect(acked).toHaveLength(1);
    const answer = acked[0] as { response_action: string; view: ModalView };
    expect(answer.response_action).toBe("update");
    expect(answer.view.callback_id).toBe(LAYER2_VIEW);
    expect(JSON.stringify(answer.view.blocks)).toContain(LAYER2_REVIEW_BLOCK);
    // The price shown is remembered with the channel, so the next submit can be ready.
    expect(JSON.parse(answer.view.private_metadata ?? "{}")).toMatchObject({ c: "C0GENERAL1" });
    expect(JSON.parse(answer.view.private_metadata ?? "{}").p).toEqual(expect.any(String));
    expect(client.calls).toEqual([]);
  });

  it("says 'press Submit again' at the name when the check itself fails", async () => {
    const identityFails = listenerServices({
      provider: {} as ProviderApi,
      identity: async () => {
        throw new Error("identity down");
      },
      approvals: APPROVALS_SET_UP as unknown as ListenerDeps["approvals"],
    });
    const registry = fakeRegistry();
    registerLayer2Listeners(registry.registry, identityFails);
    const { ack, acked } = fakeAck();
    const client = fakeClient();
    await registry.run("view", LAYER2_VIEW, { ...submitted(), ack, client: client.client });
    expect(acked).toEqual([
      {
        response_action: "errors",
        errors: {
          [LAYER2_BLOCKS.name]: "Something went wrong on our side; press Submit again.",
        },
      },
    ]);
  });
});
