import { Writable } from "node:stream";
import type { WebClient } from "@slack/web-api";
import type { ApprovalStore } from "../../src/approvals/store.js";
import type { ApprovalRequest, PlacementResult } from "../../src/approvals/types.js";
import { createLogger, type Logger } from "../../src/log.js";
import type {
  EscalationCause,
  JournalForPlacement,
  LookupResult,
  PlacementCallbacks,
  PlacementContext,
  StoreForPlacement,
} from "../../src/orders/placement/index.js";
import type { PlacementJournal } from "../../src/orders/placement/journal.js";
import { STANDIN_IDS } from "../../src/standin/index.js";
import { threadRoot } from "./support.js";

/** Shared by the placement tests: a scripted provider side, approved requests, captured logs. */

export const APPROVALS_CHANNEL = STANDIN_IDS.approvals;

export const ORDER_1: PlacementResult = {
  providerId: "order-1",
  status: "created",
  record: { id: "order-1" },
};

/** The provider side of placement, scripted: what `place` does, what a look-up finds. */
export class FakeProvider {
  placeCalls: string[] = [];
  lookups: string[] = [];
  placed: Array<{ id: string; result: PlacementResult }> = [];
  failed: Array<{ id: string; message: string }> = [];
  escalated: Array<{ id: string; cause: EscalationCause }> = [];
  placeBehaviour: () => Promise<PlacementResult> = async () => {
    await new Promise((resolve) => setTimeout(resolve, 150));
    return ORDER_1;
  };
  lookupBehaviour: () => Promise<LookupResult> = async () => ({ found: false });

  callbacks(): PlacementCallbacks {
    const say = async (request: ApprovalRequest, ctx: PlacementContext, text: string) => {
      await ctx.notifier.post({
        scope: ctx.notifyScope,
        key: ctx.notifyKey,
        channel: APPROVALS_CHANNEL,
        threadTs: request.slack.approvalTs,
        text,
      });
    };
    return {
      place: async (request) => {
        this.placeCalls.push(request.id);
        return this.placeBehaviour();
      },
      reconcile: async (request) => {
        this.lookups.push(request.id);
        return this.lookupBehaviour();
      },
      onPlaced: async (request, result, ctx) => {
        this.placed.push({ id: request.id, result });
        await say(request, ctx, `Placed: ${result.providerId}`);
      },
      onFailed: async (request, error, ctx) => {
        this.failed.push({ id: request.id, message: error.message });
        await say(request, ctx, `Failed: ${error.message}`);
      },
      onEscalate: async (request, cause, ctx) => {
        this.escalated.push({ id: request.id, cause });
        await say(request, ctx, `Please check: ${cause.kind}: ${cause.detail}`);
      },
    };
  }
}

/** A promise a test resolves by hand: a provider that answers (or a step that goes on) later. */
export function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** A port order request, approved, with its thread root posted in the approvals channel. */
export async function approvedRequest(
  store: ApprovalStore,
  client: WebClient,
  title = "Port order: 10 Gbps at SY1",
): Promise<{ id: string; root: string }> {
  const root = await threadRoot(client, APPROVALS_CHANNEL, title);
  const request = await store.create({
    kind: "port",
    title,
    summary: [{ label: "Port name", value: "syd-core-01" }],
    call: { operation: "createPortOrder", pathParams: {}, body: [{ portName: "syd-core-01" }] },
    reconcileKey: "syd-core-01",
    requester: { userId: STANDIN_IDS.requester },
    slack: { approvalChannel: APPROVALS_CHANNEL, approvalTs: root },
    sandbox: true,
  });
  const decided = await store.decide(request.id, { by: STANDIN_IDS.approver, action: "approve" });
  if (!decided.ok) throw new Error(`could not approve: ${decided.reason}`);
  return { id: request.id, root };
}

/** A logger whose JSON lines a test can read. */
export function capturingLogger(): { logger: Logger; lines: () => Array<Record<string, unknown>> } {
  const raw: string[] = [];
  const destination = new Writable({
    write(chunk, _encoding, callback) {
      raw.push(...chunk.toString().split("\n").filter(Boolean));
      callback();
    },
  });
  return {
    logger: createLogger({ level: "info", destination }),
    lines: () => raw.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}

/** The store as placement sees it, with some steps replaced (a frozen worker, a Redis outage). */
export function storeWith(
  store: ApprovalStore,
  overrides: Partial<StoreForPlacement> = {},
): StoreForPlacement {
  return {
    get: (id) => store.get(id),
    claim: (id, workerId) => store.claim(id, workerId),
    complete: (id, result, guard) => store.complete(id, result, guard),
    fail: (id, error, guard) => store.fail(id, error, guard),
    markUnknown: (id, note, guard) => store.markUnknown(id, note, guard),
    reconcile: (id, input) => store.reconcile(id, input),
    findByStatus: (status) => store.findByStatus(status),
    ...overrides,
  };
}

/** The journal as placement sees it, with some steps replaced. */
export function journalWith(
  journal: PlacementJournal,
  overrides: Partial<JournalForPlacement> = {},
): JournalForPlacement {
  return {
    read: (id) => journal.read(id),
    intend: (id, attempt) => journal.intend(id, attempt),
    own: (id, attempt, owner, expected) => journal.own(id, attempt, owner, expected),
    startSending: (id, attempt, owner) => journal.startSending(id, attempt, owner),
    recordAnswer: (id, attempt, answer) => journal.recordAnswer(id, attempt, answer),
    ...overrides,
  };
}

/** Fails the first `times` calls with the errors ioredis gives while Redis is gone. */
export function failingFirst<A extends unknown[], R>(
  times: number,
  step: (...args: A) => Promise<R>,
): { step: (...args: A) => Promise<R>; calls: () => number } {
  const outage = [
    "Connection is closed.",
    "Stream isn't writeable and enableOfflineQueue options is false",
  ];
  let calls = 0;
  return {
    step: async (...args: A) => {
      calls += 1;
      if (calls <= times) throw new Error(outage[calls % outage.length]);
      return step(...args);
    },
    calls: () => calls,
  };
}
