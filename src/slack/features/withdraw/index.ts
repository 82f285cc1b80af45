import { ACTION_WITHDRAW } from "../../../../views/approvals/approvals.js";
import type { Logger } from "../../../log.js";
import type { OrderRequests } from "../../../orders/requests.js";
import type { ListenerRegistry } from "../../listenerTable.js";
import { withdrawButton } from "./withdrawButton.js";

/** What the withdraw listeners use, handed over by src/slack/listeners.ts. */
export interface WithdrawDeps {
  logger: Logger;
  requests: OrderRequests;
  sandbox: boolean;
}

/** The requester's Withdraw: one action id, one listener, wherever the button is shown. */
export function registerWithdrawListeners(app: ListenerRegistry, services: WithdrawDeps): void {
  app.action(ACTION_WITHDRAW, withdrawButton(services));
}
