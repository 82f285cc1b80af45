import type { KnownBlock } from "@slack/types";
import {
  COMMAND,
  type CommandGroup,
  type CommandSpec,
  commandName,
} from "../src/slack/commandRegistry.js";
import { context, divider, header, section, truncate } from "./blocks.js";
import { code } from "./format.js";

const GROUP_ORDER: readonly CommandGroup[] = [
  "General",
  "Look up",
  "Price",
  "Order",
  "Track and approve",
];

/** `/connect help`: every subcommand, grouped, each with its examples. */
export function helpView(commands: readonly CommandSpec[]): { text: string; blocks: KnownBlock[] } {
  const blocks: KnownBlock[] = [header(`${COMMAND} — price, order and track connectivity`)];
  for (const group of GROUP_ORDER) {
    const inGroup = commands.filter((c) => c.group === group);
    if (inGroup.length === 0) continue;
    blocks.push(divider());
    const lines = inGroup.map((c) => {
      const synopsis = `\`${COMMAND} ${commandName(c)}${c.args ? ` ${c.args}` : ""}\``;
      const examples = c.examples
        .filter((e) => e !== commandName(c))
        .map((e) => `\`${COMMAND} ${e}\``)
        .join(", ");
      return `${synopsis} — ${c.summary}${examples ? `\n      e.g. ${examples}` : ""}`;
    });
    blocks.push(section(`*${group}*\n${lines.join("\n")}`));
  }
  blocks.push(
    context(
      "Arguments in [brackets] are optional; a form opens when they are missing. Orders need an approval.",
    ),
  );
  const text = commands.map((c) => `${COMMAND} ${commandName(c)}`).join(", ");
  return { text: `Commands: ${text}`, blocks };
}

/** Answer to an unknown subcommand: the closest match, or a pointer to help. */
export function unknownCommandText(input: string, suggestion?: CommandSpec): string {
  // A pasted wall of text is not echoed back whole.
  const tried = code(`${COMMAND} ${truncate(input, 80)}`);
  return suggestion
    ? `I don't know ${tried}. Did you mean \`${COMMAND} ${commandName(suggestion)}${suggestion.args ? ` ${suggestion.args}` : ""}\`? See \`${COMMAND} help\`.`
    : `I don't know ${tried}. See \`${COMMAND} help\` for every command.`;
}
