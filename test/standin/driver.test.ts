import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import {
  type AppAck,
  SlackAppDriver,
  type SlackStandin,
  STANDIN_IDS,
  startSlackStandin,
  type Transport,
} from "../../src/standin/index.js";

const { requester, approver, general, approvals } = STANDIN_IDS;

/** Stands in for the app: records what Slack would send, answers with queued acks. */
class RecordingTransport implements Transport {
  readonly sent: { kind: string; payload: Record<string, unknown> }[] = [];
  readonly acks: AppAck[] = [];

  async send(kind: "command" | "interaction", payload: object): Promise<AppAck> {
    this.sent.push({ kind, payload: payload as Record<string, unknown> });
    return this.acks.shift() ?? { status: 200, body: undefined };
  }

  last(): Record<string, unknown> {
    const entry = this.sent.at(-1);
    if (!entry) throw new Error("nothing sent");
    return entry.payload;
  }
}

const modal = (title: string, extra: Record<string, unknown> = {}) => ({
  type: "modal",
  callback_id: title.toLowerCase().replace(/\W+/g, "_"),
  title: { type: "plain_text", text: title },
  submit: { type: "plain_text", text: "Submit" },
  blocks: [
    {
      type: "input",
      block_id: "port_name",
      label: { type: "plain_text", text: "Port name" },
      element: { type: "plain_text_input", action_id: "name" },
    },
    {
      type: "actions",
      block_id: "tools",
      elements: [
        {
          type: "button",
          action_id: "refresh",
          value: "r",
          text: { type: "plain_text", text: "Refresh" },
        },
        {
          type: "static_select",
          action_id: "term",
          options: [
            { text: { type: "plain_text", text: "1 month" }, value: "1" },
            { text: { type: "plain_text", text: "12 months" }, value: "12" },
          ],
        },
      ],
    },
  ],
  ...extra,
});

describe("the driver: what it sends and how it applies the app's answers", () => {
  let standin: SlackStandin;
  let app: RecordingTransport;
  let driver: SlackAppDriver;

  beforeAll(async () => {
    standin = await startSlackStandin();
  });

  afterAll(async () => {
    await standin.close();
  });

  beforeEach(() => {
    app = new RecordingTransport();
    driver = new SlackAppDriver(standin.workspace, app, "verification-token");
  });

  function openModal(userId: string, extra: Record<string, unknown> = {}) {
    return standin.workspace.openView(userId, modal("Order a port", extra));
  }

  it("sends a slash command with the fields Slack sends, a response URL and a trigger id", async () => {
    const outcome = await driver.command(requester, general, "/connect", "price port AMS 10G 12");
    expect(app.sent[0]?.kind).toBe("command");
    expect(app.last()).toEqual({
      token: "verification-token",
      team_id: STANDIN_IDS.team,
      team_domain: "standin-networks",
      channel_id: general,
      channel_name: "general",
      user_id: requester,
      user_name: "rita.requester",
      command: "/connect",
      text: "price port AMS 10G 12",
      api_app_id: STANDIN_IDS.app,
      is_enterprise_install: "false",
      response_url: outcome.responseUrl,
      trigger_id: outcome.triggerId,
    });
    expect(outcome.responseUrl).toMatch(new RegExp(`^${standin.url}/response/R[A-Z0-9]+$`));
    expect(outcome.response).toBeUndefined();
  });

  it("sends block_actions from a message with container, channel, message and response_url", async () => {
    const message = standin.workspace.postMessage({
      channel: approvals,
      text: "Approve?",
      blocks: [
        {
          type: "actions",
          block_id: "decision",
          elements: [
            {
              type: "button",
              action_id: "approve",
              value: "req-9",
              style: "primary",
              text: { type: "plain_text", text: "Approve" },
            },
          ],
        },
      ],
      via: "test",
    });
    await driver.clickButton({ userId: approver, message, actionId: "approve" });
    const payload = app.last();
    expect(payload).toMatchObject({
      type: "block_actions",
      user: { id: approver, username: "alex.approver" },
      container: {
        type: "message",
        message_ts: message.ts,
        channel_id: approvals,
        is_ephemeral: false,
      },
      channel: { id: approvals, name: "network-approvals" },
      message: { ts: message.ts, text: "Approve?" },
      response_url: expect.stringMatching(/\/response\/R/),
      trigger_id: expect.any(String),
      actions: [
        {
          type: "button",
          action_id: "approve",
          block_id: "decision",
          value: "req-9",
          style: "primary",
          text: { text: "Approve" },
        },
      ],
    });
    // The stand-in's bookkeeping is not part of what Slack sends.
    expect(payload.message).not.toHaveProperty("via");

    await expect(
      driver.clickButton({ userId: approver, message, actionId: "reject" }),
    ).rejects.toThrow(/No element with action_id "reject"; elements: decision\/approve \(button\)/);
  });

  it("sends block_actions from a view with its state and no response_url; a select's choice is entered", async () => {
    const view = openModal(requester);
    await driver.selectOption({
      userId: requester,
      view: view.view.id,
      actionId: "term",
      option: "12 months",
    });
    const payload = app.last();
    expect(payload).toMatchObject({
      container: { type: "view", view_id: view.view.id },
      view: { id: view.view.id, callback_id: "order_a_port" },
      actions: [
        {
          type: "static_select",
          action_id: "term",
          block_id: "tools",
          selected_option: { value: "12" },
        },
      ],
    });
    expect(payload).not.toHaveProperty("response_url");
    expect(standin.view(view.view.id)?.view.state.values.tools?.term?.selected_option?.value).toBe(
      "12",
    );
  });

  it("does not submit while a required input is empty, as Slack's client", async () => {
    openModal(requester);
    await expect(driver.submitView(requester)).rejects.toThrow(
      /required input\(s\) empty: "Port name"/,
    );
    expect(app.sent).toHaveLength(0);
  });

  describe("Enter in a typed input, as Slack's client handles it", () => {
    /** A form with a required text input, a second required one below, and an optional note. */
    const form = (dispatch: Record<string, unknown>) =>
      modal("Order a port", {
        blocks: [
          {
            type: "input",
            block_id: "company",
            label: { type: "plain_text", text: "Company" },
            element: { type: "plain_text_input", action_id: "company_input" },
            ...dispatch,
          },
          {
            type: "input",
            block_id: "port_name",
            label: { type: "plain_text", text: "Port name" },
            element: { type: "plain_text_input", action_id: "name" },
          },
          {
            type: "input",
            block_id: "note",
            optional: true,
            label: { type: "plain_text", text: "Note" },
            element: { type: "plain_text_input", action_id: "note", multiline: true },
          },
        ],
      });

    it("submits the whole modal without dispatch_action: the fields not reached yet are refused by Slack, nothing is sent", async () => {
      standin.workspace.openView(requester, form({}));
      await driver.fillView(requester, { Company: "globex" });
      const outcome = await driver.pressEnter(requester, "Company");
      expect(outcome).toEqual({
        effect: "submit",
        refused: { port_name: "Please complete this required field." },
      });
      expect(app.sent).toHaveLength(0);
    });

    it("submits when every required input is filled, and the app's answer is applied", async () => {
      standin.workspace.openView(requester, form({}));
      await driver.fillView(requester, { Company: "globex", "Port name": "p1" });
      app.acks.push({
        status: 200,
        body: { response_action: "errors", errors: { company: "No such company" } },
      });
      const outcome = await driver.pressEnter(requester, "Port name");
      expect(outcome.effect).toBe("submit");
      expect(outcome).toMatchObject({ submitted: { errors: { company: "No such company" } } });
      expect(app.last()).toMatchObject({ type: "view_submission" });
    });

    it("sends block_actions with the typed value when the block dispatches, and submits nothing", async () => {
      const view = standin.workspace.openView(requester, form({ dispatch_action: true }));
      await driver.fillView(requester, { Company: "globex" });
      const before = app.sent.length;
      const outcome = await driver.pressEnter(requester, "Company");
      expect(outcome).toMatchObject({ effect: "dispatch", ack: { status: 200 } });
      expect(app.sent).toHaveLength(before + 1);
      expect(app.last()).toMatchObject({
        type: "block_actions",
        view: { id: view?.view.id },
        actions: [{ action_id: "company_input", block_id: "company", value: "globex" }],
      });
      expect(standin.currentView(requester)?.view.id).toBe(view?.view.id);
    });

    it("submits when dispatch_action_config triggers only on typing, and adds a line in a multiline input", async () => {
      standin.workspace.openView(
        requester,
        form({
          dispatch_action: true,
          element: {
            type: "plain_text_input",
            action_id: "company_input",
            dispatch_action_config: { trigger_actions_on: ["on_character_entered"] },
          },
        }),
      );
      expect(await driver.pressEnter(requester, "Company")).toMatchObject({ effect: "submit" });
      expect(await driver.pressEnter(requester, "Note")).toEqual({ effect: "newline" });
      expect(app.sent).toHaveLength(0);
    });
  });

  it("closes the submitted view on an empty ack, revealing the one below", async () => {
    const root = openModal(requester);
    const pushed = standin.workspace.pushView(requester, modal("Confirm"));
    await driver.fillView(requester, { "Port name": "p1" }, { viewId: pushed?.view.id });
    const outcome = await driver.submitView(requester);
    expect(app.last()).toMatchObject({
      type: "view_submission",
      view: {
        id: pushed?.view.id,
        state: { values: { port_name: { name: { type: "plain_text_input", value: "p1" } } } },
      },
    });
    expect(outcome.currentView?.view.id).toBe(root.view.id);
    expect(standin.view(pushed?.view.id as string)?.closed).toBe(true);
  });

  it("applies response_action update, push and clear", async () => {
    const root = openModal(requester);
    await driver.fillView(requester, { "Port name": "p1" });

    app.acks.push({
      status: 200,
      body: { response_action: "update", view: modal("Review the order") },
    });
    const updated = await driver.submitView(requester);
    expect(updated.responseAction).toBe("update");
    expect(updated.currentView?.view).toMatchObject({
      id: root.view.id,
      title: { text: "Review the order" },
    });
    // The input kept its block_id and action_id, so what was typed stays.
    expect(updated.currentView?.view.state.values.port_name?.name?.value).toBe("p1");

    app.acks.push({ status: 200, body: { response_action: "push", view: modal("Confirm") } });
    const pushed = await driver.submitView(requester);
    expect(standin.modalStack(requester).map((v) => v.view.title.text)).toEqual([
      "Review the order",
      "Confirm",
    ]);
    expect(pushed.currentView?.view.previous_view_id).toBe(root.view.id);

    await driver.fillView(requester, { "Port name": "p2" });
    app.acks.push({ status: 200, body: { response_action: "clear" } });
    const cleared = await driver.submitView(requester);
    expect(cleared.currentView).toBeUndefined();
    expect(standin.modalStack(requester)).toEqual([]);
  });

  it("reports what Slack would refuse in the app's answer instead of applying it", async () => {
    openModal(requester);
    await driver.fillView(requester, { "Port name": "p1" });
    app.acks.push({
      status: 200,
      body: { response_action: "update", view: modal("A title far longer than Slack allows") },
    });
    const bad = await driver.submitView(requester);
    expect(bad.problems.join("\n")).toContain("/view/title/text");
    expect(bad.currentView?.view.title.text).toBe("Order a port");

    app.acks.push({
      status: 200,
      body: { response_action: "errors", errors: { nope: "wrong block" } },
    });
    const errors = await driver.submitView(requester);
    expect(errors.problems).toEqual([
      "errors name block_id(s) that are no input of the view: nope",
    ]);

    app.acks.push({ status: 500, body: undefined });
    const failed = await driver.submitView(requester);
    expect(failed.problems[0]).toMatch(/HTTP 500/);
    expect(failed.currentView).toBeDefined();
  });

  it("tells the app about a closed view only when it asked (notify_on_close)", async () => {
    openModal(requester);
    await expect(driver.closeView(requester)).resolves.toBeUndefined();
    expect(app.sent).toHaveLength(0);

    const notifying = openModal(requester, { notify_on_close: true });
    await driver.closeView(requester);
    expect(app.last()).toMatchObject({
      type: "view_closed",
      is_cleared: false,
      view: { id: notifying.view.id },
    });
    expect(standin.currentView(requester)).toBeUndefined();
  });

  it("asks the app for external select options with block_suggestion", async () => {
    const view = standin.workspace.openView(requester, {
      ...modal("Pick"),
      blocks: [
        {
          type: "input",
          block_id: "dcf",
          label: { type: "plain_text", text: "Data center" },
          element: { type: "external_select", action_id: "dcf_select" },
        },
      ],
    });
    app.acks.push({
      status: 200,
      body: {
        option_groups: [
          {
            label: { type: "plain_text", text: "NL" },
            options: [{ text: { type: "plain_text", text: "AM3" }, value: "am3" }],
          },
        ],
      },
    });
    const options = await driver.suggest(requester, view.view.id, "dcf_select", "dcf", "am");
    expect(options).toEqual([{ text: { type: "plain_text", text: "AM3" }, value: "am3" }]);
    expect(app.last()).toMatchObject({
      type: "block_suggestion",
      action_id: "dcf_select",
      block_id: "dcf",
      value: "am",
      container: { type: "view", view_id: view.view.id },
    });
  });
});

describe("response URLs (what respond() posts)", () => {
  let standin: SlackStandin;

  beforeAll(async () => {
    standin = await startSlackStandin();
  });

  afterAll(async () => {
    await standin.close();
  });

  const post = (url: string, body: unknown) =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });

  it("shows an ephemeral message by default and posts in the channel with in_channel", async () => {
    const url = standin.workspace.createResponseUrl({ channel: general, userId: requester });
    expect((await post(url, { text: "Only for you" })).status).toBe(200);
    expect((await post(url, { response_type: "in_channel", text: "For everyone" })).status).toBe(
      200,
    );
    expect(standin.ephemerals(requester).map((e) => e.text)).toContain("Only for you");
    const inChannel = await standin.waitForMessage(general, (m) => m.text === "For everyone");
    expect(inChannel.via).toBe("response_url");
    expect(standin.responses().map((r) => r.applied)).toEqual(["ephemeral", "in_channel"]);
    expect(standin.calls("response_url").map((c) => c.args.text)).toEqual([
      "Only for you",
      "For everyone",
    ]);
  });

  it("replaces and deletes the original message", async () => {
    const original = standin.workspace.postMessage({
      channel: approvals,
      text: "Approve?",
      via: "test",
    });
    const url = standin.workspace.createResponseUrl({
      channel: approvals,
      userId: approver,
      messageTs: original.ts,
    });
    await post(url, { replace_original: true, text: "Approved" });
    expect(standin.messages(approvals).find((m) => m.ts === original.ts)?.text).toBe("Approved");
    await post(url, { delete_original: true });
    expect(standin.messages(approvals).some((m) => m.ts === original.ts)).toBe(false);
  });

  it("answers like Slack for an unknown URL, an empty message, and a sixth use", async () => {
    const unknown = await post(`${standin.url}/response/RNOSUCHURL`, { text: "x" });
    expect(unknown.status).toBe(404);
    const url = standin.workspace.createResponseUrl({ channel: general, userId: requester });
    const empty = await post(url, { response_type: "ephemeral" });
    expect(empty.status).toBe(400);
    expect(await empty.json()).toEqual({ ok: false, error: "no_text" });
    for (let i = 0; i < 5; i += 1) expect((await post(url, { text: `use ${i}` })).status).toBe(200);
    const sixth = await post(url, { text: "one too many" });
    expect(sixth.status).toBe(404);
    expect(await sixth.json()).toEqual({ ok: false, error: "used_url" });
  });
});
