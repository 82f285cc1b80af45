import {
  APPROVALS_NOT_SET_UP,
  approvalsUnavailable as unavailableUnder,
} from "../../orders/index.js";
import type { Services } from "../../services.js";

export { APPROVALS_NOT_SET_UP };

/** Approvals need a channel and approvers: refuse early, inside the form, when they are missing. */
export function approvalsUnavailable(services: Pick<Services, "approvals">): string | undefined {
  return unavailableUnder(services.approvals);
}
