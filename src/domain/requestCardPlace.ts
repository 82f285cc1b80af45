/**
 * Where a request's card goes (`ORDER_UPDATES`), the one rule of the Slack kit's first post
 * (src/slack/kit/requestCard.ts) and of the maintenance reconciler that posts a card a crash
 * never did (src/orders/requestCards.ts):
 * - `channel` (default): the channel the request was asked in, when it is a channel (public C…,
 *   private G…) other than the approvals channel; otherwise (asked in a DM, in the approvals
 *   channel, or nowhere known) the requester's DM;
 * - `dm`: the requester's DM, told why once when the request was asked in a channel;
 * - `off`: no card.
 * A channel that refuses the card with one of `CARD_NOT_HERE_ERRORS` sends it to the DM too.
 */

import { isSlackChannelId } from "./slackIds.js";

/** The `ORDER_UPDATES` settings, as src/config.ts reads them. */
export type CardSetting = "channel" | "dm" | "off";

/** Why a card asked in a channel is in the requester's DM (worded by views/approvals/requestCard.ts). */
export type CardInDmReason = "not-in-channel" | "setting";

/** Where a card goes: a channel, or the requester's DM (with the reason to tell, if any). */
export type CardPlace = { to: "channel"; channel: string } | { to: "dm"; reason?: CardInDmReason };

/** Slack's answers that mean "not here": the card goes to the requester's DM instead. */
export const CARD_NOT_HERE_ERRORS: ReadonlySet<string> = new Set([
  "not_in_channel",
  "channel_not_found",
  "is_archived",
]);

/** Where the card of a request asked in `asked` goes; undefined when cards are off. */
export function requestCardPlace(input: {
  asked: string | undefined;
  approvalsChannel: string | undefined;
  setting: CardSetting | undefined;
}): CardPlace | undefined {
  const setting = input.setting ?? "channel";
  if (setting === "off") return undefined;
  if (!isSlackChannelId(input.asked) || input.asked === input.approvalsChannel) return { to: "dm" };
  if (setting === "dm") return { to: "dm", reason: "setting" };
  return { to: "channel", channel: input.asked };
}
