/**
 * The shapes of Slack's ids that decide what the bot does with a value: a person (a mention can
 * be made of it only), a channel a message can be posted in. One home, so a view's mention, the
 * read model's "a person did this" and a card's place cannot disagree about what an id is.
 */

/** A Slack user id as Slack sends it (U… or W…): a person, never a worker or "reconciler". */
export const SLACK_USER_ID = /^[UW][A-Z0-9]{2,}$/;
/** A channel a message can be posted in: public (C…) or private (G…); D… is a DM. */
export const SLACK_CHANNEL_ID = /^[CG][A-Z0-9]{2,}$/;
/** A user group (S…): approvers by group; mentioning it would notify every member. */
export const SLACK_USER_GROUP_ID = /^S[A-Z0-9]{2,}$/;

/** The longest user id the bot keeps in a Redis key or field (Slack's are about 11 characters). */
export const MAX_USER_ID = 32;

export function isSlackUserId(id: string | undefined): id is string {
  return id !== undefined && SLACK_USER_ID.test(id);
}

export function isSlackChannelId(id: string | undefined): id is string {
  return id !== undefined && SLACK_CHANNEL_ID.test(id);
}

export function isSlackUserGroupId(id: string | undefined): id is string {
  return id !== undefined && SLACK_USER_GROUP_ID.test(id);
}
