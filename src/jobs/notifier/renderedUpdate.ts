import { CHANNEL_ID, MESSAGE_TS } from "../slackIds.js";
import type { SlackBlock, SlackChatApi } from "./notifier.js";
import { NotifierInputError } from "./notifierInput.js";
import { type Outbox, type OutboxItem, parseItem } from "./outbox.js";
import type { SendOutcome } from "./slackDelivery.js";
import { classifySlackError, classifySlackResult } from "./slackFailure.js";

/**
 * A message kept showing the latest state (a request's approval message and its card): the
 * outbox holds at most one waiting update per message (scope and key as the caller names them,
 * op `render`), and the item carries no view, only what to render (`r`, e.g. `message:<id>`).
 * The injected renderer (src/orders: the read model, worded by views/) renders it when it is
 * sent, so the last update anyone sees shows the state as it is then, however many changes
 * queued before it and whoever made them. Like an App Home refresh (homeRefresh.ts), its marker
 * goes before rendering: a change from then on queues the next update.
 */

/** What a kept message shows: its fallback text and blocks, rendered when its update is sent. */
export interface RenderedMessage {
  text: string;
  blocks?: SlackBlock[];
}

/**
 * The notifier's render port: what a kept message shows now. The notifier declares it and calls
 * it when it sends the message's update; the owner of the messages implements it (src/orders:
 * `requestMessageRenderer`, the read model worded by views/) and hands it to startJobs
 * (`render`) when the notifier is built, never later. So only the call goes up: src/jobs imports
 * nothing of its implementer, which imports this type.
 * - `ref` is what `updateRendered` was given: `<what>:<id>`, e.g. `message:<request id>`.
 * - Undefined: nothing to show any more (the request is gone); the update is dropped, counted
 *   `dropped` with `nothing_to_render`.
 * - A throw (its store unreachable, say) is a transient failure: retried with backoff, the
 *   update still at the head of its outbox.
 */
export type MessageRenderer = (ref: string) => Promise<RenderedMessage | undefined>;

export interface RenderedUpdateInput {
  scope: string;
  /** One waiting update per key: a second one queued while the first waits is a duplicate. */
  key: string;
  channel: string;
  ts: string;
  /** What the renderer renders, e.g. `message:<request id>`. */
  ref: string;
}

const REF = /^[a-z]+:[A-Za-z0-9_.:-]{1,200}$/;

/** The outbox item of a rendered update, checked. */
export function renderedItem(input: RenderedUpdateInput): OutboxItem {
  const { scope, key, channel, ts, ref } = input;
  if (typeof scope !== "string" || scope.length === 0 || scope.length > 200) {
    throw new NotifierInputError("scope must be 1 to 200 characters");
  }
  if (typeof key !== "string" || key.length === 0 || key.length > 400) {
    throw new NotifierInputError("key must be 1 to 400 characters");
  }
  if (typeof channel !== "string" || !CHANNEL_ID.test(channel)) {
    throw new NotifierInputError("channel must be a Slack channel or user ID");
  }
  if (typeof ts !== "string" || !MESSAGE_TS.test(ts)) {
    throw new NotifierInputError("ts must be a Slack message ts");
  }
  if (typeof ref !== "string" || !REF.test(ref)) {
    throw new NotifierInputError("ref must be <what>:<id>");
  }
  // `text` is a placeholder: the renderer gives the real one when the update is sent.
  return { sc: scope, k: key, op: "render", ch: channel, ts, r: ref, text: "…", at: Date.now() };
}

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
