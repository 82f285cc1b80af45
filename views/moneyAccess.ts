import type { KnownBlock } from "@slack/types";
import type { MoneySight } from "../src/approvals/moneyAccess.js";
import { context, escapeMrkdwn, section } from "./blocks.js";

/**
 * The words of who may see the money (the rule: src/approvals/moneyAccess.ts): the note above a
 * list that shows only the person's own requests, and the polite answer to someone with none.
 * Every place that narrows what it shows (`/connect spend`, its Export CSV, `/connect approvals`,
 * App Home's committed spend, `/connect help`) says it in these words.
 */

/** Who sees the team's money, as a person reads it. */
export const MONEY_AUDIENCE = "approvers, the finance group and the people in SPEND_VIEWERS";

/** Why a user group could not be read, when it kept the person from seeing more. */
function lookupNote(sight: MoneySight): string {
  if (sight.sees !== "own" || !sight.failure) return "";
  const { groupId, detail } = sight.failure;
  return ` (I couldn't read the user group ${escapeMrkdwn(groupId)}: Slack answered "${escapeMrkdwn(detail)}", so you may be one of them and still see only your own)`;
}

/** The note above a list narrowed to the person's own requests. */
export function ownOnlyNote(sight: MoneySight): KnownBlock {
  return context(
    `:lock: Only your own requests and amounts are shown: everyone's, the team's spend and the ledger are for ${MONEY_AUDIENCE}${lookupNote(sight)}.`,
  );
}

/** The answer when the person's own share is empty: what they may see, and where. */
export function moneyRefusal(
  sight: MoneySight,
  what: string,
): { text: string; blocks: KnownBlock[] } {
  const text = `:lock: ${what} is for ${MONEY_AUDIENCE}${lookupNote(sight)}. You can see your own requests and their amounts — none of yours is counted here yet; App Home and \`/connect approvals all\` list yours.`;
  return { text, blocks: [section(text)] };
}
