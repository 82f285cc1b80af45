// What the feature listener tests share: an approvals store on the shared Redis under a unique
// prefix (as test/approvals/*.test.ts make one), a small `orders` that moves records through
// that real store and records its follow-ups, and a block_actions click shaped as Bolt passes it.
import type { Redis } from "ioredis";
import type { ApprovalStore } from "../../../src/approvals/store.js";
import type { ApprovalRequest } from "../../../src/approvals/types.js";
import { readRequest } from "../../../src/orders/readModel.js";
import type { ListenerDeps } from "../../../src/slack/listeners.js";
import {
  connect,
  deleteKeys,
  newStore,
  portOrderInput,
  runPrefix,
} from "../../approvals/support.js";
import { fakeAck, fakeClient, fakeRespond } from "../../support/fakeSlack.js";

export const APPROVER = "U0APPROVE1";
export const REQUESTER = "UREQ00001";
export const APPROVALS_CHANNEL = "C0APPROVAL";

/** A store of one test file on the shared Redis; `close` deletes its keys. */
export function redisStore(name: string) {
  const prefix = runPrefix(name);
  let redis: Redis | undefined;
  let store: ApprovalStore | undefined;
  return {
    get store(): ApprovalStore {
      if (!store) {
        redis = connect();
        store = newStore(redis, prefix).store;
      }
      return store;
    },
    async close() {
      if (!redis) return;
      await deleteKeys(redis, prefix);
      redis.disconnect();
    },
  };
}

/** A pending request whose approval message is `APPROVALS_CHANNEL` / `ts`. */
export async function pendingRequest(
  store: ApprovalStore,
  ts = "1700000000.000100",
): Promise<ApprovalRequest> {
  const created = await store.create(portOrderInput({ sandbox: false }));
  const linked = await store.mergeSlackRefs(created.id, {
    approvalChannel: APPROVALS_CHANNEL,
    approvalTs: ts,
  });
  if (!linked) throw new Error("request vanished");
  return linked;
}

/** The lifecycle's transitions straight on the store (src/orders/lifecycle.ts does the same). */
export function storeOrders(store: ApprovalStore, overrides: Partial<ListenerDeps["orders"]> = {}) {
  const followedUp: ApprovalRequest[] = [];
  const orders = {
    approve: (id: string, by: string, options: { inGroup?: boolean } = {}) =>
      store.approve(id, { by, ...options }),
    reject: (id: string, by: string, reason: string) =>
      store.decide(id, { by, action: "reject", reason }),
    withdraw: (id: string, by: string) => store.cancel(id, by, "withdrawn by the requester"),
    retry: (id: string, by: string) => store.retry(id, by),
    placeAgain: (id: string, by: string) => store.placeAgain(id, by),
    markFailed: (id: string, by: string) => store.markFailed(id, by, "marked failed"),
    lookUpAgain: async () => "not-unknown",
    followUp: async (record: ApprovalRequest) => void followedUp.push(record),
    // A click on a stray post of the request takes its buttons off (nothing here to update).
    strayApprovalMessage: async () => false,
    progressOf: async () => new Map(),
    // The read model with nothing tracked (src/orders/readModel.ts).
    readMany: async (records: readonly ApprovalRequest[]) =>
      records.map((record) => readRequest(record)),
    ...overrides,
  } as unknown as ListenerDeps["orders"];
  return { orders, followedUp };
}

/** The approvals settings: one approver, no policy file. */
export function approvalSettings(store: ApprovalStore, approvers: string[] = [APPROVER]) {
  return {
    store,
    channel: APPROVALS_CHANNEL,
    approvers,
    allowSelfApproval: false,
  } as unknown as ListenerDeps["approvals"];
}

export interface ClickWhere {
  userId: string;
  /** The channel and message clicked in; none for App Home. */
  channel?: string;
  messageTs?: string;
  /** Clicked in the person's App Home. */
  home?: boolean;
  /** Clicked on an ephemeral message (the requester's confirmation). */
  ephemeral?: boolean;
}

/** A button click as Bolt hands it to an action listener, with recording fakes. */
export function click(actionId: string, value: string | undefined, where: ClickWhere) {
  const slack = fakeClient();
  const acks = fakeAck();
  const responses = fakeRespond();
  const action = { type: "button", action_id: actionId, ...(value !== undefined ? { value } : {}) };
  const body = {
    type: "block_actions",
    user: { id: where.userId },
    trigger_id: "T0TRIGGER",
    actions: [action],
    ...(where.channel ? { channel: { id: where.channel } } : {}),
    ...(where.messageTs ? { message: { ts: where.messageTs } } : {}),
    container: where.home
      ? { type: "view", view_id: "VHOME" }
      : {
          type: "message",
          channel_id: where.channel,
          message_ts: where.messageTs,
          is_ephemeral: where.ephemeral === true,
        },
    ...(where.home ? { view: { type: "home", id: "VHOME" } } : {}),
  };
  return {
    slack,
    acks,
    responses,
    args: { ack: acks.ack, body, action, client: slack.client, respond: responses.respond },
  };
}

/** Every text a listener sent with chat.postEphemeral or chat.postMessage, in order. */
export function toldTexts(slack: ReturnType<typeof fakeClient>): string[] {
  return slack.calls
    .filter((c) => c.method === "chat.postEphemeral" || c.method === "chat.postMessage")
    .map((c) => String(c.args.text));
}
