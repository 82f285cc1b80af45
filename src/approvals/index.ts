export { isWithdrawn, WITHDRAWN_NOTE } from "../domain/withdrawal.js";
export { NameReservedError, type NameScope, nameScope, normalizedName } from "./names.js";
export {
  type PersistentlyOptions,
  persistently,
  SLACK_REFS_WRITE_TIMEOUT_MS,
} from "./persistently.js";
export {
  type ApproveDecision,
  type CanApproveInput,
  type CanRequestInput,
  canApprove,
  canRequest,
  type GroupMembers,
  isListed,
  mentions,
  type RequestDecision,
} from "./policy.js";
export {
  type ApprovalPolicy,
  defaultPolicy,
  loadApprovalPolicy,
  MAX_APPROVALS,
  type PolicyParse,
  type PolicyRule,
  parseApprovalPolicy,
  policyApprovers,
  requirementFor,
} from "./spendPolicy.js";
export {
  ApprovalStore,
  type ApprovalStoreOptions,
  type ApproveInput,
  type ClaimGuard,
  type DecideInput,
  type ListOptions,
  newApprovalId,
  type ReconcileInput,
  type Refusal,
  type StateRefusalReason,
  type TransitionResult,
} from "./store.js";
export * from "./types.js";
