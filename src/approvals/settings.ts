import type { OrderUpdates } from "../config.js";
import type { DirectoryReport } from "./directoryCheck.js";
import type { ApprovalPolicy } from "./spendPolicy.js";
import type { ApprovalStore } from "./store.js";

/**
 * The approval policy (APPROVALS_CHANNEL, APPROVERS or APPROVAL_POLICY, REQUESTERS) and the
 * durable record.
 */
export interface ApprovalSettings {
  store: ApprovalStore;
  channel?: string;
  /** Everyone who may approve something (with a policy file: every id its rules name). */
  approvers: string[];
  /** The spend-aware policy file's rules; absent: one approval from `approvers`. */
  policy?: ApprovalPolicy;
  requesters: string[];
  allowSelfApproval: boolean;
  /** Where a request's card goes: the requesting channel (default), the requester's DM, or nowhere. */
  orderUpdates?: OrderUpdates;
  /** SPEND_VIEWERS: who sees the money besides approvers and finance (src/approvals/moneyAccess.ts). */
  spendViewers?: string[];
  /** APPROVE_CONFIRM_FROM: Approve asks first from this monthly amount (src/domain/approveConfirm.ts). */
  approveConfirmFrom?: number;
  /**
   * The latest check of the users and groups the configuration names against Slack
   * (src/approvals/directoryCheck.ts): `/connect policy` shows its problems, warning and handles.
   */
  directory?: { latest(): DirectoryReport | undefined };
}
