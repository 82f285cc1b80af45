// The IO-D feature's listeners (the command itself is `command.ts`, in the handler table): one
// line per listener id here, the listeners in their files.
import { IOD_VIEW } from "../../../../views/iod/iodModal.js";
import { type OrderFormDeps, registerFormChanges } from "../../kit/index.js";
import type { ListenerRegistry } from "../../listenerTable.js";
import { IOD_FORM_CHANGES, iodFormRebuilt } from "./formChanged.js";
import { iodFormSubmitted } from "./formSubmitted.js";

/** What the iod listeners use, handed over by src/slack/listeners.ts. */
export type IodDeps = OrderFormDeps;

export function registerIodListeners(app: ListenerRegistry, services: IodDeps): void {
  registerFormChanges(app, services, IOD_FORM_CHANGES, iodFormRebuilt(services));
  app.view(IOD_VIEW, iodFormSubmitted(services));
}
