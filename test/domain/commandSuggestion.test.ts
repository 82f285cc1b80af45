import { describe, expect, it } from "vitest";
import {
  closestCommands,
  commandsUnder,
  editDistance,
  typoAllowance,
} from "../../src/domain/commandSuggestion.js";

const table = [
  { path: ["iod"] },
  { path: ["dcf"] },
  { path: ["routers"] },
  { path: ["l2"] },
  { path: ["price", "port"] },
  { path: ["price", "l2"] },
  { path: ["edge", "quote"] },
];
const names = (found: Array<{ path: readonly string[] }>) => found.map((c) => c.path.join(" "));

describe("editDistance", () => {
  it.each([
    ["", "", 0],
    ["abc", "abc", 0],
    ["abc", "", 3],
    ["rotuers", "routers", 1],
    ["qoute", "quote", 1],
    ["foo", "iod", 2],
    ["kitten", "sitting", 3],
    ["aproval", "approvals", 2],
  ])("%j to %j is %i", (a, b, d) => {
    expect(editDistance(a, b)).toBe(d);
    expect(editDistance(b, a)).toBe(d);
  });
});

describe("closestCommands", () => {
  it("allows no edit in a two-letter word, one up to five letters, two beyond", () => {
    expect([typoAllowance("l2"), typoAllowance("iod"), typoAllowance("quote")]).toEqual([0, 1, 1]);
    expect(typoAllowance("routers")).toBe(2);
  });

  it.each([
    [["rotuers"], "routers"],
    [["iodd"], "iod"],
    [["DFC"], "dcf"],
    [["edge", "qoute"], "edge quote"],
  ])("reads %j as %s", (typed, expected) => {
    expect(names(closestCommands(typed, table))).toEqual([expected]);
  });

  it("does not read foo as iod, nor l3 as l2: nothing is close, nothing is offered", () => {
    expect(closestCommands(["foo"], table)).toEqual([]);
    expect(closestCommands(["l3"], table)).toEqual([]);
    expect(closestCommands([], table)).toEqual([]);
  });

  it("offers every command tied for closest, and ignores words past the command's", () => {
    expect(names(closestCommands(["prise"], table))).toEqual(["price port", "price l2"]);
    expect(names(closestCommands(["prise", "prot", "AMS", "10G"], table))).toEqual(["price port"]);
    expect(names(closestCommands(["rotuers", "please"], table))).toEqual(["routers"]);
  });
});

describe("commandsUnder", () => {
  it("lists a group's commands, and none for a word that names no group", () => {
    expect(names(commandsUnder(["Price"], table))).toEqual(["price port", "price l2"]);
    expect(commandsUnder(["iod"], table)).toEqual([]);
    expect(commandsUnder([], table)).toEqual([]);
  });
});
