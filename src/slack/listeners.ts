import type { App } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import type { Services } from "../services.js";
import { registerApprovalListeners } from "./approvals.js";
import { commandHandlers } from "./commands/index.js";
import { registerIodListeners } from "./commands/iod.js";
import { registerLayer2Listeners } from "./commands/layer2.js";
import { registerLookupListeners } from "./commands/lookups.js";
import { registerPortOrderListeners } from "./commands/portOrder.js";
import { registerPricingListeners } from "./commands/pricing.js";
import { registerSpendListeners } from "./commands/spend.js";
import { createConnectRouter } from "./connect.js";
import { registerEdgeListeners } from "./features/edge/index.js";

import type { FollowUpLane } from "./followUps.js";
import { registerHomeEvents, registerHomeListeners } from "./home.js";

import { type ListenerRegistry, registerThroughTable } from "./listenerTable.js";

import { slackOrderTracking } from "./tracking.js";

import { registerWithdrawListeners } from "./withdraw.js";

/** Wires every listener kind (commands, actions, views, options) onto the app. */
export function registerListeners(
  app: App,
  services: Services,
  client: WebClient,
  followUps: FollowUpLane,
): void {
  registerThroughTable(app, (registry) => {
    const router = createConnectRouter(commandHandlers, services, followUps);
    router.register(registry);
    registerFeatures(registry, services, client);
    registerHomeListeners(registry, services, router.run);
  });
  registerHomeEvents(app, services);
}

function registerFeatures(app: ListenerRegistry, services: Services, client: WebClient): void {
  registerLookupListeners(app, services, {
    orderTracking: slackOrderTracking(services, client),
  });
  registerPricingListeners(app, services);
  registerApprovalListeners(app, services);
  registerWithdrawListeners(app, services);
  registerPortOrderListeners(app, services);
  registerLayer2Listeners(app, services);
  registerIodListeners(app, services);
  registerEdgeListeners(app, services);
  registerSpendListeners(app, services);
}
