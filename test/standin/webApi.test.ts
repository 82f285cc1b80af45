import { webApi } from "@slack/bolt";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type SlackStandin, STANDIN_IDS, startSlackStandin } from "../../src/standin/index.js";

const { WebClient } = webApi;
type WebClient = InstanceType<typeof WebClient>;

/** WebClient logs every refused call; these tests provoke refusals on purpose. */
const quietLogger: NonNullable<webApi.WebClientOptions["logger"]> = {
  debug: () => {},
  info: () => {},
  warn: () => {},
  error: () => {},
  setLevel: () => {},
  getLevel: () => webApi.LogLevel.ERROR,
  setName: () => {},
};

const { requester, approver, groupApprover, approverGroup, general, approvals } = STANDIN_IDS;

function platformError(error: unknown): string | undefined {
  return (error as { data?: { error?: string } }).data?.error;
}

describe("Slack stand-in Web API, called by a real WebClient", () => {
  let standin: SlackStandin;
  let client: WebClient;

  beforeAll(async () => {
    standin = await startSlackStandin();
    client = new WebClient(standin.botToken, {
      slackApiUrl: standin.apiUrl,
      logger: quietLogger,
      retryConfig: { retries: 0 },
    });
  });

  afterAll(async () => {
    await standin.close();
  });

  beforeEach(() => {
    standin.clearCalls();
  });

  it("listens on 127.0.0.1 and exposes an API URL ending with /api/", () => {
    expect(standin.apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/$/);
  });

  it("answers auth.test with the bot's identity (what Bolt reads at start-up)", async () => {
    const result = await client.auth.test();
    expect(result).toMatchObject({
      ok: true,
      team_id: STANDIN_IDS.team,
      user_id: STANDIN_IDS.botUser,
      bot_id: STANDIN_IDS.bot,
    });
    const [call] = standin.calls("auth.test");
    expect(call?.token).toBe(standin.botToken);
  });

  it("posts a message with blocks and metadata, records the decoded args, and threads replies", async () => {
    const blocks = [
      {
        type: "section",
        block_id: "summary",
        text: { type: "mrkdwn", text: "*Port order* for AMS" },
      },
      {
        type: "actions",
        elements: [
          { type: "button", action_id: "approve", text: { type: "plain_text", text: "Approve" } },
        ],
      },
    ];
    const posted = await client.chat.postMessage({
      channel: approvals,
      text: "Approval needed",
      blocks,
      metadata: { event_type: "approval_requested", event_payload: { requestId: "r-1" } },
    });
    expect(posted.ok).toBe(true);
    expect(posted.ts).toMatch(/^\d{10}\.\d{6}$/);

    const [call] = standin.calls("chat.postMessage");
    // WebClient form-encodes nested args as JSON; the record has them decoded again.
    expect(call?.args.blocks).toEqual(blocks);
    expect(call?.args.metadata).toEqual({
      event_type: "approval_requested",
      event_payload: { requestId: "r-1" },
    });

    const reply = await client.chat.postMessage({
      channel: approvals,
      text: "Order placed",
      thread_ts: posted.ts,
    });
    const replyToReply = await client.chat.postMessage({
      channel: approvals,
      text: "Status: ACTIVE",
      thread_ts: reply.ts,
    });
    expect(Number(reply.ts)).toBeGreaterThan(Number(posted.ts));

    const thread = standin.thread(approvals, posted.ts as string);
    expect(thread.map((m) => m.text)).toEqual([
      "Approval needed",
      "Order placed",
      "Status: ACTIVE",
    ]);
    // A reply to a reply lands in the parent's thread, as in Slack.
    expect(thread[2]?.thread_ts).toBe(posted.ts);
    expect(thread[0]).toMatchObject({ reply_count: 2, latest_reply: replyToReply.ts });
    // Slack fills in the action_id it was not given.
    const actions = thread[0]?.blocks?.[1] as {
      block_id?: string;
      elements: { action_id: string }[];
    };
    expect(actions.block_id).toEqual(expect.any(String));
    expect(actions.elements[0]?.action_id).toBe("approve");
  });

  it("gives strictly increasing message timestamps even for a burst", async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        client.chat.postMessage({ channel: general, text: `burst ${i}` }),
      ),
    );
    const stamps = results.map((r) => r.ts as string).sort();
    expect(new Set(stamps).size).toBe(20);
    const inChannel = standin.messages(general).map((m) => m.ts);
    for (let i = 1; i < inChannel.length; i += 1) {
      expect(Number((inChannel[i] as string).replace(".", ""))).toBeGreaterThan(
        Number((inChannel[i - 1] as string).replace(".", "")),
      );
    }
  });

  it("updates, links to and deletes a message", async () => {
    const posted = await client.chat.postMessage({ channel: approvals, text: "Pending" });
    const ts = posted.ts as string;
    const updated = await client.chat.update({
      channel: approvals,
      ts,
      text: "Approved by Alex",
      blocks: [{ type: "section", text: { type: "plain_text", text: "Approved" } }],
    });
    expect(updated).toMatchObject({ ok: true, ts, text: "Approved by Alex" });
    expect(standin.messages(approvals).find((m) => m.ts === ts)).toMatchObject({
      text: "Approved by Alex",
      edited: expect.anything(),
    });

    const link = await client.chat.getPermalink({ channel: approvals, message_ts: ts });
    expect(link.permalink).toBe(`${standin.url}/archives/${approvals}/p${ts.replace(".", "")}`);

    await client.chat.delete({ channel: approvals, ts });
    expect(standin.messages(approvals).some((m) => m.ts === ts)).toBe(false);
    await expect(client.chat.update({ channel: approvals, ts, text: "again" })).rejects.toSatisfy(
      (e) => platformError(e) === "message_not_found",
    );
  });

  it("shows an ephemeral message to one person only", async () => {
    const result = await client.chat.postEphemeral({
      channel: general,
      user: requester,
      text: "Only you can see this",
    });
    expect(result.message_ts).toMatch(/^\d+\.\d{6}$/);
    expect(standin.ephemerals(requester).map((e) => e.text)).toContain("Only you can see this");
    expect(standin.ephemerals(approver)).toHaveLength(0);
  });

  it("refuses what Slack refuses: missing channel, bad blocks, too many blocks, too long text, no text", async () => {
    const cases: [Promise<unknown>, string][] = [
      [client.chat.postMessage({ channel: "C0NOSUCH1", text: "x" }), "channel_not_found"],
      [
        client.apiCall("chat.postMessage", { channel: general, text: "x", blocks: "not json" }),
        "invalid_blocks",
      ],
      [
        client.apiCall("chat.postMessage", {
          channel: general,
          text: "x",
          blocks: { type: "section" },
        }),
        "invalid_blocks",
      ],
      [
        client.chat.postMessage({
          channel: general,
          text: "x",
          blocks: Array.from({ length: 51 }, () => ({ type: "divider" as const })),
        }),
        "invalid_blocks",
      ],
      [client.chat.postMessage({ channel: general, text: "x".repeat(40_001) }), "msg_too_long"],
      [client.chat.postMessage({ channel: general, text: "" }), "no_text"],
    ];
    for (const [call, error] of cases) {
      await expect(call).rejects.toSatisfy((e) => platformError(e) === error);
    }
    // Exactly at the limits is fine.
    await expect(
      client.chat.postMessage({
        channel: general,
        text: "x".repeat(40_000),
        blocks: Array.from({ length: 50 }, () => ({ type: "divider" as const })),
      }),
    ).resolves.toMatchObject({ ok: true });
    const failed = standin.calls("chat.postMessage").filter((c) => !c.ok);
    expect(failed.map((c) => c.error)).toEqual(cases.map(([, error]) => error));
  });

  it("explains invalid blocks with Slack's json-pointer messages", async () => {
    const error = await client.chat
      .postMessage({
        channel: general,
        text: "x",
        blocks: [{ type: "header", text: { type: "plain_text", text: "h".repeat(151) } }],
      })
      .catch((e: unknown) => e);
    expect(platformError(error)).toBe("invalid_blocks");
    const messages = (error as { data: { response_metadata: { messages: string[] } } }).data
      .response_metadata.messages;
    expect(messages[0]).toContain("/blocks/0/text/text");
  });

  it("reads people and user groups", async () => {
    const info = await client.users.info({ user: requester });
    expect(info.user).toMatchObject({
      id: requester,
      name: "rita.requester",
      real_name: "Rita Requester",
      tz: "Europe/Amsterdam",
    });
    expect([3600, 7200]).toContain(info.user?.tz_offset);
    const group = await client.usergroups.users.list({ usergroup: approverGroup });
    expect(group.users).toEqual([groupApprover]);
    // Handles, for a step's error ("@network-approvers"); members are not part of the list.
    const groups = await client.usergroups.list({});
    expect(groups.usergroups?.find((g) => g.id === approverGroup)).toEqual(
      expect.objectContaining({ id: approverGroup, handle: "network-approvers" }),
    );
    expect(groups.usergroups?.find((g) => g.id === approverGroup)).not.toHaveProperty("users");
    await expect(client.users.info({ user: "U0NOBODY1" })).rejects.toSatisfy(
      (e) => platformError(e) === "user_not_found",
    );
    await expect(client.usergroups.users.list({ usergroup: "S0NOGROUP" })).rejects.toSatisfy(
      (e) => platformError(e) === "no_such_subteam",
    );
    const channel = await client.conversations.info({ channel: approvals });
    expect(channel.channel).toMatchObject({ id: approvals, name: "network-approvals" });
  });

  it("opens, pushes and updates modals against trigger ids, with hashes and external ids", async () => {
    const modal = (title: string, extra: Record<string, unknown> = {}) => ({
      type: "modal" as const,
      title: { type: "plain_text" as const, text: title },
      submit: { type: "plain_text" as const, text: "Next" },
      blocks: [
        {
          type: "input" as const,
          block_id: "port_name",
          label: { type: "plain_text" as const, text: "Port name" },
          element: { type: "plain_text_input" as const, action_id: "name" },
        },
      ],
      ...extra,
    });
    const trigger = standin.workspace.issueTrigger(requester);
    const opened = await client.views.open({
      trigger_id: trigger,
      view: modal("Order a port", { external_id: "order-1" }),
    });
    const viewId = opened.view?.id as string;
    expect(viewId).toMatch(/^V[A-Z0-9]+$/);
    expect(standin.currentView(requester)?.view.id).toBe(viewId);

    // A trigger id works once.
    await expect(
      client.views.open({ trigger_id: trigger, view: modal("Again") }),
    ).rejects.toSatisfy((e) => platformError(e) === "exchanged_trigger_id");
    await expect(
      client.views.open({ trigger_id: "123.456.nope", view: modal("Nope") }),
    ).rejects.toSatisfy((e) => platformError(e) === "invalid_trigger_id");

    const pushed = await client.views.push({
      trigger_id: standin.workspace.issueTrigger(requester),
      view: modal("Confirm"),
    });
    expect(pushed.view?.previous_view_id).toBe(viewId);
    expect(standin.modalStack(requester).map((v) => v.view.title.text)).toEqual([
      "Order a port",
      "Confirm",
    ]);

    const hash = opened.view?.hash as string;
    const updated = await client.views.update({
      view_id: viewId,
      hash,
      view: modal("Order a port (2)"),
    });
    expect(updated.view?.id).toBe(viewId);
    expect(updated.view?.hash).not.toBe(hash);
    // The old hash is stale now: Slack refuses to overwrite a newer version.
    await expect(
      client.views.update({ view_id: viewId, hash, view: modal("Stale") }),
    ).rejects.toSatisfy((e) => platformError(e) === "hash_conflict");
    const byExternal = await client.views.update({
      external_id: "order-1",
      view: modal("Order a port (3)"),
    });
    expect(byExternal.view?.id).toBe(viewId);
    await expect(
      client.views.update({ view_id: "V0UNKNOWN1", view: modal("x") }),
    ).rejects.toSatisfy((e) => platformError(e) === "not_found");
    await expect(
      client.views.open({
        trigger_id: standin.workspace.issueTrigger(requester),
        view: modal("A title that is far too long"),
      }),
    ).rejects.toSatisfy((e) => platformError(e) === "invalid_arguments");
  });

  it("publishes App Home per person", async () => {
    const home = {
      type: "home" as const,
      blocks: [
        { type: "section" as const, text: { type: "mrkdwn" as const, text: "Your requests" } },
      ],
    };
    const first = await client.views.publish({ user_id: approver, view: home });
    const second = await client.views.publish({ user_id: approver, view: home });
    expect(second.view?.id).toBe(first.view?.id);
    expect(standin.homeView(approver)?.view.type).toBe("home");
    expect(standin.homeView(requester)).toBeUndefined();
  });

  it("refuses a wrong or missing token, and a bot token for Socket Mode", async () => {
    const stranger = new WebClient("xoxb-someone-else", {
      slackApiUrl: standin.apiUrl,
      logger: quietLogger,
      retryConfig: { retries: 0 },
    });
    await expect(stranger.auth.test()).rejects.toSatisfy(
      (e) => platformError(e) === "invalid_auth",
    );
    const anonymous = new WebClient(undefined, {
      slackApiUrl: standin.apiUrl,
      logger: quietLogger,
      retryConfig: { retries: 0 },
    });
    await expect(anonymous.chat.postMessage({ channel: general, text: "x" })).rejects.toSatisfy(
      (e) => platformError(e) === "not_authed",
    );
    // The token may also come as a form field.
    await expect(
      anonymous.apiCall("auth.test", { token: standin.botToken }),
    ).resolves.toMatchObject({ ok: true });
    await expect(client.apps.connections.open({})).rejects.toSatisfy(
      (e) => platformError(e) === "not_allowed_token_type",
    );
    const unknown = await client.apiCall("nope.nothing").catch((e: unknown) => e);
    expect(platformError(unknown)).toBe("unknown_method");
  });

  it("accepts JSON bodies as well as form bodies", async () => {
    const response = await fetch(`${standin.apiUrl}chat.postMessage`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${standin.botToken}`,
        "content-type": "application/json; charset=utf-8",
      },
      body: JSON.stringify({ channel: general, text: "json body", blocks: [{ type: "divider" }] }),
    });
    expect(await response.json()).toMatchObject({ ok: true, channel: general });
    expect(standin.calls("chat.postMessage").at(-1)?.args).toMatchObject({
      text: "json body",
      blocks: [{ type: "divider" }],
    });
  });

  it("waits for calls and messages by event, and says what it saw when they do not come", async () => {
    const waiting = standin.waitForCall("chat.postMessage", (c) => c.args.text === "later");
    const message = standin.waitForMessage(general, (m) => m.text === "later");
    await client.chat.postMessage({ channel: general, text: "sooner" });
    await client.chat.postMessage({ channel: general, text: "later" });
    expect((await waiting).args.channel).toBe(general);
    expect((await message).user).toBe(STANDIN_IDS.botUser);

    // Already recorded calls count too.
    await expect(
      standin.waitForCall("chat.postMessage", (c) => c.args.text === "sooner"),
    ).resolves.toBeTruthy();

    await expect(standin.waitForCall("chat.update", () => true, { timeoutMs: 50 })).rejects.toThrow(
      /waiting for a chat\.update call.*saw[\s\S]*chat\.postMessage 200 ok .*later/,
    );
  });

  it("external file upload: URL, bytes, share in a DM; refuses a user id, a short upload and a replay", async () => {
    // The DM is opened first, as the bot does (channel_id needs its D… id).
    const dm = (await client.conversations.open({ users: requester })).channel?.id ?? "";
    expect(dm).toBe(`D${requester.slice(1)}`);
    const content = Buffer.from("a,b\n1,2\n");
    const ticket = await client.files.getUploadURLExternal({
      filename: "ledger.csv",
      length: content.length,
    });
    expect(ticket.file_id).toMatch(/^F/);
    // Sharing before the bytes arrived is refused, as Slack does.
    await expect(
      client.files.completeUploadExternal({
        files: [{ id: ticket.file_id! }],
        channel_id: dm,
      }),
    ).rejects.toSatisfy((e) => platformError(e) === "file_upload_not_complete");
    const posted = await fetch(ticket.upload_url!, {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: content,
    });
    expect(posted.status).toBe(200);
    expect(await posted.text()).toBe(`OK - ${content.length}`);
    // The upload URL works once.
    const again = await fetch(ticket.upload_url!, {
      method: "POST",
      headers: { "content-type": "application/octet-stream" },
      body: content,
    });
    expect(again.status).toBe(404);
    // channel_id takes a conversation id, never a user id.
    await expect(
      client.files.completeUploadExternal({
        files: [{ id: ticket.file_id! }],
        channel_id: requester,
      }),
    ).rejects.toSatisfy((e) => platformError(e) === "invalid_arguments");
    const done = await client.files.completeUploadExternal({
      files: [{ id: ticket.file_id!, title: "Ledger" }],
      channel_id: dm,
      initial_comment: "here it is",
    });
    expect(done.files?.[0]).toMatchObject({ id: ticket.file_id, title: "Ledger" });
    expect(standin.file(ticket.file_id!)?.bytes?.toString()).toBe("a,b\n1,2\n");
    expect(standin.messages(dm).at(-1)).toMatchObject({
      text: "here it is",
      files: [{ id: ticket.file_id, name: "ledger.csv", title: "Ledger" }],
    });
    await expect(
      client.files.getUploadURLExternal({ filename: "empty.csv", length: 0 }),
    ).rejects.toSatisfy((e) => platformError(e) === "missing_argument");
  });
});
