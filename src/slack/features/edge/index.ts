// The Edge feature (`/connect edge quote`, the quote's and the drafts' buttons, the Edge modals):
// one line per listener id here, the listeners in their files (one per listener or per small
// group on the same form or message). The command handler is ./command.ts. What the quote poller
// and the draft reminders post is src/orders/edge/callbacks.ts', wired in src/bot.ts (src/workers
// calls it): a job never calls into the adapter.
import type { BlockAction, ButtonAction } from "@slack/bolt";
import { EDGE_DRAFT_BUTTONS } from "../../../../views/edge/edgeDrafts.js";
import {
  EDGE_DISCOUNT_VIEW,
  EDGE_ENTER_ONLY_INPUTS,
  EDGE_ORDER_VIEW,
  EDGE_QUOTE_INPUTS,
  EDGE_QUOTE_VIEW,
  EDGE_RENAME_VIEW,
} from "../../../../views/edge/edgeModals.js";
import { EDGE_QUOTE_BUTTONS } from "../../../../views/edge/edgeQuote.js";
import type { ApprovalSettings } from "../../../approvals/index.js";
import type { Clock } from "../../../clock.js";
import type { Jobs } from "../../../jobs/index.js";
import type { Logger } from "../../../log.js";
import type { OrderLifecycle } from "../../../orders/lifecycle.js";
import type { OrderRequests } from "../../../orders/requests.js";
import type { ProviderApi } from "../../../provider/api.js";
import type { IdentityLookup } from "../../../provider/identity.js";
import { acknowledgeEnterIn } from "../../kit/index.js";
import type { ListenerRegistry } from "../../listenerTable.js";
import { discountSubmitted } from "./discountSubmitted.js";
import {
  deleteDraftButton,
  orderDraftButton,
  renameDraftButton,
  requoteDraftButton,
} from "./draftButtons.js";
import { edgeOrderSubmitted } from "./orderSubmitted.js";
import {
  discountButton,
  orderQuoteButton,
  retryQuoteButton,
  saveDraftButton,
  supportButton,
  tenGigButton,
} from "./quoteButtons.js";
import { quoteCountryChanged, quoteCountryOptions, quoteFormSubmitted } from "./quoteForm.js";
import { renameSubmitted } from "./renameSubmitted.js";
import { edgeSources } from "./sources.js";

/** What the edge listeners use, handed over by src/slack/listeners.ts. */
export interface EdgeDeps {
  provider: ProviderApi;
  identity: IdentityLookup;
  logger: Logger;
  approvals: ApprovalSettings;
  requests: OrderRequests;
  orders: OrderLifecycle;
  jobs: Jobs;
  clock: Clock;
  currency: string;
  sandbox: boolean;
}

/** Listeners (modal submissions, options loads, buttons) of `/connect edge quote` and drafts. */
export function registerEdgeListeners(app: ListenerRegistry, services: EdgeDeps): void {
  acknowledgeEnterIn(app, EDGE_ENTER_ONLY_INPUTS);
  // One short cache of the provider's lists and the quotes' requests, shared by the listeners.
  const sources = edgeSources(services);
  type Button = BlockAction<ButtonAction>;

  app.action(EDGE_QUOTE_INPUTS.country, quoteCountryChanged(services, sources));
  app.options(EDGE_QUOTE_INPUTS.country, quoteCountryOptions(services, sources));
  app.view(EDGE_QUOTE_VIEW, quoteFormSubmitted(services, sources));

  app.action<Button>(EDGE_QUOTE_BUTTONS.order, orderQuoteButton(services, sources));
  app.action<Button>(EDGE_QUOTE_BUTTONS.discount, discountButton(services));
  app.action<Button>(EDGE_QUOTE_BUTTONS.saveDraft, saveDraftButton(services, sources));
  app.action<Button>(EDGE_QUOTE_BUTTONS.tenGig, tenGigButton(services, sources));
  app.action<Button>(EDGE_QUOTE_BUTTONS.support, supportButton(services, sources));
  app.action<Button>(EDGE_QUOTE_BUTTONS.retry, retryQuoteButton(services, sources));

  app.view(EDGE_DISCOUNT_VIEW, discountSubmitted(services, sources));
  app.view(EDGE_ORDER_VIEW, edgeOrderSubmitted(services, sources));

  app.action<Button>(EDGE_DRAFT_BUTTONS.order, orderDraftButton(services, sources));
  app.action<Button>(EDGE_DRAFT_BUTTONS.requote, requoteDraftButton(services, sources));
  app.action<Button>(EDGE_DRAFT_BUTTONS.rename, renameDraftButton(services));
  app.action<Button>(EDGE_DRAFT_BUTTONS.delete, deleteDraftButton(services));
  app.view(EDGE_RENAME_VIEW, renameSubmitted(services));
}
