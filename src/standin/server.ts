import type { AddressInfo } from "node:net";
import Fastify, { type FastifyInstance } from "fastify";
import type { Logger } from "pino";
import { type CommandOutcome, SlackAppDriver } from "./driver/driver.js";
import { SOCKET_PATH, SocketModeHub } from "./driver/socketMode.js";
import {
  type HttpAppTarget,
  HttpTransport,
  SocketTransport,
  type Transport,
} from "./driver/transport.js";
import type { FaultSpec, RateLimitOptions } from "./faults.js";
import { registerSlackRoutes } from "./httpRoutes.js";
import { defaultWorkspaceSeed, STANDIN_IDS, type WorkspaceSeed } from "./seed.js";
import type {
  RecordedCall,
  SlackArgs,
  StandinEphemeral,
  StandinMessage,
  StandinResponse,
  StandinView,
} from "./types.js";
import { brief, DEFAULT_WAIT_MS, type WaitOptions, waitForMatch } from "./waiters.js";
import type { StandinFile } from "./webApi/files.js";
import type { StepExecution } from "./webApi/functions.js";
import { type Answer, WebApiGate } from "./webApi/webApiGate.js";
import { Workspace } from "./workspace.js";
import { waitForEphemeral, waitForMessage, waitForModal } from "./workspaceWaits.js";

/**
 * The Slack stand-in: a local HTTP server that answers the Web API methods the bot calls (point
 * Bolt's `clientOptions.slackApiUrl` at `apiUrl`), records every call, serves response URLs
 * and Socket Mode, and drives the app as Slack would (see driver.ts). Shared by the end-to-end
 * tests and the playground. This file is the stand-in's handle for tests: its state, waits,
 * faults and drivers; the routes are httpRoutes.ts, the Web API's checks webApiGate.ts.
 */

export interface SlackStandinOptions {
  /** The bot token the app must present (`Authorization: Bearer` or a `token` field). */
  botToken?: string;
  /** The app-level token accepted by apps.connections.open; any `xapp-…` when unset. */
  appToken?: string;
  /** The verification token put in payloads (deprecated by Slack, still sent). */
  verificationToken?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  host?: string;
  seed?: WorkspaceSeed;
  rateLimit?: RateLimitOptions;
  /** Where the stand-in reports what it could not handle; silent when absent. */
  logger?: Logger;
  /**
   * More HTTP routes on the stand-in's server (the playground's page and JSON API, in
   * src/playground/). Called before it listens, since fastify takes no routes after that.
   */
  routes?: (server: FastifyInstance, standin: SlackStandin) => void | Promise<void>;
}

export const DEFAULT_BOT_TOKEN = "xoxb-standin-bot-token";
export const DEFAULT_APP_TOKEN = "xapp-standin-app-token";
const DEFAULT_VERIFICATION_TOKEN = "standin-verification-token";

export class SlackStandin {
  readonly workspace: Workspace;
  readonly ids = STANDIN_IDS;
  readonly botToken: string;
  private readonly verificationToken: string;
  private readonly gate: WebApiGate;
  private readonly hub: SocketModeHub;
  private readonly recorded: RecordedCall[] = [];
  private readonly callListeners = new Set<(call: RecordedCall) => void>();
  private baseUrl = "";

  constructor(
    private readonly server: FastifyInstance,
    options: SlackStandinOptions,
  ) {
    this.workspace = new Workspace(options.seed ?? defaultWorkspaceSeed());
    this.botToken = options.botToken ?? DEFAULT_BOT_TOKEN;
    this.verificationToken = options.verificationToken ?? DEFAULT_VERIFICATION_TOKEN;
    this.hub = new SocketModeHub(this.workspace.bot.appId);
    this.gate = new WebApiGate({
      workspace: this.workspace,
      botToken: this.botToken,
      appToken: options.appToken,
      rateLimit: options.rateLimit,
      logger: options.logger,
      socketUrl: () =>
        `${this.baseUrl.replace(/^http/, "ws")}${SOCKET_PATH}?ticket=${this.hub.issueTicket()}`,
    });
  }

  /** `http://127.0.0.1:PORT` */
  get url(): string {
    return this.baseUrl;
  }

  /** The Web API base URL for `clientOptions.slackApiUrl` / `SLACK_API_URL` (ends with `/api/`). */
  get apiUrl(): string {
    return `${this.baseUrl}/api/`;
  }

  get port(): number {
    return Number(new URL(this.baseUrl).port);
  }

  /** @internal Called once the server listens. */
  listening(baseUrl: string): void {
    this.baseUrl = baseUrl;
    this.workspace.baseUrl = baseUrl;
  }

  // ---- the Web API --------------------------------------------------------------------------
  /** @internal Answers one Web API call (faults, auth, rate limit, then the method). */
  answer(method: string, args: SlackArgs, token: string | undefined): Promise<Answer> {
    return this.gate.answer(method, args, token);
  }

  /** @internal */
  record(call: RecordedCall): void {
    this.recorded.push(call);
    for (const listener of this.callListeners) listener(call);
  }

  /** Every Web API call so far (and response_url posts, as method `response_url`), oldest first. */
  calls(method?: string): RecordedCall[] {
    return this.recorded
      .filter((c) => method === undefined || c.method === method)
      .map((c) => structuredClone(c));
  }

  /** How many calls `calls(method)` would return, without copying them. */
  callCount(method?: string): number {
    if (method === undefined) return this.recorded.length;
    return this.recorded.reduce((n, c) => (c.method === method ? n + 1 : n), 0);
  }

  clearCalls(): void {
    this.recorded.length = 0;
  }

  /** Resolves on the first call of `method` matching `predicate`, including calls already made. */
  waitForCall(
    method: string,
    predicate: (call: RecordedCall) => boolean = () => true,
    options: WaitOptions = {},
  ): Promise<RecordedCall> {
    return waitForMatch({
      existing: () => this.calls(method),
      source: {
        subscribe: (listener) => {
          const onCall = (call: RecordedCall) => {
            if (call.method === method) listener(structuredClone(call));
          };
          this.callListeners.add(onCall);
          return () => this.callListeners.delete(onCall);
        },
      },
      predicate,
      timeoutMs: options.timeoutMs,
      what: `a ${method} call matching the predicate`,
      seen: () =>
        this.recorded.map(
          (c) => `${c.method} ${c.status} ${c.ok ? "ok" : (c.error ?? "error")} ${brief(c.args)}`,
        ),
    });
  }

  // ---- Workflow Builder steps (functions.ts) ---------------------------------------------------

  /** Resolves once the app (or Slack, `endStepBySlack`) has ended the step's run. */
  waitForStepEnd(executionId: string, options: WaitOptions = {}): Promise<StepExecution> {
    return this.workspace.functions.waitForEnd(executionId, options);
  }

  /** A step's run as it is now: its end and every completion call made for it. */
  stepRun(executionId: string): StepExecution | undefined {
    return this.workspace.functions.execution(executionId);
  }

  /** Every step run so far, oldest first. */
  stepRuns(): StepExecution[] {
    return this.workspace.functions.all();
  }

  /** Slack ends a run itself (its workflow was stopped or timed out). */
  endStepBySlack(executionId: string): void {
    this.workspace.functions.endBySlack(executionId);
  }

  // ---- workspace views ----------------------------------------------------------------------

  messages(channel: string, options: { threadTs?: string } = {}): StandinMessage[] {
    return this.workspace.messages(this.workspace.resolveChannel(channel)?.id ?? channel, options);
  }

  /** The thread under `ts` (parent first). */
  thread(channel: string, ts: string): StandinMessage[] {
    return this.messages(channel, { threadTs: ts });
  }

  /** Resolves on a message (posted or edited) in `channel` matching `predicate`. */
  waitForMessage(
    channel: string,
    predicate: (message: StandinMessage) => boolean = () => true,
    options: WaitOptions = {},
  ): Promise<StandinMessage> {
    return waitForMessage(
      this.workspace,
      this.workspace.resolveChannel(channel)?.id ?? channel,
      predicate,
      options,
    );
  }

  ephemerals(userId?: string): StandinEphemeral[] {
    return this.workspace.ephemerals(userId);
  }

  /** Resolves on an ephemeral message shown to `userId` matching `predicate`. */
  waitForEphemeral(
    userId: string,
    predicate: (message: StandinEphemeral) => boolean = () => true,
    options: WaitOptions = {},
  ): Promise<StandinEphemeral> {
    return waitForEphemeral(this.workspace, userId, predicate, options);
  }

  responses(): StandinResponse[] {
    return this.workspace.responses();
  }

  view(viewId: string): StandinView | undefined {
    return this.workspace.view(viewId);
  }

  /** The modal `userId` sees now (top of their stack). */
  currentView(userId: string): StandinView | undefined {
    return this.workspace.currentView(userId);
  }

  modalStack(userId: string): StandinView[] {
    return this.workspace.modalStack(userId);
  }

  /** Files shared through files.completeUploadExternal, oldest first, with their bytes. */
  files(): StandinFile[] {
    return this.workspace.files.list();
  }

  file(id: string): StandinFile | undefined {
    return this.workspace.files.file(id);
  }

  homeView(userId: string): StandinView | undefined {
    return this.workspace.homeView(userId);
  }

  /** Resolves when the modal `userId` sees matches `predicate` (e.g. a callback_id). */
  waitForView(
    userId: string,
    predicate: (view: StandinView) => boolean = () => true,
    options: WaitOptions = {},
  ): Promise<StandinView> {
    return waitForModal(this.workspace, userId, predicate, options);
  }

  /** A person writes in a channel or thread (e.g. a reply under an approval request). */
  postAsUser(
    userId: string,
    channel: string,
    text: string,
    options: { threadTs?: string } = {},
  ): StandinMessage {
    const resolved = this.workspace.resolveChannel(channel);
    if (!resolved) throw new Error(`No channel ${channel} in the stand-in workspace`);
    if (!this.workspace.users.has(userId))
      throw new Error(`No user ${userId} in the stand-in workspace`);
    return this.workspace.postMessage({
      channel: resolved.id,
      text,
      user: userId,
      thread_ts: options.threadTs,
      via: "person",
    });
  }

  /** Adds the bot to a channel or removes it (chat.postMessage there answers `not_in_channel`). */
  setBotMembership(channel: string, member: boolean): void {
    const found = this.workspace.resolveChannel(channel);
    if (!found || found.is_im) throw new Error(`No channel ${channel} in the stand-in workspace`);
    found.is_member = member;
  }

  // ---- faults -------------------------------------------------------------------------------

  /** The next `count` calls of `method` fail: HTTP 429 + Retry-After, another status, or ok:false. */
  failNext(method: string, spec: FaultSpec = {}): void {
    this.gate.failNext(method, spec);
  }

  clearFaults(): void {
    this.gate.clearFaults();
  }

  /** Turns Slack's per-channel message rate limit on (a number) or off (undefined). */
  setRateLimit(options: RateLimitOptions): void {
    this.gate.setRateLimit(options);
  }

  // ---- acting as Slack towards the app ------------------------------------------------------

  /** A driver of this workspace that hands its payloads to `transport`. */
  driverWith<T extends Transport>(transport: T): SlackAppDriver<T> {
    return new SlackAppDriver(this.workspace, transport, this.verificationToken);
  }

  /** A driver that sends signed HTTP requests to the app's request URL. */
  connectApp(target: HttpAppTarget): SlackAppDriver<HttpTransport> {
    return this.driverWith(new HttpTransport(target));
  }

  /** A driver that delivers over the Socket Mode connection of the app. */
  socketDriver(options: { ackTimeoutMs?: number } = {}): SlackAppDriver {
    return this.driverWith(new SocketTransport(this.hub, options.ackTimeoutMs ?? DEFAULT_WAIT_MS));
  }

  /** Runs a slash command over Socket Mode; resolves with the app's ack payload. */
  socketCommand(
    userId: string,
    channelId: string,
    command: string,
    text = "",
  ): Promise<CommandOutcome> {
    return this.socketDriver().command(userId, channelId, command, text);
  }

  get socketConnectionCount(): number {
    return this.hub.connectionCount;
  }

  waitForSocketConnection(count = 1, timeoutMs = DEFAULT_WAIT_MS): Promise<void> {
    return this.hub.waitForConnection(count, timeoutMs);
  }

  /** Asks connected apps to reconnect (Slack's `disconnect` message). */
  requestSocketReconnect(reason?: string): void {
    this.hub.requestReconnect(reason);
  }

  /** @internal */
  get socketHub(): SocketModeHub {
    return this.hub;
  }

  async close(): Promise<void> {
    await this.hub.close();
    await this.server.close();
  }
}

/** Starts the stand-in on 127.0.0.1 (a free port unless `port` is given). */
export async function startSlackStandin(options: SlackStandinOptions = {}): Promise<SlackStandin> {
  const server = Fastify({ logger: false });
  const standin = new SlackStandin(server, options);
  registerSlackRoutes(server, standin);

  if (options.routes) await options.routes(server, standin);

  const host = options.host ?? "127.0.0.1";
  await server.listen({ port: options.port ?? 0, host });
  const address = server.server.address() as AddressInfo;
  standin.listening(`http://${host}:${address.port}`);
  return standin;
}
