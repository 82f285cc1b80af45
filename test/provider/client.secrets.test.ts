// The API key goes to the provider in the Authorization header and nowhere else: not in a log
// line, an error message, an error property or the JSON of an error — even when the provider
// echoes the key back in its error text.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/log.js";
import { createProviderApi, type ProviderApi } from "../../src/provider/api.js";
import { createProviderClient } from "../../src/provider/client.js";
import { ProviderError } from "../../src/provider/errors.js";
import {
  memoryLogStream,
  type RecordingServer,
  type Reply,
  refusedUrl,
  startRecordingServer,
} from "../support/recordingServer.js";

const API_KEY = "sk-live-9f8e7d6c5b4a39281706";
const portOrder = {
  dataCenterFacility: "equinix-sg1",
  speed: "10000",
  durationUnit: "y",
  portName: "sg1-core-01",
  paymentType: "invoice" as const,
};

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());
afterEach(() => server.reset());

/**
 * Two loggers: one configured with the key as a secret (as production is), and one that is
 * not — so a leak cannot hide behind the logger's own scrubbing.
 */
function setup(options: { scrubbingLogger: boolean; baseUrl?: string }) {
  const log = memoryLogStream();
  const logger = createLogger({
    level: "debug",
    secrets: options.scrubbingLogger ? [API_KEY] : [],
    destination: log,
  });
  const api = createProviderApi(
    createProviderClient({
      baseUrl: options.baseUrl ?? server.url,
      apiKey: API_KEY,
      logger,
      timeoutMs: 250,
      retry: { attempts: 2, baseDelayMs: 1 },
    }),
  );
  return { api, log, logger };
}

// Every own property of the error, enumerable or not, stringified.
function everythingIn(error: ProviderError): string {
  const parts = Object.getOwnPropertyNames(error).map((name) => {
    const value = (error as unknown as Record<string, unknown>)[name];
    return `${name}=${typeof value === "string" ? value : JSON.stringify(value)}`;
  });
  return [...parts, String(error), error.stack ?? "", JSON.stringify(error)].join("\n");
}

const echo = (status: number): Reply => ({
  status,
  json: { error: { message: `Bad credentials: Bearer ${API_KEY}`, status, statusCode: status } },
});

const scenarios: Array<[string, (api: ProviderApi) => Promise<unknown>, Reply | undefined]> = [
  ["GET ok", (api) => api.listDrafts(), { json: [] }],
  ["PUT ok", (api) => api.createPortOrder("acme", portOrder), { json: { id: "o1" } }],
  ["GET 401 echoing the key", (api) => api.whoami(), echo(401)],
  ["PUT 400 echoing the key", (api) => api.createPortOrder("acme", portOrder), echo(400)],
  ["GET 503 then 503 (retried)", (api) => api.listEdgeCountries(), { status: 503 }],
  [
    "GET 500 raw text echoing the key",
    (api) => api.listEdgeCountries(),
    { status: 500, text: `upstream said: authorization=Bearer ${API_KEY}` },
  ],
  [
    "GET 200 not JSON echoing the key",
    (api) => api.listDrafts(),
    { status: 200, text: `<pre>Bearer ${API_KEY}</pre>` },
  ],
  ["PUT timeout", (api) => api.createPortOrder("acme", portOrder), { hang: true }],
  ["POST reset", (api) => api.sendEdgeEnquiry({} as never), { destroy: true }],
];

describe("the API key never leaves the Authorization header", () => {
  for (const scrubbingLogger of [false, true]) {
    for (const [name, call, reply] of scenarios) {
      it(`${name} (logger ${scrubbingLogger ? "with" : "without"} the key as a secret)`, async () => {
        const { api, log, logger } = setup({ scrubbingLogger });
        if (reply) server.replies(reply);
        const outcome = await call(api).then(
          () => undefined,
          (e: unknown) => e,
        );

        // The key did go where it belongs.
        expect(server.requests.length).toBeGreaterThan(0);
        for (const request of server.requests) {
          expect(request.headers.authorization).toBe(`Bearer ${API_KEY}`);
        }

        if (outcome !== undefined) {
          expect(outcome).toBeInstanceOf(ProviderError);
          const error = outcome as ProviderError;
          expect(everythingIn(error)).not.toContain(API_KEY);
          // A caller logging the error whole must not leak it either.
          logger.error({ err: error }, "provider call failed");
        }

        const lines = log.lines();
        expect(lines.length).toBeGreaterThan(0);
        for (const line of lines) expect(line).not.toContain(API_KEY);
      });
    }
  }

  it("connection refused: neither the error nor the log carries the key", async () => {
    const { api, log, logger } = setup({ scrubbingLogger: false, baseUrl: await refusedUrl() });
    const error = await api.createPortOrder("acme", portOrder).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(everythingIn(error as ProviderError)).not.toContain(API_KEY);
    logger.error({ err: error }, "provider call failed");
    expect(log.lines().join("\n")).not.toContain(API_KEY);
  });

  it("the key echoed by the provider is replaced, the rest of its message kept", async () => {
    const { api } = setup({ scrubbingLogger: false });
    server.replies(echo(401));
    const error = (await api.whoami().catch((e: unknown) => e)) as ProviderError;
    expect(error.providerMessage).toBe("Bad credentials: Bearer [REDACTED]");
  });
});
