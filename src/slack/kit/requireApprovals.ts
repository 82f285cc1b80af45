import type { ApprovalSettings } from "../../approvals/index.js";
import {
  APPROVALS_NOT_SET_UP,
  approvalsUnavailable as unavailableUnder,
} from "../../orders/index.js";

export { APPROVALS_NOT_SET_UP };

/** Approvals need a channel and approvers: refuse early, inside the form, when they are missing. */
export function approvalsUnavailable(services: {
  approvals: ApprovalSettings;
}): string | undefined {
  return unavailableUnder(services.approvals);
}
