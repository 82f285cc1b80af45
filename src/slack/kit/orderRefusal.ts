// Whether this person may order now, asked before an order form is opened (the command, an
// "Order this" button), so nobody fills a form in vain. Every order form asks it the same way.
import type { GroupMembers } from "../../approvals/index.js";
import type { OrderRequests } from "../../orders/requests.js";

export interface OrderRefusal {
  /** "setup": approvals are not set up (an admin's to fix); "blocked": not a requester. */
  kind: "setup" | "blocked";
  message: string;
}

/** Why this person cannot order now (no approvals set up, or not a requester); undefined if they can. */
export async function orderRefusal(
  services: { requests: Pick<OrderRequests, "mayRequest"> },
  /** Members of a Slack user group, for policies that name groups (`groupMembersVia`). */
  groups: GroupMembers,
  userId: string,
): Promise<OrderRefusal | undefined> {
  // Said before the form is filled, not after: without these no request can be made. Checked
  // again on submit (the lifecycle API's submit).
  const allowed = await services.requests.mayRequest({
    by: userId,
    groups,
  });
  if (allowed.ok) return undefined;
  return allowed.reason === "approvals_not_set_up"
    ? { kind: "setup", message: `:no_entry: ${allowed.message}` }
    : { kind: "blocked", message: allowed.message };
}
