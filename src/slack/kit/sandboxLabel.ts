import type { KnownBlock } from "@slack/types";
import { sandboxLabelledBlocks } from "../../../views/blocks.js";
import type { SlackBlock, SlackChatApi } from "../../jobs/notifier/notifier.js";

/** Adds the label to one message's arguments (its text becomes blocks if it had none). */
function labelled<T extends { text: string; blocks?: SlackBlock[] }>(args: T): T {
  const blocks = sandboxLabelledBlocks(
    { text: args.text, ...(args.blocks ? { blocks: args.blocks as KnownBlock[] } : {}) },
    true,
  );
  return { ...args, ...(blocks ? { blocks } : {}) };
}

/**
 * The notifier's Slack chat in sandbox mode: every background message (thread lines, DMs,
 * cards) carries the sandbox label, those built as text only included, so nobody mistakes a
 * simulated order for a real one. Messages that already carry it are sent as built.
 */
export function sandboxLabelledChat(chat: SlackChatApi): SlackChatApi {
  return {
    postMessage: (args) => chat.postMessage(labelled(args)),
    update: (args) => chat.update(labelled(args)),
  };
}
