import type { KnownBlock } from "@slack/types";
import {
  COMMAND,
  type CommandGroup,
  type CommandSpec,
  commandName,
  type IdPlaceholder,
} from "../src/domain/commands.js";
import { context, divider, escapeMrkdwn, header, section, truncate } from "./blocks.js";
import { code } from "./format.js";

const GROUP_ORDER: readonly CommandGroup[] = [
  "General",
  "Look up",
  "Price",
  "Order",
  "Track and approve",
];

/** Real ids help may show in place of a placeholder (e.g. the company's first port). */
export type KnownIds = Partial<Record<IdPlaceholder, string>>;

/**
 * The examples as a person copies them: a placeholder is filled with a known id where the
 * command allows it; an example still holding a placeholder repeats the synopsis, so it is
 * left out and help says where to find an id instead.
 */
function exampleLines(spec: CommandSpec, known: KnownIds): { examples: string[]; hint?: string } {
  const id = spec.id;
  const real = id?.fillKnown ? known[id.placeholder] : undefined;
  const examples: string[] = [];
  let placeholderLeft = false;
  for (const example of spec.examples) {
    if (example === commandName(spec)) continue;
    const filled = id && real ? example.replaceAll(id.placeholder, escapeMrkdwn(real)) : example;
    if (id && filled.includes(id.placeholder)) {
      placeholderLeft = true;
      continue;
    }
    examples.push(`\`${COMMAND} ${filled}\``);
  }
  return { examples, ...(id && placeholderLeft ? { hint: id.where } : {}) };
}

/**
 * `/connect help`: every subcommand, grouped, each with its examples. `known` fills an id
 * placeholder with a real id of the person's company where one is cheaply known.
 */
export function helpView(
  commands: readonly CommandSpec[],
  known: KnownIds = {},
): { text: string; blocks: KnownBlock[] } {
  const blocks: KnownBlock[] = [
    header(`${COMMAND} commands — price, order and track connectivity`),
  ];
  for (const group of GROUP_ORDER) {
    const inGroup = commands.filter((c) => c.group === group);
    if (inGroup.length === 0) continue;
    blocks.push(divider());
    const lines = inGroup.map((c) => {
      const synopsis = `\`${COMMAND} ${commandName(c)}${c.args ? ` ${c.args}` : ""}\``;
      const { examples, hint } = exampleLines(c, known);
      const more = [
        examples.length > 0 ? `e.g. ${examples.join(", ")}` : undefined,
        hint ? `(${hint})` : undefined,
      ]
        .filter(Boolean)
        .join(" ");
      return `${synopsis} — ${c.summary}${more ? `\n      ${more}` : ""}`;
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
