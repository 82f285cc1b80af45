import { CHANNEL_ID, MESSAGE_TS } from "../slackIds.js";
import { NotifierInputError } from "./notifierInput.js";
import type { OutboxItem } from "./outbox.js";

/**
 * A message kept showing the latest state (a request's approval message and its card): the
 * outbox holds at most one waiting update per message (scope and key as the caller names them,
 * op `render`), and the item carries no view, only what to render (`r`, e.g. `message:<id>`).
 * The drain (src/workers/notifier/renderedSend.ts) renders it with src/orders' renderer (the read
 * model, worded by views/) when it is sent, so the last update anyone sees shows the state as it
 * is then, however many changes queued before it and whoever made them. Like an App Home refresh
 * (homeRefresh.ts), its marker goes before rendering: a change from then on queues the next one.
 */

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
