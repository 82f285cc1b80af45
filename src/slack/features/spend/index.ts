import type { BlockAction, ButtonAction } from "@slack/bolt";
import { SPEND_EXPORT_BUTTON } from "../../../../views/spend.js";
import type { Services } from "../../../services.js";
import type { ListenerRegistry } from "../../listenerTable.js";
import { exportButton } from "./exportButton.js";

/** The spend ledger's Export CSV button. */
export function registerSpendListeners(app: ListenerRegistry, services: Services): void {
  app.action<BlockAction<ButtonAction>>(SPEND_EXPORT_BUTTON, exportButton(services));
}
