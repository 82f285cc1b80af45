import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { App, type CustomRoute, HTTPReceiver } from "@slack/bolt";
import { WebClient, type WebClientOptions } from "@slack/web-api";
import type { Redis } from "ioredis";
import { DEFAULT_SLACK_MAX_BODY_BYTES } from "../config.js";
import { RECEIVER_ANSWER_MS } from "../domain/slackBudget.js";
import { type HealthCheck, operationalRoutes } from "../health.js";
import type { Logger } from "../log.js";
import type { Metrics } from "../metrics.js";
import { botAuthorization } from "./authorization.js";
import { boltLogger } from "./logger.js";
import { MemorySeenSignatures, RedisSeenSignatures, type SeenSignatures } from "./replayGuard.js";
import { guardSlackRequests } from "./requestGuard.js";

export type SlackConnection =
  | { mode: "http"; botToken: string; signingSecret: string; apiUrl?: string }
  | { mode: "socket"; botToken: string; appToken: string; apiUrl?: string };

export interface SlackAppOptions {
  slack: SlackConnection;
  /** HTTP port: Slack events in HTTP mode; /healthz and /metrics in both modes. 0 = any free port. */
  port: number;
  logger: Logger;
  metrics: Metrics;
  /** /healthz's check (src/health.ts); /metrics reads `metrics`. */
  health: HealthCheck;
  /**
   * Registers the listeners (commands, actions, views, options) on the app. `client` is a Web
   * API client bound to the bot token for work outside a listener's own `client`.
   */
  register: (app: App, client: WebClient) => void;
  /** Extra HTTP routes served next to /slack/events (e.g. the playground). */
  extraRoutes?: CustomRoute[];
  /** HTTP mode: the checks in front of Bolt (requestGuard.ts). Socket Mode has no signatures. */
  requestGuard?: {
    /**
     * Where accepted signatures are remembered, shared by every replica; without it, in this
     * process only (tests of the Slack layer).
     */
    redis?: { client: Redis; keyPrefix: string; feed?: Redis };
    /** Default 1 MiB (SLACK_MAX_BODY_BYTES). */
    maxBodyBytes?: number;
    /** Milliseconds since the epoch, for the timestamp window (tests move it). */
    now?: () => number;
  };
}

export interface RunningSlackApp {
  app: App;
  /** The port actually listened on (useful with port 0). */
  port: number;
  /** HTTP mode: where the request guard remembers accepted signatures (replayGuard.ts). */
  seenSignatures?: SeenSignatures;
  stop(): Promise<void>;
}

/**
 * The Web API client's retry policy, chosen deliberately: Bolt's default retries for about
 * 30 minutes, far past the point where the person who clicked still cares. Interactive calls
 * get a few quick retries; background notifications have their own queue-level retries.
 */
export const INTERACTIVE_RETRY: NonNullable<WebClientOptions["retryConfig"]> = {
  retries: 2,
  factor: 2,
  minTimeout: 250,
  maxTimeout: 2_000,
};

/** Socket Mode's own client reconnects through apps.connections.open; keep trying, but bounded. */
const SOCKET_CONNECT_RETRY: NonNullable<WebClientOptions["retryConfig"]> = {
  retries: 10,
  factor: 1.6,
  minTimeout: 500,
  maxTimeout: 30_000,
};

/** Builds and starts the Bolt app in HTTP mode or Socket Mode. */
export async function startSlackApp(options: SlackAppOptions): Promise<RunningSlackApp> {
  const logger = boltLogger(options.logger);
  const routes = [...operationalRoutes(options), ...(options.extraRoutes ?? [])];
  const slackApiUrl = options.slack.apiUrl;
  const client = new WebClient(options.slack.botToken, {
    slackApiUrl,
    logger,
    retryConfig: INTERACTIVE_RETRY,
  });
  // Both modes: the bot's identity asked once (see authorization.ts), and no conversation
  // store (Bolt's default keeps per-conversation state in memory; nothing here reads it).
  const identity = {
    authorize: botAuthorization(client, options.slack.botToken),
    convoStore: false as const,
  };
  let app: App;
  let server: Server | undefined;
  let seen: SeenSignatures | undefined;

  if (options.slack.mode === "http") {
    const guard = options.requestGuard ?? {};
    const maxBodyBytes = guard.maxBodyBytes ?? DEFAULT_SLACK_MAX_BODY_BYTES;
    const receiver = new HTTPReceiver({
      signingSecret: options.slack.signingSecret,
      endpoints: "/slack/events",
      customRoutes: routes,
      logger,
      // Ack first, work after: the HTTP response goes out as soon as ack() is called.
      processBeforeResponse: false,
      // A listener that never acks must not hold the connection past Slack's 3 seconds.
      unhandledRequestTimeoutMillis: RECEIVER_ANSWER_MS,
      bodyLimit: maxBodyBytes,
    });
    seen = guard.redis
      ? new RedisSeenSignatures(
          guard.redis.client,
          guard.redis.keyPrefix,
          options.logger,
          Date.now,
          guard.redis.feed,
        )
      : new MemorySeenSignatures();
    guardSlackRequests(receiver, {
      endpoint: "/slack/events",
      signingSecret: options.slack.signingSecret,
      maxBodyBytes,
      seen,
      logger: options.logger,
      now: guard.now,
      onRefused: (reason) => options.metrics.slackRequestsRefused.inc({ reason }),
    });
    app = new App({
      ...identity,
      receiver,
      logger,
      clientOptions: { slackApiUrl, retryConfig: INTERACTIVE_RETRY },
    });
    options.register(app, client);
    server = (await app.start(options.port)) as Server;
  } else {
    app = new App({
      ...identity,
      appToken: options.slack.appToken,
      socketMode: true,
      customRoutes: routes,
      logger,
      clientOptions: { slackApiUrl, retryConfig: INTERACTIVE_RETRY },
      installerOptions: {
        port: options.port,
        clientOptions: { slackApiUrl, retryConfig: SOCKET_CONNECT_RETRY },
      },
    });
    options.register(app, client);
    await app.start();
  }

  const address = server?.address() as AddressInfo | null | undefined;
  return {
    app,
    port: address?.port ?? options.port,
    seenSignatures: seen,
    async stop() {
      await app.stop();
      await seen?.close?.();
    },
  };
}
