/**
 * Whether an approval's thread tells its story in order, read from what the Slack stand-in
 * holds: the approval message as last edited, and the replies under it oldest first. Issue 19:
 * every message about a request goes through one ordered writer, so the last thing a person
 * sees is the latest state. Checked here for a placed order with the provider id `providerId`:
 * - no reply posted twice;
 * - a reply names the order, and no stale "approved by …, placing" reply comes after it;
 * - the approval message itself, as last edited, shows the order (not a stale "placing");
 * - the tracking replies after it follow the provider's order of statuses, never backwards.
 */

/** A port order's statuses in the order the provider moves through them (sandbox timeline). */
const PROGRESS = ["created", "allocated", "processing", "done"] as const;
/** A status as the bot states one: in bold (`status created → *allocated*`), not a word in prose. */
const STATUS_WORD = new RegExp(`\\*(${PROGRESS.join("|")})\\*`, "gi");

export function threadOrderProblems(input: {
  /** The approval message as it stands: its text and its blocks (serialised). */
  root: string;
  replies: string[];
  providerId: string;
}): string[] {
  const { root, replies, providerId } = input;
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const reply of replies) {
    if (seen.has(reply)) problems.push(`posted twice: "${reply.slice(0, 80)}"`);
    seen.add(reply);
  }
  const placedAt = replies.findIndex((r) => r.includes(providerId));
  if (placedAt < 0) return [...problems, `no reply names ${providerId}`];
  const stale = replies
    .slice(placedAt + 1)
    .filter((r) => /\bapproved by\b/i.test(r) && !r.includes(providerId));
  for (const reply of stale) problems.push(`after the order, a stale "${reply.slice(0, 80)}"`);
  if (!root.includes(providerId)) problems.push("the approval message does not show the order");
  let reached = -1;
  for (const reply of replies.slice(placedAt)) {
    const words = [...reply.matchAll(STATUS_WORD)].map((m) => (m[1] ?? "").toLowerCase());
    const last = words.at(-1);
    if (!last) continue;
    const rank = PROGRESS.indexOf(last as (typeof PROGRESS)[number]);
    if (rank < reached) problems.push(`status went back to ${last}: "${reply.slice(0, 80)}"`);
    reached = Math.max(reached, rank);
  }
  return problems;
}
