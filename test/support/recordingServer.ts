// A real HTTP server on 127.0.0.1 that records every request and answers as each test says:
// a status with a body, a hang (never answer), or a dropped connection after the request
// was read (the "reset after sending" case of a non-idempotent call).
import {
  createServer,
  type IncomingHttpHeaders,
  type Server,
  type ServerResponse,
} from "node:http";
import type { Socket } from "node:net";
import { Writable } from "node:stream";

export interface RecordedRequest {
  method: string;
  /** Path without the query. */
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  bodyText: string;
  /** The body parsed as JSON, or undefined when empty or not JSON. */
  body: unknown;
  /** performance.now() when the request was fully read. */
  at: number;
}

export type Reply =
  | {
      status?: number;
      headers?: Record<string, string>;
      /** Sent as JSON. */
      json?: unknown;
      /** Sent as is (content-type text/plain unless headers say otherwise). */
      text?: string;
    }
  | { hang: true }
  | { destroy: true };

export type Handler = (request: RecordedRequest) => Reply | Promise<Reply>;

export interface RecordingServer {
  url: string;
  requests: RecordedRequest[];
  /** Answers every following request with `handler`. */
  handle(handler: Handler): void;
  /** Answers the next requests with these replies in turn, then the last one again. */
  replies(...replies: Reply[]): void;
  /** Resolves when at least `count` requests have been recorded. */
  waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  reset(): void;
  close(): Promise<void>;
}

function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function send(res: ServerResponse, reply: Exclude<Reply, { hang: true } | { destroy: true }>) {
  const headers: Record<string, string> = { ...reply.headers };
  let payload = "";
  if (reply.json !== undefined) {
    payload = JSON.stringify(reply.json);
    headers["content-type"] ??= "application/json";
  } else if (reply.text !== undefined) {
    payload = reply.text;
    headers["content-type"] ??= "text/plain";
  }
  res.writeHead(reply.status ?? 200, headers);
  res.end(payload);
}

export async function startRecordingServer(): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const waiters: Array<{ count: number; resolve: () => void }> = [];
  let handler: Handler = () => ({ status: 200, json: {} });

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", async () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const bodyText = Buffer.concat(chunks).toString("utf8");
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: req.headers,
        bodyText,
        body: parseJson(bodyText),
        at: performance.now(),
      };
      requests.push(recorded);
      for (const w of waiters.filter((w) => requests.length >= w.count)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      const reply = await handler(recorded);
      if ("hang" in reply) return;
      if ("destroy" in reply) {
        req.socket.destroy();
        return;
      }
      send(res, reply);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address !== "object") throw new Error("no server address");

  return {
    url: `http://127.0.0.1:${address.port}`,
    requests,
    handle(next) {
      handler = next;
    },
    replies(...queue) {
      let i = 0;
      handler = () => {
        const reply = queue[Math.min(i, queue.length - 1)];
        i++;
        if (!reply) throw new Error("replies() needs at least one reply");
        return reply;
      };
    },
    waitForRequests(count, timeoutMs = 5_000) {
      if (requests.length >= count) return Promise.resolve(requests);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`saw ${requests.length} of ${count} requests`)),
          timeoutMs,
        );
        waiters.push({
          count,
          resolve: () => {
            clearTimeout(timer);
            resolve(requests);
          },
        });
      });
    },
    reset() {
      requests.length = 0;
      handler = () => ({ status: 200, json: {} });
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on 127.0.0.1 with nobody listening (connection refused). */
export async function refusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address !== "object") throw new Error("no server address");
  return `http://127.0.0.1:${address.port}`;
}

/** A writable that keeps every log line (pino writes one JSON object per line). */
export function memoryLogStream(): NodeJS.WritableStream & {
  lines(): string[];
  records(): Record<string, unknown>[];
} {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  const lines = () =>
    chunks
      .join("")
      .split("\n")
      .filter((line) => line.trim() !== "");
  return Object.assign(stream, {
    lines,
    records: () => lines().map((line) => JSON.parse(line) as Record<string, unknown>),
  });
}
