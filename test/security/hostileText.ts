// Hostile text and the check that none of it forms a Slack mention or link. Shared by the
// property test of every view (hostileText.test.ts) and the end-to-end test of what the bot
// actually sends (hostileText.e2e.test.ts).
import fc from "fast-check";
import { STANDIN_IDS } from "../../src/standin/index.js";

/** Slack ids of real people and channels (the stand-in's workspace): as Slack sends them. */
export const TRUSTED_USERS = [
  STANDIN_IDS.requester,
  STANDIN_IDS.approver,
  STANDIN_IDS.groupApprover,
  STANDIN_IDS.outsider,
] as const;
export const TRUSTED_CHANNELS = [STANDIN_IDS.general, STANDIN_IDS.approvals] as const;
/**
 * User groups an admin configured (APPROVERS, the approval policy's groups): `/connect policy`
 * shows them as Slack does, `<!subteam^S…>`. A group id a person typed is never one of them.
 */
export const TRUSTED_GROUPS = [STANDIN_IDS.approverGroup, "S0NETWORK", "S0FINANCE"] as const;
/** A permalink as chat.getPermalink returns it (Slack's own, never typed by a person). */
export const TRUSTED_LINK = "https://slack.example/archives/C0APPROVALS/p1700000000000100";

const VICTIM = "U0VICTIM9";

/** What a person or a provider could type to ping a channel or plant a disguised link. */
export const HOSTILE = [
  "<!channel>",
  "<!here>",
  "<!everyone>",
  `<@${VICTIM}>`,
  "<#C123>",
  "<!subteam^S0VICTIM>",
  "<https://evil.example/x|click>",
  "<mailto:boss@evil.example|mail the boss>",
  "<!date^1700000000^{date}|<https://evil.example|x>>",
  // Already escaped: must show as typed, never turn back into markup.
  "&lt;!channel&gt;",
  "&amp;lt;@U0VICTIM9&amp;gt;",
  "&#60;!here&#62;",
  // Invisible, control and direction-changing characters.
  "\u200B\u200C\u200D\u2060\uFEFF",
  "\u202Egnp.exe\u202C",
  "\u2066\u2067\u2068\u2069\u200E\u200F\u061C",
  "a\u0000b\u0007c\u001Bd",
  // Markup that is harmless on its own, around the dangerous kind.
  "*bold* _it_ ~s~ `code` ```block``` > quote",
  "<",
  ">",
  "&",
  "|",
] as const;

const piece = fc.constantFrom<string>(...HOSTILE, "x", " ", "!", "@", "#", "|", "<", ">", "&");

/** One hostile string: a known attack, a mix of pieces, or 40 kB of it. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<string>(...HOSTILE) },
  { weight: 4, arbitrary: fc.array(piece, { minLength: 1, maxLength: 16 }).map((a) => a.join("")) },
  {
    weight: 1,
    arbitrary: fc
      .constantFrom<string>(...HOSTILE)
      .map((h) => h.repeat(Math.ceil(40_000 / h.length)).slice(0, 40_000)),
  },
);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// Tokens a view may build itself: a mention of a real person or channel (from Slack's own
// payloads), a date token, a permalink from Slack's API. Their labels must hold no "<".
function allowedTokens(linkPrefixes: readonly string[]): RegExp {
  return new RegExp(
    [
      `<@(?:${TRUSTED_USERS.join("|")})>`,
      `<#(?:${TRUSTED_CHANNELS.join("|")})>`,
      `<!subteam\\^(?:${TRUSTED_GROUPS.join("|")})>`,
      "<!date\\^\\d+\\^[^|<>]*\\|[^<>]*>",
      ...linkPrefixes.map((prefix) => `<${escapeRegExp(prefix)}[^|<>]*\\|[^<>]*>`),
    ].join("|"),
    "g",
  );
}

/**
 * What is wrong with one mrkdwn text: any "<" that does not open a token the view built itself.
 * In mrkdwn every "<" opens a control sequence (mention, channel, link, date), so a text
 * without a stray "<" can neither ping anyone nor carry a link. `linkPrefixes`: where Slack's
 * own permalinks point.
 */
export function injectionIn(
  text: string,
  linkPrefixes: readonly string[] = [TRUSTED_LINK],
): string | undefined {
  const rest = text.replace(allowedTokens(linkPrefixes), "");
  const at = rest.indexOf("<");
  return at === -1 ? undefined : rest.slice(Math.max(0, at - 20), at + 40);
}

/**
 * Every text Slack reads as mrkdwn in a builder's output: a string the builder returns (used as
 * message text) or each string of a list of outputs, a message's or reply's fallback `text`,
 * and each text object of type mrkdwn anywhere in its blocks or view — a section's `text`, its
 * `fields`, a context's `elements`, a confirm dialog's text. plain_text objects are skipped
 * (Slack forms nothing from them).
 */
export function mrkdwnTexts(output: unknown): string[] {
  const out: string[] = [];
  const walk = (value: unknown, isRoot: boolean) => {
    if (typeof value === "string") {
      if (isRoot) out.push(value);
      return;
    }
    if (Array.isArray(value)) {
      // A list the builder returns is a list of its outputs: a string in it is message text.
      for (const item of value) walk(item, isRoot);
      return;
    }
    if (typeof value !== "object" || value === null) return;
    const record = value as Record<string, unknown>;
    if (record.type === "plain_text") return;
    if (typeof record.text === "string" && (record.type === undefined || record.type === "mrkdwn"))
      out.push(record.text);
    for (const [key, child] of Object.entries(record)) {
      // A string `text` is read above; a text object (a section's, a confirm's) is walked.
      // Field errors of a modal are plain text.
      if ((key === "text" && typeof child === "string") || key === "errors") continue;
      walk(child, false);
    }
  };
  walk(output, true);
  return out;
}

/** The injections found in a builder's output, each with a little context. */
export function injectionsIn(
  output: unknown,
  linkPrefixes: readonly string[] = [TRUSTED_LINK],
): string[] {
  return mrkdwnTexts(output)
    .map((text) => injectionIn(text, linkPrefixes))
    .filter((found): found is string => found !== undefined);
}

/**
 * A copy of `value` with every string replaced by `text`, except under the keys in `keep`
 * (Slack ids and our own record fields, which never come from a person or the provider).
 */
export function poison<T>(value: T, text: string, keep: ReadonlySet<string>, key = ""): T {
  if (typeof value === "string") return (keep.has(key) ? value : text) as T;
  if (Array.isArray(value)) return value.map((v) => poison(v, text, keep, key)) as T;
  if (typeof value !== "object" || value === null || value instanceof Date) return value;
  if (value instanceof Map)
    return new Map([...value].map(([k, v]) => [k, poison(v, text, keep, key)])) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = poison(v, text, keep, k);
  return out as T;
}

/** Keys that hold Slack ids in every input: people, channels, message timestamps. */
export const SLACK_KEYS = new Set([
  "userId",
  "requestedBy",
  "by",
  "channel",
  "channelId",
  "threadTs",
  "ts",
  "statusMessageTs",
  "approvalChannel",
  "approvalTs",
  "requesterChannel",
  "requesterTs",
  "watchers",
]);
