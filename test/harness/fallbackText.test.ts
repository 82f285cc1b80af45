import { WebClient } from "@slack/web-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SlackStandin, STANDIN_IDS, startSlackStandin } from "../../src/standin/index.js";
import { context, section, withSandboxLabel } from "../../views/blocks.js";
import { blockWords, fallbackOnlyWords, normalisedWords } from "../support/fallbackText.js";
import { takeFallbackProblems, watchFallbackText } from "./fallbackWatch.js";

// The check every end-to-end suite runs after each test (test/support/fallbackTextSetup.ts):
// a message with blocks shows every word of its fallback text in the blocks.

describe("fallback text words are in the blocks", () => {
  it("normalises case, mrkdwn markup, emoji shortcodes, entities, punctuation and whitespace", () => {
    expect(
      normalisedWords(
        ":white_check_mark: *Stopped*  tracking `po-1`,\n_LOA_ ~old~ &lt;id&gt; <https://x.test/a|the order>",
      ),
    ).toEqual(["stopped", "tracking", "po", "1", "loa", "old", "id", "the", "order"]);
  });

  it("finds the words a message's text has and its blocks lack", () => {
    const message = {
      text: "Stopped tracking port order po-1",
      blocks: withSandboxLabel([section("Usage: `/connect track stop <orderId>`")], true),
    };
    expect(fallbackOnlyWords(message)).toEqual(["stopped", "tracking", "port", "order", "po", "1"]);
  });

  it("passes a message whose blocks say the same in other markup, and one without blocks", () => {
    expect(
      fallbackOnlyWords({
        text: "Port order po-1: DONE (tracking ended)",
        blocks: [
          section(":white_check_mark: *Port order* `po-1`: *done*"),
          context("_Tracking ended._"),
        ],
      }),
    ).toEqual([]);
    expect(fallbackOnlyWords({ text: "only text, shown as it is" })).toEqual([]);
    expect(fallbackOnlyWords({ text: "empty blocks", blocks: [] })).toEqual([]);
  });

  it("reads words from fields, headers, buttons, rich text and link targets", () => {
    const words = blockWords([
      { type: "header", text: { type: "plain_text", text: "Price" } },
      { type: "section", fields: [{ type: "mrkdwn", text: "*Speed*\n10 Gbps" }] },
      {
        type: "actions",
        elements: [
          { type: "button", text: { type: "plain_text", text: "Approve" }, value: "secret-value" },
          {
            type: "button",
            text: { type: "plain_text", text: "Open" },
            url: "https://portal.test",
          },
        ],
      },
      {
        type: "rich_text",
        elements: [
          { type: "rich_text_section", elements: [{ type: "user", user_id: "U0REQUEST1" }] },
        ],
      },
    ]);
    for (const word of [
      "price",
      "speed",
      "10",
      "gbps",
      "approve",
      "open",
      "portal",
      "u0request1",
    ]) {
      expect(words.has(word)).toBe(true);
    }
    // A button's value is never shown to anyone.
    expect(words.has("secret")).toBe(false);
  });

  describe("on a watched stand-in", () => {
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
      await standin.close();
    });

    it("catches a posted message whose text holds words missing from its blocks, once", async () => {
      watchFallbackText(standin);
      await client.chat.postMessage({
        channel: STANDIN_IDS.general,
        text: "Stopped tracking port order po-1",
        blocks: [section("Done.")],
      });
      await client.chat.postMessage({
        channel: STANDIN_IDS.general,
        text: "Done",
        blocks: [section("*Done.*")],
      });
      await client.chat.postEphemeral({
        channel: STANDIN_IDS.general,
        user: STANDIN_IDS.requester,
        text: "Usage: /connect approvals [all]",
        blocks: [section("Sandbox")],
      });
      const problems = takeFallbackProblems();
      expect(problems).toEqual([
        {
          method: "chat.postMessage",
          text: "Stopped tracking port order po-1",
          missing: ["stopped", "tracking", "port", "order", "po", "1"],
        },
        {
          method: "chat.postEphemeral",
          text: "Usage: /connect approvals [all]",
          missing: ["usage", "connect", "approvals", "all"],
        },
      ]);
      // Each call is looked at once: the setup file's own look after this test finds nothing.
      expect(takeFallbackProblems()).toEqual([]);
    });
  });
});
