import { createHmac, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type BufferedIncomingMessage,
  HTTPModuleFunctions,
  type HTTPReceiver,
  isRawBodyError,
} from "@slack/bolt";
import type { Logger } from "../log.js";
import type { SeenSignatures } from "./replayGuard.js";

/**
 * What every POST to the Slack endpoint passes before Bolt sees it, cheapest first, and nothing
 * parses the body before step 3:
 *
 * 1. **Headers.** A `content-length` above the limit is answered 413, missing or malformed
 *    signature headers 401, a timestamp more than 5 minutes from now either way 401 (Bolt alone
 *    refuses only old ones), all before a byte of the body is read, and the connection is closed
 *    so the rest is not read either.
 * 2. **Body**, read up to the limit (413 as soon as the bytes read pass it, without a
 *    `content-length`).
 * 3. **Signature** on the raw bytes: `v0=` HMAC-SHA256 of `v0:<timestamp>:<body>`, compared in
 *    constant time. Otherwise 401.
 * 4. **Shape**, now that the body is known to be Slack's. Bolt's HTTPReceiver (5.x) reads
 *    `body.ssl_check` of the parsed body in an async closure nobody awaits: a signed body whose
 *    JSON is not an object (`payload=null`) throws an unhandled rejection, which ends the
 *    process, and the request is never answered. Such a body is answered 400 here.
 * 5. **Replay.** A signature accepted before, by any replica, within its window is refused with
 *    401. Slack signs each retry anew (new timestamp, so new signature, plus `x-slack-retry-num`),
 *    so its retries pass. Options requests (`block_suggestion`) are the exception: they carry no
 *    trigger id or action timestamp, so Slack itself sends identical ones when a person types
 *    the same query twice within a second, and they are read-only by construction (an options
 *    listener can only answer with options, to whoever asked).
 *
 * Then Bolt gets the buffered request (it reuses `rawBody`, verifies it again and parses it).
 */

export const SIGNATURE_WINDOW_SECONDS = 5 * 60;
/**
 * A seen signature is kept this much longer than its timestamp stays acceptable, so a replica
 * whose clock is a little behind another's still finds it.
 */
const CLOCK_SKEW_SECONDS = 60;
/** Slack's `ssl_check=1&token=…`: a few dozen bytes. */
const SSL_CHECK_MAX_BYTES = 512;
/** One warning per reason per this long: a flood of refusals must not become a flood of logs. */
const LOG_EVERY_MS = 10_000;

export type RefusalReason =
  | "too_large"
  | "unreadable"
  | "unsigned"
  | "stale"
  | "future"
  | "bad_signature"
  | "replayed"
  | "not_an_object";

export interface SlackRequestGuardOptions {
  /** The path Slack posts to, e.g. `/slack/events`. */
  endpoint: string;
  signingSecret: string;
  maxBodyBytes: number;
  seen: SeenSignatures;
  logger: Logger;
  /** Milliseconds since the epoch (tests move it to check the window). */
  now?: () => number;
  onRefused?: (reason: RefusalReason) => void;
}

/** Puts the checks in front of the receiver's own request listener (before `app.start`). */
export function guardSlackRequests(
  receiver: HTTPReceiver,
  options: SlackRequestGuardOptions,
): void {
  const next = receiver.requestListener;
  const admit = slackRequestAdmission(options);
  receiver.requestListener = (req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (req.method !== "POST" || path !== options.endpoint) return next(req, res);
    admit(req, res)
      .then((admitted) => {
        if (admitted) next(admitted, res);
      })
      .catch((error: unknown) => {
        options.logger.error({ err: error }, "Slack request check failed");
        if (res.headersSent) return;
        res.writeHead(500);
        res.end();
      });
  };
}

/**
 * Checks one request; answers it itself when it is refused (or is Slack's SSL check) and
 * resolves with the buffered request when Bolt should have it.
 */
function slackRequestAdmission(options: SlackRequestGuardOptions) {
  const now = options.now ?? Date.now;
  const limit = options.maxBodyBytes;
  const lastWarned = new Map<RefusalReason, { at: number; since: number }>();

  function refuse(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    reason: RefusalReason,
  ): undefined {
    options.onRefused?.(reason);
    const log = lastWarned.get(reason) ?? { at: 0, since: 0 };
    log.since += 1;
    if (Date.now() - log.at >= LOG_EVERY_MS) {
      options.logger.warn(
        { reason, status, refusedSinceLastWarning: log.since },
        "Slack request refused",
      );
      log.at = Date.now();
      log.since = 0;
    }
    lastWarned.set(reason, log);
    // A body refused before it was read whole may still be arriving: closing the connection is
    // what stops reading it (Node would otherwise read the rest to reuse the connection).
    const close = !HTTPModuleFunctions.isBufferedIncomingMessage(req);
    res.writeHead(status, close ? { connection: "close" } : {});
    res.end();
    return undefined;
  }

  return async (
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<BufferedIncomingMessage | undefined> => {
    // What the headers alone can refuse is refused before a byte of the body is read.
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limit) return refuse(req, res, 413, "too_large");
    const signature = singleHeader(req, "x-slack-signature");
    const timestamp = singleHeader(req, "x-slack-request-timestamp");
    if (!signature || !timestamp || !/^\d{1,12}$/.test(timestamp)) {
      if (mayBeSslCheck(req, declared)) return answerSslCheck(req, res);
      return refuse(req, res, 401, "unsigned");
    }
    const nowMs = now();
    const age = Math.floor(nowMs / 1000) - Number(timestamp);
    if (age > SIGNATURE_WINDOW_SECONDS) return refuse(req, res, 401, "stale");
    if (age < -SIGNATURE_WINDOW_SECONDS) return refuse(req, res, 401, "future");

    const buffered = await readBody(req, res);
    if (!buffered) return undefined;
    if (!signedBySlack(options.signingSecret, timestamp, buffered.rawBody, signature)) {
      return refuse(req, res, 401, "bad_signature");
    }

    const parsed = parseAsBoltWill(buffered);
    if (parsed.ok && (typeof parsed.body !== "object" || parsed.body === null)) {
      return refuse(req, res, 400, "not_an_object");
    }
    const optionsRequest =
      parsed.ok && (parsed.body as { type?: unknown }).type === "block_suggestion";
    // Remembered for as long as this timestamp stays acceptable (up to 10 minutes for one
    // dated 5 minutes ahead), plus the skew between replicas' clocks.
    const rememberSeconds = SIGNATURE_WINDOW_SECONDS - age + CLOCK_SKEW_SECONDS;
    if (!optionsRequest && !(await options.seen.firstSighting(signature, rememberSeconds))) {
      return refuse(req, res, 401, "replayed");
    }
    return buffered;
  };

  /** The body, at most `limit` bytes (raw-body under Bolt's helper stops reading past it). */
  async function readBody(
    req: IncomingMessage,
    res: ServerResponse,
    max = limit,
  ): Promise<BufferedIncomingMessage | undefined> {
    try {
      return await HTTPModuleFunctions.bufferIncomingMessage(req, max);
    } catch (error) {
      const tooLarge = isRawBodyError(error) && error.statusCode === 413;
      return refuse(req, res, tooLarge ? 413 : 400, tooLarge ? "too_large" : "unreadable");
    }
  }

  /**
   * Slack's SSL check is unsigned by design; Bolt answers it 200 and runs nothing, so it is
   * answered here alike. Only a few hundred bytes are read to tell.
   */
  async function answerSslCheck(req: IncomingMessage, res: ServerResponse): Promise<undefined> {
    const buffered = await readBody(req, res, SSL_CHECK_MAX_BYTES);
    if (!buffered) return undefined;
    if (!/(?:^|&)ssl_check=1(?:&|$)/.test(buffered.rawBody.toString("latin1"))) {
      return refuse(req, res, 401, "unsigned");
    }
    HTTPModuleFunctions.buildSSLCheckResponse(res);
    return undefined;
  }
}

/**
 * Slack's signature over the raw bytes. Bolt's `isValidSlackRequest` takes the body as a string
 * and signs a copy with the prefix: at the 1 MiB limit that decode and copy nearly double the
 * cost of refusing a forged request (4.4 ms against 2.4 ms measured), which is what a flood of
 * them costs the bot. Bolt still checks each admitted request its own way.
 */
function signedBySlack(
  secret: string,
  timestamp: string,
  body: Buffer,
  signature: string,
): boolean {
  const given = /^v0=([0-9a-f]{64})$/.exec(signature)?.[1];
  if (!given) return false;
  const expected = createHmac("sha256", secret).update(`v0:${timestamp}:`).update(body).digest();
  return timingSafeEqual(expected, Buffer.from(given, "hex"));
}

function singleHeader(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A small form body (Bolt compares the content type literally too: Slack sends no charset). */
function mayBeSslCheck(req: IncomingMessage, declaredLength: number): boolean {
  return (
    req.headers["content-type"] === "application/x-www-form-urlencoded" &&
    Number.isFinite(declaredLength) &&
    declaredLength <= SSL_CHECK_MAX_BYTES
  );
}

/** The body as Bolt will parse it; not ok when it fails to parse (Bolt answers that 400 itself). */
function parseAsBoltWill(
  req: BufferedIncomingMessage,
): { ok: true; body: unknown } | { ok: false } {
  try {
    return { ok: true, body: HTTPModuleFunctions.parseHTTPRequestBody(req) as unknown };
  } catch {
    return { ok: false };
  }
}
