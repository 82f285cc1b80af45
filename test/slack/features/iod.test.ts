// The IO-D feature's listeners with fake ack/client (test/support/fakeSlack.ts): the form's
// rebuilds and Enter acks, and its submission's refusal paths. The submission that reaches
// approval is the end-to-end suite's (test/e2e/iod.test.ts).
import type { ModalView } from "@slack/types";
import { describe, expect, it } from "vitest";
import type { Port, ProviderApi } from "../../../src/provider/api.js";
import type { Services } from "../../../src/services.js";
import { registerIodListeners } from "../../../src/slack/features/iod/index.js";
import { SANDBOX_LABEL } from "../../../views/blocks.js";
import {
  IOD_ACTIONS,
  IOD_BLOCKS,
  IOD_DISPATCH_FIELDS,
  IOD_ENTER_ONLY_FIELDS,
  IOD_VIEW,
} from "../../../views/iodModal.js";
import { encodeOrderMetadata } from "../../../views/orderForms.js";
import { fakeAck, fakeClient, fakeRegistry, listenerServices } from "../../support/fakeSlack.js";

const IDENTITY = {
  userId: "u1",
  companyId: "600000000000000000000001",
  companyUsername: "acme-networks",
  companyName: "Acme Networks",
};

const port: Port = {
  id: "500000000000000000000001",
  name: "ams-core-1",
  speed: { value: 10000, name: "10000 Mbps" },
  capacity: { total: 10000, utilised: 0, remaining: 10000 },
};

const APPROVALS_SET_UP = {
  channel: "C0APPROVAL",
  approvers: ["U0APPROVER"],
  requesters: [],
  store: { findByStatus: async () => [] },
};

function setUp(parts: Partial<Services> = {}) {
  const provider: Partial<ProviderApi> = {
    listPorts: async () => [port],
    getPortInfo: async () => ({ capabilities: { giaStandardV1: true } }),
    suggestPrivateAsn: async () => 64512,
    listVerifiedAsns: async () => [],
  };
  const services = listenerServices({
    provider: provider as ProviderApi,
    identity: async () => IDENTITY,
    approvals: APPROVALS_SET_UP as unknown as Services["approvals"],
    ...parts,
  });
  const slack = fakeRegistry();
  registerIodListeners(slack.registry, services);
  return slack;
}

function submitted() {
  return {
    body: { user: { id: "U0REQUEST1" } },
    view: {
      callback_id: IOD_VIEW,
      private_metadata: encodeOrderMetadata({ channelId: "C0GENERAL1" }),
      blocks: Object.values(IOD_BLOCKS).map((block_id) => ({ type: "input", block_id })),
      state: { values: {} },
    },
  };
}

describe("IO-D listeners", () => {
  it("registers each rebuilding input, each Enter-only input and the form", () => {
    const slack = setUp();
    expect(slack.ids("action").sort()).toEqual(
      [
        ...IOD_DISPATCH_FIELDS.map((f) => IOD_ACTIONS[f]),
        ...IOD_ENTER_ONLY_FIELDS.map((f) => IOD_ACTIONS[f]),
      ].sort(),
    );
    expect(slack.ids("view")).toEqual([IOD_VIEW]);
    expect(slack.ids("options")).toEqual([]);
  });
});

describe("IO-D form changes", () => {
  for (const field of IOD_DISPATCH_FIELDS) {
    it(`acks ${field} at once and rebuilds the form in place`, async () => {
      const slack = setUp({ sandbox: true });
      const { ack, acked } = fakeAck();
      const client = fakeClient();
      await slack.run("action", IOD_ACTIONS[field], {
        ack,
        client: client.client,
        body: {
          view: {
            id: "V1",
            callback_id: IOD_VIEW,
            private_metadata: encodeOrderMetadata({ channelId: "C0GENERAL1" }),
            state: { values: {} },
          },
          actions: [{ action_ts: "1700000000.000100" }],
        },
      });
      expect(acked).toEqual([undefined]);
      const [update] = client.callsTo("views.update");
      expect(update?.view_id).toBe("V1");
      const view = update?.view as ModalView;
      expect(view.callback_id).toBe(IOD_VIEW);
      expect(JSON.parse(view.private_metadata ?? "{}")).toEqual({ c: "C0GENERAL1" });
      expect(JSON.stringify(view.blocks)).toContain(port.id);
      expect(JSON.stringify(view.blocks)).toContain(SANDBOX_LABEL);
    });
  }

  it("leaves another form alone", async () => {
    const slack = setUp();
    const { ack, acked } = fakeAck();
    const client = fakeClient();
    await slack.run("action", IOD_ACTIONS.routing, {
      ack,
      client: client.client,
      body: { view: { id: "V1", callback_id: "other_form" }, actions: [] },
    });
    expect(acked).toEqual([undefined]);
    expect(client.calls).toEqual([]);
  });

  for (const field of IOD_ENTER_ONLY_FIELDS) {
    it(`acks Enter in ${field} and nothing else`, async () => {
      const slack = setUp();
      const { ack, acked } = fakeAck();
      const client = fakeClient();
      await slack.run("action", IOD_ACTIONS[field], { ack, client: client.client, body: {} });
      expect(acked).toEqual([undefined]);
      expect(client.calls).toEqual([]);
    });
  }
});

describe("IO-D form submitted", () => {
  it("refuses at the name field while approvals are not set up", async () => {
    const slack = setUp({
      approvals: { channel: undefined, approvers: [] } as unknown as Services["approvals"],
    });
    const { ack, acked } = fakeAck();
    const client = fakeClient();
    await slack.run("view", IOD_VIEW, { ...submitted(), ack, client: client.client });
    expect(acked).toEqual([
      {
        response_action: "errors",
        errors: { [IOD_BLOCKS.name]: expect.stringMatching(/APPROVALS_CHANNEL/) },
      },
    ]);
    expect(client.calls).toEqual([]);
  });

  it("answers every problem next to its field and submits nothing", async () => {
    const slack = setUp();
    const { ack, acked } = fakeAck();
    const client = fakeClient();
    await slack.run("view", IOD_VIEW, { ...submitted(), ack, client: client.client });
    expect(acked).toHaveLength(1);
    const answer = acked[0] as { response_action: string; errors: Record<string, string> };
    expect(answer.response_action).toBe("errors");
    expect(answer.errors[IOD_BLOCKS.accessPort]).toBe("Choose the access port");
    expect(answer.errors[IOD_BLOCKS.routing]).toBe("Choose dynamic (BGP) or static routing");
    expect(client.calls).toEqual([]);
  });

  it("says 'press Submit again' at the name when the check itself fails", async () => {
    const slack = setUp({
      identity: async () => {
        throw new Error("identity down");
      },
    });
    const { ack, acked } = fakeAck();
    const client = fakeClient();
    await slack.run("view", IOD_VIEW, { ...submitted(), ack, client: client.client });
    expect(acked).toEqual([
      {
        response_action: "errors",
        errors: { [IOD_BLOCKS.name]: "Something went wrong on our side; press Submit again." },
      },
    ]);
  });
});
