import { describe, expect, it } from "vitest";
import { COMMANDS, commandName } from "../../src/domain/commands.js";
import { FEATURE_COMMANDS, commandHandlers as handlersFor } from "../../src/slack/commandTable.js";

// The handler table is assembled from each feature's own table (src/slack/commandTable.ts), so
// adding a command touches its feature's command.ts only. A spread lets a later table win a name
// silently: these checks make a name claimed twice, or one no command has, fail instead.
describe("the /connect handler table", () => {
  it("has no subcommand claimed by two features", () => {
    const owners = new Map<string, string[]>();
    for (const [feature, table] of Object.entries(FEATURE_COMMANDS)) {
      for (const name of Object.keys(table))
        owners.set(name, [...(owners.get(name) ?? []), feature]);
    }
    const twice = [...owners].filter(([, features]) => features.length > 1);
    expect(twice).toEqual([]);
  });

  it("answers exactly the registry's subcommands, each with a function", () => {
    // Handing the parts over reads none of them: an empty object will do for the names.
    const commandHandlers = handlersFor({} as never);
    expect(Object.keys(commandHandlers).sort()).toEqual(COMMANDS.map(commandName).sort());
    for (const handler of Object.values(commandHandlers)) expect(typeof handler).toBe("function");
  });
});
