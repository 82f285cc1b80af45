// `/connect port order`, the feature: the command (command.ts) and the listeners of its form,
// one file each. The work is in src/usecases/portOrder/ (form.ts, check.ts and
// submission.ts); what people see is views/portOrder/portOrderModal.ts.
import type { BlockAction, ButtonAction } from "@slack/bolt";
import { ACTION_ORDER_THIS_PORT } from "../../../../views/orderThis.js";
import { PORT_ORDER_ACTIONS, PORT_ORDER_VIEW } from "../../../../views/portOrder/portOrderModal.js";
import { DcfDirectory } from "../../../usecases/shared/dcfDirectory.js";
import { acknowledgeEnterIn, dcfOptionsLoad, type OrderFormDeps } from "../../kit/index.js";
import type { ListenerRegistry } from "../../listenerTable.js";
import { portOrderFormChanged } from "./formChanged.js";
import { portOrderFormSubmitted } from "./formSubmitted.js";
import { orderThisPort } from "./orderThisButton.js";

/** What the portOrder listeners use, handed over by src/slack/listeners.ts. */
export interface PortOrderDeps extends OrderFormDeps {
  currency: string;
}

/** Listeners (modal submission, options loads, changes, the Order this button) of the form. */
export function registerPortOrderListeners(app: ListenerRegistry, services: PortOrderDeps): void {
  // One short cache of the data centers for the options, the preview and Order this.
  const directory = new DcfDirectory(services.provider);
  app.options(PORT_ORDER_ACTIONS.dcf, dcfOptionsLoad(directory, services));
  acknowledgeEnterIn(app, [PORT_ORDER_ACTIONS.portName]);
  app.action<BlockAction<ButtonAction>>(ACTION_ORDER_THIS_PORT, orderThisPort(services, directory));
  const formChanged = portOrderFormChanged(services, directory);
  for (const actionId of [
    PORT_ORDER_ACTIONS.dcf,
    PORT_ORDER_ACTIONS.speed,
    PORT_ORDER_ACTIONS.term,
  ]) {
    app.action<BlockAction>(actionId, formChanged);
  }
  app.view(PORT_ORDER_VIEW, portOrderFormSubmitted(services));
}
