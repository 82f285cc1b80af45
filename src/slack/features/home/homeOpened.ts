import type { App } from "@slack/bolt";
import type { HomeDeps } from "./index.js";
import { homePublisher } from "./publish.js";

type HomeOpenedArgs = Parameters<Parameters<App["event"]>[1]>[0] & {
  event: { tab?: string; user: string };
};

/** `app_home_opened`: opening the Home tab publishes it at once. */
export function homeOpened(services: HomeDeps) {
  return async ({ event, client }: Pick<HomeOpenedArgs, "event" | "client">) => {
    // The Messages tab opens the same event; only the Home tab is ours to draw.
    if (event.tab !== "home") return;
    // Opening the tab starts on the first page of *My requests*, where a new failure or a new
    // request is: the page chosen last is kept only while the person pages (issue 32, item 22).
    await services.homePages?.set(event.user, 0).catch(() => undefined);
    await homePublisher(services, client)(event.user, 0).catch((error: unknown) =>
      services.logger.warn({ err: error, userId: event.user }, "App Home not published"),
    );
  };
}
