// The layer 2 feature's listeners (the command itself is `command.ts`, in the handler table):
// one line per listener id here, the listeners in their files.
import { LAYER2_VIEW } from "../../../../views/layer2/layer2Modal.js";
import { ACTION_ORDER_THIS_L2 } from "../../../../views/orderThis.js";
import { type OrderFormDeps, registerFormChanges } from "../../kit/index.js";
import type { ListenerRegistry } from "../../listenerTable.js";
import { LAYER2_FORM_CHANGES, layer2FormRebuilt } from "./formChanged.js";
import { layer2FormSubmitted } from "./formSubmitted.js";
import { layer2OrderThisButton } from "./orderThisButton.js";

/** What the layer2 listeners use, handed over by src/slack/listeners.ts. */
export interface Layer2Deps extends OrderFormDeps {
  currency: string;
}

export function registerLayer2Listeners(app: ListenerRegistry, services: Layer2Deps): void {
  app.action(ACTION_ORDER_THIS_L2, layer2OrderThisButton(services));
  registerFormChanges(app, services, LAYER2_FORM_CHANGES, layer2FormRebuilt(services));
  app.view(LAYER2_VIEW, layer2FormSubmitted(services));
}
