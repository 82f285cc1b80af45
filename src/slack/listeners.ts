import type { App } from "@slack/bolt";
import type { Services } from "../services.js";
import { registerApprovalListeners } from "./approvals.js";
import { commandHandlers } from "./commands/index.js";
import { registerLookupListeners } from "./commands/lookups.js";
import { registerPricingListeners } from "./commands/pricing.js";
import { createConnectRouter } from "./connect.js";

/** Wires every listener kind (commands, actions, views, options) onto the app. */
export function registerListeners(app: App, services: Services): void {
  createConnectRouter(commandHandlers, services).register(app);
  registerLookupListeners(app, services);
  registerPricingListeners(app, services);
  registerApprovalListeners(app, services);
}
