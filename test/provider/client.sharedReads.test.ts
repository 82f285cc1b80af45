// Identical reads in flight at once are sent once (issue 29: a burst of one form submitted ten
// times asked the provider ten times for the same data center, ports and price, which the
// shared rate limit could not fit in Slack's 3 s). Writes are never shared.
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createLogger } from "../../src/log.js";
import { createProviderApi } from "../../src/provider/api.js";
import { createProviderClient } from "../../src/provider/client.js";
import { ProviderError } from "../../src/provider/errors.js";
import { type RecordingServer, startRecordingServer } from "../support/recordingServer.js";

const API_KEY = "shared-reads-key-5b2d";
let server: RecordingServer;
beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());
afterEach(() => server.reset());

function api() {
  return createProviderApi(
    createProviderClient({
      baseUrl: server.url,
      apiKey: API_KEY,
      logger: createLogger({ level: "silent" }),
    }),
  );
}

/** Holds every request until `release()`; then answers with `reply(request)`. */
function gate(reply: (path: string) => unknown) {
  let release: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    release = resolve;
  });
  server.handle(async (request) => {
    await opened;
    return { json: reply(request.path) };
  });
  return release;
}

describe("shared reads", () => {
  it("sends ten identical GETs in flight as one, and answers each caller", async () => {
    const provider = api();
    const release = gate(() => [{ id: "dcf-1", name: "One" }]);
    const reads = Array.from({ length: 10 }, () => provider.listDcfs({ where: { id: "dcf-1" } }));
    await server.waitForRequests(1);
    release();
    const answers = await Promise.all(reads);
    expect(server.requests).toHaveLength(1);
    expect(answers.every((a) => a[0]?.id === "dcf-1")).toBe(true);
    // Each caller has its own copy.
    expect(new Set(answers).size).toBe(10);
  });

  it("shares identical price calculations (a POST that only reads), not different ones", async () => {
    const provider = api();
    const release = gate(() => ({ results: [{ monthlyRate: 100 }] }));
    const port = { locationId: 3, speed: 10_000, term: 12 } as never;
    const other = { locationId: 4, speed: 10_000, term: 12 } as never;
    const prices = [
      ...Array.from({ length: 5 }, () => provider.pricePorts([port])),
      provider.pricePorts([other]),
    ];
    await server.waitForRequests(2);
    release();
    await Promise.all(prices);
    expect(server.requests).toHaveLength(2);
  });

  it("never shares a write: two identical orders are two requests", async () => {
    const provider = api();
    const release = gate(() => [{ id: "ord-1" }]);
    const body = [{ portName: "x" }] as never;
    const orders = [provider.createPortOrder("acme", body), provider.createPortOrder("acme", body)];
    await server.waitForRequests(2);
    release();
    await Promise.allSettled(orders);
    expect(server.requests.filter((r) => r.method === "PUT")).toHaveLength(2);
  });

  it("a caller that gives up is cancelled alone; the others get the answer", async () => {
    const provider = api();
    const release = gate(() => [{ id: "dcf-2" }]);
    const giveUp = new AbortController();
    const impatient = provider.listDcfs({ where: { id: "dcf-2" } }, { signal: giveUp.signal });
    const patient = provider.listDcfs({ where: { id: "dcf-2" } });
    await server.waitForRequests(1);
    giveUp.abort();
    await expect(impatient).rejects.toBeInstanceOf(ProviderError);
    release();
    expect((await patient)[0]?.id).toBe("dcf-2");
    expect(server.requests).toHaveLength(1);
  });

  it("asks again once the shared read has answered", async () => {
    const provider = api();
    server.handle(() => ({ json: [{ id: "dcf-3" }] }));
    await provider.listDcfs({ where: { id: "dcf-3" } });
    await provider.listDcfs({ where: { id: "dcf-3" } });
    expect(server.requests).toHaveLength(2);
  });
});
