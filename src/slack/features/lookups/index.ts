import type { BlockAction, ButtonAction } from "@slack/bolt";
import { ACTION_ORDER_TRACK } from "../../../../views/lookups/orders.js";
import type { Clock } from "../../../clock.js";
import type { Logger } from "../../../log.js";
import type { BackgroundJobs } from "../../../orders/index.js";
import type { OrderRequests } from "../../../orders/requests.js";
import type { ProviderApi } from "../../../provider/api.js";
import type { IdentityLookup } from "../../../provider/identity.js";
import type { OrderTracking } from "../../../usecases/orderLookup.js";
import type { ListenerRegistry } from "../../listenerTable.js";
import { onTrackOrder } from "./trackOrderButton.js";

export interface LookupListenerOptions {
  /** The order tracker of the background jobs, when they run in this process. */
  orderTracking?: OrderTracking;
}

/** What the lookups listeners use, handed over by src/slack/listeners.ts. */
export interface LookupDeps {
  provider: ProviderApi;
  identity: IdentityLookup;
  logger: Logger;
  requests: OrderRequests;
  jobs: Pick<BackgroundJobs, "tracker">;
  clock: Clock;
  sandbox: boolean;
}

/** Listeners (buttons, options) that belong to the look-up commands. */
export function registerLookupListeners(
  app: ListenerRegistry,
  services: LookupDeps,
  options: LookupListenerOptions = {},
): void {
  app.action<BlockAction<ButtonAction>>(
    ACTION_ORDER_TRACK,
    onTrackOrder(services, options.orderTracking),
  );
}
