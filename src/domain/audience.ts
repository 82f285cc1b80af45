/**
 * Who is told about a change (App Home refreshes): one rule for a request and for a tracked
 * order, applied by the lifecycle (src/orders/homeAudience.ts: a request's change;
 * src/orders/tracking/index.ts: a tracked target's change) and by App Home's *Being tracked*
 * (src/orders/appHome.ts). Pure: the caller resolves approvers' user groups.
 */

/**
 * Who sees a change of a request: its requester (*My requests*), and, when the caller says it is
 * or has just stopped being the approvers' work (src/orders/homeAudience.ts, by the read model's
 * next steps), everyone who may act on it (*Waiting on me*). The team's committed spend is read
 * when a Home is opened, not pushed to everyone on every placement.
 */
export function requestAudience(
  request: { requester: { userId: string } },
  approvers: readonly string[],
): string[] {
  return [...new Set([request.requester.userId, ...approvers])];
}

/** Who sees a tracked target: whoever asked to track it, or joined. */
export function trackedAudience(tracked: {
  requestedBy: string;
  watchers: readonly string[];
}): string[] {
  return [...new Set([tracked.requestedBy, ...tracked.watchers])];
}

/** Whether `userId` sees a tracked target (its audience). */
export function seesTracked(
  userId: string,
  tracked: { requestedBy: string; watchers: readonly string[] },
): boolean {
  return trackedAudience(tracked).includes(userId);
}
