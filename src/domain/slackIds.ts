/**
 * The shapes of Slack's ids that decide what the bot does with a value: a person (a mention can
 * be made of it only), a channel a message can be posted in. One home, so a view's mention, the
 * read model's "a person did this" and a card's place cannot disagree about what an id is.
 */

/** A Slack user id as Slack sends it (U… or W…): a person, never a worker or "reconciler". */
export function isSlackUserId(id: string | undefined): id is string {
  return id !== undefined && /^[UW][A-Z0-9]{2,}$/.test(id);
}

/** A channel a message can be posted in: public (C…) or private (G…); D… is a DM. */
export function isSlackChannelId(id: string | undefined): id is string {
  return id !== undefined && /^[CG][A-Z0-9]{2,}$/.test(id);
}
