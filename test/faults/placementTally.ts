import type { ApprovalRequest, ApprovalStatus } from "../../src/approvals/index.js";

/**
 * What became of each approved order, counted from the durable state (the approval record, the
 * tracker) and from the provider (its orders, matched by the port name the approval sent), and
 * what its Slack thread says. Issue 8's rule: each approval is placed once, or escalated to a
 * person as unknown, or refused with nothing at the provider; never two orders, never nothing.
 */

export interface OrderedApproval {
  id: string;
  /** The unique port name sent to the provider: how its orders are found there. */
  portName: string;
  threadTs: string;
}

export type Outcome = "placedOnce" | "escalatedUnknown" | "failed" | "double" | "lost";

export interface ApprovalTally {
  id: string;
  portName: string;
  status: ApprovalStatus | "missing";
  outcome: Outcome;
  /** Orders the provider holds under this approval's port name. */
  providerOrders: number;
  /** For a placed order: a tracker follows it. */
  tracked: boolean;
  /** Whether the claim of some worker was ever interrupted (the record went through unknown). */
  interrupted: boolean;
  /** Why it counts as lost, for the failure message. */
  why?: string;
}

export interface TallySources {
  record(id: string): Promise<ApprovalRequest | null>;
  /** Provider order ids by port name. */
  providerOrders(portName: string): string[];
  isTracked(orderId: string): Promise<boolean>;
  /** Texts of the replies in the approval's thread. */
  thread(threadTs: string): string[];
}

/** The escalation's wording (src/slack/approvals.ts, onEscalate). */
export const ESCALATION = /could not tell whether the order reached the provider/;

export async function tallyApproval(
  sources: TallySources,
  approval: OrderedApproval,
): Promise<ApprovalTally> {
  const record = await sources.record(approval.id);
  const orders = sources.providerOrders(approval.portName);
  const base = {
    id: approval.id,
    portName: approval.portName,
    status: record?.status ?? ("missing" as const),
    providerOrders: orders.length,
    tracked: false,
    interrupted: record?.history.some((h) => h.to === "unknown") ?? false,
  };
  const lost = (why: string): ApprovalTally => ({ ...base, outcome: "lost", why });
  if (orders.length > 1) {
    return {
      ...base,
      outcome: "double",
      why: `${orders.length} provider orders: ${orders.join(", ")}`,
    };
  }
  if (!record) return lost("no approval record");

  switch (record.status) {
    case "placed": {
      const providerId = record.result?.providerId;
      if (!providerId || orders.length !== 1 || orders[0] !== providerId) {
        return lost(`placed as ${providerId}, provider holds [${orders.join(", ")}]`);
      }
      return { ...base, outcome: "placedOnce", tracked: await sources.isTracked(providerId) };
    }
    case "unknown":
      // A person must have been asked: the provider may or may not hold it (at most once).
      return sources.thread(approval.threadTs).some((text) => ESCALATION.test(text))
        ? { ...base, outcome: "escalatedUnknown" }
        : lost("unknown, but nobody was asked in the thread");
    case "failed":
      return orders.length === 0
        ? { ...base, outcome: "failed" }
        : lost("failed, yet the provider holds an order");
    default:
      return lost(`still ${record.status}`);
  }
}

/** Settled: every approval has its outcome (nothing lost or doubled), every placed one tracked. */
export function settled(tallies: ApprovalTally[]): boolean {
  return tallies.every(
    (t) =>
      t.outcome !== "lost" && t.outcome !== "double" && (t.outcome !== "placedOnce" || t.tracked),
  );
}

export function figures(tallies: ApprovalTally[]) {
  const count = (predicate: (t: ApprovalTally) => boolean) => tallies.filter(predicate).length;
  return {
    placedOnce: count((t) => t.outcome === "placedOnce"),
    escalatedUnknown: count((t) => t.outcome === "escalatedUnknown"),
    /** Escalated although the provider did take the order: a kill between sending and recording. */
    escalatedWithProviderOrder: count(
      (t) => t.outcome === "escalatedUnknown" && t.providerOrders === 1,
    ),
    failed: count((t) => t.outcome === "failed"),
    doubleOrders: count((t) => t.outcome === "double"),
    lostOrders: count((t) => t.outcome === "lost"),
    tracked: count((t) => t.outcome === "placedOnce" && t.tracked),
    interruptedClaims: count((t) => t.interrupted),
  };
}
