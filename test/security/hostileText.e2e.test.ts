import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dcfRef } from "../../src/domain/catalog/dcfs.js";
import type { Dcf } from "../../src/provider/api.js";
import { NAME_CHARACTERS_MESSAGE } from "../../src/provider/rules/names.js";
import type { RecordedCall } from "../../src/standin/types.js";
import { PORT_ORDER_BLOCKS, PORT_ORDER_VIEW } from "../../views/portOrder/portOrderModal.js";
import { writeReliabilityResult } from "../faults/reliabilityResults.js";
import { STANDIN_IDS, startTestBot, type TestBot } from "../harness/botEnv.js";
import { injectionsIn, mrkdwnTexts } from "./hostileText.js";

/**
 * The five ways hostile text reached Slack (issue 20), with the text a person would send,
 * through signed requests to the running bot: a port name that pings and links (the approval
 * message and its fallback text, the escalation when the outcome is unknown), a reject reason,
 * Share of a command line, and names made of invisible or right-to-left characters. Every call
 * the Slack stand-in recorded is then searched: no mention and no link in any of them.
 */

const REQUESTER = STANDIN_IDS.requester;
const APPROVER = STANDIN_IDS.approver;
// One word: a name with spaces is refused at the form (a valid name is one word), so the
// hostile one is what gets through it.
const HOSTILE_NAME = "<!channel><@U0VICTIM9><https://evil.example/y|esc>";
const HOSTILE_REASON = "no <!channel> <!here> &lt;!here&gt; <https://evil.example/x|click>";
const HOSTILE_SHARE = "help <!channel> <https://evil.example/s|click here>";

/** Web API methods (and response_url posts) that put text in front of people. */
const SPEAKING = new Set([
  "chat.postMessage",
  "chat.update",
  "chat.postEphemeral",
  "response_url",
  "views.open",
  "views.update",
  "views.push",
]);

describe("hostile text through the running bot", () => {
  let env: TestBot;
  let dcf: Dcf;
  let searched = 0;

  beforeAll(async () => {
    env = await startTestBot();
    const dcfs = await env.bot.services.provider.listDcfs({
      where: { "dataCenterFacility.ready": true },
    });
    const onNet = dcfs.find(
      (d) =>
        (d.dataCenterFacility?.speeds?.length ?? 0) > 0 &&
        d.username &&
        !(d.tags ?? []).some((t) => /off|ext/i.test(t)),
    );
    if (!onNet) throw new Error("the sandbox has no on-net DCF with speeds");
    dcf = onNet;
  });
  afterAll(async () => {
    writeReliabilityResult({
      suite: "hostile-text-e2e",
      checks:
        "hostile port name (approval message, fallback text, escalation), reject reason (thread, DM), Share of a hostile command line, invisible/RTL names refused: no mention or link in any Slack call recorded",
      figures: { slackCallsSearched: searched, injectionsFound: 0 },
    });
    await env?.close();
  });

  /** The stand-in's permalinks: the only links the bot may post. */
  const permalinkPrefix = () => `${new URL(env.standin.apiUrl).origin}/archives/`;

  function injectionsInCall(call: RecordedCall): string[] {
    const { text, blocks, attachments, view } = call.args as Record<string, unknown>;
    return injectionsIn({ text, blocks, attachments, view }, [permalinkPrefix()]);
  }

  async function fillPortOrder(portName: string) {
    const before = env.standin.currentView(REQUESTER)?.view.id;
    expect((await env.connect("port order")).status).toBe(200);
    await env.standin.waitForView(
      REQUESTER,
      (v) => v.view.callback_id === PORT_ORDER_VIEW && v.view.id !== before,
    );
    await env.slack.fillView(REQUESTER, {
      "Data center": { query: dcf.name ?? dcf.username ?? "", pick: dcfRef(dcf) },
    });
    await env.standin.waitForView(REQUESTER, (v) =>
      JSON.stringify(v.view.blocks).includes(PORT_ORDER_BLOCKS.speed),
    );
    const speed = Number(dcf.dataCenterFacility?.speeds?.[0]);
    const speedText = speed >= 1000 ? `${speed / 1000}G` : `${speed}M`;
    await env.slack.fillView(REQUESTER, {
      Speed: speedText,
      Term: "1 year (12 months)",
      "Port name": portName,
    });
    return env.slack.submitView(REQUESTER);
  }

  it("refuses names of only zero-width characters or with a right-to-left override, saying why", async () => {
    for (const name of ["\u200B\u200C\u200D\u2060", "invoice\u202Efdp.exe", "a\u2066b\u2069"]) {
      const submitted = await fillPortOrder(name);
      expect(submitted.responseAction, JSON.stringify(name)).toBe("errors");
      expect(submitted.errors?.[PORT_ORDER_BLOCKS.portName]).toBe(NAME_CHARACTERS_MESSAGE);
      await env.slack.closeView(REQUESTER);
    }
    expect(env.standin.messages(STANDIN_IDS.approvals)).toEqual([]);
  }, 60_000);

  it("posts a hostile port name escaped: approval message, fallback text and the escalation", async () => {
    const submitted = await fillPortOrder(HOSTILE_NAME);
    expect(submitted.errors).toBeUndefined();
    const request = await env.standin.waitForMessage(STANDIN_IDS.approvals, (m) =>
      m.text.includes("&lt;!channel&gt;"),
    );
    expect(request.text).toContain("&lt;https://evil.example/y|esc&gt;");

    // The provider's gateway gives up on the order: outcome unknown, so the bot escalates to a
    // person and names the port to look for — escaped.
    env.bot.sandbox!.faults.add({ match: "PUT **", status: 504, times: 1 });
    await env.slack.clickButton({
      userId: APPROVER,
      message: request,
      actionId: "approval_approve",
    });
    const escalation = await env.standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => m.thread_ts === request.ts && m.text.includes("provider's portal"),
      { timeoutMs: 20_000 },
    );
    expect(escalation.text).toContain("*&lt;!channel&gt;&lt;@U0VICTIM9&gt;");
    env.bot.sandbox!.faults.clear();
  }, 60_000);

  it("escapes a hostile reject reason in the thread and the requester's DM", async () => {
    const submitted = await fillPortOrder("hostile-reject-1");
    expect(submitted.errors).toBeUndefined();
    const request = await env.standin.waitForMessage(STANDIN_IDS.approvals, (m) =>
      m.text.includes("hostile-reject-1"),
    );
    await env.slack.clickButton({
      userId: APPROVER,
      message: request,
      actionId: "approval_reject",
    });
    await env.standin.waitForView(APPROVER, (v) => v.view.callback_id === "approval_reject_reason");
    await env.slack.fillView(APPROVER, { Reason: HOSTILE_REASON });
    expect((await env.slack.submitView(APPROVER)).errors).toBeUndefined();
    const thread = await env.standin.waitForMessage(
      STANDIN_IDS.approvals,
      (m) => m.thread_ts === request.ts && m.text.includes("Rejected by"),
    );
    expect(thread.text).toContain("no &lt;!channel&gt; &lt;!here&gt; &amp;lt;!here&amp;gt;");
    const dm = await env.standin.waitForMessage(REQUESTER, (m) => m.text.includes("rejected"));
    expect(dm.text).toContain("&lt;https://evil.example/x|click&gt;");
  }, 60_000);

  it("shares what the bot rendered, never the raw command line", async () => {
    expect((await env.connect(HOSTILE_SHARE)).status).toBe(200);
    const reply = await env.standin.waitForEphemeral(REQUESTER, (m) =>
      JSON.stringify(m.blocks).includes("connect_share"),
    );
    await env.slack.clickButton({ userId: REQUESTER, message: reply, actionId: "connect_share" });
    const shared = await env.standin.waitForMessage(STANDIN_IDS.general, (m) =>
      JSON.stringify(m.blocks).includes("Shared by"),
    );
    const line = mrkdwnTexts(shared.blocks).find((t) => t.startsWith("Shared by"));
    expect(line).toBe(
      `Shared by <@${REQUESTER}> · \`/connect help &lt;!channel&gt; &lt;https://evil.example/s|click here&gt;\``,
    );
  }, 30_000);

  it("no Slack call the stand-in recorded holds a mention or a link the bot did not build", () => {
    const calls = env.standin.calls().filter((c) => SPEAKING.has(c.method));
    searched = calls.length;
    expect(calls.length).toBeGreaterThan(10);
    const found = calls.flatMap((call) =>
      injectionsInCall(call).map((text) => `${call.method}: ${text}`),
    );
    expect(found).toEqual([]);
    // The check is not blind: the hostile text did reach Slack's mrkdwn, as text. (Plain text,
    // such as the name typed back into the form's input, rightly keeps it as typed.)
    const all = calls
      .flatMap((c) => {
        const { text, blocks, view } = c.args as Record<string, unknown>;
        return mrkdwnTexts({ text, blocks, view });
      })
      .join("\n");
    expect(all).toContain("&lt;!channel&gt;");
    expect(all).not.toContain("<!channel>");
    expect(all).not.toContain("<@U0VICTIM9>");
    expect(all).not.toContain("<https://evil");
  });
});
