// The IO-D feature's listeners (the command itself is `command.ts`, in the handler table).
import type { Services } from "../../../services.js";
import type { ListenerRegistry } from "../../listenerTable.js";
import { registerIodFormChanged } from "./formChanged.js";
import { registerIodFormSubmitted } from "./formSubmitted.js";

export function registerIodListeners(app: ListenerRegistry, services: Services): void {
  registerIodFormChanged(app, services);
  registerIodFormSubmitted(app, services);
}
