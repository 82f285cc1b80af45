import { describe, expect, it } from "vitest";
import {
  COMMANDS,
  type CommandSpec,
  commandName,
  commandsFor,
  parseCommand,
  splitWords,
} from "../../src/domain/commands.js";

describe("parseCommand", () => {
  it.each([
    ["", "help", []],
    ["help", "help", []],
    ["WHOAMI", "whoami", []],
    ["dcf amsterdam south", "dcf", ["amsterdam", "south"]],
    ["port order", "port order", []],
    ["port 5f2a9c0e1b3d4a5f6e7d8c9b", "port", ["5f2a9c0e1b3d4a5f6e7d8c9b"]],
    ["price port AMS1 10G 12m", "price port", ["AMS1", "10G", "12m"]],
    ['price port "Equinix AM3" 1000 1y', "price port", ["Equinix AM3", "1000", "1y"]],
    ["price l2", "price l2", []],
    ["edge drafts", "edge drafts", []],
  ])("reads %j as %s", (text, name, args) => {
    const parsed = parseCommand(text);
    expect(parsed).toMatchObject({ kind: "command", name, args });
  });

  it.each([
    ["prise port", ["price port"]],
    ["rotuers", ["routers"]],
    ["edge qoute", ["edge quote"]],
    ["aproval", ["approvals"]],
    ["dfc amsterdam", ["dcf"]],
    ["prise", ["price port", "price l2"]],
  ])("suggests the closest commands for %j", (text, suggested) => {
    const parsed = parseCommand(text);
    expect(parsed.kind).toBe("unknown");
    if (parsed.kind === "unknown") expect(parsed.suggestions.map(commandName)).toEqual(suggested);
  });

  it.each(["foo", "make me a sandwich please", "l3", "xyzzy"])(
    "suggests nothing for %j, unlike any command",
    (text) => {
      expect(parseCommand(text)).toEqual({ kind: "unknown", input: text, suggestions: [] });
    },
  );

  it.each([
    ["edge", undefined, ["edge locations", "edge orders", "edge drafts", "edge quote"]],
    ["PRICE", undefined, ["price port", "price l2"]],
    ["price foo", "price foo", ["price port", "price l2"]],
  ])("lists the commands of the group %j", (text, unmatched, names) => {
    const parsed = parseCommand(text);
    expect(parsed.kind).toBe("group");
    if (parsed.kind !== "group") return;
    expect(parsed.commands.map(commandName)).toEqual(names);
    expect(parsed.unmatched).toBe(unmatched);
  });

  it("splits quoted arguments", () => {
    expect(splitWords('a "b c" d')).toEqual(["a", "b c", "d"]);
  });
});

describe("the registry", () => {
  it("covers every subcommand pinned in docs/DESIGN.md, and those issues added since", () => {
    const names = COMMANDS.map(commandName).sort();
    expect(names).toEqual(
      [
        "help",
        "whoami",
        "dcf",
        "price port",
        "price l2",
        "port order",
        "ports",
        "port",
        "order",
        "l2",
        "iod",
        "asn",
        "routers",
        // Issue 21: a read-only command added by following docs/ADDING_A_COMMAND.md.
        "metros",
        "edge quote",
        "edge orders",
        "edge drafts",
        "edge locations",
        "approvals",
        "track",
        // Issue 22: the approval policy in words, and a requester's withdrawal.
        "policy",
        "withdraw",
        "spend",
      ].sort(),
    );
  });

  it("has unique names and at least one example per command", () => {
    const names = COMMANDS.map(commandName);
    expect(new Set(names).size).toBe(names.length);
    for (const spec of COMMANDS) expect(spec.examples.length).toBeGreaterThan(0);
  });
});

describe("commandsFor (issue 32: help shows each person what they may use)", () => {
  const names = (specs: readonly CommandSpec[]) => specs.map((spec) => spec.path.join(" "));

  it("leaves the order commands out for someone who may not request, and no other", () => {
    const everyone = commandsFor({ mayRequest: true, seesMoney: true });
    expect(names(everyone)).toEqual(names(COMMANDS));
    const notRequester = names(commandsFor({ mayRequest: false, seesMoney: true }));
    expect(notRequester).not.toContain("port order");
    expect(notRequester).toHaveLength(COMMANDS.length - 1);
  });

  it("words the money commands as the person's own for someone who may not see the team's", () => {
    const own = commandsFor({ mayRequest: true, seesMoney: false });
    const spend = own.find((spec) => spec.path.join(" ") === "spend");
    expect(spend?.summary).toMatch(/^Your own spend/);
    expect(own.find((spec) => spec.path.join(" ") === "approvals")?.summary).toMatch(/your own/);
    const team = commandsFor({ mayRequest: true, seesMoney: true });
    expect(team.find((spec) => spec.path.join(" ") === "spend")?.summary).toMatch(
      /^The spend ledger/,
    );
  });
});
