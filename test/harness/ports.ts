import { createServer } from "node:net";

/**
 * A TCP port on 127.0.0.1 that was free a moment ago. Prefer listening on port 0 and reading the
 * address back; use this only for servers that need their port before they start (Bolt's
 * HTTPReceiver takes a port number, not 0-and-tell-me).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => {
        if (address !== null && typeof address === "object") resolve(address.port);
        else reject(new Error("could not read the port of a probe server"));
      });
    });
  });
}
