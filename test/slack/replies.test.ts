import type { KnownBlock } from "@slack/types";
import { describe, expect, it } from "vitest";
import { commandHandlers } from "../../src/slack/commandTable.js";
import { type CommandHandlers, createConnectRouter } from "../../src/slack/connect.js";
import { FollowUpLane } from "../../src/slack/followUps.js";
import { SANDBOX_LABEL, section, withSandboxLabel } from "../../views/blocks.js";
import { waitFor } from "../harness/index.js";
import { routerServices } from "./support.js";

interface Answer {
  text?: string;
  blocks?: KnownBlock[];
}

/** Runs `/connect <text>` through the router's listener and returns the answer it sends. */
async function answerTo(
  text: string,
  handlers: CommandHandlers = commandHandlers(routerServices()),
) {
  let listener: ((args: unknown) => Promise<void>) | undefined;
  const registry = {
    command: (_name: string, fn: (args: unknown) => Promise<void>) => {
      listener = fn;
    },
    action: () => {},
    view: () => {},
    options: () => {},
  };
  createConnectRouter(
    handlers,
    { ...routerServices(), sandbox: true },
    new FollowUpLane(),
  ).register(registry as never);
  const answers: Answer[] = [];
  await listener?.({
    command: { text, user_id: "U1", channel_id: "C1", trigger_id: "T1" },
    ack: async () => {},
    respond: async (message: Answer) => {
      answers.push(message);
    },
    client: {},
  });
  await waitFor(() => answers.length === 1);
  return answers[0] as Answer;
}

function visibleText(blocks: KnownBlock[] | undefined): string {
  return JSON.stringify(
    (blocks ?? []).filter((b) => b.type === "section").map((b) => ("text" in b ? b.text : "")),
  );
}

describe("answers written as text alone", () => {
  it("are shown in a block, since Slack does not show the fallback text beside blocks", async () => {
    const handlers: CommandHandlers = {
      ...commandHandlers(routerServices()),
      help: (ctx) => ctx.reply({ text: "Stopped tracking port order `abc`.", blocks: [] }),
    };
    const answer = await answerTo("help", handlers);
    expect(visibleText(answer.blocks)).toContain("Stopped tracking port order `abc`.");
  });

  it("include usage problems such as `/connect approvals pending`", async () => {
    const answer = await answerTo("approvals pending");
    expect(visibleText(answer.blocks)).toContain("Usage: `/connect approvals [all]`");
    expect(visibleText(answer.blocks)).not.toContain("Did you mean");
    // A typo of `all` is offered back.
    const typo = await answerTo("approvals al");
    expect(visibleText(typo.blocks)).toContain("Did you mean `/connect approvals all`?");
  });

  it("leave answers that have blocks as they are", async () => {
    const answer = await answerTo("help");
    expect(visibleText(answer.blocks)).not.toContain(answer.text?.slice(0, 60) ?? "-");
    expect((answer.blocks ?? []).length).toBeGreaterThan(1);
  });
});

describe("the sandbox label", () => {
  it("is said once, last, even when the answer already carries it (a withdrawal's)", async () => {
    const handlers: CommandHandlers = {
      ...commandHandlers(routerServices()),
      help: (ctx) =>
        ctx.reply({
          text: "You withdrew it.",
          blocks: withSandboxLabel([section("You withdrew it.")], true),
        }),
    };
    const answer = await answerTo("help", handlers);
    const raw = JSON.stringify(answer.blocks);
    expect(raw.split(JSON.stringify(SANDBOX_LABEL)).length - 1).toBe(1);
    expect(JSON.stringify(answer.blocks?.at(-1))).toContain(JSON.stringify(SANDBOX_LABEL));
  });
});
