import type { Identity } from "../../src/provider/identity.js";
import { escapeMrkdwn, fields, header } from "../blocks.js";
import type { Reply } from "../reply.js";

/**
 * `/connect whoami`. It can be shared in the channel, so nothing in it speaks to one reader
 * ("You (Slack) @Rita" read as everyone being Rita, issue 32 item 19): it names who asked.
 */
export function whoamiView(identity: Identity, slackUserId: string): Reply {
  return {
    text: `Who the bot acts as: provider user id ${escapeMrkdwn(identity.userId)}, company username ${escapeMrkdwn(identity.companyUsername)}`,
    blocks: [
      header("Who the bot acts as"),
      fields([
        ["Asked by (Slack)", `<@${slackUserId}>`],
        ["Provider user id", `\`${escapeMrkdwn(identity.userId)}\``],
        ["Company", escapeMrkdwn(identity.companyName ?? identity.companyUsername)],
        ["Company username", `\`${escapeMrkdwn(identity.companyUsername)}\``],
        ["Company id", `\`${escapeMrkdwn(identity.companyId)}\``],
      ]),
    ],
  };
}
