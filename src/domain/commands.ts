/**
 * The single source of truth for `/connect` subcommands: the router dispatches on it and
 * `/connect help` is generated from it, so help cannot drift from the code.
 */

import { closestCommands, commandsUnder } from "./commandSuggestion.js";

export const COMMAND = "/connect";

export type CommandGroup = "General" | "Look up" | "Price" | "Order" | "Track and approve";

export interface CommandSpec {
  /** Words that select the subcommand, e.g. ["price", "port"]. */
  path: readonly string[];
  /** Argument synopsis shown in help, e.g. "[dcf speed term]". */
  args?: string;
  summary: string;
  /**
   * What a person can type, without `/connect`. Every one works against the sandbox as typed
   * (test/e2e/helpExamples.test.ts runs them): names come from its seed data, which
   * `/connect dcf` shows. An id only the person's own data has is written as its placeholder
   * (`<portId>`), and `id` says where to copy one from.
   */
  examples: readonly string[];
  group: CommandGroup;
  id?: CommandId;
  /** Who may use it when not everyone: "requesters" is hidden from someone REQUESTERS leaves out. */
  audience?: "requesters";
  /**
   * The summary shown to someone who sees only their own requests and amounts (not an approver,
   * finance or in SPEND_VIEWERS: src/approvals/moneyAccess.ts), in place of `summary`.
   */
  ownSummary?: string;
}

/** A placeholder for an id that only the person's own data has. */
export type IdPlaceholder =
  | "<portId>"
  | "<orderId>"
  | "<connectionId>"
  | "<serviceId>"
  | "<requestId>";

export interface CommandId {
  placeholder: IdPlaceholder;
  /** Where a person finds one, as help says it: "copy a port id from `/connect ports`". */
  where: string;
  /**
   * Whether help may put a real id it knows (e.g. the company's first port) in place of the
   * placeholder: only for look-ups. A command that changes something (`track stop`) keeps the
   * placeholder, so copying an example never stops someone's tracking.
   */
  fillKnown: boolean;
}

export const COMMANDS = [
  {
    path: ["help"],
    summary: "List every command with examples",
    examples: ["help"],
    group: "General",
  },
  {
    path: ["whoami"],
    summary: "Show the provider user and company the bot acts as",
    examples: ["whoami"],
    group: "General",
  },
  {
    path: ["dcf"],
    args: "[text]",
    summary: "Search data center facilities (DCFs) by name, city or airport code",
    examples: ["dcf", "dcf amsterdam", "dcf LHR"],
    group: "Look up",
  },
  {
    path: ["ports"],
    summary: "List your company's ports with status, speed and capacity",
    examples: ["ports"],
    group: "Look up",
  },
  {
    path: ["port"],
    args: "<portId>",
    summary: "Show one port in full, with its IO-D capability",
    examples: ["port <portId>"],
    group: "Look up",
    id: {
      placeholder: "<portId>",
      where: `copy a port id from \`${COMMAND} ports\``,
      fillKnown: true,
    },
  },
  {
    path: ["order"],
    args: "<orderId>",
    summary: "Show a port order's status and LOA status, with a Track button",
    examples: ["order <orderId>"],
    group: "Look up",
    id: {
      placeholder: "<orderId>",
      where: "the order id is in the approval thread once a port order is placed",
      fillKnown: true,
    },
  },
  {
    path: ["asn"],
    summary: "Show the suggested private ASN and your verified ASNs",
    examples: ["asn"],
    group: "Look up",
  },
  {
    path: ["metros"],
    args: "[text]",
    summary: "List metros and whether a layer 2 connection to another company can be ordered there",
    examples: ["metros", "metros AMS"],
    group: "Look up",
  },
  {
    path: ["routers"],
    summary: "List cloud routers with their sites and peers",
    examples: ["routers"],
    group: "Look up",
  },
  {
    path: ["edge", "locations"],
    summary: "List the locations where Edge (off-net) ports are offered",
    examples: ["edge locations"],
    group: "Look up",
  },
  {
    path: ["edge", "orders"],
    summary: "List Edge orders and ports",
    examples: ["edge orders"],
    group: "Look up",
  },
  {
    path: ["edge", "drafts"],
    summary: "List Edge draft orders with the days until they are deleted",
    examples: ["edge drafts"],
    group: "Look up",
  },
  {
    path: ["price", "port"],
    args: "[dcf speed term]",
    summary: "Price a port (a form opens when arguments are missing)",
    // Data centers of the sandbox's seed, named by the username `/connect dcf` shows or by the
    // facility code in their name; speeds in both notations; both terms the provider prices.
    examples: [
      "price port",
      "price port ironbridge-iad1 10G 1y",
      "price port ironbridge-iad1 10G",
      "price port AM3 10G 12m",
      "price port LD5 1000 1m",
    ],
    group: "Price",
  },
  {
    path: ["price", "l2"],
    args: "[source destination bandwidth]",
    summary:
      "Price a layer 2 connection between two data centers (a form opens, with what was typed chosen)",
    examples: ["price l2", "price l2 ams lon 500"],
    group: "Price",
  },
  {
    path: ["port", "order"],
    summary: "Order a port (form, then approval)",
    examples: ["port order"],
    group: "Order",
    audience: "requesters",
  },
  {
    path: ["l2"],
    args: "[connectionId]",
    summary:
      "Request a layer 2 connection, port-to-port or business-to-business (form, then approval); with an id, show that connection: status, both ends, bandwidth",
    examples: ["l2", "l2 <connectionId>"],
    group: "Order",
    id: {
      placeholder: "<connectionId>",
      where: `copy a connection id from \`${COMMAND} port &lt;portId&gt;\``,
      fillKnown: true,
    },
  },
  {
    path: ["iod"],
    args: "[serviceId]",
    summary:
      "Request an Internet On-Demand (IO-D) service (form, then approval); with an id, show that service: status, access port, rate limit, address blocks, ASN, BGP",
    examples: ["iod", "iod <serviceId>"],
    group: "Order",
    id: {
      placeholder: "<serviceId>",
      where: `copy an IO-D service id from \`${COMMAND} port &lt;portId&gt;\` of its access port`,
      fillKnown: true,
    },
  },
  {
    path: ["edge", "quote"],
    summary: "Quote an Edge (off-net) port; order it from the quote",
    examples: ["edge quote"],
    group: "Order",
  },
  {
    path: ["track"],
    args: "[stop <orderId>]",
    summary: "List the port orders being tracked, or stop tracking one",
    examples: ["track", "track stop <orderId>"],
    group: "Track and approve",
    id: {
      placeholder: "<orderId>",
      where: `copy an order id from \`${COMMAND} track\``,
      fillKnown: false,
    },
  },
  {
    path: ["approvals"],
    args: "[all]",
    summary:
      "List what waits on an approver (decisions, unknown outcomes, retries); `all`: every request of the last 90 days with its decision",
    ownSummary:
      "List your own requests waiting for approval; `all`: your requests of the last 90 days with their decisions",
    examples: ["approvals", "approvals all"],
    group: "Track and approve",
  },
  {
    path: ["policy"],
    summary:
      "Show the approval policy: how many approvals each kind of order and monthly amount needs, and from whom",
    examples: ["policy"],
    group: "Track and approve",
  },
  {
    path: ["withdraw"],
    args: "<requestId>",
    summary: "Withdraw your own request while it waits for approval (its name is free again)",
    examples: ["withdraw <requestId>"],
    group: "Track and approve",
    id: {
      placeholder: "<requestId>",
      where: "the request id is on your confirmation and on the request",
      fillKnown: false,
    },
  },
  {
    path: ["spend"],
    args: "[YYYY-MM]",
    summary:
      "The spend ledger: committed monthly amounts and the month's new commitments by kind, requester and channel, with Export CSV",
    ownSummary:
      "Your own spend: what your placed orders commit a month and in total, with Export CSV (the team's ledger is for approvers, finance and SPEND_VIEWERS)",
    examples: ["spend", "spend 2026-11"],
    group: "Track and approve",
  },
] as const satisfies readonly CommandSpec[];

export type CommandName = (typeof COMMANDS)[number]["path"] extends infer P
  ? P extends readonly string[]
    ? JoinWords<P>
    : never
  : never;

type JoinWords<P extends readonly string[]> = P extends readonly [infer Head extends string]
  ? Head
  : P extends readonly [infer Head extends string, ...infer Rest extends readonly string[]]
    ? `${Head} ${JoinWords<Rest>}`
    : string;

/**
 * The commands as one person may use them, for `/connect help`: an order command is left out
 * for someone who may not request, and a command that shows money says "your own" to someone
 * who sees only their own.
 */
export function commandsFor(
  access: { mayRequest: boolean; seesMoney: boolean },
  commands: readonly CommandSpec[] = COMMANDS,
): CommandSpec[] {
  return commands
    .filter((spec) => access.mayRequest || spec.audience !== "requesters")
    .map((spec) =>
      !access.seesMoney && spec.ownSummary ? { ...spec, summary: spec.ownSummary } : spec,
    );
}

export function commandName(spec: CommandSpec): string {
  return spec.path.join(" ");
}

export type ParsedCommand =
  | { kind: "command"; spec: CommandSpec; name: string; args: string[] }
  /**
   * The first word names a group of commands but no command of it ("edge", "price"): its
   * commands are listed. `unmatched` is set when more words followed that name none of them.
   */
  | { kind: "group"; prefix: string; commands: CommandSpec[]; unmatched?: string }
  /** Nothing matches: the closest commands by edit distance, or none. */
  | { kind: "unknown"; input: string; suggestions: CommandSpec[] };

/** Splits command text into words, honouring "double quotes" for arguments with spaces. */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  for (const match of text.matchAll(/"([^"]*)"|(\S+)/g)) {
    words.push(match[1] ?? match[2] ?? "");
  }
  return words;
}

/** Picks the subcommand whose path is the longest prefix of the words ("port order" beats "port"). */
export function parseCommand(
  text: string,
  commands: readonly CommandSpec[] = COMMANDS,
): ParsedCommand {
  const words = splitWords(text.trim());
  if (words.length === 0) {
    const help = commands.find((c) => c.path.join(" ") === "help");
    return help
      ? { kind: "command", spec: help, name: "help", args: [] }
      : { kind: "unknown", input: "", suggestions: [] };
  }
  const lower = words.map((w) => w.toLowerCase());
  let best: CommandSpec | undefined;
  for (const spec of commands) {
    const matches = spec.path.every((word, i) => lower[i] === word);
    if (matches && (!best || spec.path.length > best.path.length)) best = spec;
  }
  if (best) {
    return {
      kind: "command",
      spec: best,
      name: commandName(best),
      args: words.slice(best.path.length),
    };
  }
  const suggestions = closestCommands(lower, commands);
  const prefix = lower.slice(0, 1);
  const group = commandsUnder(prefix, commands);
  if (group.length > 0 && (words.length === prefix.length || suggestions.length === 0)) {
    return {
      kind: "group",
      prefix: prefix.join(" "),
      commands: group,
      ...(words.length > prefix.length ? { unmatched: words.join(" ") } : {}),
    };
  }
  return { kind: "unknown", input: words.join(" "), suggestions };
}
