import { type Outbox, type OutboxItem, parseItem, type SlackChatApi } from "../../jobs/index.js";
import type { MessageRenderer } from "../../orders/index.js";
import type { SendOutcome } from "./slackDelivery.js";
import { classifySlackError, classifySlackResult } from "./slackFailure.js";

/**
 * Sending a kept message's update (src/jobs/notifier/renderedUpdate.ts: a `render` item carries
 * no view): rendered now by src/orders' renderer (`requestMessageRenderer`, the read model worded
 * by views/), then `chat.update`d. The render port is src/orders' type, called down from here.
 */

/**
 * Renders a `render` item's message from the state now and updates it. Its marker goes first,
 * so a change from now on queues the next update (this one may read the state just before it).
 */
export async function sendRendered(
  outbox: Outbox,
  slack: SlackChatApi,
  render: MessageRenderer | undefined,
  item: OutboxItem,
): Promise<SendOutcome> {
  await outbox.unmark(item);
  if (!render || !item.r || !item.ts) {
    return { kind: "permanent", error: "no_renderer", detail: "nothing renders this message" };
  }
  try {
    const view = await render(item.r);
    if (!view) return { kind: "permanent", error: "nothing_to_render", detail: item.r };
    const result = await slack.update({
      channel: item.ch,
      ts: item.ts,
      text: view.text,
      ...(view.blocks ? { blocks: view.blocks } : {}),
    });
    return classifySlackResult(result) ?? { kind: "sent", ts: item.ts };
  } catch (error) {
    return classifySlackError(error);
  }
}

/** What sends a burst: the outbox, Slack's chat, the render port. */
export interface BurstSender {
  outbox: Outbox;
  slack: SlackChatApi;
  render: MessageRenderer | undefined;
}

/** One update of a burst: its entry as stored, its item, what came of sending it. */
export interface BurstUpdate {
  raw: string;
  item: OutboxItem;
  outcome: SendOutcome;
}

/**
 * Sends the next burst of kept messages' updates together: the first `max` entries of
 * `outboxName`, at most one per message (two updates of one message sent at once could land in
 * either order, the older state last; the second waits for the next burst). Entries that are not
 * readable updates are given back to be dropped. Nothing is removed here: the caller settles each
 * update as its outcome says.
 */
export async function sendBurst(
  sender: BurstSender,
  outboxName: string,
  max: number,
): Promise<{ sent: BurstUpdate[]; unreadable: string[] }> {
  const { outbox, slack, render } = sender;
  const burst: Array<{ raw: string; item: OutboxItem }> = [];
  const unreadable: string[] = [];
  const messages = new Set<string>();
  for (const raw of await outbox.first(outboxName, max)) {
    const item = parseItem(raw);
    if (item?.op !== "render") {
      unreadable.push(raw);
      continue;
    }
    const message = `${item.ch} ${item.ts}`;
    if (messages.has(message)) continue;
    messages.add(message);
    burst.push({ raw, item });
  }
  const sent = await Promise.all(
    burst.map(async ({ raw, item }) => ({
      raw,
      item,
      outcome: await sendRendered(outbox, slack, render, item),
    })),
  );
  return { sent, unreadable };
}
