/**
 * Slack does not show a message's fallback `text` when the message has blocks: it is for
 * notifications and screen readers. So every word of the text must also be in the blocks, or a
 * person never sees it (issue 23 item 1: "Stopped tracking …" lived only in the text).
 *
 * Words compare normalised on both sides: case, mrkdwn markup (`*bold*`, `_it_`, `~s~`, code),
 * emoji shortcodes (`:white_check_mark:`), HTML entities, punctuation and whitespace are ignored.
 * Link targets count as in the blocks (a button's `url`, the target of `<url|label>`): the
 * person reaches them with a click.
 */

/** The Slack calls whose arguments are a message a person sees. */
export const MESSAGE_METHODS: ReadonlySet<string> = new Set([
  "chat.postMessage",
  "chat.update",
  "chat.postEphemeral",
  "chat.scheduleMessage",
  "response_url",
]);

function decodeEntities(text: string): string {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

/**
 * The words of a piece of mrkdwn, normalised. `withLinkTargets`: a `<url|label>` gives the url's
 * words as well as the label's (the blocks' side; the text's side counts what it shows).
 */
export function normalisedWords(mrkdwn: string, withLinkTargets = false): string[] {
  const shown = mrkdwn
    // <url|label>, <@U123|name>, <!date^…|fallback>: the label is what Slack shows.
    .replace(/<([^<>|]*)\|([^<>]*)>/g, (_m, target: string, label: string) =>
      withLinkTargets ? ` ${target} ${label} ` : ` ${label} `,
    )
    .replace(/<([^<>]*)>/g, " $1 ");
  return decodeEntities(shown)
    .replace(/:[a-z0-9_+'-]+:/gi, " ")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "");
}

/** Keys whose string values a person sees (or reaches) in a block; `value`s and ids are hidden. */
const SHOWN_KEYS = new Set(["text", "url", "user_id", "channel_id", "usergroup_id"]);

/** Every word shown in a list of blocks (sections, fields, context, headers, buttons, rich text). */
export function blockWords(blocks: unknown): Set<string> {
  const words = new Set<string>();
  const walk = (node: unknown) => {
    if (Array.isArray(node)) {
      for (const item of node) walk(item);
      return;
    }
    if (typeof node !== "object" || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (typeof value !== "string") walk(value);
      else if (SHOWN_KEYS.has(key)) for (const w of normalisedWords(value, true)) words.add(w);
    }
  };
  walk(blocks);
  return words;
}

/** The words of a message's fallback text that its blocks lack (none when it has no blocks). */
export function fallbackOnlyWords(message: { text?: unknown; blocks?: unknown }): string[] {
  if (!Array.isArray(message.blocks) || message.blocks.length === 0) return [];
  if (typeof message.text !== "string") return [];
  const shown = blockWords(message.blocks);
  return [...new Set(normalisedWords(message.text).filter((word) => !shown.has(word)))];
}

export interface FallbackProblem {
  method: string;
  text: string;
  missing: string[];
}

/** The problem with one recorded Slack call, if it is a message whose text says more than its blocks. */
export function fallbackProblem(call: {
  method: string;
  args: Record<string, unknown>;
}): FallbackProblem | undefined {
  // Views (views.open/push/update/publish) have no fallback text: everything is in their blocks.
  if (!MESSAGE_METHODS.has(call.method)) return undefined;
  const missing = fallbackOnlyWords(call.args);
  if (missing.length === 0) return undefined;
  return { method: call.method, text: String(call.args.text), missing };
}

export function describeProblems(problems: readonly FallbackProblem[]): string {
  return [
    `${problems.length} message(s) with words only in the fallback text (Slack shows the blocks, not the text):`,
    ...problems.map(
      (p) =>
        `- ${p.method}: ${JSON.stringify(p.text.slice(0, 300))} lacks in its blocks: ${p.missing.join(", ")}`,
    ),
  ].join("\n");
}
