import { describe, expect, it } from "vitest";
import { order } from "../../../src/slack/features/lookups/command.js";
import { withdrawCommand } from "../../../src/slack/features/withdraw/command.js";
import type { Reply } from "../../../views/reply.js";

/** Words of command answers a newcomer saw wrong: the article before "order", a `<…>` Slack links. */

function context(name: string, args: string[]) {
  const replies: Reply[] = [];
  const ctx = { name, args, reply: async (reply: Reply) => void replies.push(reply) };
  return { ctx: ctx as never, replies };
}

describe("command words", () => {
  it("says an order id, not a order id", async () => {
    const { ctx, replies } = context("order", ["not/an/id"]);
    await order(ctx, {} as never);
    expect(replies[0]?.text).toContain("does not look like an order id");
    expect(replies[0]?.text).not.toContain("a order");
  });

  it("writes withdraw's placeholder escaped, so Slack does not read it as a link", async () => {
    const { ctx, replies } = context("withdraw", []);
    await withdrawCommand(ctx, {} as never);
    expect(replies[0]?.text).toContain("`/connect withdraw &lt;requestId&gt;`");
    expect(replies[0]?.text).not.toMatch(/<requestId>/);
  });
});
