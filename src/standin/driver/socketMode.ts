import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocket, WebSocketServer } from "ws";
import { within } from "../../domain/deadline.js";
import { slackId } from "../ids.js";
import { DEFAULT_WAIT_MS } from "../waiters.js";

/**
 * Slack's side of Socket Mode: `apps.connections.open` hands out a one-time WebSocket URL; on
 * connect Slack says `hello`; it delivers envelopes `{envelope_id, type, payload,
 * accepts_response_payload}` and the app acknowledges each with `{envelope_id, payload?}`.
 */

export type EnvelopeType = "slash_commands" | "interactive" | "events_api";

/** Where the stand-in serves Socket Mode connections. */
export const SOCKET_PATH = "/socket";

/** Socket Mode envelopes and acks are small JSON; anything bigger is a broken peer. */
const MAX_MESSAGE_BYTES = 1024 * 1024;

interface PendingAck {
  resolve: (payload: Record<string, unknown>) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export interface SocketModeEvents {
  connected: [number];
  disconnected: [number];
}

export class SocketModeHub extends EventEmitter<SocketModeEvents> {
  private readonly tickets = new Set<string>();
  private readonly server = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  private readonly connections: WebSocket[] = [];
  private readonly pending = new Map<string, PendingAck>();

  constructor(private readonly appId: string) {
    super();
    this.setMaxListeners(0);
  }

  /** A one-time ticket for the URL `apps.connections.open` returns. */
  issueTicket(): string {
    const ticket = slackId("", 24).toLowerCase();
    this.tickets.add(ticket);
    return ticket;
  }

  get connectionCount(): number {
    return this.connections.length;
  }

  /** Takes an HTTP upgrade for the socket path; false when the request is not ours. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const url = new URL(request.url ?? "/", "http://stand-in");
    if (url.pathname !== SOCKET_PATH) return false;
    const ticket = url.searchParams.get("ticket") ?? "";
    if (!this.tickets.delete(ticket)) {
      socket.end("HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return true;
    }
    this.server.handleUpgrade(request, socket, head, (connection) => this.onConnection(connection));
    return true;
  }

  private onConnection(connection: WebSocket): void {
    this.connections.push(connection);
    connection.on("message", (data, isBinary) => {
      // Socket Mode speaks JSON text; binary messages are ignored, as Slack's client does.
      if (!isBinary) this.onMessage(data.toString());
    });
    // A reset peer must not crash the process; the close event follows.
    connection.on("error", () => {});
    connection.on("close", () => {
      const index = this.connections.indexOf(connection);
      if (index >= 0) this.connections.splice(index, 1);
      this.emit("disconnected", this.connections.length);
    });
    connection.send(
      JSON.stringify({
        type: "hello",
        num_connections: this.connections.length,
        debug_info: { host: "standin-applink", approximate_connection_time: 18060 },
        connection_info: { app_id: this.appId },
      }),
    );
    this.emit("connected", this.connections.length);
  }

  private onMessage(text: string): void {
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (typeof message !== "object" || message === null) return;
    const { envelope_id: envelopeId, payload } = message as Record<string, unknown>;
    if (typeof envelopeId !== "string") return;
    const waiting = this.pending.get(envelopeId);
    if (!waiting) return;
    this.pending.delete(envelopeId);
    clearTimeout(waiting.timer);
    waiting.resolve(
      typeof payload === "object" && payload !== null ? (payload as Record<string, unknown>) : {},
    );
  }

  /** Resolves once at least `count` apps are connected. */
  waitForConnection(count = 1, timeoutMs = DEFAULT_WAIT_MS): Promise<void> {
    if (this.connections.length >= count) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onConnect = (n: number) => {
        if (n < count) return;
        clearTimeout(timer);
        this.off("connected", onConnect);
        resolve();
      };
      const timer = setTimeout(() => {
        this.off("connected", onConnect);
        reject(
          new Error(
            `Timed out after ${timeoutMs} ms waiting for ${count} Socket Mode connection(s); have ${this.connections.length}`,
          ),
        );
      }, timeoutMs);
      this.on("connected", onConnect);
    });
  }

  /**
   * Delivers an envelope to the most recently connected app and resolves with its ack payload
   * (`{}` for a bare ack). Rejects when no app is connected or none acks in time.
   */
  deliver(
    type: EnvelopeType,
    payload: Record<string, unknown>,
    options: { timeoutMs?: number } = {},
  ): Promise<Record<string, unknown>> {
    const connection = this.connections.filter((c) => c.readyState === WebSocket.OPEN).at(-1);
    if (!connection) return Promise.reject(new Error("No app is connected over Socket Mode"));
    const envelopeId = randomUUID();
    const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_MS;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(envelopeId);
        reject(
          new Error(
            `The app did not acknowledge ${type} envelope ${envelopeId} within ${timeoutMs} ms`,
          ),
        );
      }, timeoutMs);
      this.pending.set(envelopeId, { resolve, reject, timer });
      connection.send(
        JSON.stringify({
          envelope_id: envelopeId,
          type,
          payload,
          accepts_response_payload: type !== "events_api",
        }),
      );
    });
  }

  /** Asks every connected app to reconnect, as Slack does when it recycles a connection. */
  requestReconnect(reason = "refresh_requested"): void {
    for (const connection of this.connections) {
      if (connection.readyState === WebSocket.OPEN) {
        connection.send(
          JSON.stringify({ type: "disconnect", reason, debug_info: { host: "standin-applink" } }),
        );
      }
    }
  }

  /**
   * Says goodbye (close code 1001, "going away") and waits briefly for each app to answer the
   * close handshake, so a client that is itself shutting down sees a clean close, not an error.
   */
  async close(graceMs = 1000): Promise<void> {
    for (const waiting of this.pending.values()) {
      clearTimeout(waiting.timer);
      waiting.reject(new Error("The stand-in closed"));
    }
    this.pending.clear();
    const open = [...this.connections];
    const closed = open.map(
      (connection) =>
        new Promise<void>((resolve) => {
          if (connection.readyState === WebSocket.CLOSED) resolve();
          else connection.once("close", () => resolve());
        }),
    );
    for (const connection of open) {
      if (connection.readyState === WebSocket.OPEN) connection.close(1001, "going away");
    }
    await within(Promise.all(closed), graceMs, () => undefined);
    for (const connection of this.connections) connection.terminate();
    this.server.close();
  }
}
