import { ACTION_WITHDRAW } from "../../../../views/approvals.js";
import type { Services } from "../../../services.js";
import type { ListenerRegistry } from "../../listenerTable.js";
import { withdrawButton } from "./withdrawButton.js";

/** The requester's Withdraw: one action id, one listener, wherever the button is shown. */
export function registerWithdrawListeners(app: ListenerRegistry, services: Services): void {
  app.action(ACTION_WITHDRAW, withdrawButton(services));
}
