import type { PostInput, UpdateInput } from "./notifier.js";
import type { OutboxItem } from "./outbox.js";
import { CHANNEL_ID, MESSAGE_TS } from "./slackIds.js";

/**
 * What a caller asks the notifier to send, checked and turned into an outbox item. A bad input
 * is refused with NotifierInputError before anything is queued: an item is sent by a drainer
 * later, where nobody could tell the caller.
 */

export class NotifierInputError extends Error {
  override readonly name = "NotifierInputError";
}

const MAX_KEY_LENGTH = 400;
const MAX_SCOPE_LENGTH = 200;
const MAX_KEEP_DAYS = 400;
/** Slack truncates/refuses longer texts (40,000 characters); keep room for the ellipsis. */
const MAX_TEXT_LENGTH = 39_000;

/** A message to post (a thread reply when `threadTs` is set). */
export function postItem(input: PostInput): OutboxItem {
  const item = messageItem(input, "post");
  if (input.threadTs !== undefined && !MESSAGE_TS.test(input.threadTs)) {
    throw new NotifierInputError("threadTs must be a Slack message ts");
  }
  return { ...item, th: input.threadTs };
}

/** A chat.update of a message, by its ts or by the key of a message posted in the scope. */
export function updateItem(input: UpdateInput): OutboxItem {
  const item = messageItem(input, "update");
  if (input.ts !== undefined && !MESSAGE_TS.test(input.ts)) {
    throw new NotifierInputError("ts must be a Slack message ts");
  }
  if (input.ts === undefined && !input.messageKey) {
    throw new NotifierInputError("update needs ts or messageKey");
  }
  return { ...item, ts: input.ts, mk: input.messageKey };
}

/** What posts and updates share, checked. */
function messageItem(input: PostInput | UpdateInput, op: "post" | "update"): OutboxItem {
  const { scope, key, channel, text, keepForSeconds } = input;
  checkName("scope", scope, MAX_SCOPE_LENGTH);
  checkName("key", key, MAX_KEY_LENGTH);
  if (
    keepForSeconds !== undefined &&
    !(
      Number.isInteger(keepForSeconds) &&
      keepForSeconds > 0 &&
      keepForSeconds <= MAX_KEEP_DAYS * 24 * 3600
    )
  ) {
    throw new NotifierInputError(
      `keepForSeconds must be a whole number of seconds up to ${MAX_KEEP_DAYS} days`,
    );
  }
  if (typeof channel !== "string" || !CHANNEL_ID.test(channel)) {
    throw new NotifierInputError("channel must be a Slack channel or user ID");
  }
  if (typeof text !== "string" || text.length === 0) {
    throw new NotifierInputError("text is required (it is the notification fallback)");
  }
  return {
    sc: scope,
    k: key,
    kf: keepForSeconds,
    op,
    ch: channel,
    text: clip(text),
    blocks: input.blocks,
    at: Date.now(),
  };
}

function checkName(what: string, value: string, maxLength: number): void {
  if (typeof value !== "string" || value.length === 0 || value.length > maxLength) {
    throw new NotifierInputError(`${what} must be 1 to ${maxLength} characters`);
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f]/.test(value)) throw new NotifierInputError(`${what} must be one line`);
}

function clip(text: string): string {
  return text.length <= MAX_TEXT_LENGTH ? text : `${text.slice(0, MAX_TEXT_LENGTH - 1)}…`;
}
