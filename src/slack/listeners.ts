import type { App } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import type { StepCompletions } from "../orders/stepCompletions.js";
import type { Services } from "../services.js";
import { commandHandlers } from "./commandTable.js";
import { createConnectRouter } from "./connect.js";
import { registerApprovalListeners } from "./features/approvals/index.js";
import { registerEdgeListeners } from "./features/edge/index.js";
import { registerHomeEvents, registerHomeListeners } from "./features/home/index.js";
import { registerIodListeners } from "./features/iod/index.js";
import { registerLayer2Listeners } from "./features/layer2/index.js";
import { registerLookupListeners } from "./features/lookups/index.js";
import { slackOrderTracking } from "./features/lookups/tracking.js";
import { registerPortOrderListeners } from "./features/portOrder/index.js";
import { registerPricingListeners } from "./features/pricing/index.js";
import { registerSpendListeners } from "./features/spend/index.js";
import { registerStepListeners } from "./features/steps/index.js";
import { registerWithdrawListeners } from "./features/withdraw/index.js";
import type { FollowUpLane } from "./followUps.js";
import { type ListenerRegistry, registerThroughTable } from "./listenerTable.js";

/** Wires every listener kind (commands, actions, views, options) onto the app. */
export function registerListeners(
  app: App,
  services: Services,
  client: WebClient,
  followUps: FollowUpLane,
  /** Workflow Builder steps: how a request's step is ended (absent: no steps served). */
  stepCompletions?: StepCompletions,
): void {
  registerThroughTable(app, (registry) => {
    const router = createConnectRouter(commandHandlers, services, followUps);
    router.register(registry);
    registerFeatures(registry, services, client);
    registerHomeListeners(registry, services, router.run);
    registerPricingListeners(registry, services, router.run);
  });
  registerHomeEvents(app, services);
  if (stepCompletions)
    registerStepListeners(app, services, { client, completions: stepCompletions });
}

function registerFeatures(app: ListenerRegistry, services: Services, client: WebClient): void {
  registerLookupListeners(app, services, {
    orderTracking: slackOrderTracking(services, client),
  });
  registerApprovalListeners(app, services);
  registerWithdrawListeners(app, services);
  registerPortOrderListeners(app, services);
  registerLayer2Listeners(app, services);
  registerIodListeners(app, services);
  registerEdgeListeners(app, services);
  registerSpendListeners(app, services);
}
