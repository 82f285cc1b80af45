import { DEFAULT_WAIT_MS } from "../waiters.js";
import { requestBody } from "./payloads.js";
import { signSlackRequest } from "./signing.js";
import type { SocketModeHub } from "./socketMode.js";

/**
 * How what the driver builds reaches the app: signed HTTP to its request URL, or an envelope over
 * its Socket Mode connection, each answering with the app's acknowledgement. Apart from the
 * driver (driver.ts) so that a payload can be sent by other means (the ack benchmark records the
 * bodies with a transport of its own).
 */

/** The app's acknowledgement: HTTP status and body (parsed JSON when JSON, else text). */
export interface AppAck {
  status: number;
  body: unknown;
}

/** How a payload reaches the app. */
export interface Transport {
  /** `event`: an Events API delivery (`event_callback`). */
  send(kind: "command" | "interaction" | "event", payload: object): Promise<AppAck>;
}

export interface HttpAppTarget {
  /** The app's request URL, e.g. `http://127.0.0.1:3000/slack/events`. */
  url: string;
  signingSecret: string;
}

export interface RawPostOptions {
  /** Unix seconds to sign with (a stale one to test the 5-minute window). */
  timestamp?: number;
  /** Sign with another secret (to test that the app refuses it). */
  signingSecret?: string;
  /**
   * Send it as Slack's retry of an earlier delivery: `x-slack-retry-num`/`-reason`, and signed
   * anew as Slack signs every delivery (the app refuses a signature it has seen before).
   */
  retry?: { num: number; reason: string };
  headers?: Record<string, string>;
}

async function readAck(response: Response): Promise<AppAck> {
  const text = await response.text();
  const type = response.headers.get("content-type") ?? "";
  if (text === "") return { status: response.status, body: undefined };
  if (type.includes("application/json")) {
    try {
      return { status: response.status, body: JSON.parse(text) };
    } catch {
      return { status: response.status, body: text };
    }
  }
  return { status: response.status, body: text };
}

/** Signed HTTP to the app's request URL, as Slack's HTTP delivery does. */
export class HttpTransport implements Transport {
  /** The latest timestamp this transport signed with (Unix seconds). */
  private lastSignedAt = 0;

  constructor(private readonly target: HttpAppTarget) {}

  /** Posts a raw form body, signed (or mis-signed, with options) like Slack signs it. */
  async postRaw(body: string, options: RawPostOptions = {}): Promise<AppAck> {
    const now = Math.floor(Date.now() / 1000);
    // Slack retries after its 3-second timeout at the earliest, so a retry's timestamp (whole
    // seconds) is never its original's; the stand-in retries at once, hence "a second later".
    const timestamp =
      options.timestamp ?? (options.retry ? Math.max(now, this.lastSignedAt + 1) : now);
    this.lastSignedAt = Math.max(this.lastSignedAt, timestamp);
    const headers = signSlackRequest({
      signingSecret: options.signingSecret ?? this.target.signingSecret,
      body,
      timestamp,
    });
    const retryHeaders: Record<string, string> = options.retry
      ? {
          "x-slack-retry-num": String(options.retry.num),
          "x-slack-retry-reason": options.retry.reason,
        }
      : {};
    const response = await fetch(this.target.url, {
      method: "POST",
      headers: { ...headers, ...retryHeaders, ...options.headers },
      body,
    });
    return readAck(response);
  }

  send(kind: "command" | "interaction" | "event", payload: object): Promise<AppAck> {
    // Events come as JSON, the rest as form bodies (Bolt parses by the content type).
    if (kind === "event") {
      return this.postRaw(JSON.stringify(payload), {
        headers: { "content-type": "application/json" },
      });
    }
    return this.postRaw(requestBody(kind, payload));
  }
}

/** Socket Mode delivery: an envelope over the app's WebSocket, the ack's payload as the body. */
export class SocketTransport implements Transport {
  constructor(
    private readonly hub: SocketModeHub,
    private readonly timeoutMs = DEFAULT_WAIT_MS,
  ) {}

  async send(kind: "command" | "interaction" | "event", payload: object): Promise<AppAck> {
    const ack = await this.hub.deliver(
      kind === "command" ? "slash_commands" : kind === "event" ? "events_api" : "interactive",
      payload as Record<string, unknown>,
      {
        timeoutMs: this.timeoutMs,
      },
    );
    return { status: 200, body: Object.keys(ack).length === 0 ? undefined : ack };
  }
}
