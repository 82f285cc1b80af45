import type { App } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import type { StepCompletions } from "../orders/stepCompletions.js";
import { type CommandDeps, commandHandlers } from "./commandTable.js";
import { createConnectRouter, type RouterDeps } from "./connect.js";
import { type ApprovalDeps, registerApprovalListeners } from "./features/approvals/index.js";
import { type EdgeDeps, registerEdgeListeners } from "./features/edge/index.js";
import { type HomeDeps, registerHomeEvents, registerHomeListeners } from "./features/home/index.js";
import { type IodDeps, registerIodListeners } from "./features/iod/index.js";
import { type Layer2Deps, registerLayer2Listeners } from "./features/layer2/index.js";
import { type LookupDeps, registerLookupListeners } from "./features/lookups/index.js";
import { slackOrderTracking } from "./features/lookups/tracking.js";
import { type PortOrderDeps, registerPortOrderListeners } from "./features/portOrder/index.js";
import { type PricingDeps, registerPricingListeners } from "./features/pricing/index.js";
import { registerSpendListeners, type SpendDeps } from "./features/spend/index.js";
import { registerStepListeners, type StepDeps } from "./features/steps/index.js";
import { registerWithdrawListeners, type WithdrawDeps } from "./features/withdraw/index.js";
import type { FollowUpLane } from "./followUps.js";
import { type ListenerRegistry, registerThroughTable } from "./listenerTable.js";

/**
 * What the listeners use: each feature's own deps type, so one object built by src/bot.ts can
 * hand each feature its parts (structural typing: no feature sees another's).
 */
export type ListenerDeps = RouterDeps &
  CommandDeps &
  LookupDeps &
  ApprovalDeps &
  WithdrawDeps &
  PortOrderDeps &
  Layer2Deps &
  IodDeps &
  EdgeDeps &
  SpendDeps &
  HomeDeps &
  PricingDeps &
  StepDeps;

/** Wires every listener kind (commands, actions, views, options) onto the app. */
export function registerListeners(
  app: App,
  services: ListenerDeps,
  client: WebClient,
  followUps: FollowUpLane,
  /** Workflow Builder steps: how a request's step is ended (absent: no steps served). */
  stepCompletions?: StepCompletions,
): void {
  registerThroughTable(app, (registry) => {
    const router = createConnectRouter(commandHandlers(services), services, followUps);
    router.register(registry);
    registerFeatures(registry, services, client);
    registerHomeListeners(registry, services, router.run);
    registerPricingListeners(registry, services, router.run);
  });
  registerHomeEvents(app, services);
  if (stepCompletions)
    registerStepListeners(app, services, { client, completions: stepCompletions });
}

function registerFeatures(app: ListenerRegistry, services: ListenerDeps, client: WebClient): void {
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
