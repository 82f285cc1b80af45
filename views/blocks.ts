import type {
  ActionsBlock,
  Button,
  ContextBlock,
  DividerBlock,
  HeaderBlock,
  KnownBlock,
  PlainTextOption,
  SectionBlock,
} from "@slack/types";

/**
 * Small Block Kit builders shared by every view. Pure functions; they also enforce Slack's
 * limits (text lengths, block counts) so a long provider value can never make Slack refuse
 * a whole message with `invalid_blocks`.
 */

export const LIMITS = {
  messageBlocks: 50,
  modalBlocks: 100,
  sectionText: 3000,
  sectionFields: 10,
  fieldText: 2000,
  headerText: 150,
  buttonText: 75,
  optionText: 75,
  optionValue: 150,
  actionValue: 2000,
  contextElements: 10,
  staticOptions: 100,
} as const;

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, Math.max(0, max - 1))}…`;
}

/**
 * THE way a string that did not come from our own code (a request field, a name, a reason, a
 * provider value or error text, a command line, search text) enters mrkdwn: a message's or a
 * section's text, a field, a context element, a message's fallback `text`.
 *
 * Slack's mrkdwn has exactly three control characters. `<` opens a special token — `<!channel>`,
 * `<!here>`, `<@U…>`, `<#C…>`, `<https://x|label>` — so once `<` and `>` are entities no
 * mention or link can be formed from the text, wherever in a message it lands. `&` is escaped
 * first, so a text that is already escaped (`&lt;!channel&gt;`) shows exactly as typed instead
 * of turning back into `<!channel>`. plain_text fields (headers, buttons, options, inputs) are
 * never escaped: Slack shows them as typed and forms nothing from them.
 *
 * `max` clips the raw text (with "…") before escaping, so an entity is never cut in half.
 */
export function escapeMrkdwn(text: string, max?: number): string {
  const clipped = max === undefined ? text : truncate(text, max);
  return clipped.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/**
 * The reverse, for a shared helper's mrkdwn output reused in a plain_text field (an option's
 * text): plain text shows entities literally, so they go back to the characters typed.
 */
export function plainFromMrkdwn(text: string): string {
  return text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
}

export function header(text: string): HeaderBlock {
  return {
    type: "header",
    text: { type: "plain_text", text: truncate(text, LIMITS.headerText), emoji: true },
  };
}

export function section(mrkdwn: string, accessory?: SectionBlock["accessory"]): SectionBlock {
  const block: SectionBlock = {
    type: "section",
    text: { type: "mrkdwn", text: truncate(mrkdwn || " ", LIMITS.sectionText) },
  };
  if (accessory) block.accessory = accessory;
  return block;
}

/** A section of label/value pairs, two columns in Slack. Empty values are left out. */
export function fields(
  pairs: ReadonlyArray<readonly [label: string, value: string | undefined]>,
): SectionBlock {
  const shown = pairs.filter(([, value]) => value !== undefined && value !== "");
  return {
    type: "section",
    fields: shown.slice(0, LIMITS.sectionFields).map(([label, value]) => ({
      type: "mrkdwn",
      text: truncate(`*${label}*\n${value}`, LIMITS.fieldText),
    })),
  };
}

export function context(...texts: string[]): ContextBlock {
  return {
    type: "context",
    elements: texts
      .slice(0, LIMITS.contextElements)
      .map((text) => ({ type: "mrkdwn", text: truncate(text, LIMITS.sectionText) })),
  };
}

export function divider(): DividerBlock {
  return { type: "divider" };
}

export function button(
  text: string,
  actionId: string,
  value?: string,
  style?: "primary" | "danger",
): Button {
  const element: Button = {
    type: "button",
    action_id: actionId,
    text: { type: "plain_text", text: truncate(text, LIMITS.buttonText), emoji: true },
  };
  if (value !== undefined) element.value = truncate(value, LIMITS.actionValue);
  if (style) element.style = style;
  return element;
}

export function actions(blockId: string, elements: ActionsBlock["elements"]): ActionsBlock {
  return { type: "actions", block_id: blockId, elements };
}

export function option(text: string, value: string, description?: string): PlainTextOption {
  const result: PlainTextOption = {
    text: { type: "plain_text", text: truncate(text, LIMITS.optionText), emoji: true },
    value: truncate(value, LIMITS.optionValue),
  };
  if (description) {
    result.description = { type: "plain_text", text: truncate(description, LIMITS.optionText) };
  }
  return result;
}

/** Every message in sandbox mode says so, so nobody mistakes a simulated order for a real one. */
export const SANDBOX_LABEL =
  ":test_tube: *Sandbox* — simulated provider, nothing is really ordered";

export function withSandboxLabel(blocks: KnownBlock[], sandbox: boolean): KnownBlock[] {
  return sandbox ? [...blocks, context(SANDBOX_LABEL)] : blocks;
}

/** The blocks without the sandbox label's context block (to put it back once, last). */
export function withoutSandboxLabel(blocks: readonly KnownBlock[]): KnownBlock[] {
  const label = JSON.stringify(context(SANDBOX_LABEL).elements);
  return blocks.filter(
    (block) => block.type !== "context" || JSON.stringify(block.elements) !== label,
  );
}

/** Whether some text of the blocks already is the sandbox label. */
function carriesSandboxLabel(blocks: readonly unknown[]): boolean {
  return JSON.stringify(blocks).includes(JSON.stringify(SANDBOX_LABEL));
}

/** A text-only message's text as sections (each within Slack's section limit, cut at lines). */
export function textSections(text: string): SectionBlock[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > LIMITS.sectionText) {
    const cut = rest.lastIndexOf("\n", LIMITS.sectionText);
    const at = cut > 0 ? cut : LIMITS.sectionText;
    pieces.push(rest.slice(0, at));
    rest = rest.slice(at).replace(/^\n/, "");
  }
  pieces.push(rest);
  return pieces.map((piece) => section(piece));
}

/**
 * The blocks of any message the bot sends, labelled in sandbox mode: a message built without
 * the label (a text-only thread line or DM) gets its text as blocks plus the label; one that
 * has it is left alone. Out of sandbox mode, the blocks as given.
 */
export function sandboxLabelledBlocks(
  message: { text: string; blocks?: KnownBlock[] },
  sandbox: boolean,
): KnownBlock[] | undefined {
  if (!sandbox) return message.blocks;
  if (message.blocks && carriesSandboxLabel(message.blocks)) return message.blocks;
  const blocks = message.blocks?.length ? message.blocks : textSections(message.text);
  return withSandboxLabel(capBlocks(blocks, LIMITS.messageBlocks - 1), true);
}

/** A modal with the sandbox label as its last block in sandbox mode (within the block budget). */
export function labelledModal<T extends { blocks: readonly unknown[] }>(
  view: T,
  sandbox: boolean,
): T {
  if (!sandbox || carriesSandboxLabel(view.blocks)) return view;
  const blocks = view.blocks as KnownBlock[];
  return { ...view, blocks: withSandboxLabel(capBlocks(blocks, LIMITS.modalBlocks - 1), true) };
}

/** Keeps a message within Slack's block limit, saying what was left out. */
export function capBlocks(blocks: KnownBlock[], max: number = LIMITS.messageBlocks): KnownBlock[] {
  if (blocks.length <= max) return blocks;
  const kept = blocks.slice(0, max - 1);
  return [...kept, context(`_${blocks.length - kept.length} more blocks not shown._`)];
}
