import { HTTPModuleFunctions, type HTTPReceiver, isRawBodyError } from "@slack/bolt";

/**
 * Bolt's HTTPReceiver (5.x) reads `body.ssl_check` of the parsed body inside an async closure
 * nobody awaits: a signed body whose JSON is `null` (`payload=null`) throws an unhandled
 * rejection, which ends the Node process, and the request is never answered. Such bodies are
 * answered 400 here first. The body is buffered the way Bolt buffers it (`rawBody`), so Bolt
 * reuses it and still verifies the signature of everything else.
 */
export function refuseBodiesThatAreNotObjects(receiver: HTTPReceiver, endpoint: string): void {
  const next = receiver.requestListener;
  receiver.requestListener = (req, res) => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    if (req.method !== "POST" || path !== endpoint) return next(req, res);
    HTTPModuleFunctions.bufferIncomingMessage(req, HTTPModuleFunctions.defaultBodyLimit)
      .then((buffered) => {
        if (parsesToObjectOrFails(buffered)) return next(buffered, res);
        res.writeHead(400);
        res.end();
      })
      .catch((error: unknown) => {
        if (res.headersSent) return;
        res.writeHead(isRawBodyError(error) && error.statusCode === 413 ? 413 : 400);
        res.end();
      });
  };
}

/** False only for a body Bolt would parse to a non-object; a parse error Bolt answers itself. */
function parsesToObjectOrFails(
  req: Parameters<typeof HTTPModuleFunctions.parseHTTPRequestBody>[0],
): boolean {
  try {
    const body: unknown = HTTPModuleFunctions.parseHTTPRequestBody(req);
    return typeof body === "object" && body !== null;
  } catch {
    return true;
  }
}
