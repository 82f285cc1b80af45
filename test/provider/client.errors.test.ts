// Error bodies as the provider sends them (docs/provider/provider-notes.md: two JSON shapes, sometimes plain
// text, sometimes nothing) read over real HTTP into ProviderError, and the messages people see.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/log.js";
import { createProviderApi, type ProviderApi } from "../../src/provider/api.js";
import { createProviderClient } from "../../src/provider/client.js";
import {
  isProviderError,
  ProviderError,
  parseProviderMessage,
  parseRetryAfter,
  RAW_TEXT_LIMIT,
} from "../../src/provider/errors.js";
import {
  memoryLogStream,
  type RecordingServer,
  startRecordingServer,
} from "../support/recordingServer.js";

const API_KEY = "errors-test-key-51d0b7e2c9aa";

let server: RecordingServer;
let api: ProviderApi;
beforeAll(async () => {
  server = await startRecordingServer();
  api = createProviderApi(
    createProviderClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      logger: createLogger({ secrets: [API_KEY], destination: memoryLogStream() }),
      retry: { attempts: 1 },
    }),
  );
});
afterAll(() => server.close());
afterEach(() => server.reset());

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isProviderError(error)) throw new Error(`expected a ProviderError, got ${String(error)}`);
  return error;
}

describe("error bodies over HTTP", () => {
  it('reads {"error": {"message", "status", "statusCode"}}', async () => {
    server.replies({
      status: 401,
      json: { error: { message: "The user is not logged in", status: 401, statusCode: 401 } },
    });
    const error = await failure(api.whoami());
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({
      kind: "http",
      httpStatus: 401,
      providerMessage: "The user is not logged in",
      operation: "getAuthToken",
      method: "GET",
      path: "/api/auth/token",
    });
    expect(error.userMessage).toBe(
      "The provider rejected the API key (401): check PROVIDER_API_KEY and the key's role.",
    );
    expect(error.message).toBe(
      "provider getAuthToken (GET /api/auth/token) answered 401: The user is not logged in",
    );
  });

  it('reads {"code": 400, "message"}', async () => {
    server.replies({ status: 400, json: { code: 400, message: "speed must be >= 100" } });
    const error = await failure(
      api.createEdgePortOrder("acme", { portName: "x", speed: 50, edgePayload: {} }),
    );
    expect(error).toMatchObject({ httpStatus: 400, providerMessage: "speed must be >= 100" });
    expect(error.userMessage).toBe(
      "The provider refused the Edge port order: speed must be >= 100.",
    );
  });

  it("falls back to the raw text of a body that is not JSON", async () => {
    server.replies({ status: 502, text: "<html><body>Bad gateway</body></html>" });
    const error = await failure(api.listEdgeBandwidths());
    expect(error.providerMessage).toBe("<html><body>Bad gateway</body></html>");
  });

  it("keeps at most 500 characters of a long raw text", async () => {
    server.replies({ status: 500, text: "x".repeat(5_000) });
    const error = await failure(api.listEdgeBandwidths());
    expect(error.providerMessage).toHaveLength(RAW_TEXT_LIMIT);
    expect(error.providerMessage?.endsWith("…")).toBe(true);
  });

  it("keeps the raw JSON text of a shape it does not know", async () => {
    server.replies({ status: 422, json: { errors: [{ field: "speed" }] } });
    const error = await failure(api.listDrafts());
    expect(error.providerMessage).toBe('{"errors":[{"field":"speed"}]}');
  });

  it("an empty error body is still an error (success is decided on response.ok)", async () => {
    server.replies({ status: 500 });
    const error = await failure(api.listEdgeCountries());
    expect(error).toMatchObject({ kind: "http", httpStatus: 500, providerMessage: undefined });
    expect(error.userMessage).toBe(
      "The provider answered 500 for the Edge country list — try again in a minute.",
    );
  });

  it("an empty 404 on a write is still refused", async () => {
    server.replies({ status: 404 });
    const error = await failure(api.deleteDraft("nope"));
    expect(error).toMatchObject({ httpStatus: 404, providerMessage: undefined });
    expect(error.userMessage).toBe("The provider refused the draft order deletion (404).");
  });

  it("says which list failed and why, for the provider's 500s", async () => {
    server.replies({
      status: 500,
      json: { error: { message: "Unhandled error of the external provider", statusCode: 500 } },
    });
    const error = await failure(api.listEdgeCountries());
    expect(error.userMessage).toBe(
      "The provider answered 500 for the Edge country list (Unhandled error of the external provider) — try again in a minute.",
    );
  });

  it("names a read's 404 without calling it a refusal", async () => {
    server.replies({ status: 404, json: { code: 404, message: "No such quote" } });
    const error = await failure(api.getEdgeQuoteResult("q-unknown"));
    expect(error.userMessage).toBe(
      "The provider answered 404 for the Edge quote result (No such quote).",
    );
    expect(error.outcomeUnknown).toBe(false);
  });

  it("explains a 403 as the key's permission", async () => {
    server.replies({ status: 403, json: { error: { message: "Forbidden" } } });
    const error = await failure(
      api.createGiaService("c1", {
        accessPortId: "p1",
        name: "iod",
        rateLimit: 100,
        type: "STATIC",
        privateAsnAutoAssign: true,
        ipBlock: 28,
      }),
    );
    expect(error.userMessage).toMatch(
      /^The provider refused the IO-D service request for this API key \(403\)/,
    );
  });

  it("serialises to plain fields without a stack", async () => {
    server.replies({ status: 400, json: { code: 400, message: "bad" } });
    const error = await failure(api.listDrafts());
    const json = JSON.parse(JSON.stringify(error)) as Record<string, unknown>;
    expect(json).toMatchObject({
      name: "ProviderError",
      kind: "http",
      httpStatus: 400,
      operation: "listDraftOrders",
      providerMessage: "bad",
      outcomeUnknown: false,
    });
    expect(json).not.toHaveProperty("stack");
  });
});

describe("parseProviderMessage", () => {
  it.each<[string | undefined, string | undefined]>([
    [undefined, undefined],
    ["", undefined],
    ["   ", undefined],
    [
      '{"error":{"message":"The user is not logged in","status":401,"statusCode":401}}',
      "The user is not logged in",
    ],
    ['{"code":400,"message":"Invalid speed"}', "Invalid speed"],
    ['{"error":"plain text in an envelope"}', "plain text in an envelope"],
    ['{"error":{"status":500}}', '{"error":{"status":500}}'],
    ['"just a JSON string"', "just a JSON string"],
    ["Service Unavailable", "Service Unavailable"],
  ])("%j → %j", (body, expected) => {
    expect(parseProviderMessage(body)).toBe(expected);
  });
});

describe("parseRetryAfter", () => {
  it("reads delta-seconds and HTTP dates, and ignores anything else", () => {
    const now = Date.parse("2024-05-01T10:00:00.000Z");
    expect(parseRetryAfter("7", now)).toBe(7);
    expect(parseRetryAfter("Wed, 01 May 2024 10:00:30 GMT", now)).toBe(30);
    expect(parseRetryAfter("Wed, 01 May 2024 09:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });
});
