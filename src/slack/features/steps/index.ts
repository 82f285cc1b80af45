// Workflow Builder custom steps (issue 30): a command-less feature, one listener per step's
// callback id (manifest.yml `functions:`), served by `app.function` in HTTP and Socket Mode.
import type { App } from "@slack/bolt";
import type { WebClient } from "@slack/web-api";
import type { ApprovalSettings } from "../../../approvals/index.js";
import type { Logger } from "../../../log.js";
import type { OrderLifecycle } from "../../../orders/lifecycle.js";
import type { OrderRequests } from "../../../orders/requests.js";
import type { StepCompletions } from "../../../orders/stepCompletions.js";
import type { ProviderApi } from "../../../provider/api.js";
import type { IdentityLookup } from "../../../provider/identity.js";
import { slackDisplayName, slackGroupHandle, stepNamesOf } from "../../../stepWiring.js";
import { orderStatusListener } from "./orderStatusStep.js";
import { kitOrderSubmitter } from "./orderSubmitter.js";
import { priceLayer2Listener, pricePortListener } from "./priceSteps.js";
import { requestLayer2Listener, requestPortOrderListener } from "./requestSteps.js";

/** Every step's callback id, as manifest.yml defines it (test/manifest.test.ts compares). */
export const STEP_CALLBACK_IDS = [
  "price_port",
  "price_layer2",
  "request_port_order",
  "request_layer2_connection",
  "order_status",
] as const;

export type StepRegistry = Pick<App, "function">;

/** What the steps listeners use, handed over by src/slack/listeners.ts. */
export interface StepDeps {
  provider: ProviderApi;
  identity: IdentityLookup;
  logger: Logger;
  approvals: ApprovalSettings;
  requests: OrderRequests;
  orders: OrderLifecycle;
  currency: string;
  sandbox: boolean;
}

export function registerStepListeners(
  app: StepRegistry,
  services: StepDeps,
  deps: { client: WebClient; completions: StepCompletions },
): void {
  const submitter = kitOrderSubmitter(services, deps.client, deps.completions);
  // Looked up with the app's own token: a step's error names requesters as people read them.
  const names = stepNamesOf(slackDisplayName(deps.client), slackGroupHandle(deps.client));
  app.function("price_port", pricePortListener(services));
  app.function("price_layer2", priceLayer2Listener(services));
  app.function("request_port_order", requestPortOrderListener(services, submitter, names));
  app.function("request_layer2_connection", requestLayer2Listener(services, submitter, names));
  app.function("order_status", orderStatusListener(services));
}
