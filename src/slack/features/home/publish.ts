import type { WebClient } from "@slack/web-api";
import type { ApprovalSettings } from "../../../approvals/index.js";
import {
  type AppHomeParts,
  type AppHomePublisher,
  appHomePublisher,
  type HomePages,
} from "../../../orders/appHome.js";
import { groupMembersVia } from "../../../slackDirectory.js";

/**
 * Publishing a person's App Home from a listener (opening the tab, paging), with the listener's
 * own client: the same renderer the notifier's refreshes use (src/orders/appHome.ts, built by
 * src/bot.ts before the jobs). Who is refreshed on a change is the lifecycle's
 * (src/orders/homeAudience.ts), never this folder's.
 */
/** What a listener's Home publish takes: the parts of src/orders/appHome.ts the bot holds. */
export interface HomePublisherDeps {
  approvals: ApprovalSettings;
  orders: { readMany: AppHomeParts["read"] };
  jobs: { tracker: AppHomeParts["tracked"] };
  homePages?: HomePages;
  sandbox: boolean;
  currency: string;
}

export function homePublisher(services: HomePublisherDeps, client: WebClient): AppHomePublisher {
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
