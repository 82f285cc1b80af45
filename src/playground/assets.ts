import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";

/**
 * The page and its scripts: static files in `static/`, read on each request (a demo edits them
 * and reloads). Only the files named here are served, so no path from a request ever reaches the
 * file system.
 */

const STATIC_DIR = fileURLToPath(new URL("./static/", import.meta.url));

const FILES: Record<string, string> = {
  "index.html": "text/html; charset=utf-8",
  "playground.css": "text/css; charset=utf-8",
  "blocks.css": "text/css; charset=utf-8",
  "narrow.css": "text/css; charset=utf-8",
  "workflows.css": "text/css; charset=utf-8",
  "app.js": "text/javascript; charset=utf-8",
  "client.js": "text/javascript; charset=utf-8",
  "messages.js": "text/javascript; charset=utf-8",
  "modals.js": "text/javascript; charset=utf-8",
  "blocks.js": "text/javascript; charset=utf-8",
  "fieldLength.js": "text/javascript; charset=utf-8",
  "mrkdwn.js": "text/javascript; charset=utf-8",
  "workflows.js": "text/javascript; charset=utf-8",
  "faults.js": "text/javascript; charset=utf-8",
  "permalink.js": "text/javascript; charset=utf-8",
};

/**
 * Defence in depth behind the page's own escaping: only this origin's scripts and styles run,
 * nothing is framed, and no provider text can load anything from elsewhere.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

const SECURITY_HEADERS = {
  "content-security-policy": CONTENT_SECURITY_POLICY,
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-cache",
};

export function registerPlaygroundAssets(server: FastifyInstance): void {
  const serve = async (name: string) => {
    const type = FILES[name];
    if (!type) return undefined;
    try {
      return { type, body: await readFile(`${STATIC_DIR}${name}`) };
    } catch {
      return undefined;
    }
  };

  server.get("/playground", async (_request, reply) => {
    const page = await serve("index.html");
    if (!page) return reply.code(500).send("The playground page is missing from this build.");
    return reply.headers(SECURITY_HEADERS).type(page.type).send(page.body);
  });
  server.get("/playground/", async (_request, reply) => reply.redirect("/playground"));
  server.get("/", async (_request, reply) => reply.redirect("/playground"));
  server.get<{ Params: { file: string } }>("/playground/static/:file", async (request, reply) => {
    const file = await serve(request.params.file);
    if (!file) return reply.code(404).send({ ok: false, error: "not found" });
    return reply.headers(SECURITY_HEADERS).type(file.type).send(file.body);
  });
}
