import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { SlackStandin } from "../standin/server.js";
import { PlaygroundApi, type PlaygroundApiOptions } from "./api.js";
import { RequestProblem } from "./apiRequests.js";

/**
 * The playground API's HTTP side on the stand-in's server: each route of `/playground/api/*`
 * to its action on PlaygroundApi, the same-origin and JSON-only rules, and how a refusal or a
 * failure becomes an answer (never a crash, whatever a browser sends).
 */

export function sendProblem(reply: FastifyReply, error: unknown): FastifyReply {
  if (error instanceof RequestProblem) {
    return reply.code(error.status).send({
      ok: false,
      error: error.message,
      ...(error.fieldErrors ? { fieldErrors: error.fieldErrors } : {}),
    });
  }
  // fetch() rejects with a TypeError when the bot cannot be reached at all.
  if (error instanceof TypeError && /fetch failed/.test(error.message)) {
    return reply.code(502).send({ ok: false, error: "The bot did not answer." });
  }
  // The driver refuses what Slack's client would not let a person do; say why.
  const message = error instanceof Error ? error.message : "Something went wrong.";
  return reply.code(400).send({ ok: false, error: message.slice(0, 500) });
}

/**
 * A page on another site must not drive the playground from the person's browser: posts must be
 * JSON (a cross-site form cannot send that without a CORS preflight, which is never granted),
 * and a request that names an Origin must come from this server's own.
 */
export function checkSameOrigin(
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply | undefined {
  const origin = request.headers.origin;
  if (origin !== undefined && origin !== `http://${request.headers.host ?? ""}`) {
    return reply.code(403).send({ ok: false, error: "cross-origin requests are not allowed" });
  }
  if (request.method === "POST") {
    const type = request.headers["content-type"] ?? "";
    if (!type.toLowerCase().startsWith("application/json")) {
      return reply
        .code(415)
        .send({ ok: false, error: "send JSON (content-type: application/json)" });
    }
  }
  return undefined;
}

type Work = (api: PlaygroundApi, request: FastifyRequest) => unknown;

/** Every route: method, path under `/playground/api`, and the action it runs. */
const ROUTES: ReadonlyArray<readonly ["GET" | "POST", string, Work]> = [
  ["GET", "state", (api, r) => api.state(r.query)],
  ["GET", "suggest", (api, r) => api.suggest(r.query)],
  ["POST", "command", (api, r) => api.command(r.body)],
  ["POST", "message", (api, r) => api.message(r.body)],
  ["POST", "click", (api, r) => api.click(r.body)],
  ["POST", "view/input", (api, r) => api.viewInput(r.body)],
  ["POST", "view/submit", (api, r) => api.submit(r.body)],
  ["POST", "view/close", (api, r) => api.close(r.body)],
  ["POST", "home/open", (api, r) => api.openHome(r.body)],
  ["POST", "sandbox/advance", (api, r) => api.advanceSandboxTime(r.body)],
  ["POST", "sandbox/fault", (api, r) => api.turnFault(r.body)],
];

/** Only a CSV is named as such; anything else is bytes to save, never a page to render. */
function contentTypeOf(name: string): string {
  return /\.csv$/i.test(name) ? "text/csv; charset=utf-8" : "application/octet-stream";
}

/** `attachment`, with the name kept to safe characters (and in full, encoded, for browsers). */
function attachment(name: string): string {
  const plain = name.replace(/[^A-Za-z0-9._ -]/g, "_").slice(0, 150) || "file";
  return `attachment; filename="${plain}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * A file shared in a channel (files.completeUploadExternal, e.g. Export CSV), downloaded by a
 * person who can see that channel: `GET /playground/api/file?user=U…&id=F…`.
 */
function registerFileDownload(server: FastifyInstance, api: PlaygroundApi): void {
  server.get("/playground/api/file", async (request, reply) => {
    reply.header("cache-control", "no-store");
    const refused = checkSameOrigin(request, reply);
    if (refused) return refused;
    try {
      const file = api.file(request.query);
      return reply
        .header("content-type", contentTypeOf(file.name))
        .header("content-disposition", attachment(file.name))
        .header("x-content-type-options", "nosniff")
        .send(file.bytes);
    } catch (error) {
      return sendProblem(reply, error);
    }
  });
}

/**
 * Slack's permalink form (`chat.getPermalink` answers `<stand-in>/archives/C…/p…`; *View in
 * approvals* opens one): the page, in that channel, scrolled to that message (in its thread when
 * it is a reply). What the page cannot show is its own answer there, not a 404.
 */
function registerPermalinks(server: FastifyInstance): void {
  server.get<{ Params: { channel: string; message: string }; Querystring: { thread_ts?: string } }>(
    "/archives/:channel/:message",
    async (request, reply) => {
      const { channel, message } = request.params;
      const ts = /^p(\d{10})(\d{6})$/.exec(message);
      const threadTs = request.query.thread_ts;
      if (!/^[CDG][A-Z0-9]{2,20}$/.test(channel) || !ts) {
        return reply.code(404).type("text/plain").send("Not a Slack message link.");
      }
      const target = new URLSearchParams({ channel, message: `${ts[1]}.${ts[2]}` });
      if (typeof threadTs === "string" && /^\d{1,12}\.\d{1,8}$/.test(threadTs)) {
        target.set("thread", threadTs);
      }
      return reply
        .code(302)
        .header("location", `/playground?${target}`)
        .header("cache-control", "no-store")
        .send();
    },
  );
}

/** Registers `/playground/api/*` on the stand-in's fastify instance (before it listens). */
export function registerPlaygroundApi(
  server: FastifyInstance,
  standin: SlackStandin,
  options: PlaygroundApiOptions,
): PlaygroundApi {
  const api = new PlaygroundApi(standin, options);
  registerFileDownload(server, api);
  registerPermalinks(server);
  for (const [method, path, work] of ROUTES) {
    server.route({
      method,
      url: `/playground/api/${path}`,
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        reply.header("cache-control", "no-store");
        const refused = checkSameOrigin(request, reply);
        if (refused) return refused;
        try {
          return reply.send(await work(api, request));
        } catch (error) {
          return sendProblem(reply, error);
        }
      },
    });
  }
  return api;
}
