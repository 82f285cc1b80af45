// What the order form features' listener tests share (layer 2, IO-D): the identity and the
// approvals set-up they run with, the payloads Slack sends for a change and a submit, and the
// checks every form's change listeners must pass.
import type { ModalView } from "@slack/types";
import { expect } from "vitest";
import { encodeOrderMetadata, type OrderModalMetadata } from "../../../views/orderForms.js";
import { fakeAck, fakeClient, type fakeRegistry } from "../../support/fakeSlack.js";

export const IDENTITY = {
  userId: "u1",
  companyId: "600000000000000000000001",
  companyUsername: "acme-networks",
  companyName: "Acme Networks",
};

/** Approvals with a channel and an approver, anyone may request, nothing requested yet. */
export const APPROVALS_SET_UP = {
  channel: "C0APPROVAL",
  approvers: ["U0APPROVER"],
  requesters: [],
  store: { findByStatus: async () => [], namesHeld: async () => new Set<string>() },
};

export const APPROVALS_NOT_SET_UP = { channel: undefined, approvers: [], requesters: [] };

const CHANNEL = "C0GENERAL1";

type Registry = ReturnType<typeof fakeRegistry>;

/** A change in form `callbackId` (view V1, opened from CHANNEL), as block_actions sends it. */
export function changeBody(callbackId: string) {
  return {
    view: {
      id: "V1",
      callback_id: callbackId,
      private_metadata: encodeOrderMetadata({ channelId: CHANNEL }),
      state: { values: {} },
    },
    actions: [{ action_ts: "1700000000.000100" }],
  };
}

/** A submit of form `callbackId` whose view has an input block for each of `blocks`. */
export function submittedView(
  callbackId: string,
  blocks: Record<string, string>,
  values: Record<string, unknown> = {},
  metadata: OrderModalMetadata = {},
) {
  return {
    body: { user: { id: "U0REQUEST1" } },
    view: {
      callback_id: callbackId,
      private_metadata: encodeOrderMetadata(metadata),
      blocks: Object.values(blocks).map((block_id) => ({ type: "input", block_id })),
      state: { values },
    },
  };
}

/** A change is acked at once and the form rebuilt in place, keeping where to answer. */
export async function expectRebuiltInPlace(
  slack: Registry,
  actionId: string,
  callbackId: string,
): Promise<ModalView> {
  const { ack, acked } = fakeAck();
  const client = fakeClient();
  await slack.run("action", actionId, { ack, client: client.client, body: changeBody(callbackId) });
  expect(acked).toEqual([undefined]);
  const [update] = client.callsTo("views.update");
  expect(update?.view_id).toBe("V1");
  const view = update?.view as ModalView;
  expect(view.callback_id).toBe(callbackId);
  expect(JSON.parse(view.private_metadata ?? "{}")).toEqual({ c: CHANNEL });
  return view;
}

/** A change in another form is acked and changes nothing. */
export async function expectOtherFormLeftAlone(slack: Registry, actionId: string): Promise<void> {
  const { ack, acked } = fakeAck();
  const client = fakeClient();
  await slack.run("action", actionId, {
    ack,
    client: client.client,
    body: { view: { id: "V1", callback_id: "other_form" }, actions: [] },
  });
  expect(acked).toEqual([undefined]);
  expect(client.calls).toEqual([]);
}

/** Enter in a typed input that changes nothing: acked, nothing else. */
export async function expectEnterOnly(slack: Registry, actionId: string): Promise<void> {
  const { ack, acked } = fakeAck();
  const client = fakeClient();
  await slack.run("action", actionId, { ack, client: client.client, body: {} });
  expect(acked).toEqual([undefined]);
  expect(client.calls).toEqual([]);
}
