import type { AddressInfo } from "node:net";
import { parse as parseQuery } from "node:querystring";
import Fastify, { type FastifyInstance } from "fastify";
import type { Logger } from "pino";
import {
  type AppAck,
  type CommandOutcome,
  type HttpAppTarget,
  HttpTransport,
  SlackAppDriver,
  SocketTransport,
  type Transport,
} from "./driver.js";
import { ChannelRateLimiter, FaultPlan, type FaultSpec, type RateLimitOptions } from "./faults.js";
import { MAX_UPLOAD_BYTES, type StandinFile, UPLOAD_PATH } from "./files.js";
import { defaultWorkspaceSeed, STANDIN_IDS, type WorkspaceSeed } from "./seed.js";
import { FORM_CONTENT_TYPE } from "./signing.js";
import { SOCKET_PATH, SocketModeHub } from "./socketMode.js";
import type {
  RecordedCall,
  SlackArgs,
  SlackResult,
  StandinEphemeral,
  StandinMessage,
  StandinResponse,
  StandinView,
} from "./types.js";
import { brief, DEFAULT_WAIT_MS, type WaitOptions, waitForMatch } from "./waiters.js";
import { answerMethod, decodeFormArgs, METHODS, needsAppToken } from "./webApi.js";
import { RESPONSE_URL_MAX_USES, Workspace } from "./workspace.js";

/**
 * The Slack stand-in: a local HTTP server that answers the Web API methods the bot calls (point
 * Bolt's `clientOptions.slackApiUrl` at `apiUrl`), records every call, serves response URLs
 * and Socket Mode, and drives the app as Slack would (see driver.ts). Shared by the end-to-end
 * tests and the playground.
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

interface Answer {
  status: number;
  body: SlackResult;
  headers: Record<string, string>;
}

function bearerToken(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const match = value ? /^Bearer\s+(.+)$/i.exec(value.trim()) : null;
  return match?.[1];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class SlackStandin {
  readonly workspace: Workspace;
  readonly ids = STANDIN_IDS;
  readonly botToken: string;
  private readonly appToken: string | undefined;
  private readonly verificationToken: string;
  private readonly faults = new FaultPlan();
  private readonly limiter: ChannelRateLimiter;
  private readonly hub: SocketModeHub;
  private readonly recorded: RecordedCall[] = [];
  private readonly callListeners = new Set<(call: RecordedCall) => void>();
  private baseUrl = "";

  constructor(
    private readonly server: FastifyInstance,
    private readonly options: SlackStandinOptions,
  ) {
    this.workspace = new Workspace(options.seed ?? defaultWorkspaceSeed());
    this.botToken = options.botToken ?? DEFAULT_BOT_TOKEN;
    this.appToken = options.appToken;
    this.verificationToken = options.verificationToken ?? DEFAULT_VERIFICATION_TOKEN;
    this.limiter = new ChannelRateLimiter(options.rateLimit?.messagesPerSecondPerChannel);
    this.hub = new SocketModeHub(this.workspace.bot.appId);
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

  private authError(method: string, token: string | undefined): string | undefined {
    if (!token) return "not_authed";
    if (needsAppToken(method)) {
      if (!token.startsWith("xapp-")) return "not_allowed_token_type";
      return this.appToken === undefined || token === this.appToken ? undefined : "invalid_auth";
    }
    if (token.startsWith("xapp-")) return "not_allowed_token_type";
    return token === this.botToken ? undefined : "invalid_auth";
  }

  /** @internal Answers one Web API call (faults, auth, rate limit, then the method). */
  async answer(method: string, args: SlackArgs, token: string | undefined): Promise<Answer> {
    const fault = this.faults.take(method);
    if (fault) {
      if (fault.delayMs > 0) await sleep(fault.delayMs);
      const headers: Record<string, string> =
        fault.retryAfterSeconds !== undefined
          ? { "retry-after": String(fault.retryAfterSeconds) }
          : {};
      return { status: fault.status, body: { ok: false, error: fault.error }, headers };
    }
    if (!METHODS[method] && method !== "apps.connections.open") {
      return {
        status: 200,
        body: { ok: false, error: "unknown_method", req_method: method },
        headers: {},
      };
    }
    const authError = this.authError(method, token);
    if (authError) return { status: 200, body: { ok: false, error: authError }, headers: {} };
    if (method === "apps.connections.open") {
      const ticket = this.hub.issueTicket();
      const wsUrl = `${this.baseUrl.replace(/^http/, "ws")}${SOCKET_PATH}?ticket=${ticket}`;
      return { status: 200, body: { ok: true, url: wsUrl }, headers: {} };
    }
    if (method === "chat.postMessage" && typeof args.channel === "string") {
      const channel = this.workspace.resolveChannel(args.channel)?.id ?? args.channel;
      const retryAfter = this.limiter.check(channel);
      if (retryAfter !== undefined) {
        return {
          status: 429,
          body: { ok: false, error: "ratelimited" },
          headers: { "retry-after": String(retryAfter) },
        };
      }
    }
    try {
      return { status: 200, body: answerMethod(method, args, this.workspace), headers: {} };
    } catch (error) {
      // A bug here must not take the stand-in down mid-test; Slack answers such calls with a 500.
      this.options.logger?.error({ err: error, method }, "stand-in method failed");
      return { status: 500, body: { ok: false, error: "internal_error" }, headers: {} };
    }
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
    const channelId = this.workspace.resolveChannel(channel)?.id ?? channel;
    return waitForMatch({
      existing: () => this.workspace.messages(channelId),
      source: {
        subscribe: (listener) => {
          const onMessage = (message: StandinMessage) => {
            if (message.channel === channelId && !message.deleted) listener(message);
          };
          this.workspace.on("message", onMessage);
          return () => this.workspace.off("message", onMessage);
        },
      },
      predicate,
      timeoutMs: options.timeoutMs,
      what: `a message in ${channelId} matching the predicate`,
      seen: () => this.workspace.messages(channelId).map((m) => `${m.ts} ${brief(m.text, 100)}`),
    });
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
    return waitForMatch({
      existing: () => this.workspace.ephemerals(userId),
      source: {
        subscribe: (listener) => {
          const onEphemeral = (message: StandinEphemeral) => {
            if (message.user === userId && !message.deleted) listener(message);
          };
          this.workspace.on("ephemeral", onEphemeral);
          return () => this.workspace.off("ephemeral", onEphemeral);
        },
      },
      predicate,
      timeoutMs: options.timeoutMs,
      what: `an ephemeral message to ${userId} matching the predicate`,
      seen: () => this.workspace.ephemerals(userId).map((m) => `${m.ts} ${brief(m.text, 100)}`),
    });
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
    const current = () => {
      const top = this.workspace.currentView(userId);
      return top ? [top] : [];
    };
    return waitForMatch({
      existing: current,
      source: {
        subscribe: (listener) => {
          const onView = (stored: StandinView) => {
            if (stored.userId !== userId) return;
            for (const top of current()) listener(top);
          };
          this.workspace.on("view", onView);
          return () => this.workspace.off("view", onView);
        },
      },
      predicate,
      timeoutMs: options.timeoutMs,
      what: `a modal for ${userId} matching the predicate`,
      seen: () =>
        this.workspace
          .modalStack(userId)
          .map((v) => `${v.view.id} ${v.view.callback_id} "${v.view.title.text}"`),
    });
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
    this.faults.failNext(method, spec);
  }

  clearFaults(): void {
    this.faults.clear();
  }

  /** Turns Slack's per-channel message rate limit on (a number) or off (undefined). */
  setRateLimit(options: RateLimitOptions): void {
    this.limiter.setLimit(options.messagesPerSecondPerChannel);
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

function parseBody(body: unknown): SlackArgs {
  if (typeof body === "object" && body !== null && !Array.isArray(body)) return body as SlackArgs;
  return {};
}

/** Starts the stand-in on 127.0.0.1 (a free port unless `port` is given). */
export async function startSlackStandin(options: SlackStandinOptions = {}): Promise<SlackStandin> {
  const server = Fastify({ logger: false });
  const standin = new SlackStandin(server, options);

  server.addContentTypeParser(FORM_CONTENT_TYPE, { parseAs: "string" }, (_request, body, done) => {
    done(null, decodeFormArgs(parseQuery(String(body))));
  });

  server.post<{ Params: { method: string } }>("/api/:method", async (request, reply) => {
    const method = request.params.method;
    const { token: tokenArg, ...args } = parseBody(request.body);
    const token =
      bearerToken(request.headers.authorization) ??
      (typeof tokenArg === "string" ? tokenArg : undefined);
    const answer = await standin.answer(method, args, token);
    standin.record({
      method,
      args,
      at: Date.now(),
      token,
      status: answer.status,
      ok: answer.body.ok,
      ...(answer.body.ok ? {} : { error: answer.body.error }),
    });
    return reply.code(answer.status).headers(answer.headers).send(answer.body);
  });

  // The upload URL of files.getUploadURLExternal: the file's raw bytes (Slack also takes a
  // multipart form; the stand-in takes raw bytes only and answers 415 to anything else).
  server.addContentTypeParser(
    "application/octet-stream",
    { parseAs: "buffer", bodyLimit: MAX_UPLOAD_BYTES },
    (_request, body, done) => done(null, body),
  );
  server.post<{ Params: { token: string } }>(`${UPLOAD_PATH}/:token`, async (request, reply) => {
    const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const outcome = standin.workspace.files.receive(request.params.token, bytes);
    standin.record({
      method: "upload_url",
      args: { bytes: bytes.length },
      at: Date.now(),
      token: undefined,
      status: outcome === "ok" ? 200 : 404,
      ok: outcome === "ok",
      ...(outcome === "ok" ? {} : { error: outcome }),
    });
    // Slack's upload service answers a plain "OK - <bytes>".
    return outcome === "ok"
      ? reply.code(200).type("text/plain").send(`OK - ${bytes.length}`)
      : reply.code(404).type("text/plain").send(outcome);
  });

  server.post<{ Params: { id: string } }>("/response/:id", async (request, reply) => {
    const id = request.params.id;
    const raw = parseBody(request.body);
    // A form post carries the JSON in `payload`, like Slack's own form posts.
    let body = raw;
    if (typeof raw.payload === "string") {
      try {
        body = parseBody(JSON.parse(raw.payload));
      } catch {
        body = {};
      }
    }
    const context = standin.workspace.responseUrlContext(id);
    const answer = (status: number, result: SlackResult): AppAck => ({ status, body: result });
    let outcome: AppAck;
    if (!context) outcome = answer(404, { ok: false, error: "expired_url" });
    else if (context.uses >= RESPONSE_URL_MAX_USES)
      outcome = answer(404, { ok: false, error: "used_url" });
    else if (
      body.delete_original !== true &&
      typeof body.text !== "string" &&
      !Array.isArray(body.blocks)
    ) {
      outcome = answer(400, { ok: false, error: "no_text" });
    } else {
      standin.workspace.applyResponse(id, body, "response_url");
      outcome = answer(200, { ok: true });
    }
    const result = outcome.body as SlackResult;
    standin.record({
      method: "response_url",
      args: body,
      at: Date.now(),
      token: undefined,
      status: outcome.status,
      ok: result.ok,
      ...(result.ok ? {} : { error: result.error }),
    });
    return reply.code(outcome.status).send(result);
  });

  server.server.on("upgrade", (request, socket, head) => {
    if (!standin.socketHub.handleUpgrade(request, socket, head)) {
      socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    }
  });

  if (options.routes) await options.routes(server, standin);

  const host = options.host ?? "127.0.0.1";
  await server.listen({ port: options.port ?? 0, host });
  const address = server.server.address() as AddressInfo;
  standin.listening(`http://${host}:${address.port}`);
  return standin;
}
