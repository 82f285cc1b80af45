// The IO-D feature's listeners with fake ack/client (test/support/fakeSlack.ts): the form's
// rebuilds and Enter acks, and its submission's refusal paths. The submission that reaches
// approval is the end-to-end suite's (test/e2e/iod.test.ts).
import { describe, expect, it } from "vitest";
import type { Port, ProviderApi } from "../../../src/provider/api.js";
import { registerIodListeners } from "../../../src/slack/features/iod/index.js";
import type { ListenerDeps } from "../../../src/slack/listeners.js";
import { SANDBOX_LABEL } from "../../../views/blocks.js";
import {
  IOD_ACTIONS,
  IOD_BLOCKS,
  IOD_DISPATCH_FIELDS,
  IOD_ENTER_ONLY_FIELDS,
  IOD_VIEW,
} from "../../../views/iod/iodModal.js";
import { fakeAck, fakeClient, fakeRegistry, listenerServices } from "../../support/fakeSlack.js";
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
  capacity: { total: 10000, utilised: 0, remaining: 10000 },
};

function setUp(parts: Partial<ListenerDeps> = {}) {
  const provider: Partial<ProviderApi> = {
    listPorts: async () => [port],
    getPortInfo: async () => ({ capabilities: { giaStandardV1: true } }),
    suggestPrivateAsn: async () => 64512,
    listVerifiedAsns: async () => [],
  };
  const services = listenerServices({
    provider: provider as ProviderApi,
    identity: async () => IDENTITY,
    approvals: APPROVALS_SET_UP as unknown as ListenerDeps["approvals"],
    ...parts,
  });
  const slack = fakeRegistry();
  registerIodListeners(slack.registry, services);
  return slack;
}

const submitted = () => submittedView(IOD_VIEW, IOD_BLOCKS, {}, { channelId: "C0GENERAL1" });

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
      const view = await expectRebuiltInPlace(slack, IOD_ACTIONS[field], IOD_VIEW);
      expect(JSON.stringify(view.blocks)).toContain(port.id);
      expect(JSON.stringify(view.blocks)).toContain(SANDBOX_LABEL);
    });
  }

  it("leaves another form alone", async () => {
    await expectOtherFormLeftAlone(setUp(), IOD_ACTIONS.routing);
  });

  for (const field of IOD_ENTER_ONLY_FIELDS) {
    it(`acks Enter in ${field} and nothing else`, async () => {
      await expectEnterOnly(setUp(), IOD_ACTIONS[field]);
    });
  }
});

describe("IO-D form submitted", () => {
  it("refuses at the name field while approvals are not set up", async () => {
    const slack = setUp({
      approvals: APPROVALS_NOT_SET_UP as unknown as ListenerDeps["approvals"],
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
