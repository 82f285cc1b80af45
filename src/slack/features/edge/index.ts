// The Edge feature (`/connect edge quote`, the quote's and the drafts' buttons, the Edge modals):
// its listeners, one file per listener or per small group on the same form, registered here.
// The command handler is ./command.ts; the jobs' collaborators (quote poller, draft reminders)
// are ./callbacks.ts, wired in src/bot.ts.
import { EDGE_ENTER_ONLY_INPUTS } from "../../../../views/edgeModals.js";
import type { Services } from "../../../services.js";
import { acknowledgeEnterIn } from "../../kit/index.js";
import type { ListenerRegistry } from "../../listenerTable.js";
import { registerDiscountSubmitted } from "./discountSubmitted.js";
import { registerDraftButtons } from "./draftButtons.js";
import { registerOrderSubmitted } from "./orderSubmitted.js";
import { registerQuoteButtons } from "./quoteButtons.js";
import { registerQuoteForm } from "./quoteForm.js";
import { registerRenameSubmitted } from "./renameSubmitted.js";
import { edgeSources } from "./sources.js";

/** Listeners (modal submissions, options loads, buttons) of `/connect edge quote` and drafts. */
export function registerEdgeListeners(app: ListenerRegistry, services: Services): void {
  acknowledgeEnterIn(app, EDGE_ENTER_ONLY_INPUTS);
  const sources = edgeSources(services);
  registerQuoteForm(app, services, sources);
  registerQuoteButtons(app, services, sources);
  registerDiscountSubmitted(app, services, sources);
  registerOrderSubmitted(app, services, sources);
  registerDraftButtons(app, services, sources);
  registerRenameSubmitted(app, services);
}
