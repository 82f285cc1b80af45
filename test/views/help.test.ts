import type { KnownBlock } from "@slack/types";
import { describe, expect, it } from "vitest";
import { COMMANDS, commandName } from "../../src/domain/commands.js";
import { escapeMrkdwn } from "../../views/blocks.js";
import { commandGroupReply, helpView, unknownCommandReply } from "../../views/help.js";

function allText(blocks: KnownBlock[]): string {
  return JSON.stringify(blocks);
}

describe("helpView", () => {
  it("documents every registered subcommand with its arguments, grouped", () => {
    const { blocks } = helpView(COMMANDS);
    const text = allText(blocks);
    for (const spec of COMMANDS) {
      // Placeholders such as <portId> as entities: Slack shows them as typed, links nothing.
      expect(text).toContain(
        `/connect ${escapeMrkdwn(`${commandName(spec)}${"args" in spec ? ` ${spec.args}` : ""}`)}`,
      );
    }
    for (const group of ["General", "Look up", "Price", "Order", "Track and approve"]) {
      expect(text).toContain(`*${group}*`);
    }
    expect(text).toContain("/connect price port ironbridge-iad1 10G 1y");
    expect(blocks.length).toBeLessThanOrEqual(50);
  });

  it("says where to copy an id from when it knows none, instead of an example that repeats the synopsis", () => {
    const text = allText(helpView(COMMANDS).blocks);
    expect(text).toContain("(copy a port id from `/connect ports`)");
    expect(text).toContain("(the order id is in the approval thread once a port order is placed)");
    expect(text).toContain("(copy an order id from `/connect track`)");
    expect(text).not.toContain("e.g. `/connect port &lt;portId&gt;`");
    expect(text).not.toContain("e.g. `/connect order &lt;orderId&gt;`");
    expect(text).not.toMatch(/<[a-z]+Id>/);
  });

  it("fills a known id into look-up examples only, never into one that changes something", () => {
    const known = { "<portId>": "port-123", "<orderId>": "order-456" } as const;
    const text = allText(helpView(COMMANDS, known).blocks);
    expect(text).toContain("e.g. `/connect port port-123`");
    expect(text).toContain("e.g. `/connect order order-456`");
    expect(text).not.toContain("copy a port id from");
    expect(text).not.toContain("track stop order-456");
    expect(text).toContain("(copy an order id from `/connect track`)");
  });

  it("points an unknown command at the closest ones or at help", () => {
    const blocksText = (reply: { blocks: unknown[] }) => JSON.stringify(reply.blocks);
    const prise = unknownCommandReply(
      "prise",
      COMMANDS.filter((c) => c.path[0] === "price"),
    );
    expect(blocksText(prise)).toContain(
      "Did you mean `/connect price port [dcf speed term]` or `/connect price l2",
    );
    expect(prise.problem).toBe(true);
    expect(blocksText(unknownCommandReply("xyz", []))).toContain("/connect help");
    expect(unknownCommandReply("x".repeat(1_000_000), []).text.length).toBeLessThan(300);
  });

  it("lists a group's commands with their examples", () => {
    const edge = commandGroupReply(
      "edge",
      COMMANDS.filter((c) => c.path[0] === "edge"),
    );
    const text = JSON.stringify(edge.blocks);
    for (const name of ["edge locations", "edge orders", "edge drafts", "edge quote"])
      expect(text).toContain(`/connect ${name}`);
    expect(edge.problem).toBeUndefined();
    const price = commandGroupReply(
      "price",
      COMMANDS.filter((c) => c.path[0] === "price"),
      "price foo",
    );
    expect(JSON.stringify(price.blocks)).toContain("I don't know `/connect price foo`");
    expect(JSON.stringify(price.blocks)).toContain(
      "e.g. `/connect price port ironbridge-iad1 10G 1y`",
    );
    expect(price.problem).toBe(true);
  });
});
