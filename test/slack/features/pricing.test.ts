// Pricing's listeners (src/slack/features/pricing), each called by its id with fake ack, client
// and respond (test/support/fakeSlack.ts), a fake provider and a fake main router `run`: what
// each acks, what it tells whom, its field errors and its refusals. The end-to-end suite
// (test/e2e/pricing.test.ts) runs the same listeners through a signed Slack request.

import { describe, expect, it } from "vitest";
import { dcfRef } from "../../../src/domain/catalog/dcfs.js";
import type { Dcf, ProviderApi } from "../../../src/provider/api.js";
import { httpError } from "../../../src/provider/errors.js";
import { registerPricingListeners } from "../../../src/slack/features/pricing/index.js";
import type { RunCommand } from "../../../src/slack/features/pricing/reinvoke.js";
import { DCF_HINT_PREFIX } from "../../../views/dcfOptions.js";
import { ACTION_ORDER_THIS_L2, ACTION_SHARE_L2_PRICE } from "../../../views/orderThis.js";
import { ACTION_PRICE_PICK_DCF } from "../../../views/pricing/pricing.js";
import {
  connectionPriceModal,
  encodeMetadata,
  L2_PRICE_ACTIONS,
  L2_PRICE_BLOCKS,
  PORT_PRICE_ACTIONS,
  PORT_PRICE_BLOCKS,
  PRICE_L2_VIEW,
  PRICE_PORT_VIEW,
  portPriceModal,
} from "../../../views/pricing/pricingModals.js";
import {
  fakeAck,
  fakeClient,
  fakeRegistry,
  fakeRespond,
  listenerServices,
} from "../../support/fakeSlack.js";
import { connectionPriceResult, dcfOffNet, dcfOnNet } from "../../views/fixtures.js";

const USER = "U0PRICER";
const CHANNEL = "C0PRICES";
const DCFS: Dcf[] = [dcfOnNet, dcfOffNet];

interface FakeProvider {
  searches: string[];
  searchFails?: boolean;
  byIdFails?: boolean;
  priceConnections?: () => Promise<unknown[]>;
}

function fakeProvider(state: FakeProvider): ProviderApi {
  return {
    searchDcfs: async ({ text }: { text: string }) => {
      state.searches.push(text);
      if (state.searchFails) throw Object.assign(new Error("down"), { userMessage: "it is down" });
      return DCFS.filter((d) => d.name?.toLowerCase().includes(text.toLowerCase()));
    },
    listDcfs: async ({ where }: { where: { id?: string } }) => {
      if (state.byIdFails) throw Object.assign(new Error("down"), { userMessage: "it is down" });
      return DCFS.filter((d) => d.id === where.id);
    },
    priceConnections: async () => (state.priceConnections ?? (async () => []))(),
  } as unknown as ProviderApi;
}

function setUp(state: Partial<FakeProvider> = {}) {
  const provider: FakeProvider = { searches: [], ...state };
  const services = listenerServices({ provider: fakeProvider(provider) });
  const runs: Array<Parameters<RunCommand>[0]> = [];
  const run: RunCommand = async (input) => {
    runs.push(input);
    return "succeeded";
  };
  const slack = fakeRegistry();
  registerPricingListeners(slack.registry, services, run);
  return { slack, services, runs, provider };
}

/** A select's state as Slack sends it. */
const selected = (value: string) => ({ type: "static_select", selected_option: { value } });

function portFormValues(dcf: string | undefined, speed?: string, term?: string) {
  return {
    [PORT_PRICE_BLOCKS.dcf]: {
      [PORT_PRICE_ACTIONS.dcf]: dcf ? selected(dcf) : { type: "external_select" },
    },
    ...(speed
      ? { [PORT_PRICE_BLOCKS.speed]: { [PORT_PRICE_ACTIONS.speed]: selected(speed) } }
      : {}),
    ...(term ? { [PORT_PRICE_BLOCKS.term]: { [PORT_PRICE_ACTIONS.term]: selected(term) } } : {}),
    [PORT_PRICE_BLOCKS.includeCrossConnect]: {
      [PORT_PRICE_ACTIONS.includeCrossConnect]: { type: "checkboxes", selected_options: [] },
    },
  };
}

function portView(values: Record<string, unknown>) {
  const modal = portPriceModal({ metadata: { channelId: CHANNEL }, chosen: { dcf: dcfOnNet } });
  return { ...modal, id: "V_PORT", hash: "h1", state: { values } };
}

function l2View(values: Record<string, unknown>) {
  const modal = connectionPriceModal({ channelId: CHANNEL });
  return { ...modal, id: "V_L2", hash: "h1", state: { values } };
}

function l2FormValues(src: Dcf, dest: Dcf) {
  return {
    [L2_PRICE_BLOCKS.srcDcf]: { [L2_PRICE_ACTIONS.srcDcf]: selected(dcfRef(src)) },
    [L2_PRICE_BLOCKS.destDcf]: { [L2_PRICE_ACTIONS.destDcf]: selected(dcfRef(dest)) },
    [L2_PRICE_BLOCKS.bandwidth]: { [L2_PRICE_ACTIONS.bandwidth]: { value: "500" } },
    [L2_PRICE_BLOCKS.classOfService]: { [L2_PRICE_ACTIONS.classOfService]: selected("SILVER") },
    [L2_PRICE_BLOCKS.duration]: { [L2_PRICE_ACTIONS.duration]: { value: "12" } },
    [L2_PRICE_BLOCKS.durationUnit]: { [L2_PRICE_ACTIONS.durationUnit]: selected("m") },
  };
}

const ready = {
  ...dcfOffNet,
  dataCenterFacility: { ...dcfOffNet.dataCenterFacility, ready: true },
};

describe("registerPricingListeners", () => {
  it("registers the options loads, the form changes, the pick and share buttons and the two submissions", () => {
    const { slack } = setUp();
    expect(slack.ids("options").sort()).toEqual(
      [PORT_PRICE_ACTIONS.dcf, L2_PRICE_ACTIONS.srcDcf, L2_PRICE_ACTIONS.destDcf].sort(),
    );
    expect(slack.ids("action").sort()).toEqual(
      [
        L2_PRICE_ACTIONS.bandwidth,
        L2_PRICE_ACTIONS.duration,
        PORT_PRICE_ACTIONS.dcf,
        ACTION_PRICE_PICK_DCF,
        ACTION_SHARE_L2_PRICE,
      ].sort(),
    );
    expect(slack.ids("view").sort()).toEqual([PRICE_L2_VIEW, PRICE_PORT_VIEW].sort());
    expect(slack.ids("command")).toEqual([]);
  });
});

describe("the data center options loads", () => {
  for (const id of [PORT_PRICE_ACTIONS.dcf, L2_PRICE_ACTIONS.srcDcf, L2_PRICE_ACTIONS.destDcf]) {
    it(`${id}: the matching data centers, as options`, async () => {
      const { slack, provider } = setUp();
      const { ack, acked } = fakeAck();
      await slack.run("options", id, { ack, payload: { value: "equinix" } });
      expect(provider.searches).toEqual(["equinix"]);
      expect(acked).toEqual([{ options: [expect.objectContaining({ value: dcfRef(dcfOnNet) })] }]);
    });
  }

  it("answers one hint option when the text is too short, without asking the provider", async () => {
    const { slack, provider } = setUp();
    const { ack, acked } = fakeAck();
    await slack.run("options", PORT_PRICE_ACTIONS.dcf, { ack, payload: { value: "e" } });
    expect(provider.searches).toEqual([]);
    const [answer] = acked as Array<{ options: Array<{ value: string }> }>;
    expect(answer?.options.map((o) => o.value)).toEqual([`${DCF_HINT_PREFIX}short`]);
  });

  it("answers a hint with the provider's words when the search fails", async () => {
    const { slack } = setUp({ searchFails: true });
    const { ack, acked } = fakeAck();
    await slack.run("options", L2_PRICE_ACTIONS.srcDcf, { ack, payload: { value: "equinix" } });
    expect(JSON.stringify(acked)).toContain("Search failed: it is down");
  });
});

describe("Enter in the layer 2 form's typed inputs", () => {
  for (const id of [L2_PRICE_ACTIONS.bandwidth, L2_PRICE_ACTIONS.duration]) {
    it(`${id}: acked, nothing else`, async () => {
      const { slack, runs } = setUp();
      const { ack, acked } = fakeAck();
      const client = fakeClient();
      await slack.run("action", id, { ack, client: client.client });
      expect(acked).toEqual([undefined]);
      expect(client.calls).toEqual([]);
      expect(runs).toEqual([]);
    });
  }
});

describe("the port form's data center changed", () => {
  const change = (value: string | undefined, values = portFormValues(value, "10000", "1y")) => ({
    body: { view: portView(values) },
    action: value ? { selected_option: { value } } : {},
  });

  it("rebuilds the form with that data center's speeds, the person's choices kept", async () => {
    const { slack } = setUp();
    const { ack, acked } = fakeAck();
    const client = fakeClient();
    await slack.run("action", PORT_PRICE_ACTIONS.dcf, {
      ack,
      client: client.client,
      ...change(dcfRef(dcfOnNet)),
    });
    expect(acked).toEqual([undefined]);
    const [update] = client.callsTo("views.update");
    expect(update).toMatchObject({ view_id: "V_PORT", hash: "h1" });
    const blocks = JSON.stringify((update?.view as { blocks?: unknown[] } | undefined)?.blocks);
    expect(blocks).toContain(PORT_PRICE_BLOCKS.speed);
    expect(blocks).toContain('"initial_option":{"text":{"type":"plain_text","text":"10G"');
  });

  it("says so in the form when the value is not a data center we offered", async () => {
    const { slack } = setUp();
    const client = fakeClient();
    await slack.run("action", PORT_PRICE_ACTIONS.dcf, {
      ack: fakeAck().ack,
      client: client.client,
      ...change("<forged>"),
    });
    const [update] = client.callsTo("views.update");
    expect(JSON.stringify(update?.view)).toContain("Pick a data center from the list");
  });

  it("says its speeds could not be loaded when the provider fails", async () => {
    const { slack } = setUp({ byIdFails: true });
    const client = fakeClient();
    await slack.run("action", PORT_PRICE_ACTIONS.dcf, {
      ack: fakeAck().ack,
      client: client.client,
      ...change(dcfRef(dcfOnNet)),
    });
    const [update] = client.callsTo("views.update");
    expect(JSON.stringify(update?.view)).toContain("Couldn't load its speeds: try again");
  });

  it("keeps quiet when a newer change already updated the form (hash conflict)", async () => {
    const { slack } = setUp();
    const client = fakeClient();
    client.failWith("views.update", "hash_conflict");
    const { ack, acked } = fakeAck();
    await slack.run("action", PORT_PRICE_ACTIONS.dcf, {
      ack,
      client: client.client,
      ...change(dcfRef(dcfOnNet)),
    });
    expect(acked).toEqual([undefined]);
    expect(client.callsTo("views.update")).toHaveLength(1);
  });
});

describe("the pick buttons", () => {
  const press = (value: string) => ({
    body: {
      user: { id: USER },
      channel: { id: CHANNEL },
      trigger_id: "T1",
    },
    action: { value },
  });

  it("re-invoke the inline price through the main router, replacing the choices", async () => {
    const { slack, runs } = setUp();
    const { ack, acked } = fakeAck();
    const { respond } = fakeRespond();
    const client = fakeClient();
    const value = JSON.stringify({
      dcf: "equinix-am3",
      speed: 10000,
      term: { value: 1, unit: "y" },
      xc: true,
    });
    await slack.run("action", ACTION_PRICE_PICK_DCF, {
      ack,
      respond,
      client: client.client,
      ...press(value),
    });
    expect(acked).toEqual([undefined]);
    expect(runs).toHaveLength(1);
    const [input] = runs;
    const { respond: given, client: with_, ...rest } = input ?? ({} as never);
    expect(rest).toEqual({
      text: "price port equinix-am3 10G 1y xc",
      page: 0,
      userId: USER,
      channelId: CHANNEL,
      triggerId: "T1",
      mode: "replace",
    });
    expect(given).toBe(respond);
    expect(with_).toBe(client.client);
  });

  it("run nothing for a value that is not a pick, or a term the provider has no price for", async () => {
    const { slack, runs } = setUp();
    for (const value of [
      "not json",
      JSON.stringify({ dcf: "equinix-am3", speed: 10000, term: { value: 36, unit: "m" } }),
    ]) {
      const { ack, acked } = fakeAck();
      await slack.run("action", ACTION_PRICE_PICK_DCF, {
        ack,
        respond: fakeRespond().respond,
        client: fakeClient().client,
        ...press(value),
      });
      expect(acked).toEqual([undefined]);
    }
    expect(runs).toEqual([]);
  });
});

describe("the port price form submitted", () => {
  it("keeps the form open with field errors, and runs nothing, when something is missing", async () => {
    const { slack, runs } = setUp();
    const { ack, acked } = fakeAck();
    const view = portView(portFormValues(undefined));
    await slack.run("view", PRICE_PORT_VIEW, {
      ack,
      body: { user: { id: USER } },
      view,
      client: fakeClient().client,
    });
    expect(acked).toEqual([
      {
        response_action: "errors",
        errors: expect.objectContaining({ [PORT_PRICE_BLOCKS.dcf]: "Choose a data center" }),
      },
    ]);
    expect(runs).toEqual([]);
  });

  it("refuses a speed the data center does not offer, next to the speed", async () => {
    const { slack } = setUp();
    const { ack, acked } = fakeAck();
    await slack.run("view", PRICE_PORT_VIEW, {
      ack,
      body: { user: { id: USER } },
      view: portView(portFormValues(dcfRef(dcfOnNet), "25000", "1y")),
      client: fakeClient().client,
    });
    const [answer] = acked as Array<{ errors: Record<string, string> }>;
    expect(answer?.errors[PORT_PRICE_BLOCKS.speed]).toMatch(/^Choose one of this data center's/);
  });

  it("closes the form and re-invokes the inline command, answered privately where it was typed", async () => {
    const { slack, runs } = setUp();
    const { ack, acked } = fakeAck();
    const client = fakeClient();
    await slack.run("view", PRICE_PORT_VIEW, {
      ack,
      body: { user: { id: USER } },
      view: portView(portFormValues(dcfRef(dcfOnNet), "10000", "1y")),
      client: client.client,
    });
    expect(acked).toEqual([undefined]);
    expect(runs).toHaveLength(1);
    const [input] = runs;
    expect(input).toMatchObject({
      text: "price port equinix-am3 10G 1y",
      userId: USER,
      channelId: CHANNEL,
      mode: "ephemeral",
    });
    expect(input?.triggerId).toBeUndefined();
    // The router's answer goes through tellPrivately: ephemeral in the command's channel.
    await input?.respond({ text: "the price", blocks: [] });
    expect(client.callsTo("chat.postEphemeral")).toEqual([
      { channel: CHANNEL, user: USER, text: "the price", blocks: [] },
    ]);
  });
});

describe("the layer 2 price form submitted", () => {
  const submit = (slack: ReturnType<typeof setUp>["slack"], values: Record<string, unknown>) => {
    const ackRecorder = fakeAck();
    const client = fakeClient();
    const done = slack.run("view", PRICE_L2_VIEW, {
      ack: ackRecorder.ack,
      body: { user: { id: USER } },
      view: l2View(values),
      client: client.client,
    });
    return { done, acked: ackRecorder.acked, client };
  };

  it("keeps the form open with field errors when a data center is not ours", async () => {
    const { slack } = setUp();
    const values = l2FormValues(dcfOnNet, ready);
    values[L2_PRICE_BLOCKS.destDcf] = { [L2_PRICE_ACTIONS.destDcf]: selected("<forged>") };
    const { done, acked, client } = submit(slack, values);
    await done;
    expect(acked).toEqual([
      {
        response_action: "errors",
        errors: { [L2_PRICE_BLOCKS.destDcf]: "Pick the destination data center from the list" },
      },
    ]);
    expect(client.calls).toEqual([]);
  });

  it("closes the form and tells the price privately, with its Order this button", async () => {
    const { slack, services } = setUp({ priceConnections: async () => [connectionPriceResult] });
    const { done, acked, client } = submit(slack, l2FormValues(dcfOnNet, ready));
    await done;
    expect(acked).toEqual([undefined]);
    const [told] = client.callsTo("chat.postEphemeral");
    expect(told).toMatchObject({ channel: CHANNEL, user: USER });
    expect(JSON.stringify(told?.blocks)).toContain(ACTION_ORDER_THIS_L2);
    const counted = await services.metrics.commands.get();
    expect(counted.values).toContainEqual(
      expect.objectContaining({ labels: { command: "price l2", outcome: "succeeded" } }),
    );
  });

  it("keeps the form open when the provider refuses the connection, its words by the field", async () => {
    const refusal = httpError(
      { operation: "priceConnections", method: "POST", path: "/pricing", subject: "the price" },
      422,
      JSON.stringify({ message: `No layer 2 at ${ready.name}` }),
    );
    const { slack, services } = setUp({
      priceConnections: async () => {
        throw refusal;
      },
    });
    const { done, acked, client } = submit(slack, l2FormValues(dcfOnNet, ready));
    await done;
    expect(acked).toEqual([
      {
        response_action: "errors",
        errors: {
          [L2_PRICE_BLOCKS.destDcf]: `The provider can't price this connection: ${refusal.userMessage}`,
        },
      },
    ]);
    expect(client.calls).toEqual([]);
    const counted = await services.metrics.commands.get();
    expect(counted.values).toContainEqual(
      expect.objectContaining({ labels: { command: "price l2", outcome: "failed" } }),
    );
  });

  it("closes the form and tells the failure when the provider fails on its side", async () => {
    const failure = httpError(
      { operation: "priceConnections", method: "POST", path: "/pricing", subject: "the price" },
      500,
      undefined,
    );
    const { slack } = setUp({
      priceConnections: async () => {
        throw failure;
      },
    });
    const { done, acked, client } = submit(slack, l2FormValues(dcfOnNet, ready));
    await done;
    expect(acked).toEqual([undefined]);
    const [told] = client.callsTo("chat.postEphemeral");
    expect(told?.text).toContain(failure.userMessage);
  });

  it("falls back to a DM when the ephemeral is refused", async () => {
    const { slack } = setUp({ priceConnections: async () => [connectionPriceResult] });
    const ackRecorder = fakeAck();
    const client = fakeClient();
    client.failWith("chat.postEphemeral", "channel_not_found");
    await slack.run("view", PRICE_L2_VIEW, {
      ack: ackRecorder.ack,
      body: { user: { id: USER } },
      view: l2View(l2FormValues(dcfOnNet, ready)),
      client: client.client,
    });
    expect(client.callsTo("chat.postMessage")).toEqual([
      expect.objectContaining({ channel: USER }),
    ]);
  });
});

// The metadata the forms carry is the views' (encodeMetadata): the channel answers go to.
it("the forms' metadata names the command's channel", () => {
  expect(portView({}).private_metadata).toBe(encodeMetadata({ channelId: CHANNEL }));
});
