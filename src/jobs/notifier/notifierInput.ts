import { CHANNEL_ID, MESSAGE_TS } from "../slackIds.js";
import type { SlackBlock } from "./notifier.js";
import type { OutboxItem } from "./outbox.js";

/**
 * What a caller asks the notifier to send, checked and turned into an outbox item. A bad input
 * is refused with NotifierInputError before anything is queued: an item is sent by a drainer
 * later, where nobody could tell the caller.
 */

export class NotifierInputError extends Error {
  override readonly name = "NotifierInputError";
}

/**
 * Ends a Workflow Builder step (`functions.completeSuccess` with `outputs`, or
 * `functions.completeError` with `error`), queued in `channel`'s outbox behind that thread's
 * messages. When Slack answers that the step is over already, `gone` is posted instead.
 */
export interface CompleteStepInput {
  scope: string;
  key: string;
  channel: string;
  executionId: string;
  token: string;
  outputs?: Record<string, string | number>;
  error?: string;
  gone?: { channel: string; threadTs?: string; text: string };
}

export interface PostInput {
  /** What the message belongs to, e.g. `order:<id>:t<started>`: the keys' namespace. */
  scope: string;
  /** De-duplication key within the scope, e.g. `change:2:status:processing:loa:pending`. */
  key: string;
  /** Keep the scope's markers at least this long after this message (default and minimum: the
   * notifier's `markerTtlSeconds`); a later message never shortens it. */
  keepForSeconds?: number;
  channel: string;
  threadTs?: string;
  text: string;
  blocks?: SlackBlock[];
  /**
   * Keep the channel Slack answers with in the marker too (`sent|<ts>|<channel>`): a post to a
   * user id lands in a D… channel that a later update must name. Only keys that older replicas
   * never read may ask for it (they read `sent|<ts>`).
   */
  keepChannel?: boolean;
}

/**
 * An update of an existing message: by its `ts`, or by the `messageKey` of a message this
 * notifier posted in the same scope (resolved when the update is sent, after that post in the
 * same outbox).
 */
export type UpdateInput = {
  scope: string;
  key: string;
  keepForSeconds?: number;
  channel: string;
  text: string;
  blocks?: SlackBlock[];
} & ({ ts: string; messageKey?: undefined } | { messageKey: string; ts?: undefined });

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
  return { ...item, th: input.threadTs, ...(input.keepChannel ? { kc: 1 as const } : {}) };
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

/** A function execution id as Slack writes it (`Fx…`); it is sent back, never parsed. */
const EXECUTION_ID = /^[A-Za-z0-9_-]{1,100}$/;
/** Slack shows a step's error in the workflow's run history; longer texts are cut. */
const MAX_STEP_ERROR_LENGTH = 1_000;

/**
 * The end of a Workflow Builder step, queued in `channel`'s outbox (the thread it belongs to),
 * so it follows that thread's earlier messages and holds across restarts like them.
 */
export function completeStepItem(input: CompleteStepInput): OutboxItem {
  checkName("scope", input.scope, MAX_SCOPE_LENGTH);
  checkName("key", input.key, MAX_KEY_LENGTH);
  if (typeof input.channel !== "string" || !CHANNEL_ID.test(input.channel)) {
    throw new NotifierInputError("channel must be a Slack channel or user ID");
  }
  if (!EXECUTION_ID.test(input.executionId)) {
    throw new NotifierInputError("executionId must be a function execution id");
  }
  if (typeof input.token !== "string" || input.token.length === 0 || input.token.length > 500) {
    throw new NotifierInputError("token must be the step's token");
  }
  if ((input.error === undefined) === (input.outputs === undefined)) {
    throw new NotifierInputError("a step ends with outputs or with an error, not both");
  }
  if (input.error !== undefined && input.error.trim() === "") {
    throw new NotifierInputError("a step's error needs words");
  }
  if (input.gone) {
    if (!CHANNEL_ID.test(input.gone.channel)) {
      throw new NotifierInputError("gone.channel must be a Slack channel or user ID");
    }
    if (input.gone.threadTs !== undefined && !MESSAGE_TS.test(input.gone.threadTs)) {
      throw new NotifierInputError("gone.threadTs must be a Slack message ts");
    }
  }
  return {
    sc: input.scope,
    k: input.key,
    op: "complete",
    ch: input.channel,
    step: {
      executionId: input.executionId,
      token: input.token,
      ...(input.outputs ? { outputs: input.outputs } : {}),
      ...(input.error !== undefined ? { error: input.error.slice(0, MAX_STEP_ERROR_LENGTH) } : {}),
      ...(input.gone ? { gone: { ...input.gone, text: clip(input.gone.text) } } : {}),
    },
    // The outbox's fallback text: never sent for a completion, read in logs and tests.
    text: input.error !== undefined ? "step ended with an error" : "step completed",
    at: Date.now(),
  };
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
