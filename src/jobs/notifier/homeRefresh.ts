import { NotifierInputError } from "./notifierInput.js";
import type { Outbox, OutboxItem } from "./outbox.js";
import type { SendOutcome } from "./slackDelivery.js";
import { classifySlackError, classifySlackResult } from "./slackFailure.js";

/**
 * App Home refreshes, debounced per person: one outbox per person (`home<userId>`) holding at
 * most one waiting refresh (scope `home:<userId>`, key `refresh`, queued like a message, so a
 * second change while one waits is a duplicate). The item carries no view: the injected
 * publisher renders the person's Home from the state when it is sent, so a burst of changes is
 * one `views.publish`. The notifier paces the person's outbox by the debounce window.
 */

/**
 * Renders a person's App Home from the current state and publishes it (`views.publish`);
 * returns Slack's result (a 429 or `ok:false` is handled like a message's).
 */
export type HomePublisher = (userId: string) => Promise<unknown>;

const USER_PATTERN = /^[UW][A-Z0-9]{2,30}$/;
/** A Home refresh's key in its scope `home:<user>`: one waiting refresh per person. */
const HOME_KEY = "refresh";

/** The notifier scope of a person's App Home refreshes. */
export function homeScope(userId: string): string {
  return `home:${userId}`;
}

/** The outbox of a person's App Home (never a channel id: those start with C, D, G). */
export function homeOutbox(userId: string): string {
  return `home${userId}`;
}

/** The outbox item of a refresh of a person's Home. */
export function homeItem(userId: string): OutboxItem {
  if (typeof userId !== "string" || !USER_PATTERN.test(userId)) {
    throw new NotifierInputError("userId must be a Slack user ID");
  }
  return {
    sc: homeScope(userId),
    k: HOME_KEY,
    op: "home",
    ch: homeOutbox(userId),
    u: userId,
    text: "App Home",
    at: Date.now(),
  };
}

/**
 * Publishes the Home of a `home` item's person. Its marker goes first, so a change from now
 * on queues the next refresh (this one may have read the state just before that change).
 */
export async function publishHome(
  outbox: Outbox,
  home: HomePublisher | undefined,
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
