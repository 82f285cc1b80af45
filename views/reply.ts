import type { KnownBlock } from "@slack/types";

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
}

export function problemReply(text: string): Reply {
  return { text, blocks: [{ type: "section", text: { type: "mrkdwn", text } }], problem: true };
}
