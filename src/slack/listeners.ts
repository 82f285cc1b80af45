import type { App } from "@slack/bolt";
import type { Services } from "../services.js";
import { registerApprovalListeners } from "./approvals.js";
import { registerEdgeQuoteListeners } from "./commands/edgeQuote.js";
import { commandHandlers } from "./commands/index.js";
import { registerIodListeners } from "./commands/iod.js";
import { registerLayer2Listeners } from "./commands/layer2.js";
import { registerLookupListeners } from "./commands/lookups.js";
import { registerPortOrderListeners } from "./commands/portOrder.js";
import { registerPricingListeners } from "./commands/pricing.js";
import { createConnectRouter } from "./connect.js";
import { slackOrderTracking } from "./tracking.js";

/** Wires every listener kind (commands, actions, views, options) onto the app. */
export function registerListeners(app: App, services: Services): void {
  createConnectRouter(commandHandlers, services).register(app);
  registerLookupListeners(app, services, {
    orderTracking: slackOrderTracking(services, app.client),
  });
  registerPricingListeners(app, services);
  registerApprovalListeners(app, services);
  registerPortOrderListeners(app, services);
  registerLayer2Listeners(app, services);
  registerIodListeners(app, services);
  registerEdgeQuoteListeners(app, services);
}
