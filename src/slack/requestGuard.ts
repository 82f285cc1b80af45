import type { IncomingMessage, ServerResponse } from "node:http";
import {
  type BufferedIncomingMessage,
  HTTPModuleFunctions,
  type HTTPReceiver,
  isRawBodyError,
  isValidSlackRequest,
} from "@slack/bolt";
import type { Logger } from "../log.js";
import type { SeenSignatures } from "./replayGuard.js";

/**
 * What every POST to the Slack endpoint passes before Bolt sees it, in this order:
 *
 * 1. **Size.** A body above the limit is answered 413 as soon as that is known: from its
 *    `content-length` before a byte is read, else when the bytes read pass the limit; the rest is
 *    neither read nor kept (the connection is closed).
 * 2. **Signature**, on the raw bytes and before anything parses them: `v0=` HMAC-SHA256 of
 *    `v0:<timestamp>:<body>` (Bolt's own check, constant-time), with a timestamp at most 5 minutes
 *    from now either way (Bolt alone refuses only old ones). Otherwise 401.
 * 3. **Replay.** A signature accepted before, by any replica, within its window is refused with
 *    401. Slack signs each retry anew (new timestamp, so new signature, plus `x-slack-retry-num`),
 *    so its retries pass.
 * 4. **Shape.** Bolt's HTTPReceiver (5.x) reads `body.ssl_check` of the parsed body in an async
 *    closure nobody awaits: a signed body whose JSON is not an object (`payload=null`) throws an
 *    unhandled rejection, which ends the process, and the request is never answered. Such a body
 *    is answered 400 here.
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

  function refuse(res: ServerResponse, status: number, reason: RefusalReason): undefined {
    options.onRefused?.(reason);
    const log = lastWarned.get(reason) ?? { at: 0, since: 0 };
    log.since += 1;
    if (Date.now() - log.at >= LOG_EVERY_MS) {
      options.logger.warn(
        { reason, status, refusedSinceLastWarning: log.since },
        "Slack request refused before it was parsed",
      );
      log.at = Date.now();
      log.since = 0;
    }
    lastWarned.set(reason, log);
    // A body refused for its size or its framing may still be arriving: closing the connection
    // is what stops reading it (Node would otherwise read the rest to reuse the connection).
    const close = reason === "too_large" || reason === "unreadable";
    res.writeHead(status, close ? { connection: "close" } : {});
    res.end();
    return undefined;
  }

  return async (
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<BufferedIncomingMessage | undefined> => {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > limit) return refuse(res, 413, "too_large");
    let buffered: BufferedIncomingMessage;
    try {
      // raw-body under Bolt's helper: stops reading and fails with 413 once past the limit.
      buffered = await HTTPModuleFunctions.bufferIncomingMessage(req, limit);
    } catch (error) {
      const tooLarge = isRawBodyError(error) && error.statusCode === 413;
      return refuse(res, tooLarge ? 413 : 400, tooLarge ? "too_large" : "unreadable");
    }
    const raw = buffered.rawBody;
    if (isSslCheck(req, raw)) {
      // Unsigned by design; Bolt answers it 200 and runs nothing, so it is answered here alike.
      HTTPModuleFunctions.buildSSLCheckResponse(res);
      return undefined;
    }

    const signature = singleHeader(req, "x-slack-signature");
    const timestamp = singleHeader(req, "x-slack-request-timestamp");
    if (!signature || !timestamp || !/^\d{1,12}$/.test(timestamp)) {
      return refuse(res, 401, "unsigned");
    }
    const nowMs = now();
    const age = Math.floor(nowMs / 1000) - Number(timestamp);
    if (age > SIGNATURE_WINDOW_SECONDS) return refuse(res, 401, "stale");
    if (age < -SIGNATURE_WINDOW_SECONDS) return refuse(res, 401, "future");
    const signed = isValidSlackRequest({
      signingSecret: options.signingSecret,
      body: raw.toString(),
      headers: { "x-slack-signature": signature, "x-slack-request-timestamp": Number(timestamp) },
      nowMilliseconds: nowMs,
    });
    if (!signed) return refuse(res, 401, "bad_signature");

    // Remembered for as long as this timestamp stays acceptable (up to 10 minutes for one
    // dated 5 minutes ahead), plus the skew between replicas' clocks.
    const rememberSeconds = SIGNATURE_WINDOW_SECONDS - age + CLOCK_SKEW_SECONDS;
    if (!(await options.seen.firstSighting(signature, rememberSeconds))) {
      return refuse(res, 401, "replayed");
    }
    if (!parsesToObjectOrFails(buffered)) return refuse(res, 400, "not_an_object");
    return buffered;
  };
}

function singleHeader(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Bolt compares the content type literally too (Slack sends no charset). */
function isSslCheck(req: IncomingMessage, raw: Buffer): boolean {
  return (
    req.headers["content-type"] === "application/x-www-form-urlencoded" &&
    raw.length <= SSL_CHECK_MAX_BYTES &&
    /(?:^|&)ssl_check=1(?:&|$)/.test(raw.toString("latin1"))
  );
}

/** False only for a body Bolt would parse to a non-object; a parse error Bolt answers itself. */
function parsesToObjectOrFails(req: BufferedIncomingMessage): boolean {
  try {
    const body: unknown = HTTPModuleFunctions.parseHTTPRequestBody(req);
    return typeof body === "object" && body !== null;
  } catch {
    return true;
  }
}
