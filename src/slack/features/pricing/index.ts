// Pricing's listeners: the data center options loads, the port form's data center change, the
// Enter acks of the layer 2 form's typed inputs, the pick buttons and the two form submissions.
// The commands themselves (command.ts) are in the main handler table (src/slack/commandTable.ts); the
// pick buttons and the port form re-run the inline command through the main router's `run`,
// injected here rather than rebuilt.

import type { BlockAction, ButtonAction, ExternalSelectAction } from "@slack/bolt";
import { ACTION_SHARE_L2_PRICE } from "../../../../views/orderThis.js";
import { ACTION_PRICE_PICK_DCF } from "../../../../views/pricing/pricing.js";
import {
  L2_PRICE_ACTIONS,
  PORT_PRICE_ACTIONS,
  PRICE_L2_VIEW,
  PRICE_PORT_VIEW,
} from "../../../../views/pricing/pricingModals.js";
import type { Logger } from "../../../log.js";
import type { Metrics } from "../../../metrics.js";
import type { ProviderApi } from "../../../provider/api.js";
import { DcfDirectory } from "../../../usecases/shared/dcfDirectory.js";
import { acknowledgeEnterIn, dcfOptionsLoad } from "../../kit/index.js";
import type { ListenerRegistry } from "../../listenerTable.js";
import { l2FormSubmitted } from "./l2FormSubmitted.js";
import { l2PriceShareButton } from "./l2ShareButton.js";
import { pricePickButton } from "./pickButton.js";
import { portDcfChanged } from "./portDcfChanged.js";
import { portFormSubmitted } from "./portFormSubmitted.js";
import type { RunCommand } from "./reinvoke.js";

/** What the pricing listeners use, handed over by src/slack/listeners.ts. */
export interface PricingDeps {
  provider: ProviderApi;
  logger: Logger;
  metrics: Metrics;
  currency: string;
  sandbox: boolean;
}

export function registerPricingListeners(
  app: ListenerRegistry,
  services: PricingDeps,
  run: RunCommand,
): void {
  // One directory for the feature: a DCF the options load found is there for the pick.
  const directory = new DcfDirectory(services.provider);
  const options = dcfOptionsLoad(directory, services);
  for (const actionId of [
    PORT_PRICE_ACTIONS.dcf,
    L2_PRICE_ACTIONS.srcDcf,
    L2_PRICE_ACTIONS.destDcf,
  ]) {
    app.options(actionId, options);
  }
  acknowledgeEnterIn(app, [L2_PRICE_ACTIONS.bandwidth, L2_PRICE_ACTIONS.duration]);
  app.action<BlockAction<ExternalSelectAction>>(
    PORT_PRICE_ACTIONS.dcf,
    portDcfChanged(directory, services),
  );
  app.action<BlockAction<ButtonAction>>(ACTION_PRICE_PICK_DCF, pricePickButton(run));
  app.view(PRICE_PORT_VIEW, portFormSubmitted(directory, services, run));
  app.view(PRICE_L2_VIEW, l2FormSubmitted(directory, services));
  app.action<BlockAction<ButtonAction>>(ACTION_SHARE_L2_PRICE, l2PriceShareButton(services));
}
