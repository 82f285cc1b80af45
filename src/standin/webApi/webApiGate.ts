import type { Logger } from "pino";
import { ChannelRateLimiter, FaultPlan, type FaultSpec, type RateLimitOptions } from "../faults.js";
import type { SlackArgs, SlackResult } from "../types.js";
import type { Workspace } from "../workspace.js";
import { FunctionExecutions } from "./functions.js";
import { answerMethod, METHODS, needsAppToken } from "./webApi.js";

/**
 * The door of the Web API: what Slack checks before a method runs, in Slack's order: a planned
 * fault (a test's `failNext`), an unknown method, the token (bot or app-level, each only where
 * it belongs), `apps.connections.open`'s Socket Mode URL, the per-channel message rate limit;
 * then the method itself (webApi.ts). Apart from the server so that the HTTP routes only parse
 * and record, and this reads as Slack's rules.
 */

/** The HTTP answer to one Web API call. */
export interface Answer {
  status: number;
  body: SlackResult;
  headers: Record<string, string>;
}

export interface WebApiGateOptions {
  workspace: Workspace;
  botToken: string;
  /** The app-level token accepted by apps.connections.open; any `xapp-…` when unset. */
  appToken?: string;
  rateLimit?: RateLimitOptions;
  logger?: Logger;
  /** A one-time Socket Mode URL (apps.connections.open). */
  socketUrl: () => string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const answered = (body: SlackResult, status = 200, headers: Record<string, string> = {}) => ({
  status,
  body,
  headers,
});

export class WebApiGate {
  private readonly faults = new FaultPlan();
  private readonly limiter: ChannelRateLimiter;

  constructor(private readonly options: WebApiGateOptions) {
    this.limiter = new ChannelRateLimiter(options.rateLimit?.messagesPerSecondPerChannel);
  }

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

  private authError(method: string, token: string | undefined): string | undefined {
    if (!token) return "not_authed";
    if (needsAppToken(method)) {
      if (!token.startsWith("xapp-")) return "not_allowed_token_type";
      const { appToken } = this.options;
      return appToken === undefined || token === appToken ? undefined : "invalid_auth";
    }
    if (token.startsWith("xapp-")) return "not_allowed_token_type";
    if (token === this.options.botToken) return undefined;
    // A running step's token works for the bot's methods too, as Slack's do.
    return this.options.workspace.functions.isStepToken(token) ? undefined : "invalid_auth";
  }

  /** Answers one Web API call (faults, auth, rate limit, then the method). */
  async answer(method: string, args: SlackArgs, token: string | undefined): Promise<Answer> {
    const fault = this.faults.take(method);
    if (fault) {
      if (fault.delayMs > 0) await sleep(fault.delayMs);
      const headers: Record<string, string> =
        fault.retryAfterSeconds !== undefined
          ? { "retry-after": String(fault.retryAfterSeconds) }
          : {};
      return answered({ ok: false, error: fault.error }, fault.status, headers);
    }
    const { workspace } = this.options;
    // A step's end: only the step's own token may end it (functions.ts checks it).
    if (FunctionExecutions.handles(method)) {
      return answered(workspace.functions.answer(method, args, token));
    }
    if (!METHODS[method] && method !== "apps.connections.open") {
      return answered({ ok: false, error: "unknown_method", req_method: method });
    }
    const authError = this.authError(method, token);
    if (authError) return answered({ ok: false, error: authError });
    if (method === "apps.connections.open") {
      return answered({ ok: true, url: this.options.socketUrl() });
    }
    if (method === "chat.postMessage" && typeof args.channel === "string") {
      const channel = workspace.resolveChannel(args.channel)?.id ?? args.channel;
      const retryAfter = this.limiter.check(channel);
      if (retryAfter !== undefined) {
        return answered({ ok: false, error: "ratelimited" }, 429, {
          "retry-after": String(retryAfter),
        });
      }
    }
    try {
      return answered(answerMethod(method, args, workspace));
    } catch (error) {
      // A bug here must not take the stand-in down mid-test; Slack answers such calls with a 500.
      this.options.logger?.error({ err: error, method }, "stand-in method failed");
      return answered({ ok: false, error: "internal_error" }, 500);
    }
  }
}
