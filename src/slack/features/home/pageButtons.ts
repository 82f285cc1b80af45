import type { App } from "@slack/bolt";
import type { HomeDeps } from "./index.js";
import { homePublisher } from "./publish.js";

type ActionArgs = Parameters<Parameters<App["action"]>[1]>[0];

/**
 * *Older* / *Newer* of *My requests*: publishes that page and remembers it, so the next refresh
 * keeps the person where they were. A forged page number shows the first page.
 */
export function pageButtons(services: HomeDeps) {
  return async ({ ack, body, action, client }: ActionArgs) => {
    await ack();
    if (body.type !== "block_actions" || !("value" in action)) return;
    const asked = Number(action.value);
    const page = Number.isInteger(asked) && asked >= 0 ? asked : 0;
    try {
      await services.homePages?.set(body.user.id, page);
      await homePublisher(services, client)(body.user.id, page);
    } catch (error) {
      services.logger.warn({ err: error }, "App Home page not published");
    }
  };
}
