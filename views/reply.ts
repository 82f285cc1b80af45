import type { KnownBlock } from "@slack/types";
import { context } from "./blocks.js";
import { code } from "./format.js";

/**
 * What a read-only command produces: a message for the person who asked. The Slack layer adds
 * the "Share in channel" and paging buttons, so commands never deal with them.
 */
export interface Reply {
  text: string;
  blocks: KnownBlock[];
  /** Set when the result is one page of a longer list. */
  page?: { index: number; hasNext: boolean };
  /** A usage or input problem (counted as "failed", not "errored"); no share button. */
  problem?: boolean;
  /**
   * Why this answer stays with the person who asked: no share button, and a share click (an
   * old button, a forged one) is answered with these words instead of posting it.
   */
  keepPrivate?: string;
}

export function problemReply(text: string): Reply {
  return { text, blocks: [{ type: "section", text: { type: "mrkdwn", text } }], problem: true };
}

/**
 * The line under a reply someone shared in the channel: who shared it and the command as the
 * bot understood it (its name and arguments, escaped), never the raw command line — that is
 * text anyone in the workspace typed, and it would be posted in the channel under the bot's name.
 */
export function sharedByContext(userId: string, command: string, args: readonly string[]) {
  return context(`Shared by <@${userId}> · ${code([command, ...args].join(" "))}`);
}
