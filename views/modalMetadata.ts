/**
 * A modal's `private_metadata` comes back with every submission and can be forged like any
 * payload field, so each modal's reader starts here: a JSON object of at most Slack's 3,000
 * characters, or nothing at all.
 */

/** A Slack channel (or DM) id as the modals carry it. */
export const SLACK_CHANNEL_ID = /^[A-Z0-9]{2,32}$/;

/** The fields of a modal's private_metadata; `{}` for anything that is not a small JSON object. */
export function metadataFields(text: unknown): Record<string, unknown> {
  if (typeof text !== "string" || text.length > 3000) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** The `c` field (the channel the command came from) when it is a channel id. */
export function channelIdField(fields: Record<string, unknown>): { channelId?: string } {
  const { c } = fields;
  return typeof c === "string" && SLACK_CHANNEL_ID.test(c) ? { channelId: c } : {};
}
