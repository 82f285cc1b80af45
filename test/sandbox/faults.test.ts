// Fault injection: error rates, hangs, fixed statuses, latency; the request log; close() ends
// whatever is still waiting.
import { afterEach, describe, expect, it } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { call, type Loose, openSandbox, SINGAPORE_QUOTE, waitFor } from "./helpers.js";

const UPSTREAM = {
  error: { message: "Unhandled error of the external provider", status: 500, statusCode: 500 },
};

describe("sandbox faults", () => {
  const open: Sandbox[] = [];
  async function start(options: Parameters<typeof openSandbox>[0] = {}) {
    const sandbox = await openSandbox(options);
    open.push(sandbox);
    return sandbox;
  }

  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });

  async function statuses(sandbox: Sandbox, path: string, n: number): Promise<number[]> {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await call(sandbox.url, "GET", path)).status);
    return out;
  }

  it("answers 500 with the upstream error at the configured rate, the same way for the same seed", async () => {
    const faults = [{ match: "GET /v2/edge/countries", errorRate: 0.3 }];
    const a = await start({ seed: 7, faults });
    const b = await start({ seed: 7, faults });
    const first = await statuses(a, "/v2/edge/countries", 200);
    const failures = first.filter((s) => s === 500).length;
    expect(failures).toBeGreaterThan(35);
    expect(failures).toBeLessThan(85);
    expect(first.every((s) => s === 200 || s === 500)).toBe(true);
    expect(await statuses(b, "/v2/edge/countries", 200)).toEqual(first);

    const failed = await (async () => {
      for (;;) {
        const answer = await call(a.url, "GET", "/v2/edge/countries");
        if (answer.status === 500) return answer;
      }
    })();
    expect(failed.body).toEqual(UPSTREAM);
    // Other paths are untouched.
    expect(await statuses(a, "/v2/edge/bandwidth", 30)).toEqual(Array(30).fill(200));
  });

  it("hangs a matching request until the client gives up, and close() ends hung requests", async () => {
    const sandbox = await start({ faults: [{ match: "/v2/edge/*", hang: true, times: 2 }] });
    const started = Date.now();
    await expect(
      call(sandbox.url, "GET", "/v2/edge/bandwidth", { signal: AbortSignal.timeout(300) }),
    ).rejects.toThrow(/abort|timeout/i);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
    // Other paths are still served while one hangs.
    expect((await call(sandbox.url, "GET", "/api/auth/token")).status).toBe(200);

    const hung = call(sandbox.url, "GET", "/v2/edge/countries");
    const settled = hung.then(
      () => "answered",
      () => "dropped",
    );
    await waitFor(() => sandbox.faults.list()[0]!.remaining === 0);
    const closing = Date.now();
    await sandbox.close();
    expect(await settled).toBe("dropped");
    expect(Date.now() - closing).toBeLessThan(5000);
  });

  it("answers a fixed status for the next N calls only", async () => {
    const sandbox = await start({
      faults: [
        {
          match: "POST /api/pricing/calculate",
          status: 503,
          times: 2,
          body: { error: { message: "maintenance" } },
        },
      ],
    });
    const iad = (
      (await call<Loose>(sandbox.url, "GET", "/v2/data-center-facility")).body as Loose[]
    )[0];
    const price = () =>
      call<Loose>(sandbox.url, "POST", "/api/pricing/calculate", {
        body: { ports: [{ dcf: iad.id, speed: 1000, durationUnit: "y" }] },
      });
    const answers = [await price(), await price(), await price()];
    expect(answers.map((a) => a.status)).toEqual([503, 503, 200]);
    expect(answers[0]!.body).toEqual({ error: { message: "maintenance" } });
    expect(sandbox.faults.list()[0]!.remaining).toBe(0);
  });

  it("adds latency", async () => {
    const sandbox = await start({
      faults: [{ match: /^GET \/api\/auth\/token$/, latencyMs: 250 }],
    });
    const started = Date.now();
    const answer = await call(sandbox.url, "GET", "/api/auth/token");
    expect(answer.status).toBe(200);
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
  });

  it("sets and clears faults through the admin endpoint", async () => {
    const sandbox = await start();
    const put = await call<Loose>(sandbox.url, "PUT", "/__sandbox/faults", {
      auth: false,
      body: [{ regex: "^GET /v2/edge-ports/locations$", status: 500 }],
    });
    expect(put.status).toBe(200);
    expect(put.body).toHaveLength(1);
    const failed = await call(sandbox.url, "GET", "/v2/edge-ports/locations");
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual(UPSTREAM);
    expect((await call(sandbox.url, "DELETE", "/__sandbox/faults", { auth: false })).status).toBe(
      204,
    );
    expect((await call(sandbox.url, "GET", "/v2/edge-ports/locations")).status).toBe(200);
    const bad = await call<Loose>(sandbox.url, "PUT", "/__sandbox/faults", {
      auth: false,
      body: [{ errorRate: 2 }],
    });
    expect(bad.status).toBe(400);
  });

  it("logs provider requests (not admin ones) with method, path, status and operation", async () => {
    const sandbox = await start({
      faults: [{ match: "/v2/edge/contract-term", status: 500, times: 1 }],
    });
    await call(sandbox.url, "GET", "/api/auth/token");
    await call(sandbox.url, "GET", "/api/auth/token", { auth: false });
    await call(sandbox.url, "GET", "/v2/edge/contract-term");
    await call(sandbox.url, "GET", "/__sandbox/clock", { auth: false });
    const log = await call<Loose>(sandbox.url, "GET", "/__sandbox/requests", { auth: false });
    expect(log.body.total).toBe(3);
    expect(log.body.entries.map((e: Loose) => [e.method, e.path, e.status, e.operationId])).toEqual(
      [
        ["GET", "/api/auth/token", 200, "getAuthToken"],
        ["GET", "/api/auth/token", 401, "getAuthToken"],
        ["GET", "/v2/edge/contract-term", 500, null],
      ],
    );
    expect(log.body.entries[0].at).toBe(sandbox.clock.now().toISOString());
    const summary = await call<Loose>(sandbox.url, "GET", "/__sandbox/requests?summary=1", {
      auth: false,
    });
    expect(summary.body).toEqual({
      total: 3,
      byOperation: { getAuthToken: 2, "(unrouted)": 1 },
      byStatus: { "200": 1, "401": 1, "500": 1 },
    });
    await call(sandbox.url, "DELETE", "/__sandbox/requests", { auth: false });
    expect(
      (await call<Loose>(sandbox.url, "GET", "/__sandbox/requests", { auth: false })).body.total,
    ).toBe(0);
  });

  it("answers the deprecated synchronous Edge price slowly, and close() ends a waiting call", async () => {
    const sandbox = await start({ edgeSyncPriceDelayMs: 300 });
    const started = Date.now();
    const answer = await call<Loose>(sandbox.url, "POST", "/v2/edge/price", {
      body: SINGAPORE_QUOTE,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.data.length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);

    const slow = await start({ edgeSyncPriceDelayMs: 60_000 });
    const waiting = call(slow.url, "POST", "/v2/edge/price", { body: SINGAPORE_QUOTE }).then(
      () => "answered",
      () => "dropped",
    );
    await waitFor(() => slow.state.quotations.size === 1);
    await slow.close();
    expect(await waiting).toBe("dropped");
  });
});
