import type { WebClient } from "@slack/web-api";
import { type AppHomePublisher, appHomePublisher } from "../../../orders/appHome.js";
import type { Services } from "../../../services.js";
import { groupMembersVia } from "../../../slackDirectory.js";

/**
 * Publishing a person's App Home from a listener (opening the tab, paging), with the listener's
 * own client: the same renderer the notifier's refreshes use (src/orders/appHome.ts, built by
 * src/bot.ts before the jobs). Who is refreshed on a change is the lifecycle's
 * (src/orders/homeAudience.ts), never this folder's.
 */
export function homePublisher(services: Services, client: WebClient): AppHomePublisher {
  return appHomePublisher({
    store: services.approvals.store,
    read: (records) => services.orders.readMany(records),
    tracked: services.jobs.tracker,
    settings: services.approvals,
    groupMembers: groupMembersVia(client),
    ...(services.homePages ? { pages: services.homePages } : {}),
    sandbox: services.sandbox,
    currency: services.currency,
    publish: (userId, view) => client.views.publish({ user_id: userId, view }),
  });
}
