import type { CreateApprovalInput } from "../approvals/index.js";
import type { Jobs } from "../jobs/index.js";
import type { Tracker } from "./tracking/tracker.js";

/**
 * The background side as the other layers use it: src/jobs' queues and notifier, and the order
 * lifecycle's tracker (src/orders/tracking: what `/connect track` and App Home follow). The
 * workers that run them are src/workers', which no layer here imports.
 */
export type BackgroundJobs = Jobs & { tracker: Tracker };

export {
  lookUpOrder,
  ORDER_KINDS,
  type OrderKindSpec,
  orderKind,
  placeOrder,
} from "./kinds.js";
export {
  type LifecycleJobs,
  type LifecycleStore,
  OrderLifecycle,
  type OrderLifecycleOptions,
  requestMessageRenderer,
  requestReadsOf,
} from "./lifecycle.js";
export { type MessageRenderer, type RenderedMessage, scopeOf } from "./requestMessages.js";

/** What a use case hands over for approval: all but the bookkeeping the approval layer adds. */
export type OrderSubmission = Omit<CreateApprovalInput, "sandbox" | "slack">;
export {
  APPROVALS_NOT_SET_UP,
  approvalsUnavailable,
  type DecisionSettings,
  requirementOf,
} from "./deciders.js";
export {
  type Actor,
  type CheckResult,
  type DecidedAt,
  type DecisionInput,
  isOwnApprovalMessage,
  type LookedUp,
  type LookUpResult,
  originOf,
  REQUEST_ID_PATTERN,
  type Refused,
  type StepResult,
  type StoreRefusalReason,
  type SubmitInput,
  type SubmitResult,
} from "./requestResults.js";
export {
  OrderRequests,
  type OrderRequestsOptions,
  type RequestFollowUps,
  type RequestStore,
} from "./requests.js";
