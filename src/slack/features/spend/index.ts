import type { BlockAction, ButtonAction } from "@slack/bolt";
import { SPEND_EXPORT_BUTTON } from "../../../../views/spend/spend.js";
import type { ApprovalSettings } from "../../../approvals/index.js";
import type { Logger } from "../../../log.js";
import type { OrderLifecycle } from "../../../orders/lifecycle.js";
import type { OrderRequests } from "../../../orders/requests.js";
import type { ListenerRegistry } from "../../listenerTable.js";
import { exportButton } from "./exportButton.js";

/** What the spend listeners use, handed over by src/slack/listeners.ts. */
export interface SpendDeps {
  logger: Logger;
  approvals: ApprovalSettings;
  requests: OrderRequests;
  orders: OrderLifecycle;
  currency: string;
  sandbox: boolean;
}

/** The spend ledger's Export CSV button. */
export function registerSpendListeners(app: ListenerRegistry, services: SpendDeps): void {
  app.action<BlockAction<ButtonAction>>(SPEND_EXPORT_BUTTON, exportButton(services));
}
