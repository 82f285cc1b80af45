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
];

/** Registers `/playground/api/*` on the stand-in's fastify instance (before it listens). */
export function registerPlaygroundApi(
  server: FastifyInstance,
  standin: SlackStandin,
  options: PlaygroundApiOptions,
): PlaygroundApi {
  const api = new PlaygroundApi(standin, options);
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
