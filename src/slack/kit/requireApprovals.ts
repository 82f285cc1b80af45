import type { Services } from "../../services.js";

/** What an order form says when approvals are not set up (nobody could ever decide it). */
export const APPROVALS_NOT_SET_UP =
  "Orders need an approvals channel and approvers: an admin must set APPROVALS_CHANNEL and APPROVERS.";

/** Approvals need a channel and approvers: refuse early, inside the form, when they are missing. */
export function approvalsUnavailable(services: Pick<Services, "approvals">): string | undefined {
  return !services.approvals.channel || services.approvals.approvers.length === 0
    ? APPROVALS_NOT_SET_UP
    : undefined;
}
