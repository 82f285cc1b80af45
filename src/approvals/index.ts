export { describeRefusal, describeState } from "./messages.js";
export { NameReservedError, type NameScope, nameScope, normalizedName } from "./names.js";
export { type PersistentlyOptions, persistently } from "./persistently.js";
export {
  type ApproveDecision,
  type CanApproveInput,
  type CanRequestInput,
  canApprove,
  canRequest,
  type GroupMembers,
  mentions,
  type RequestDecision,
} from "./policy.js";
export {
  ApprovalStore,
  type ApprovalStoreOptions,
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
