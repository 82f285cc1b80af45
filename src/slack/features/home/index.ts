import type { App } from "@slack/bolt";
import { ACTION_HOME_PAGE, ACTION_HOME_QUICK } from "../../../../views/home/home.js";
import type { Logger } from "../../../log.js";
import type { HomePages } from "../../../orders/appHome.js";
import type { ListenerRegistry } from "../../listenerTable.js";
import { homeOpened } from "./homeOpened.js";
import { pageButtons } from "./pageButtons.js";
import type { homePublisher } from "./publish.js";
import { quickActions, type RunCommand } from "./quickActions.js";

/**
 * What the Home listeners use: what publishing a Home takes (publish.ts says), the page each
 * person is on, and the log.
 */
export type HomeDeps = Parameters<typeof homePublisher>[0] & {
  homePages?: HomePages;
  logger: Logger;
};

/**
 * App Home: opening the tab publishes it; *Older* / *Newer* publish another page; quick actions
 * run the `/connect` command they name. Approve / Reject / Withdraw in Home are the approval
 * message's and the confirmation's own buttons (features/approvals, features/withdraw).
 */
export function registerHomeListeners(
  app: ListenerRegistry,
  services: HomeDeps,
  run: RunCommand,
): void {
  app.action(new RegExp(`^${ACTION_HOME_PAGE}_`), pageButtons(services));
  app.action(new RegExp(`^${ACTION_HOME_QUICK}_`), quickActions(run));
}

/** `app_home_opened`: Bolt's event listener (events are not in the listener table). */
export function registerHomeEvents(app: Pick<App, "event">, services: HomeDeps): void {
  app.event("app_home_opened", homeOpened(services));
}
