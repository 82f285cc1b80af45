import { createLogger } from "../../src/log.js";
import { createMetrics } from "../../src/metrics.js";
import { OrderRequests, type OrderRequestsOptions } from "../../src/orders/index.js";
import { type RunningSlackApp, startSlackApp } from "../../src/slack/app.js";
import { commandHandlers } from "../../src/slack/commandTable.js";
import { type CommandHandlers, createConnectRouter } from "../../src/slack/connect.js";
import type { FollowUpLane } from "../../src/slack/followUps.js";
import type { ListenerDeps } from "../../src/slack/listeners.js";
import {
  type HttpTransport,
  type SlackAppDriver,
  type SlackStandin,
  STANDIN_IDS,
  startSlackStandin,
} from "../../src/standin/index.js";

export interface RouterApp {
  standin: SlackStandin;
  driver: SlackAppDriver<HttpTransport>;
  /** Sends `/connect help` as a person in #general. */
  help(): ReturnType<SlackAppDriver<HttpTransport>["command"]>;
  close(): Promise<void>;
}

/**
 * The parts the router and help use (help needs no provider; the rest is not touched).
 * No approvers: help asks who may see the money and who may order, and reads "nobody, and
 * ordering is not set up" without a Slack call.
 */
export function routerServices(): ListenerDeps {
  const logger = createLogger({ level: "silent" });
  const metrics = createMetrics({ defaultMetrics: false });
  const approvals = { approvers: [], requesters: [], allowSelfApproval: false };
  // The lifecycle API's checks alone (who may order, who sees the money): they read settings only.
  const requests = new OrderRequests({
    settings: approvals,
    logger,
  } as unknown as OrderRequestsOptions);
  return { logger, metrics, sandbox: false, approvals, requests } as unknown as ListenerDeps;
}

/**
 * The `/connect` router alone on Bolt in HTTP mode, with the Slack stand-in: for tests of the
 * Slack layer that need no provider (help needs none; the rest of ListenerDeps is not touched).
 */
export async function startRouterApp(
  options: { handlers?: CommandHandlers; lane?: FollowUpLane } = {},
): Promise<RouterApp> {
  const standin = await startSlackStandin();
  const services = routerServices();
  const { logger, metrics } = services;
  const signingSecret = "router-test-secret";
  let running: RunningSlackApp;
  try {
    running = await startSlackApp({
      slack: { mode: "http", botToken: standin.botToken, signingSecret, apiUrl: standin.apiUrl },
      port: 0,
      logger,
      metrics,
      health: async () => ({ ok: true, checks: {} }),
      register: (app) =>
        createConnectRouter(
          options.handlers ?? commandHandlers(services),
          services,
          options.lane,
        ).register(app),
    });
  } catch (error) {
    await standin.close();
    throw error;
  }
  const driver = standin.connectApp({
    url: `http://127.0.0.1:${running.port}/slack/events`,
    signingSecret,
  });
  return {
    standin,
    driver,
    help: () => driver.command(STANDIN_IDS.requester, STANDIN_IDS.general, "/connect", "help"),
    async close() {
      await running.stop();
      await standin.close();
    },
  };
}
