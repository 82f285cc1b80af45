// The layer 2 feature's listeners (the command itself is `command.ts`, in the handler table).
import { ACTION_ORDER_THIS_L2 } from "../../../../views/orderThis.js";
import type { Services } from "../../../services.js";
import type { ListenerRegistry } from "../../listenerTable.js";
import { registerLayer2FormChanged } from "./formChanged.js";
import { registerLayer2FormSubmitted } from "./formSubmitted.js";
import { layer2OrderThisButton } from "./orderThisButton.js";

export function registerLayer2Listeners(app: ListenerRegistry, services: Services): void {
  app.action(ACTION_ORDER_THIS_L2, layer2OrderThisButton(services));
  registerLayer2FormChanged(app, services);
  registerLayer2FormSubmitted(app, services);
}
