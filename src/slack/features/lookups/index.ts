import type { BlockAction, ButtonAction } from "@slack/bolt";
import { ACTION_ORDER_TRACK } from "../../../../views/orders.js";
import type { Services } from "../../../services.js";
import type { OrderTracking } from "../../../usecases/orderLookup.js";
import type { ListenerRegistry } from "../../listenerTable.js";
import { onTrackOrder } from "./trackOrderButton.js";

export interface LookupListenerOptions {
  /** The order tracker of the background jobs, when they run in this process. */
  orderTracking?: OrderTracking;
}

/** Listeners (buttons, options) that belong to the look-up commands. */
export function registerLookupListeners(
  app: ListenerRegistry,
  services: Services,
  options: LookupListenerOptions = {},
): void {
  app.action<BlockAction<ButtonAction>>(
    ACTION_ORDER_TRACK,
    onTrackOrder(services, options.orderTracking),
  );
}
