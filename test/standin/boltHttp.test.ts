import type { AddressInfo } from "node:net";
import { App, type BlockAction, LogLevel } from "@slack/bolt";
import type { ModalView, PlainTextOption } from "@slack/types";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type HttpTransport,
  type SlackAppDriver,
  type SlackStandin,
  STANDIN_IDS,
  slashCommandBody,
  slashCommandPayload,
  startSlackStandin,
} from "../../src/standin/index.js";

const { requester, approver, general, approvals } = STANDIN_IDS;
const signingSecret = "standin-test-signing-secret";

const option = (text: string, value: string): PlainTextOption => ({
  text: { type: "plain_text", text },
  value,
});
const DATACENTERS = [
  option("Equinix AM3, Amsterdam", "dcf-am3"),
  option("Equinix LD5, London", "dcf-ld5"),
];
const SPEEDS: Record<string, PlainTextOption[]> = {
  "dcf-am3": [option("1 Gbps", "1000"), option("10 Gbps", "10000")],
  "dcf-ld5": [option("10 Gbps", "10000"), option("100 Gbps", "100000")],
};

/** The speed input appears only once a data center is chosen (its options depend on it). */
function portOrderModal(dcf?: string): ModalView {
  return {
    type: "modal",
    callback_id: "port_order",
    title: { type: "plain_text", text: "Order a port" },
    submit: { type: "plain_text", text: "Request" },
    blocks: [
      {
        type: "input",
        block_id: "dcf",
        dispatch_action: true,
        label: { type: "plain_text", text: "Data center" },
        element: { type: "external_select", action_id: "dcf_select", min_query_length: 0 },
      },
      ...(dcf
        ? [
            {
              type: "input" as const,
              block_id: "speed",
              label: { type: "plain_text" as const, text: "Speed" },
              element: {
                type: "static_select" as const,
                action_id: "speed_select",
                options: SPEEDS[dcf] ?? [],
              },
            },
          ]
        : []),
      {
        type: "input",
        block_id: "port_name",
        label: { type: "plain_text", text: "Port name" },
        element: { type: "plain_text_input", action_id: "name" },
      },
      {
        type: "input",
        block_id: "term",
        label: { type: "plain_text", text: "Term" },
        element: {
          type: "radio_buttons",
          action_id: "term_months",
          options: [option("1 month", "1"), option("12 months", "12")],
        },
      },
    ],
  };
}

describe("driving a real Bolt app over signed HTTP", () => {
  let standin: SlackStandin;
  let app: App;
  let driver: SlackAppDriver<HttpTransport>;
  let commandRuns = 0;
  const submissions: Record<string, unknown>[] = [];

  beforeAll(async () => {
    standin = await startSlackStandin();
    app = new App({
      token: standin.botToken,
      signingSecret,
      clientOptions: { slackApiUrl: standin.apiUrl, retryConfig: { retries: 0 } },
      logLevel: LogLevel.ERROR,
    });

    app.command("/connect", async ({ ack, command, client }) => {
      commandRuns += 1;
      if (command.text === "help") {
        await ack({ text: "Usage: /connect port order" });
        return;
      }
      if (command.text === "approval") {
        await ack();
        await client.chat.postMessage({
          channel: approvals,
          text: "Approval needed: port ams-core-1",
          blocks: [
            {
              type: "section",
              text: { type: "mrkdwn", text: "*Approval needed*: port ams-core-1" },
            },
            {
              type: "actions",
              block_id: "decision",
              elements: [
                {
                  type: "button",
                  action_id: "approve",
                  value: "req-1",
                  style: "primary",
                  text: { type: "plain_text", text: "Approve" },
                },
              ],
            },
          ],
        });
        return;
      }
      await ack();
      await client.views.open({ trigger_id: command.trigger_id, view: portOrderModal() });
    });

    app.options("dcf_select", async ({ ack, options }) => {
      const query = options.value.toLowerCase();
      await ack({ options: DATACENTERS.filter((d) => d.text.text.toLowerCase().includes(query)) });
    });

    app.action<BlockAction>("dcf_select", async ({ ack, body, client }) => {
      await ack();
      const view = body.view;
      const chosen = view?.state.values.dcf?.dcf_select?.selected_option?.value;
      if (!view || !chosen) return;
      await client.views.update({
        view_id: view.id,
        hash: view.hash,
        view: portOrderModal(chosen),
      });
    });

    app.action<BlockAction>("approve", async ({ ack, body, respond }) => {
      await ack();
      await respond({ replace_original: true, text: `Approved by <@${body.user.id}>` });
    });

    app.view("port_order", async ({ ack, view }) => {
      const name = view.state.values.port_name?.name?.value ?? "";
      if (name.length < 3) {
        await ack({
          response_action: "errors",
          errors: { port_name: "Use at least 3 characters" },
        });
        return;
      }
      submissions.push(view.state.values);
      await ack();
    });

    const server = await app.start({ port: 0, host: "127.0.0.1" });
    const { port } = server.address() as AddressInfo;
    driver = standin.connectApp({ url: `http://127.0.0.1:${port}/slack/events`, signingSecret });
  });

  afterAll(async () => {
    await app.stop();
    await standin.close();
  });

  it("runs /connect, the app opens a modal, a person fills it by labels, and field errors come back", async () => {
    const ack = await driver.command(requester, general, "/connect", "port order");
    expect(ack.status).toBe(200);
    const opened = await standin.waitForView(requester, (v) => v.view.callback_id === "port_order");
    expect(opened.view.title.text).toBe("Order a port");
    const viewsOpen = await standin.waitForCall("views.open");
    expect(viewsOpen.args.trigger_id).toBe(ack.triggerId);

    // Choosing a data center makes the app add the speed input (dispatch_action → views.update).
    await driver.fillView(requester, {
      "Data center": "Amsterdam",
      Speed: "10 Gbps",
      "Port name": "ab",
      Term: "12 months",
    });
    const suggestion = standin.calls("views.update");
    expect(suggestion).toHaveLength(1);

    const rejected = await driver.submitView(requester);
    expect(rejected.status).toBe(200);
    expect(rejected.responseAction).toBe("errors");
    expect(rejected.errors).toEqual({ port_name: "Use at least 3 characters" });
    expect(rejected.problems).toEqual([]);
    expect(rejected.currentView?.view.id).toBe(opened.view.id);
    expect(standin.currentView(requester)?.errors).toEqual({
      port_name: "Use at least 3 characters",
    });
    expect(submissions).toHaveLength(0);

    await driver.fillView(requester, { "Port name": "ams-core-1" });
    const accepted = await driver.submitView(requester);
    expect(accepted.responseAction).toBeUndefined();
    expect(accepted.currentView).toBeUndefined();
    expect(submissions).toEqual([
      {
        dcf: { dcf_select: { type: "external_select", selected_option: DATACENTERS[0] } },
        speed: {
          speed_select: { type: "static_select", selected_option: option("10 Gbps", "10000") },
        },
        port_name: { name: { type: "plain_text_input", value: "ams-core-1" } },
        term: {
          term_months: { type: "radio_buttons", selected_option: option("12 months", "12") },
        },
      },
    ]);
  });

  it("shows a command's ack body to the person as an ephemeral message", async () => {
    const outcome = await driver.command(requester, general, "/connect", "help");
    expect(outcome.response).toMatchObject({ applied: "ephemeral" });
    const shown = await standin.waitForEphemeral(requester, (e) => e.text.startsWith("Usage"));
    expect(shown.channel).toBe(general);
  });

  it("clicks a button in a message and applies the app's respond(replace_original)", async () => {
    await driver.command(requester, general, "/connect", "approval");
    const request = await standin.waitForMessage(approvals, (m) =>
      m.text.startsWith("Approval needed"),
    );
    const ack = await driver.clickButton({
      userId: approver,
      message: request,
      actionId: "approve",
    });
    expect(ack.status).toBe(200);
    const replaced = await standin.waitForMessage(
      approvals,
      (m) => m.ts === request.ts && m.text.startsWith("Approved"),
    );
    expect(replaced.text).toBe(`Approved by <@${approver}>`);
    const posted = await standin.waitForCall("response_url");
    expect(posted.args).toMatchObject({ replace_original: true });
  });

  it("refuses requests signed with a wrong secret or a stale timestamp, without running the handler", async () => {
    const runsBefore = commandRuns;
    const body = slashCommandBody(
      slashCommandPayload({
        actor: {
          team: standin.workspace.team,
          user: { id: requester, name: "rita.requester" },
          apiAppId: "A0STANDIN1",
          verificationToken: "v",
        },
        channel: { id: general, name: "general" },
        command: "/connect",
        text: "help",
        responseUrl: `${standin.url}/response/none`,
        triggerId: standin.workspace.issueTrigger(requester),
      }),
    );
    const wrongSecret = await driver.transport.postRaw(body, { signingSecret: "not-the-secret" });
    expect(wrongSecret.status).toBe(401);
    const stale = await driver.transport.postRaw(body, {
      timestamp: Math.floor(Date.now() / 1000) - 6 * 60,
    });
    expect(stale.status).toBe(401);
    expect(commandRuns).toBe(runsBefore);

    // The same body, properly signed, does run it: the refusals above were about the signature.
    const good = await driver.transport.postRaw(body);
    expect(good.status).toBe(200);
    expect(commandRuns).toBe(runsBefore + 1);
  });
});
