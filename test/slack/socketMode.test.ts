import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningSlackApp, startSlackApp } from "../../src/slack/app.js";
import { commandHandlers } from "../../src/slack/commandTable.js";
import { createConnectRouter } from "../../src/slack/connect.js";
import {
  DEFAULT_APP_TOKEN,
  type SlackStandin,
  STANDIN_IDS,
  startSlackStandin,
} from "../../src/standin/index.js";
import { freePort } from "../harness/ports.js";
import { routerServices } from "./support.js";

describe("Socket Mode start-up with an app token", () => {
  let standin: SlackStandin;
  let running: RunningSlackApp;
  let port: number;

  beforeAll(async () => {
    standin = await startSlackStandin({ appToken: DEFAULT_APP_TOKEN });
    port = await freePort();
    // help needs no provider, and with no approvers no Slack look-up of who may see what (the
    // lifecycle API's checks read settings only); the rest of Services is not touched.
    const services = routerServices();
    const { logger, metrics } = services;
    running = await startSlackApp({
      slack: {
        mode: "socket",
        botToken: standin.botToken,
        appToken: DEFAULT_APP_TOKEN,
        apiUrl: standin.apiUrl,
      },
      port,
      logger,
      metrics,
      health: async () => ({ ok: true, checks: {} }),
      register: (app) => createConnectRouter(commandHandlers(services), services).register(app),
    });
    await standin.waitForSocketConnection(1);
  });
  afterAll(async () => {
    await running?.stop();
    await standin?.close();
  });

  it("opens the connection through apps.connections.open with the app token and answers /connect", async () => {
    const open = standin.calls("apps.connections.open");
    expect(open.length).toBeGreaterThan(0);
    expect(open[0]?.token).toBe(DEFAULT_APP_TOKEN);
    await standin.socketCommand(STANDIN_IDS.requester, STANDIN_IDS.general, "/connect", "help");
    const reply = await standin.waitForEphemeral(STANDIN_IDS.requester, (m) =>
      m.text.includes("Commands:"),
    );
    expect(JSON.stringify(reply.blocks)).toContain("/connect price port");
  });

  it("serves health and metrics over HTTP next to the socket", async () => {
    const health = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(health.status).toBe(200);
    const metrics = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    expect(metrics).toContain("slack_commands_total");
  });
});
