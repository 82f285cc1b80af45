import type { KnownBlock } from "@slack/types";
import { describe, expect, it } from "vitest";
import { COMMANDS, commandName } from "../../src/slack/commandRegistry.js";
import { helpView, unknownCommandText } from "../../views/help.js";

function allText(blocks: KnownBlock[]): string {
  return JSON.stringify(blocks);
}

describe("helpView", () => {
  it("documents every registered subcommand with its arguments, grouped", () => {
    const { blocks } = helpView(COMMANDS);
    const text = allText(blocks);
    for (const spec of COMMANDS) {
      expect(text).toContain(
        `/connect ${commandName(spec)}${"args" in spec ? ` ${spec.args}` : ""}`,
      );
    }
    for (const group of ["General", "Look up", "Price", "Order", "Track and approve"]) {
      expect(text).toContain(`*${group}*`);
    }
    expect(text).toContain("/connect price port AMS1 10G 12m");
    expect(blocks.length).toBeLessThanOrEqual(50);
  });

  it("points an unknown command at the closest one or at help", () => {
    expect(unknownCommandText("prise port", COMMANDS[11])).toContain(
      "Did you mean `/connect price port",
    );
    expect(unknownCommandText("xyz")).toContain("/connect help");
    expect(unknownCommandText("x".repeat(1_000_000)).length).toBeLessThan(300);
  });
});
