import type { ApprovalRequest, ApprovalStatus } from "../../src/approvals/index.js";
import type { Sandbox } from "../../src/sandbox/index.js";
import type { SlackStandin } from "../../src/standin/index.js";

/**
 * What became of each approved order, counted from the durable state (the approval record),
 * from the provider's own state (its orders and the ports they make, matched by the port name
 * the approval sent; the reads it answered) and from what the Slack thread says. Issue 19's
 * promise: an approved request is placed once, and always ends in a state a person can see —
 * placed (and tracked) or failed with nothing at the provider; never two orders, never a request
 * left `executing`/`unknown` with nobody told, never a port id recorded as an order id.
 */

export interface OrderedApproval {
  id: string;
  /** The unique port name sent to the provider: how its orders are found there. */
  portName: string;
  threadTs: string;
}

/** A port order at the provider, with the id of the port it makes (fixed at creation). */
export interface ProviderOrder {
  orderId: string;
  portId: string;
}

/** A reply in the approval's thread (the bot's), with when it was posted. */
export interface ThreadReply {
  text: string;
  atMs: number;
}

export interface TallySources {
  record(id: string): Promise<ApprovalRequest | null>;
  /** The provider's orders by port name. */
  providerOrders(portName: string): ProviderOrder[];
  /** Whether the provider answered a read of this order or port (by its id) with 200. */
  wasRead(id: string): boolean;
  /** The replies in the approval's thread, oldest first. */
  thread(threadTs: string): ThreadReply[];
}

/**
 * The sources as the fault suites have them: the sandbox's own orders and request log, the
 * stand-in's threads in `channel`, and the records through `record`. The provider's state is
 * read once, so one tally sees one moment of it.
 */
export function tallySources(input: {
  sandbox: Sandbox;
  standin: SlackStandin;
  channel: string;
  record: (id: string) => Promise<ApprovalRequest | null>;
}): TallySources {
  const { sandbox, standin, channel } = input;
  const byName = providerOrdersByName(sandbox);
  // A tracker reads its order (`…/ports/orders/<id>`), or its port (`…/ports/<id>`).
  const read = new Set<string>();
  for (const entry of sandbox.state.requestLog) {
    const id = /\/ports\/(?:orders\/)?([^/]+)$/.exec(entry.path)?.[1];
    if (entry.method === "GET" && entry.status === 200 && id) read.add(id);
  }
  return {
    record: input.record,
    providerOrders: (portName) => byName.get(portName) ?? [],
    wasRead: (id) => read.has(id),
    thread: (threadTs) => threadReplies(standin, channel, threadTs),
  };
}

/** The provider's port orders, by the port name they were placed with. */
export function providerOrdersByName(sandbox: Sandbox): Map<string, ProviderOrder[]> {
  const byName = new Map<string, ProviderOrder[]>();
  for (const order of sandbox.state.orders.values()) {
    const list = byName.get(order.portName) ?? [];
    list.push({ orderId: order.id, portId: order.portId });
    byName.set(order.portName, list);
  }
  return byName;
}

/** The replies under a message, oldest first, with when each was posted (from its ts). */
export function threadReplies(
  standin: SlackStandin,
  channel: string,
  threadTs: string,
): ThreadReply[] {
  return standin
    .thread(channel, threadTs)
    .filter((m) => m.ts !== threadTs)
    .map((m) => ({ text: m.text, atMs: Number(m.ts) * 1_000 }));
}

export interface ApprovalTally {
  id: string;
  portName: string;
  status: ApprovalStatus | "missing";
  /** Orders the provider holds under this approval's port name. */
  providerOrders: number;
  /** What the record holds as the provider's id, and what kind of thing it names. */
  providerId?: string;
  resource?: string;
  /** Placed, holding the id of the order's port, not marked as a port (issue 19, bug 2). */
  portIdAsOrderId: boolean;
  /** The thread has a reply about the record's current state (posted after its last step). */
  told: boolean;
  /** For a placed one: the provider was asked about it since (someone follows it). */
  tracked: boolean;
  /** Went through `unknown` (a kill or an outage cut its placement off). */
  interrupted: boolean;
  /** Settled by a look-up at the provider (unknown → placed). */
  foundByLookUp: boolean;
  /** Where it breaks the promise; empty when it keeps it. */
  problems: string[];
}

/** The last step of the record: replies from then on are about its current state. */
function lastStepMs(record: ApprovalRequest): number {
  const last = record.history.at(-1);
  return Date.parse(last?.at ?? record.updatedAt);
}

/** `result.resource` (issue 19: "port" for a port found by name), read loosely: older records lack it. */
function resourceOf(record: ApprovalRequest): string | undefined {
  const resource = (record.result as { resource?: unknown } | undefined)?.resource;
  return typeof resource === "string" ? resource : undefined;
}

export async function tallyApproval(
  sources: TallySources,
  approval: OrderedApproval,
): Promise<ApprovalTally> {
  const record = await sources.record(approval.id);
  const orders = sources.providerOrders(approval.portName);
  const tally: ApprovalTally = {
    id: approval.id,
    portName: approval.portName,
    status: record?.status ?? "missing",
    providerOrders: orders.length,
    portIdAsOrderId: false,
    told: false,
    tracked: false,
    interrupted: record?.history.some((h) => h.to === "unknown") ?? false,
    foundByLookUp: record?.history.some((h) => h.from === "unknown" && h.to === "placed") ?? false,
    problems: [],
  };
  const problem = (text: string) => tally.problems.push(text);
  if (orders.length > 1) {
    problem(`${orders.length} provider orders: ${orders.map((o) => o.orderId).join(", ")}`);
  }
  if (!record) {
    problem("no approval record");
    return tally;
  }
  const since = lastStepMs(record);
  const replies = sources.thread(approval.threadTs).filter((r) => r.atMs >= since);
  tally.told = replies.length > 0;

  switch (record.status) {
    case "placed": {
      const providerId = record.result?.providerId;
      tally.providerId = providerId;
      tally.resource = resourceOf(record);
      const order = orders.find((o) => o.orderId === providerId || o.portId === providerId);
      if (!providerId || !order || orders.length !== 1) {
        problem(`placed as ${providerId}, provider holds [${orders.map((o) => o.orderId)}]`);
        break;
      }
      if (providerId === order.portId && tally.resource !== "port") {
        tally.portIdAsOrderId = true;
        problem(`port id ${providerId} recorded as an order id`);
      }
      tally.told = replies.some((r) => r.text.includes(providerId));
      if (!tally.told) problem("placed, but the thread was not told the provider's id");
      tally.tracked = sources.wasRead(providerId);
      if (!tally.tracked) problem(`placed, but nobody reads ${providerId} at the provider`);
      break;
    }
    case "failed":
      if (orders.length > 0) problem("failed, yet the provider holds an order");
      if (!tally.told) problem("failed, and nobody was told in the thread");
      break;
    case "unknown":
      problem(
        `left unknown with ${orders.length} provider order(s)${tally.told ? "" : ", and nobody was told"}`,
      );
      break;
    default:
      problem(`still ${record.status}${tally.told ? "" : ", and nobody was told"}`);
  }
  return tally;
}

/** Nothing is in progress any more and each request's state was told in its thread. */
export function quiet(tallies: ApprovalTally[]): boolean {
  return tallies.every(
    (t) => (t.status === "placed" || t.status === "failed" || t.status === "unknown") && t.told,
  );
}

/** Every request kept the promise: placed once and tracked, or failed with nothing ordered. */
export function settled(tallies: ApprovalTally[]): boolean {
  return tallies.every((t) => t.problems.length === 0);
}

export function figures(tallies: ApprovalTally[]) {
  const count = (predicate: (t: ApprovalTally) => boolean) => tallies.filter(predicate).length;
  const stuck = (t: ApprovalTally) => t.status === "executing" || t.status === "unknown";
  return {
    approvals: tallies.length,
    placedOnce: count((t) => t.status === "placed" && t.problems.length === 0),
    failedNothingOrdered: count((t) => t.status === "failed" && t.providerOrders === 0),
    /** Issue 19's count: each approved request holds exactly 1 order, or 0 and is `failed`. */
    providerOrdersNone: count((t) => t.providerOrders === 0),
    providerOrdersOne: count((t) => t.providerOrders === 1),
    providerOrdersTwoOrMore: count((t) => t.providerOrders > 1),
    noOrderNotFailed: count((t) => t.providerOrders === 0 && t.status !== "failed"),
    leftUnknown: count((t) => t.status === "unknown"),
    leftUnknownWithProviderOrder: count((t) => t.status === "unknown" && t.providerOrders > 0),
    leftExecutingOrUnknownUntold: count((t) => stuck(t) && !t.told),
    leftInProgress: count((t) =>
      ["missing", "pending", "approved", "executing"].includes(t.status),
    ),
    portIdAsOrderId: count((t) => t.portIdAsOrderId),
    placedUntracked: count((t) => t.status === "placed" && !t.tracked),
    interrupted: count((t) => t.interrupted),
    foundByLookUp: count((t) => t.foundByLookUp),
    brokenPromises: count((t) => t.problems.length > 0),
  };
}
