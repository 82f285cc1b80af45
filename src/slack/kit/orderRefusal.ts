// Whether this person may order now, asked before an order form is opened (the command, an
// "Order this" button), so nobody fills a form in vain. Every order form asks it the same way.
import type { WebClient } from "@slack/web-api";
import { canRequest } from "../../approvals/index.js";
import type { Services } from "../../services.js";
import { groupMembersVia } from "./approvers.js";
import { approvalsUnavailable } from "./requireApprovals.js";

export interface OrderRefusal {
  /** "setup": approvals are not set up (an admin's to fix); "blocked": not a requester. */
  kind: "setup" | "blocked";
  message: string;
}

/** Why this person cannot order now (no approvals set up, or not a requester); undefined if they can. */
export async function orderRefusal(
  services: Pick<Services, "approvals">,
  client: WebClient,
  userId: string,
): Promise<OrderRefusal | undefined> {
  // Said before the form is filled, not after: without these no request can be made.
  const unavailable = approvalsUnavailable(services);
  if (unavailable) return { kind: "setup", message: `:no_entry: ${unavailable}` };
  // Checked again on submit (storeForApproval); asked here so nobody fills a form in vain.
  const allowed = await canRequest({
    userId,
    requesters: services.approvals.requesters,
    groupMembers: groupMembersVia(client),
  });
  return allowed.allowed ? undefined : { kind: "blocked", message: allowed.message };
}
