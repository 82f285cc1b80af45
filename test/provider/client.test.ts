// The client's transport over real HTTP: retries only for safe reads, never for writes;
// timeouts; outcome-unknown classification; request ids, log lines, metrics, beforeRequest.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { withRequestId } from "../../src/context.js";
import { createLogger } from "../../src/log.js";
import { createMetrics } from "../../src/metrics.js";
import { createProviderApi, type ProviderApi } from "../../src/provider/api.js";
import {
  createProviderClient,
  DEFAULT_RETRY,
  DEFAULT_TIMEOUT_MS,
  type ProviderClientOptions,
} from "../../src/provider/client.js";
import { ProviderError } from "../../src/provider/errors.js";
import {
  memoryLogStream,
  type RecordingServer,
  refusedUrl,
  startRecordingServer,
} from "../support/recordingServer.js";

const API_KEY = "client-test-key-8c1e44b09a7d";

let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());
afterEach(() => server.reset());

function setup(overrides: Partial<ProviderClientOptions> = {}) {
  const log = memoryLogStream();
  const logger = createLogger({ level: "debug", secrets: [API_KEY], destination: log });
  const metrics = createMetrics({ defaultMetrics: false });
  const api = createProviderApi(
    createProviderClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      logger,
      metrics,
      retry: { baseDelayMs: 5, maxDelayMs: 2_000 },
      ...overrides,
    }),
  );
  return { api, log, metrics };
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ProviderError)) {
    throw new Error(`expected a ProviderError, got ${String(error)}`);
  }
  return error;
}

const portOrder = {
  dataCenterFacility: "equinix-sg1",
  speed: "10000",
  durationUnit: "y",
  portName: "sg1-core-01",
  paymentType: "invoice" as const,
};
const edgeOrder = { portName: "ber-edge-1", speed: 100, edgePayload: {} };
const whoamiBody = { id: "u1", companies: [{ id: "c1", username: "acme", name: "Acme" }] };

describe("defaults", () => {
  it("times out after 15 s and tries a read 3 times from 200 ms up to 5 s", () => {
    expect(DEFAULT_TIMEOUT_MS).toBe(15_000);
    expect(DEFAULT_RETRY).toEqual({ attempts: 3, baseDelayMs: 200, maxDelayMs: 5_000 });
  });

  it("refuses an empty API key and a base URL that is not http(s)", () => {
    const logger = createLogger({ destination: memoryLogStream() });
    expect(() => createProviderClient({ baseUrl: server.url, apiKey: " ", logger })).toThrow(
      /API key is empty/,
    );
    expect(() => createProviderClient({ baseUrl: "ftp://x", apiKey: API_KEY, logger })).toThrow(
      /http\(s\)/,
    );
    expect(() => createProviderClient({ baseUrl: "nope", apiKey: API_KEY, logger })).toThrow(
      /not a URL/,
    );
  });
});

describe("retries of safe reads (GET)", () => {
  it("retries a GET answered 503 and succeeds on the third attempt", async () => {
    const { api } = setup();
    server.replies(
      { status: 503, text: "busy" },
      { status: 503, text: "busy" },
      { json: whoamiBody },
    );
    const identity = await api.whoami();
    expect(identity.companyUsername).toBe("acme");
    expect(server.requests).toHaveLength(3);
    expect(server.requests.every((r) => r.method === "GET")).toBe(true);
  });

  it.each([502, 504, 429])("retries a GET answered %i", async (status) => {
    const { api } = setup();
    server.replies({ status }, { json: whoamiBody });
    await api.whoami();
    expect(server.requests).toHaveLength(2);
  });

  it("gives up after the configured attempts with the last answer", async () => {
    const { api } = setup({ retry: { attempts: 4, baseDelayMs: 1 } });
    server.replies({ status: 503, json: { error: { message: "Service unavailable" } } });
    const error = await failure(api.listEdgeCountries());
    expect(server.requests).toHaveLength(4);
    expect(error).toMatchObject({
      kind: "http",
      httpStatus: 503,
      attempts: 4,
      outcomeUnknown: false,
      operation: "listEdgeCountries",
      providerMessage: "Service unavailable",
    });
  });

  it("does not retry a GET answered 500 or 404", async () => {
    const { api } = setup();
    server.replies({ status: 500, json: { error: { message: "boom" } } });
    await failure(api.listEdgeCountries());
    expect(server.requests).toHaveLength(1);
    server.reset();
    server.replies({ status: 404, json: { code: 404, message: "no such quote" } });
    await failure(api.getEdgeQuoteResult("q1"));
    expect(server.requests).toHaveLength(1);
  });

  it("honours Retry-After on a 429 before retrying", async () => {
    const { api } = setup({ retry: { baseDelayMs: 1, maxDelayMs: 3_000 } });
    server.replies({ status: 429, headers: { "retry-after": "1" } }, { json: whoamiBody });
    await api.whoami();
    expect(server.requests).toHaveLength(2);
    const [first, second] = server.requests;
    // The backoff alone would be at most 1 ms; the provider asked for a second.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
  });

  it("does not wait for a Retry-After longer than the cap: it reports it instead", async () => {
    const { api } = setup({ retry: { maxDelayMs: 500 } });
    server.replies({ status: 429, headers: { "retry-after": "120" } });
    const started = performance.now();
    const error = await failure(api.whoami());
    expect(performance.now() - started).toBeLessThan(500);
    expect(server.requests).toHaveLength(1);
    expect(error).toMatchObject({ httpStatus: 429, retryAfterSeconds: 120 });
    expect(error.userMessage).toBe("The provider is limiting requests (429) — try again in 120 s.");
  });

  it("retries a GET whose connection was dropped", async () => {
    const { api } = setup();
    server.replies({ destroy: true }, { json: whoamiBody });
    await api.whoami();
    expect(server.requests).toHaveLength(2);
  });

  it("retries a GET that found the provider down, then reports it certainly not sent", async () => {
    const { api } = setup({ baseUrl: await refusedUrl(), retry: { attempts: 2, baseDelayMs: 1 } });
    const error = await failure(api.whoami());
    expect(error).toMatchObject({
      kind: "network",
      networkCode: "ECONNREFUSED",
      attempts: 2,
      outcomeUnknown: false,
      httpStatus: undefined,
    });
  });

  it("does not retry a 2xx whose body is not JSON", async () => {
    const { api } = setup();
    server.replies({ status: 200, text: "<html>maintenance</html>" });
    const error = await failure(api.listDrafts());
    expect(server.requests).toHaveLength(1);
    expect(error).toMatchObject({
      kind: "invalid-response",
      httpStatus: 200,
      outcomeUnknown: false,
    });
    expect(error.userMessage).toBe(
      "The provider sent an unreadable answer for the draft order list — try again in a minute.",
    );
  });
});

describe("writes are sent exactly once", () => {
  it.each([
    ["PUT port order", (api: ProviderApi) => api.createPortOrder("acme", portOrder)],
    ["POST Edge port order", (api: ProviderApi) => api.createEdgePortOrder("acme", edgeOrder)],
    ["PATCH draft", (api: ProviderApi) => api.updateDraft("d1", { speed: 100, edgePayload: {} })],
    ["DELETE draft", (api: ProviderApi) => api.deleteDraft("d1")],
  ])("%s answered 503: one request, outcome known", async (_name, call) => {
    const { api } = setup();
    server.replies({ status: 503, json: { error: { message: "Service unavailable" } } });
    const error = await failure(call(api));
    expect(server.requests).toHaveLength(1);
    expect(error).toMatchObject({
      kind: "http",
      httpStatus: 503,
      outcomeUnknown: false,
      attempts: 1,
    });
  });

  it.each([429, 502])("a POST answered %i is not retried either", async (status) => {
    const { api } = setup();
    server.replies({ status, headers: { "retry-after": "0" } });
    await failure(api.createEdgePortOrder("acme", edgeOrder));
    expect(server.requests).toHaveLength(1);
  });

  it("a PUT answered 400 is refused with the provider's reason, outcome known", async () => {
    const { api } = setup();
    server.replies({
      status: 400,
      json: { code: 400, message: "Speed 25000 is not offered at this data center." },
    });
    const error = await failure(api.createPortOrder("acme", { ...portOrder, speed: "25000" }));
    expect(server.requests).toHaveLength(1);
    expect(error).toMatchObject({
      kind: "http",
      httpStatus: 400,
      outcomeUnknown: false,
      operation: "createPortOrder",
      method: "PUT",
      path: "/api/company/{companyUsername}/ports/orders",
    });
    expect(error.userMessage).toBe(
      "The provider refused the port order: speed 25000 is not offered at this data center.",
    );
  });

  it("a PUT answered 504 by a gateway may have gone through: outcome unknown", async () => {
    const { api } = setup();
    server.replies({ status: 504, text: "Gateway Timeout" });
    const error = await failure(api.createPortOrder("acme", portOrder));
    expect(server.requests).toHaveLength(1);
    expect(error).toMatchObject({ kind: "http", httpStatus: 504, outcomeUnknown: true });
    expect(error.userMessage).toMatch(/may still have gone through — check before trying again/);
  });

  it("a PUT that times out after sending is not resent and its outcome is unknown", async () => {
    const { api } = setup({ timeoutMs: 300 });
    server.replies({ hang: true });
    const error = await failure(api.createPortOrder("acme", portOrder));
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.body).toEqual(portOrder);
    expect(error).toMatchObject({
      kind: "timeout",
      outcomeUnknown: true,
      httpStatus: undefined,
      operation: "createPortOrder",
    });
    expect(error.userMessage).toBe(
      "The provider did not answer within 0.3 s; the port order may still have gone through — check before trying again.",
    );
  });

  it("a POST that times out after sending is not resent and its outcome is unknown", async () => {
    const { api } = setup({ timeoutMs: 300 });
    server.replies({ hang: true });
    const error = await failure(
      api.createGiaService("c1", {
        accessPortId: "p1",
        name: "iod",
        rateLimit: 100,
        type: "STATIC",
        privateAsn: true,
        privateAsnAutoAssign: true,
        ipBlock: 28,
      }),
    );
    expect(server.requests).toHaveLength(1);
    expect(error).toMatchObject({ kind: "timeout", outcomeUnknown: true, method: "POST" });
  });

  it("a POST whose connection is reset after sending has an unknown outcome", async () => {
    const { api } = setup();
    server.replies({ destroy: true });
    const error = await failure(api.createEdgePortOrder("acme", edgeOrder));
    expect(server.requests).toHaveLength(1);
    expect(error).toMatchObject({ kind: "network", outcomeUnknown: true });
    expect(error.userMessage).toBe(
      "The connection to the provider broke during the Edge port order; it may still have gone through — check before trying again.",
    );
  });

  it("a PUT refused at connect certainly did not reach the provider", async () => {
    const { api } = setup({ baseUrl: await refusedUrl() });
    const error = await failure(api.createPortOrder("acme", portOrder));
    expect(error).toMatchObject({
      kind: "network",
      networkCode: "ECONNREFUSED",
      outcomeUnknown: false,
      attempts: 1,
    });
    expect(error.userMessage).toBe(
      "Could not reach the provider (connection refused); nothing was sent — try again in a minute.",
    );
  });

  it("a 2xx to a write with an unreadable body leaves the outcome unknown", async () => {
    const { api } = setup();
    server.replies({ status: 200, text: "not json" });
    const error = await failure(api.createPortOrder("acme", portOrder));
    expect(server.requests).toHaveLength(1);
    expect(error).toMatchObject({ kind: "invalid-response", outcomeUnknown: true });
  });
});

describe("timeouts and cancellation", () => {
  it("a hung server times out with a clear error within the configured timeout", async () => {
    const { api } = setup({ timeoutMs: 400 });
    server.replies({ hang: true });
    const started = performance.now();
    const error = await failure(api.listEdgeCountries());
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(380);
    expect(elapsed).toBeLessThan(1_500);
    // A timed-out read is not retried: the timeout is the caller's whole budget.
    expect(server.requests).toHaveLength(1);
    expect(error).toMatchObject({ kind: "timeout", outcomeUnknown: false, attempts: 1 });
    expect(error.userMessage).toBe("The provider did not answer within 0.4 s.");
    expect(error.message).toBe(
      "provider listEdgeCountries (GET /v2/edge/countries) did not answer within 400 ms",
    );
  });

  it("says the default timeout in seconds", async () => {
    // Formatting only: no need to wait 15 s.
    const { timeoutError } = await import("../../src/provider/errors.js");
    const error = timeoutError(
      { operation: "listEdgeCountries", method: "GET", path: "/v2/edge/countries", subject: "x" },
      15_000,
    );
    expect(error.userMessage).toBe("The provider did not answer within 15 s.");
  });

  it("a caller's AbortSignal cancels the call before the timeout", async () => {
    const { api } = setup({ timeoutMs: 10_000 });
    server.replies({ hang: true });
    const controller = new AbortController();
    const pending = failure(api.listEdgeCountries({ signal: controller.signal }));
    await server.waitForRequests(1);
    const started = performance.now();
    controller.abort();
    const error = await pending;
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(error).toMatchObject({ kind: "network", networkCode: "ABORTED", outcomeUnknown: false });
    expect(server.requests).toHaveLength(1);
  });

  it("an aborted write may have gone through", async () => {
    const { api } = setup({ timeoutMs: 10_000 });
    server.replies({ hang: true });
    const controller = new AbortController();
    const pending = failure(api.createPortOrder("acme", portOrder, { signal: controller.signal }));
    await server.waitForRequests(1);
    controller.abort();
    expect(await pending).toMatchObject({ outcomeUnknown: true });
  });
});

describe("request ids, log lines, metrics and the beforeRequest hook", () => {
  it("uses the current request id with a per-attempt suffix, in the header and the log", async () => {
    const { api, log } = setup();
    server.replies({ status: 503 }, { json: whoamiBody });
    await withRequestId("slack-req-42", () => api.whoami());
    expect(server.requests.map((r) => r.headers["x-request-id"])).toEqual([
      "slack-req-42.1",
      "slack-req-42.2",
    ]);
    const lines = log.records().filter((r) => r.operation === "getAuthToken");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      level: 40,
      requestId: "slack-req-42.1",
      operation: "getAuthToken",
      method: "GET",
      path: "/api/auth/token",
      status: 503,
      attempt: 1,
    });
    expect(lines[1]).toMatchObject({
      level: 20,
      requestId: "slack-req-42.2",
      status: 200,
      attempt: 2,
    });
    expect(typeof lines[1]?.ms).toBe("number");
  });

  it("makes a fresh request id per call outside any request", async () => {
    const { api } = setup();
    server.replies({ json: whoamiBody });
    await api.whoami();
    await api.whoami();
    const [a, b] = server.requests.map((r) => String(r.headers["x-request-id"]));
    expect(a).toMatch(/^[0-9a-f]{16}\.1$/);
    expect(b).toMatch(/^[0-9a-f]{16}\.1$/);
    expect(a).not.toBe(b);
  });

  it("logs the path without the query", async () => {
    const { api, log } = setup();
    server.replies({ json: [] });
    await api.listVerifiedAsns("c1");
    const line = log.records().find((r) => r.operation === "listAsns");
    expect(line?.path).toBe("/app-user/c1/asns");
    expect(JSON.stringify(log.records())).not.toContain("VERIFIED");
  });

  it("logs a successful write at info and a failure at warn with its kind", async () => {
    const { api, log } = setup({ timeoutMs: 200 });
    server.replies({ json: { id: "o1" } });
    await api.createPortOrder("acme", portOrder);
    server.replies({ hang: true });
    await failure(api.createPortOrder("acme", portOrder));
    const lines = log.records().filter((r) => r.operation === "createPortOrder");
    expect(lines.map((l) => [l.level, l.status])).toEqual([
      [30, 200],
      [40, "timeout"],
    ]);
    expect(lines[1]).toMatchObject({ kind: "timeout", outcomeUnknown: true });
  });

  it("counts every attempt by operation, method and status, and observes latency", async () => {
    const { api, metrics } = setup();
    server.replies({ status: 503 }, { json: whoamiBody });
    await api.whoami();
    const counts = (await metrics.providerCalls.get()).values.map((v) => [v.labels, v.value]);
    expect(counts).toEqual(
      expect.arrayContaining([
        [{ operation: "getAuthToken", method: "GET", status: "503" }, 1],
        [{ operation: "getAuthToken", method: "GET", status: "200" }, 1],
      ]),
    );
    const latency = (await metrics.providerLatency.get()).values.find(
      (v) => v.metricName === "provider_request_duration_seconds_count",
    );
    expect(latency).toMatchObject({ labels: { operation: "getAuthToken" }, value: 2 });
  });

  it("awaits beforeRequest before every attempt", async () => {
    const seen: Array<{ attempt: number; requestsSoFar: number; operation: string }> = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const { api } = setup({
      beforeRequest: async (info) => {
        seen.push({
          attempt: info.attempt,
          requestsSoFar: server.requests.length,
          operation: info.operation,
        });
        if (info.attempt === 1) await gate;
      },
    });
    server.replies({ status: 503 }, { json: whoamiBody });
    const pending = api.whoami();
    // Held by the hook: nothing may reach the provider until it resolves.
    await expect.poll(() => seen.length).toBe(1);
    expect(server.requests).toHaveLength(0);
    release();
    await pending;
    expect(seen).toEqual([
      { attempt: 1, requestsSoFar: 0, operation: "getAuthToken" },
      { attempt: 2, requestsSoFar: 1, operation: "getAuthToken" },
    ]);
  });
});
