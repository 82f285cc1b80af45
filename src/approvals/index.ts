export {
  checkDirectory,
  type Directory,
  type DirectoryGroup,
  type DirectoryReport,
  type DirectorySettings,
  DirectoryStatus,
  DirectoryUnavailableError,
  type NamedIds,
  namedIds,
} from "./directoryCheck.js";
export { newApprovalId } from "./keys.js";
export {
  FINANCE_GROUP,
  type MoneyAudience,
  type MoneySight,
  moneySight,
  moneyViewers,
} from "./moneyAccess.js";
export {
  holdsItsName,
  NAME_HOLDING_STATUSES,
  NameReservedError,
  type NameScope,
  nameScope,
  namesHeldIn,
  normalizedName,
} from "./names.js";
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
  GroupLookupError,
  type GroupLookupFailure,
  type GroupMembers,
  groupLookupFailure,
  groupLookupMessage,
  isListed,
  listing,
  mentions,
  type RequestDecision,
} from "./policy.js";
export type {
  ApproveInput,
  ClaimGuard,
  DecideInput,
  ReconcileInput,
  Refusal,
  StateRefusalReason,
  TransitionResult,
} from "./results.js";
export type { ApprovalSettings } from "./settings.js";
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
export { ApprovalStore } from "./store.js";
export type { ApprovalStoreOptions, ListOptions } from "./storeOptions.js";
export * from "./types.js";
