// The IO-D feature's listeners (the command itself is `command.ts`, in the handler table): one
// line per listener id here, the listeners in their files.
import { IOD_VIEW } from "../../../../views/iodModal.js";
import type { Services } from "../../../services.js";
import { registerFormChanges } from "../../kit/index.js";
import type { ListenerRegistry } from "../../listenerTable.js";
import { IOD_FORM_CHANGES, iodFormRebuilt } from "./formChanged.js";
import { iodFormSubmitted } from "./formSubmitted.js";

export function registerIodListeners(app: ListenerRegistry, services: Services): void {
  registerFormChanges(app, services, IOD_FORM_CHANGES, iodFormRebuilt(services));
  app.view(IOD_VIEW, iodFormSubmitted(services));
}
