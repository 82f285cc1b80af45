import type { KnownBlock } from "@slack/types";
import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SlackStandin, STANDIN_IDS, startSlackStandin } from "../../src/standin/index.js";
import { CARD_FOOTER } from "../../views/approvals/requestCard.js";
import { context, sandboxLabelledBlocks, section, withSandboxLabel } from "../../views/blocks.js";
import { stateDm } from "../../views/requestState.js";
import { cardDisagreements, dmAgrees } from "../support/cardAgreement.js";
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
// card, App Home and the requester's last state DM agreeing with its approval message once the
// notifier is idle (issues 24 and 29).

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

/** A DM telling the requester `state`, as the lifecycle sends it (views/requestState.ts). */
function toldDm(requestId: string, state: string, ts: string) {
  const told = stateDm(
    { id: requestId, state: { phase: "ordered", key: state, words: state }, sandbox: false },
    `Your request is ${state}`,
  );
  return { channel: `D${STANDIN_IDS.requester.slice(1)}`, ts, blocks: told.blocks };
}

describe("the requester's last state DM and the approval message agree on the last state", () => {
  it("finds a request whose last state DM tells another state than its approval message", () => {
    const messages = [
      // Told placed, then done: the last DM counts.
      toldDm("req-1", "placed", "1"),
      { channel: "C2", ts: "2", blocks: stateMessage("req-1", "placed:done", false) },
      toldDm("req-1", "placed:done", "3"),
      // Told placed; tracking read a status since (said in the card's thread): they agree.
      toldDm("req-2", "placed", "4"),
      { channel: "C2", ts: "5", blocks: stateMessage("req-2", "placed:provisioning", false) },
      // Told placed; tracking stopped and nobody told the requester.
      toldDm("req-3", "placed", "6"),
      { channel: "C2", ts: "7", blocks: stateMessage("req-3", "placed:stopped", false) },
      // Told it failed, then a DM that tells no state (a reminder): the failure still counts.
      toldDm("req-4", "failed", "8"),
      { channel: "D1", ts: "9", blocks: [section("req-4: a reminder")] },
      { channel: "C2", ts: "10", blocks: stateMessage("req-4", "placed", false) },
      // No approval message: nothing to compare.
      toldDm("req-5", "rejected", "11"),
    ];
    expect(cardDisagreements(messages)).toEqual([
      { requestId: "req-3", cardState: "placed", approvalState: "placed:stopped", where: "dm" },
      { requestId: "req-4", cardState: "failed", approvalState: "placed", where: "dm" },
    ]);
  });

  it("lets 'placed' stand for any tracked status until tracking ends, and nothing else", () => {
    expect(dmAgrees("placed", "placed")).toBe(true);
    expect(dmAgrees("placed", "placed:created")).toBe(true);
    expect(dmAgrees("placed:done", "placed:done")).toBe(true);
    for (const end of ["done", "failed", "cancelled", "stopped"]) {
      expect(dmAgrees("placed", `placed:${end}`)).toBe(false);
    }
    expect(dmAgrees("failed", "approved")).toBe(false);
    expect(dmAgrees("placed:created", "placed:live")).toBe(false);
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

  it("fails on a requester's DM left behind the approval message, read from the stand-in", async () => {
    let queued = 0;
    watchBot(standin, { sandbox: false, waiting: async () => queued });
    // Watching anew looks at the stand-in's record from its start: the last test's calls were
    // judged there already.
    takeRecordedProblems();
    setAgreementTimeout(300);
    const approval = await client.chat.postMessage({
      channel: STANDIN_IDS.approvals,
      text: "State placed:done",
      blocks: stateMessage("req-10", "placed:done", false),
    });
    const dm = toldDm("req-10", "placed", "0");
    await client.chat.postMessage({
      channel: STANDIN_IDS.requester,
      text: "Your request is placed",
      blocks: dm.blocks,
    });
    // A DM that tells no state, after it: left out.
    await client.chat.postMessage({ channel: STANDIN_IDS.requester, text: "a reminder" });
    expect(await takeDisagreements()).toEqual([
      { requestId: "req-10", cardState: "placed", approvalState: "placed:done", where: "dm" },
    ]);
    // Told the end, the requester's DMs agree again.
    queued = 1;
    await client.chat.postMessage({
      channel: STANDIN_IDS.requester,
      text: "Your request is placed:done",
      blocks: toldDm("req-10", "placed:done", "0").blocks,
    });
    queued = 0;
    await checkBeforeClose(standin);
    expect(await takeDisagreements()).toEqual([]);
    expect(approval.ok).toBe(true);
  });
});
