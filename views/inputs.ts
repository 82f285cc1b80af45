import type { InputBlock } from "@slack/types";

/**
 * The shared pieces of a modal's inputs: a plain_text object and an input block with its label.
 * Every form builds its inputs from these (issue 21: the modals each had a copy), so a label or
 * a hint looks the same in every form.
 */

/** A plain_text object (emoji shown as emoji). Plain text: no escaping. */
export function plainText(text: string) {
  return { type: "plain_text" as const, text, emoji: true };
}

/** An input block: its id, its label, its element, and optionally a hint, optional, Enter. */
export function inputBlock(
  blockId: string,
  label: string,
  element: InputBlock["element"],
  extra: Partial<Pick<InputBlock, "hint" | "optional" | "dispatch_action">> = {},
): InputBlock {
  return { type: "input", block_id: blockId, label: plainText(label), element, ...extra };
}
