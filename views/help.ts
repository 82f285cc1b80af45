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
import { problemReply, type Reply } from "./reply.js";

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
    const filled = id && real ? example.replaceAll(id.placeholder, real) : example;
    if (id && filled.includes(id.placeholder)) {
      placeholderLeft = true;
      continue;
    }
    examples.push(`\`${COMMAND} ${escapeMrkdwn(filled)}\``);
  }
  return { examples, ...(id && placeholderLeft ? { hint: id.where } : {}) };
}

function synopsis(spec: CommandSpec): string {
  // `<portId>` and the like: shown as typed, never read by Slack as a link.
  return `\`${COMMAND} ${escapeMrkdwn(`${commandName(spec)}${spec.args ? ` ${spec.args}` : ""}`)}\``;
}

/** One command as help lists it: synopsis, summary, then its examples on the next line. */
function commandLine(spec: CommandSpec, known: KnownIds): string {
  const { examples, hint } = exampleLines(spec, known);
  const more = [
    examples.length > 0 ? `e.g. ${examples.join(", ")}` : undefined,
    hint ? `(${hint})` : undefined,
  ]
    .filter(Boolean)
    .join(" ");
  return `${synopsis(spec)} — ${escapeMrkdwn(spec.summary)}${more ? `\n      ${more}` : ""}`;
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
    const lines = inGroup.map((c) => commandLine(c, known));
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

/** What a person typed, quoted back: a pasted wall of text is not echoed whole. */
function tried(input: string): string {
  return code(`${COMMAND} ${truncate(input, 80)}`);
}

/** Answer to an unknown subcommand: the closest commands, or a pointer to help. */
export function unknownCommandReply(input: string, suggestions: readonly CommandSpec[]): Reply {
  const meant = suggestions.map(synopsis);
  const list =
    meant.length <= 1 ? (meant[0] ?? "") : `${meant.slice(0, -1).join(", ")} or ${meant.at(-1)}`;
  return problemReply(
    meant.length > 0
      ? `I don't know ${tried(input)}. Did you mean ${list}? See \`${COMMAND} help\`.`
      : `I don't know ${tried(input)}. See \`${COMMAND} help\` for every command.`,
  );
}

/**
 * `/connect edge`, `/connect price`: a group's commands with their examples, rather than
 * "unknown". `unmatched` is what was typed when more words followed that name none of them.
 */
export function commandGroupReply(
  prefix: string,
  commands: readonly CommandSpec[],
  unmatched?: string,
): Reply {
  const opening = unmatched
    ? `I don't know ${tried(unmatched)}. \`${COMMAND} ${escapeMrkdwn(prefix)}\` is one of:`
    : `\`${COMMAND} ${escapeMrkdwn(prefix)}\` is one of:`;
  const lines = commands.map((c) => commandLine(c, {}));
  const text = `${opening} ${commands.map((c) => `${COMMAND} ${commandName(c)}`).join(", ")}`;
  return {
    text,
    blocks: [section(`${opening}\n${lines.join("\n")}`)],
    ...(unmatched ? { problem: true } : {}),
  };
}
