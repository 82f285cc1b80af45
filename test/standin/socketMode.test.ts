import { App, LogLevel } from "@slack/bolt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEFAULT_APP_TOKEN,
  type SlackStandin,
  STANDIN_IDS,
  startSlackStandin,
} from "../../src/standin/index.js";

const { requester, general } = STANDIN_IDS;

describe("Socket Mode: a Bolt app connects to the stand-in's WebSocket", () => {
  let standin: SlackStandin;
  let app: App;
  const seen: string[] = [];

  beforeAll(async () => {
    standin = await startSlackStandin({ appToken: DEFAULT_APP_TOKEN });
    app = new App({
      token: standin.botToken,
      appToken: DEFAULT_APP_TOKEN,
      socketMode: true,
      clientOptions: { slackApiUrl: standin.apiUrl },
      logLevel: LogLevel.ERROR,
    });
    app.command("/connect", async ({ ack, command, client }) => {
      seen.push(command.text);
      if (command.text === "asn") {
        await ack();
        await client.views.open({
          trigger_id: command.trigger_id,
          view: {
            type: "modal",
            callback_id: "asn",
            title: { type: "plain_text", text: "Verify an ASN" },
            submit: { type: "plain_text", text: "Verify" },
            blocks: [
              {
                type: "input",
                block_id: "asn",
                label: { type: "plain_text", text: "ASN" },
                element: { type: "number_input", action_id: "value", is_decimal_allowed: false },
              },
            ],
          },
        });
        return;
      }
      await ack({ text: `Hello ${command.user_name}` });
      await client.chat.postMessage({ channel: command.channel_id, text: `ran: ${command.text}` });
    });
    app.view("asn", async ({ ack, view }) => {
      const asn = Number(view.state.values.asn?.value?.value);
      if (asn >= 64512 && asn <= 65534) await ack();
      else
        await ack({
          response_action: "errors",
          errors: { asn: "Use a private ASN (64512-65534)" },
        });
    });
    await app.start();
  });

  afterAll(async () => {
    await app.stop();
    await standin.close();
  });

  it("opened the connection with the app-level token", async () => {
    const open = await standin.waitForCall("apps.connections.open");
    expect(open.token).toBe(DEFAULT_APP_TOKEN);
    expect(standin.socketConnectionCount).toBe(1);
  });

  it("delivers a slash command envelope and returns the app's ack payload", async () => {
    const outcome = await standin.socketCommand(requester, general, "/connect", "whoami");
    expect(outcome.status).toBe(200);
    expect(outcome.body).toEqual({ text: "Hello rita.requester" });
    expect(seen).toContain("whoami");
    // The ack body is shown to the person, as Slack does.
    await standin.waitForEphemeral(requester, (e) => e.text === "Hello rita.requester");
    // The app's Web API calls reach the stand-in as well.
    const posted = await standin.waitForMessage(general, (m) => m.text === "ran: whoami");
    expect(posted.user).toBe(STANDIN_IDS.botUser);
  });

  it("refuses an app-level token it was not configured with", async () => {
    const response = await fetch(`${standin.apiUrl}apps.connections.open`, {
      method: "POST",
      headers: { authorization: "Bearer xapp-someone-else" },
    });
    expect(await response.json()).toEqual({ ok: false, error: "invalid_auth" });
  });

  it("carries interactions too: a modal's field errors come back in the ack envelope", async () => {
    const driver = standin.socketDriver();
    await driver.command(requester, general, "/connect", "asn");
    await driver.fillView(requester, { ASN: 13335 });
    const rejected = await driver.submitView(requester);
    expect(rejected.errors).toEqual({ asn: "Use a private ASN (64512-65534)" });
    await driver.fillView(requester, { ASN: 64512 });
    const accepted = await driver.submitView(requester);
    expect(accepted.currentView).toBeUndefined();
  });
});
