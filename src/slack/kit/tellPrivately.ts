import type { KnownBlock } from "@slack/types";
import type { WebClient } from "@slack/web-api";
import { sandboxLabelledBlocks } from "../../../views/blocks.js";
import type { Logger } from "../../log.js";

/** Where a person is answered: the channel they acted in, if any, and who they are. */
export interface Where {
  userId: string;
  channelId?: string | undefined;
}

/**
 * Where a form's submitter is answered (and who requests what it orders): the person, in the
 * channel the form was opened from (kept in the form's metadata) when there is one.
 */
export function whereFormOpened(
  userId: string,
  metadata: { channelId?: string | undefined },
): { userId: string; channelId?: string } {
  return { userId, ...(metadata.channelId ? { channelId: metadata.channelId } : {}) };
}

/** What is said: a text, or a text with its blocks (the text is the notification's words). */
export type Said = string | { text: string; blocks?: readonly KnownBlock[] | KnownBlock[] };

/**
 * Tells one person privately: an ephemeral message in the channel they acted in; a direct
 * message when there is no channel (a click in App Home, a modal opened elsewhere) or the
 * ephemeral fails (the bot is not in that channel, or it is gone), so an answer is never lost.
 * In sandbox mode every answer carries the sandbox label, text-only ones included. The one way
 * every listener answers a person privately; a failing DM is the caller's to handle.
 */
export async function tellPrivately(
  client: WebClient,
  { logger, sandbox }: { logger: Logger; sandbox: boolean },
  where: Where,
  said: Said,
): Promise<void> {
  const given = typeof said === "string" ? { text: said } : said;
  const blocks = sandboxLabelledBlocks(
    { text: given.text, ...(given.blocks ? { blocks: [...given.blocks] } : {}) },
    sandbox,
  );
  const message = { text: given.text, ...(blocks ? { blocks } : {}) };
  if (where.channelId) {
    try {
      await client.chat.postEphemeral({ channel: where.channelId, user: where.userId, ...message });
      return;
    } catch (error) {
      logger.warn(
        { err: error, channelId: where.channelId },
        "ephemeral answer failed; sending a DM",
      );
    }
  }
  await client.chat.postMessage({ channel: where.userId, ...message });
}
