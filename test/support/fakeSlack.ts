// Listener unit tests (issue 21), in the style of the bolt-ts starter template: a listener is
// called with a fake `ack`, `client` and `respond` that record what it did, so each listener's
// behaviour is asserted without a Slack, an HTTP server or a provider. The end-to-end suites
// (signed requests through the stand-in) stay beside these.
import type { WebClient } from "@slack/web-api";
import type { ApprovalRequest } from "../../src/approvals/index.js";
import { createLogger } from "../../src/log.js";
import { createMetrics } from "../../src/metrics.js";
import { readRequest } from "../../src/orders/readModel.js";
import { OrderRequests } from "../../src/orders/requests.js";
import type { ListenerDeps } from "../../src/slack/listeners.js";
import type { ListenerRegistry } from "../../src/slack/listenerTable.js";

/** One Web API call the listener made: its method (`chat.postEphemeral`) and arguments. */
export interface ApiCall {
  method: string;
  args: Record<string, unknown>;
}

export interface FakeClient {
  client: WebClient;
  calls: ApiCall[];
  /** The calls of one method, in order. */
  callsTo(method: string): Array<Record<string, unknown>>;
  /** Makes every later call of `method` fail with a Slack-shaped error (`data.error`). */
  failWith(method: string, slackError: string): void;
  /** What later calls of `method` answer (merged over `{ ok: true }`). */
  answer(method: string, response: Record<string, unknown>): void;
}

/**
 * A WebClient that records every call (any method, `client.chat.postEphemeral(...)` or
 * `client.views.open(...)`) and answers `{ ok: true }` plus a ts, or a view id for views.*.
 */
export function fakeClient(): FakeClient {
  const calls: ApiCall[] = [];
  const failures = new Map<string, string>();
  const answers = new Map<string, Record<string, unknown>>();
  let counter = 0;
  const call = async (method: string, args: Record<string, unknown> = {}) => {
    calls.push({ method, args });
    const failure = failures.get(method);
    if (failure) {
      throw Object.assign(new Error(`An API error occurred: ${failure}`), {
        code: "slack_webapi_platform_error",
        data: { ok: false, error: failure },
      });
    }
    counter += 1;
    const base = method.startsWith("views.")
      ? { view: { id: `V${counter}` } }
      : { ts: `1700000000.${String(counter).padStart(6, "0")}`, channel: args.channel };
    return { ok: true, ...base, ...(answers.get(method) ?? {}) };
  };
  const family = (name: string) =>
    new Proxy(
      {},
      {
        get: (_, member: string) => (args?: Record<string, unknown>) =>
          call(`${name}.${member}`, args),
      },
    );
  const client = new Proxy({}, { get: (_, name: string) => family(name) }) as unknown as WebClient;
  return {
    client,
    calls,
    callsTo: (method) => calls.filter((c) => c.method === method).map((c) => c.args),
    failWith: (method, slackError) => failures.set(method, slackError),
    answer: (method, response) => answers.set(method, response),
  };
}

/** A recording `ack` (what the listener acked with, in order) and `respond`. */
export function fakeAck() {
  const acked: unknown[] = [];
  return { ack: async (response?: unknown) => void acked.push(response), acked };
}

export function fakeRespond() {
  const responded: Array<Record<string, unknown>> = [];
  const respond = async (message: string | Record<string, unknown>) => {
    responded.push(typeof message === "string" ? { text: message } : message);
  };
  return { respond, responded };
}

// biome-ignore lint/suspicious/noExplicitAny: each listener keeps its own Bolt-typed args
type AnyListener = (args: any) => Promise<void>;

/**
 * A ListenerRegistry that keeps what a feature registers, so a test can call the listener for
 * one action, view, options load or command by its id, as Bolt would.
 */
export function fakeRegistry() {
  const kinds = {
    action: new Map<string | RegExp, AnyListener>(),
    view: new Map<string | RegExp, AnyListener>(),
    options: new Map<string | RegExp, AnyListener>(),
    command: new Map<string | RegExp, AnyListener>(),
  };
  const add =
    (kind: keyof typeof kinds) =>
    (constraint: unknown, ...listeners: AnyListener[]) => {
      const key =
        typeof constraint === "string" || constraint instanceof RegExp
          ? constraint
          : String(
              (constraint as { action_id?: string; callback_id?: string }).action_id ??
                (constraint as { callback_id?: string }).callback_id,
            );
      const listener = listeners.at(-1);
      if (!listener) throw new Error(`no listener given for ${String(key)}`);
      if (kinds[kind].has(key)) throw new Error(`${kind} ${String(key)} registered twice`);
      kinds[kind].set(key, listener);
    };
  const registry = {
    action: add("action"),
    view: add("view"),
    options: add("options"),
    command: add("command"),
  } as unknown as ListenerRegistry;
  const find = (kind: keyof typeof kinds, id: string): AnyListener => {
    for (const [key, listener] of kinds[kind]) {
      if (typeof key === "string" ? key === id : key.test(id)) return listener;
    }
    throw new Error(`no ${kind} listener for ${id}`);
  };
  return {
    registry,
    /** The ids registered per kind, for "every listener has a test" checks. */
    ids: (kind: keyof typeof kinds) => [...kinds[kind].keys()].map(String),
    listener: find,
    /** Calls the listener of `id` with `args` (ack, body, client, ... as Bolt passes them). */
    run: (kind: keyof typeof kinds, id: string, args: Record<string, unknown>) =>
      find(kind, id)(args),
  };
}

/**
 * The one factory of the parts a listener unit test hands a feature (typed `ListenerDeps`, which
 * fits every feature's own deps type structurally): a silent logger, real metrics, sandbox off,
 * USD, the read model with nothing tracked (`orders.readMany`); the parts a feature needs beyond
 * that (provider, approvals, orders) are given by the test.
 */
export function listenerServices(parts: Partial<ListenerDeps> = {}): ListenerDeps {
  const services = {
    logger: createLogger({ level: "silent" }),
    metrics: createMetrics({ defaultMetrics: false }),
    sandbox: false,
    currency: "USD",
    ...parts,
    orders: {
      readMany: async (records: readonly ApprovalRequest[]) =>
        records.map((record) => readRequest(record)),
      ...(parts.orders ?? {}),
    },
  } as unknown as ListenerDeps;
  // The lifecycle API over the test's own approvals store and `orders` (as src/bot.ts builds
  // it), built when used so a test may swap `approvals` or `orders` after building these.
  if (!parts.requests) {
    Object.defineProperty(services, "requests", {
      get: () =>
        new OrderRequests({
          store: services.approvals.store,
          lifecycle: services.orders,
          settings: services.approvals,
          currency: services.currency,
          sandbox: services.sandbox,
          ...(services.jobs?.tracker ? { tracker: services.jobs.tracker } : {}),
          logger: services.logger,
        }),
      configurable: true,
      enumerable: true,
    });
  }
  return services;
}
