import type { KnownBlock } from "@slack/types";
import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SlackStandin, STANDIN_IDS, startSlackStandin } from "../../src/standin/index.js";
import { CARD_FOOTER } from "../../views/approvals/requestCard.js";
import { context, sandboxLabelledBlocks, section, withSandboxLabel } from "../../views/blocks.js";
import { cardDisagreements } from "../support/cardAgreement.js";
import { sandboxLabelProblem } from "../support/sandboxLabel.js";
import {
  checkBeforeClose,
  setAgreementTimeout,
  takeDisagreements,
  takeRecordedProblems,
  unwatch,
  watchBot,
} from "./fallbackWatch.js";

// The two whole-suite checks the setup file (test/support/fallbackTextSetup.ts) runs after each
// test of every file: the sandbox label on every sandbox-mode message and view, and the request
// card agreeing with its approval message once the notifier is idle (issue 24).

/** A state-bearing message as views/approvals/requestCard.ts and views/approvals/approvals.ts build them. */
function stateMessage(requestId: string, state: string, card: boolean): KnownBlock[] {
  return [
    context(`Requested by <@${STANDIN_IDS.requester}> · request \`${requestId}\``),
    { ...section(`State ${state}`), block_id: `state_${state}` },
    ...(card ? [context(CARD_FOOTER)] : []),
  ];
}

describe("the card and its approval message agree on the last state", () => {
  it("finds a request whose card shows another state than its approval message", () => {
    const messages = [
      { channel: "C1", ts: "1", blocks: stateMessage("req-1", "pending", true) },
      { channel: "C2", ts: "2", blocks: stateMessage("req-1", "approved", false) },
      { channel: "C1", ts: "3", blocks: stateMessage("req-2", "placed:done", true) },
      { channel: "C2", ts: "4", blocks: stateMessage("req-2", "placed:done", false) },
      // Only an approval message: nothing to compare.
      { channel: "C2", ts: "5", blocks: stateMessage("req-3", "rejected", false) },
      { channel: "C2", ts: "6", blocks: [section("a thread line")] },
    ];
    expect(cardDisagreements(messages)).toEqual([
      { requestId: "req-1", cardState: "pending", approvalState: "approved" },
    ]);
  });

  it("finds a request whose App Home (My requests) shows another state than its approval message", () => {
    const messages = [
      { channel: "C2", ts: "2", blocks: stateMessage("req-1", "placed:done", false) },
      { channel: "C2", ts: "4", blocks: stateMessage("req-2", "cancelled", false) },
    ];
    const homes = [
      {
        userId: "U1",
        blocks: [
          { type: "section", block_id: "mine:req-1:state_placed:created" },
          { type: "section", block_id: "mine:req-2:state_cancelled" },
        ],
      },
    ];
    expect(cardDisagreements(messages, homes)).toEqual([
      {
        requestId: "req-1",
        cardState: "placed:created",
        approvalState: "placed:done",
        where: "home",
      },
    ]);
  });
});

describe("every sandbox-mode message carries the sandbox label", () => {
  it("flags a message or view without the label in its blocks, and passes labelled ones", () => {
    const bare = { text: "Approved", blocks: [section("Approved")] };
    expect(sandboxLabelProblem({ method: "chat.postMessage", args: bare })).toEqual({
      method: "chat.postMessage",
      what: "Approved",
    });
    // Text only: Slack would show the text, which has no label.
    expect(sandboxLabelProblem({ method: "response_url", args: { text: "Done" } })).toBeDefined();
    expect(
      sandboxLabelProblem({
        method: "views.open",
        args: { view: { type: "modal", title: { text: "Reject request" }, blocks: [] } },
      }),
    ).toEqual({ method: "views.open", what: "modal Reject request" });
    expect(
      sandboxLabelProblem({
        method: "chat.update",
        args: { text: "Approved", blocks: withSandboxLabel([section("Approved")], true) },
      }),
    ).toBeUndefined();
    expect(
      sandboxLabelProblem({
        method: "response_url",
        args: { delete_original: true },
      }),
    ).toBeUndefined();
  });

  it("labels a text-only message once, keeping its words in its blocks", () => {
    const blocks = sandboxLabelledBlocks({ text: "Line one\nLine two" }, true);
    expect(sandboxLabelProblem({ method: "chat.postMessage", args: { text: "x", blocks } })).toBe(
      undefined,
    );
    expect(JSON.stringify(blocks)).toContain("Line one\\nLine two");
    expect(sandboxLabelledBlocks({ text: "x", ...(blocks ? { blocks } : {}) }, true)).toEqual(
      blocks,
    );
    expect(sandboxLabelledBlocks({ text: "x" }, false)).toBeUndefined();
  });
});

describe("on a watched bot's stand-in", () => {
  let standin: SlackStandin;
  let client: WebClient;
  beforeAll(async () => {
    standin = await startSlackStandin();
    client = new WebClient(standin.botToken, {
      slackApiUrl: standin.apiUrl,
      retryConfig: { retries: 0 },
    });
  });
  afterAll(async () => {
    setAgreementTimeout(10_000);
    unwatch(standin);
    await standin.close();
  });

  it("fails on an unlabelled sandbox message, and on a card left behind its approval message", async () => {
    let queued = 1;
    watchBot(standin, { sandbox: true, waiting: async () => queued });
    setAgreementTimeout(300);
    const card = await client.chat.postMessage({
      channel: STANDIN_IDS.general,
      text: "card",
      blocks: withSandboxLabel(stateMessage("req-9", "pending", true), true),
    });
    await client.chat.postMessage({
      channel: STANDIN_IDS.approvals,
      text: "approval",
      blocks: withSandboxLabel(stateMessage("req-9", "approved", false), true),
    });
    await client.chat.postMessage({ channel: STANDIN_IDS.general, text: "no label" });
    expect(takeRecordedProblems().sandboxLabel).toEqual([
      { method: "chat.postMessage", what: "no label" },
    ]);
    // While the notifier still holds messages, nothing is compared yet.
    expect(await takeDisagreements()).toEqual([]);
    queued = 0;
    expect(await takeDisagreements()).toEqual([
      { requestId: "req-9", cardState: "pending", approvalState: "approved" },
    ]);
    // Reported once: the next test is not blamed for it.
    expect(await takeDisagreements()).toEqual([]);
    // Once the card catches up, they agree; the look before the bot closes finds nothing.
    await client.chat.update({
      channel: STANDIN_IDS.general,
      ts: String(card.ts),
      text: "card",
      blocks: withSandboxLabel(stateMessage("req-9", "approved", true), true),
    });
    await checkBeforeClose(standin);
    expect(await takeDisagreements()).toEqual([]);
    expect(takeRecordedProblems().sandboxLabel).toEqual([]);
  });
});
