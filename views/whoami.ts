import type { Identity } from "../src/services.js";
import { escapeMrkdwn, fields, header } from "./blocks.js";
import type { Reply } from "./reply.js";

export function whoamiView(identity: Identity, slackUserId: string): Reply {
  return {
    text: `Who the bot acts as: provider user id ${escapeMrkdwn(identity.userId)}, company username ${escapeMrkdwn(identity.companyUsername)}`,
    blocks: [
      header("Who the bot acts as"),
      fields([
        ["You (Slack)", `<@${slackUserId}>`],
        ["Provider user id", `\`${escapeMrkdwn(identity.userId)}\``],
        ["Company", escapeMrkdwn(identity.companyName ?? identity.companyUsername)],
        ["Company username", `\`${escapeMrkdwn(identity.companyUsername)}\``],
        ["Company id", `\`${escapeMrkdwn(identity.companyId)}\``],
      ]),
    ],
  };
}
