// The ack benchmark's load generator: sends requests that were built and signed beforehand,
// `concurrency` at a time in a closed loop (each connection sends its next request when the
// previous one was answered), over keep-alive connections, and times each to the last byte of
// its response. It runs in a process of its own (bench/child.ts, role "load") so that neither
// building and signing payloads nor the Slack stand-in's serving of the bot's follow-ups is
// counted as the app's latency. node:http rather than autocannon: autocannon records latency
// in whole milliseconds, too coarse for the 1–2 ms acks at concurrency 1.
import { Agent, request } from "node:http";

export interface PreparedRequest {
  headers: Record<string, string>;
  body: string;
}

export interface ClosedLoopOptions {
  /** Count the responses whose body contains this. */
  mark?: string;
  /**
   * The first this many requests (with `concurrency` of them, each connection's first) are
   * timed apart, in `openingLatencies`, and not in `latencies`.
   */
  opening?: number;
}

export interface ClosedLoopResult {
  /**
   * Milliseconds from sending each request after the opening ones to the end of its response,
   * in completion order.
   */
  latencies: number[];
  /** The same for the opening requests. */
  openingLatencies: number[];
  /** Responses that were not 200, and requests that failed without a response (all requests). */
  non200: number;
  /** Responses whose body contains `mark` (all requests). */
  marked: number;
  /** From the first request after the opening ones to the last response. */
  seconds: number;
}

interface Answer {
  status: number;
  body: string;
}

export async function closedLoop(
  url: string,
  requests: readonly PreparedRequest[],
  concurrency: number,
  options: ClosedLoopOptions = {},
): Promise<ClosedLoopResult> {
  const { mark, opening = 0 } = options;
  const target = new URL(url);
  const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
  const post = (prepared: PreparedRequest) =>
    new Promise<Answer>((resolve) => {
      const req = request(
        {
          host: target.hostname,
          port: target.port,
          path: `${target.pathname}${target.search}`,
          method: "POST",
          agent,
          headers: { ...prepared.headers, "content-length": Buffer.byteLength(prepared.body) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
          );
          res.on("error", () => resolve({ status: 0, body: "" }));
        },
      );
      // A refused or reset connection is counted, not thrown: the run goes on and reports it.
      req.on("error", () => resolve({ status: 0, body: "" }));
      req.end(prepared.body);
    });

  const latencies: number[] = [];
  const openingLatencies: number[] = [];
  let non200 = 0;
  let marked = 0;
  let next = 0;
  let timedFrom: number | undefined;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (;;) {
        const i = next++;
        const prepared = requests[i];
        if (prepared === undefined) return;
        const t0 = performance.now();
        if (i === opening) timedFrom = t0;
        const answer = await post(prepared);
        (i < opening ? openingLatencies : latencies).push(performance.now() - t0);
        if (answer.status !== 200) non200 += 1;
        if (mark !== undefined && answer.body.includes(mark)) marked += 1;
      }
    }),
  );
  const seconds = timedFrom === undefined ? 0 : (performance.now() - timedFrom) / 1000;
  agent.destroy();
  return { latencies, openingLatencies, non200, marked, seconds };
}

export interface FloodOptions {
  /** Requests to send in all. */
  count: number;
  concurrency: number;
  /** Size of each body (bytes): `payload=` and JSON padding. */
  bytes: number;
  /**
   * Signature headers with a current timestamp and a made-up signature: the app must read the
   * body and compute its HMAC to refuse it. Otherwise unsigned.
   */
  forged?: boolean;
}

export interface FloodResult {
  sent: number;
  /** Answers by HTTP status; 0 = the connection failed or was closed without an answer. */
  statuses: Record<string, number>;
  seconds: number;
}

/**
 * The guard benchmark's flood: `count` unsigned (or forged) requests of `bytes` each to `url`,
 * `concurrency` at a time in a closed loop, as an attacker without the signing secret would
 * send them. The
 * body is built once; a refused request's connection may be closed by the app before the body
 * is all sent (that is the point of a limit), which is counted under status 0 only when no
 * answer came.
 */
export async function flood(url: string, options: FloodOptions): Promise<FloodResult> {
  const target = new URL(url);
  const body = Buffer.alloc(options.bytes, "a");
  const head = `payload=${encodeURIComponent('{"type":"block_actions","pad":"')}`;
  body.write(head);
  body.write(encodeURIComponent('"}'), options.bytes - 6);
  const forged = options.forged
    ? {
        "x-slack-request-timestamp": String(Math.floor(Date.now() / 1000)),
        "x-slack-signature": `v0=${"0".repeat(64)}`,
      }
    : {};
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const statuses: Record<string, number> = {};
  const send = () =>
    new Promise<number>((resolve) => {
      let answered = false;
      const req = request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: "POST",
          agent,
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            "content-length": body.length,
            ...forged,
          },
        },
        (res) => {
          answered = true;
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
          res.on("error", () => resolve(res.statusCode ?? 0));
        },
      );
      req.on("error", () => {
        if (!answered) resolve(0);
      });
      req.end(body);
    });
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: options.concurrency }, async () => {
      while (next++ < options.count) {
        const status = await send();
        statuses[status] = (statuses[status] ?? 0) + 1;
      }
    }),
  );
  agent.destroy();
  return { sent: options.count, statuses, seconds: (performance.now() - started) / 1000 };
}
