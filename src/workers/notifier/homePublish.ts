import type { Outbox, OutboxItem } from "../../jobs/index.js";
import type { AppHomePublisher } from "../../orders/appHome.js";
import type { SendOutcome } from "./slackDelivery.js";
import { classifySlackError, classifySlackResult } from "./slackFailure.js";

/**
 * Sending a person's App Home refresh (src/jobs/notifier/homeRefresh.ts: the item carries no
 * view): src/orders' publisher (appHome.ts) renders the Home from the state now and publishes it.
 */

/**
 * Publishes the Home of a `home` item's person. Its marker goes first, so a change from now
 * on queues the next refresh (this one may have read the state just before that change).
 */
export async function publishHome(
  outbox: Outbox,
  home: AppHomePublisher | undefined,
  item: OutboxItem,
): Promise<SendOutcome> {
  await outbox.unmark(item);
  if (!home || !item.u) {
    return { kind: "permanent", error: "no_home_publisher", detail: "App Home is not set up" };
  }
  try {
    const result = await home(item.u);
    return classifySlackResult(result) ?? { kind: "sent", ts: undefined };
  } catch (error) {
    return classifySlackError(error);
  }
}
