import { parse as parseQuery } from "node:querystring";
import type { FastifyInstance } from "fastify";
import { FORM_CONTENT_TYPE } from "./driver/signing.js";
import type { SlackStandin } from "./server.js";
import type { SlackArgs, SlackResult } from "./types.js";
import { MAX_UPLOAD_BYTES, UPLOAD_PATH } from "./webApi/files.js";
import { decodeFormArgs } from "./webApi/webApi.js";
import { RESPONSE_URL_MAX_USES } from "./workspace.js";

/**
 * The stand-in's HTTP face as Slack's: the Web API (`POST /api/:method`, form or JSON), the
 * upload URL of files.getUploadURLExternal, response URLs (`POST /response/:id`) and the Socket
 * Mode upgrade. Each route parses the request, lets the stand-in answer, and records the call;
 * what an answer is lives in webApiGate.ts, webApi.ts and the workspace.
 */

function bearerToken(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const match = value ? /^Bearer\s+(.+)$/i.exec(value.trim()) : null;
  return match?.[1];
}

function parseBody(body: unknown): SlackArgs {
  if (typeof body === "object" && body !== null && !Array.isArray(body)) return body as SlackArgs;
  return {};
}

/** Records a call the way `calls()` shows it: ok, or the error Slack answered. */
function record(
  standin: SlackStandin,
  call: { method: string; args: SlackArgs; token?: string; status: number; result: SlackResult },
): void {
  standin.record({
    method: call.method,
    args: call.args,
    at: Date.now(),
    token: call.token,
    status: call.status,
    ok: call.result.ok,
    ...(call.result.ok ? {} : { error: call.result.error }),
  });
}

/** Registers Slack's routes on the stand-in's fastify instance (before it listens). */
export function registerSlackRoutes(server: FastifyInstance, standin: SlackStandin): void {
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
    record(standin, { method, args, token, status: answer.status, result: answer.body });
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
    const result: SlackResult = outcome === "ok" ? { ok: true } : { ok: false, error: outcome };
    record(standin, {
      method: "upload_url",
      args: { bytes: bytes.length },
      status: outcome === "ok" ? 200 : 404,
      result,
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
    let status = 200;
    let result: SlackResult = { ok: true };
    if (!context) [status, result] = [404, { ok: false, error: "expired_url" }];
    else if (context.uses >= RESPONSE_URL_MAX_USES)
      [status, result] = [404, { ok: false, error: "used_url" }];
    else if (
      body.delete_original !== true &&
      typeof body.text !== "string" &&
      !Array.isArray(body.blocks)
    ) {
      [status, result] = [400, { ok: false, error: "no_text" }];
    } else {
      standin.workspace.applyResponse(id, body, "response_url");
    }
    record(standin, { method: "response_url", args: body, status, result });
    return reply.code(status).send(result);
  });

  server.server.on("upgrade", (request, socket, head) => {
    if (!standin.socketHub.handleUpgrade(request, socket, head)) {
      socket.end("HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
    }
  });
}
