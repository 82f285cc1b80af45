import {
  ACTION_APPROVE,
  ACTION_LOOK_UP_AGAIN,
  ACTION_MARK_FAILED,
  ACTION_PLACE_AGAIN,
  ACTION_REJECT,
  ACTION_RETRY,
} from "../../../../views/approvals/approvals.js";
import { VIEW_REJECT_REASON } from "../../../../views/approvals/rejectModal.js";
import { ACTION_VIEW_IN_APPROVALS } from "../../../../views/approvals/requestCard.js";
import type { ApprovalSettings } from "../../../approvals/index.js";
import type { Logger } from "../../../log.js";
import type { OrderLifecycle } from "../../../orders/lifecycle.js";
import type { OrderRequests } from "../../../orders/requests.js";
import type { ListenerRegistry } from "../../listenerTable.js";
import { approveButton } from "./approveButton.js";
import { lookUpAgainButton } from "./lookUpAgainButton.js";
import { markFailedButton, placeAgainButton, retryButton } from "./recoveryButtons.js";
import { rejectButton } from "./rejectButton.js";
import { rejectReasonSubmitted } from "./rejectReasonSubmitted.js";
import { viewInApprovalsLink } from "./viewInApprovalsLink.js";

/** What the approvals listeners use, handed over by src/slack/listeners.ts. */
export interface ApprovalDeps {
  logger: Logger;
  approvals: ApprovalSettings;
  requests: OrderRequests;
  orders: OrderLifecycle;
  sandbox: boolean;
}

/**
 * Approvals in Slack: a submitted order becomes a request in the approvals channel; approvers
 * decide with buttons (there or in App Home); the decision moves the durable record
 * (src/approvals) atomically and queues the placement job, which places the order exactly once.
 */
export function registerApprovalListeners(app: ListenerRegistry, services: ApprovalDeps): void {
  app.action(ACTION_VIEW_IN_APPROVALS, viewInApprovalsLink());
  app.action(ACTION_APPROVE, approveButton(services));
  app.action(ACTION_RETRY, retryButton(services));
  app.action(ACTION_PLACE_AGAIN, placeAgainButton(services));
  app.action(ACTION_MARK_FAILED, markFailedButton(services));
  app.action(ACTION_LOOK_UP_AGAIN, lookUpAgainButton(services));
  app.action(ACTION_REJECT, rejectButton(services));
  app.view(VIEW_REJECT_REASON, rejectReasonSubmitted(services));
}
