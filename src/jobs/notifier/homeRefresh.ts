import { isSlackUserId, MAX_USER_ID } from "../../domain/slackIds.js";
import { NotifierInputError } from "./notifierInput.js";
import type { OutboxItem } from "./outbox.js";

/**
 * App Home refreshes, debounced per person: one outbox per person (`home<userId>`) holding at
 * most one waiting refresh (scope `home:<userId>`, key `refresh`, queued like a message, so a
 * second change while one waits is a duplicate). The item carries no view: the drain's App Home
 * publisher (src/workers/notifier/homePublish.ts, with src/orders/appHome.ts) renders the
 * person's Home from the state when it is sent, so a burst of changes is one `views.publish`.
 * The drain paces the person's outbox by the debounce window.
 */

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
  if (typeof userId !== "string" || !isSlackUserId(userId) || userId.length > MAX_USER_ID) {
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
