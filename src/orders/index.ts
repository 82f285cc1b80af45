import type { CreateApprovalInput } from "../approvals/index.js";

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
} from "./lifecycle.js";
export { scopeOf } from "./requestMessages.js";

/** What a flow hands over for approval: everything but the bookkeeping the approval layer adds. */
export type OrderSubmission = Omit<CreateApprovalInput, "sandbox" | "slack">;
