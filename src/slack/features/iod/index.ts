// The IO-D feature's listeners (the command itself is `command.ts`, in the handler table): one
// line per listener id here, the listeners in their files.
import { IOD_VIEW } from "../../../../views/iod/iodModal.js";
import type { ApprovalSettings } from "../../../approvals/index.js";
import type { Logger } from "../../../log.js";
import type { Metrics } from "../../../metrics.js";
import type { OrderLifecycle } from "../../../orders/lifecycle.js";
import type { OrderRequests } from "../../../orders/requests.js";
import type { ProviderApi } from "../../../provider/api.js";
import type { IdentityLookup } from "../../../provider/identity.js";
import { registerFormChanges } from "../../kit/index.js";
import type { ListenerRegistry } from "../../listenerTable.js";
import { IOD_FORM_CHANGES, iodFormRebuilt } from "./formChanged.js";
import { iodFormSubmitted } from "./formSubmitted.js";

/** What the iod listeners use, handed over by src/slack/listeners.ts. */
export interface IodDeps {
  provider: ProviderApi;
  identity: IdentityLookup;
  logger: Logger;
  approvals: ApprovalSettings;
  metrics: Metrics;
  requests: OrderRequests;
  orders: OrderLifecycle;
  sandbox: boolean;
}

export function registerIodListeners(app: ListenerRegistry, services: IodDeps): void {
  registerFormChanges(app, services, IOD_FORM_CHANGES, iodFormRebuilt(services));
  app.view(IOD_VIEW, iodFormSubmitted(services));
}
