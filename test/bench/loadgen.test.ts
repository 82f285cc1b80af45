import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { closedLoop, type PreparedRequest } from "../../bench/loadgen.js";

// The ack benchmark's figures are this loop's timings: it must keep exactly `concurrency`
// requests in flight, send every prepared request once with its headers, and count failures.
let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

async function listen(
  handle: (body: string, headers: Record<string, string | string[] | undefined>) => number,
  delayMs: (body: string) => number = () => 2,
): Promise<{ url: string; stats: { inFlight: number; maxInFlight: number; bodies: string[] } }> {
  const stats = { inFlight: 0, maxInFlight: 0, bodies: [] as string[] };
  server = createServer((req, res) => {
    stats.inFlight += 1;
    stats.maxInFlight = Math.max(stats.maxInFlight, stats.inFlight);
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString();
      stats.bodies.push(body);
      const status = handle(body, req.headers);
      // Answer on a later turn so that concurrent requests overlap at the server.
      setTimeout(() => {
        stats.inFlight -= 1;
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify({ text: status === 200 ? `ok ${body}` : "failed" }));
      }, delayMs(body));
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/slack/events`, stats };
}

const prepared = (count: number): PreparedRequest[] =>
  Array.from({ length: count }, (_, i) => ({ headers: { "x-test": `h${i}` }, body: `b${i}` }));

describe("closedLoop (ack benchmark load generator)", () => {
  it("keeps exactly `concurrency` requests in flight and sends each prepared request once", async () => {
    const seenHeaders: string[] = [];
    const { url, stats } = await listen((_body, headers) => {
      seenHeaders.push(String(headers["x-test"]));
      return 200;
    });
    const requests = prepared(60);
    const run = await closedLoop(url, requests, 4);
    expect(stats.maxInFlight).toBe(4);
    const sent = (pick: (r: PreparedRequest) => string | undefined) => requests.map(pick).sort();
    expect([...stats.bodies].sort()).toEqual(sent((r) => r.body));
    expect(seenHeaders.sort()).toEqual(sent((r) => r.headers["x-test"]));
    expect(run.latencies).toHaveLength(60);
    expect(run.latencies.every((ms) => ms > 0)).toBe(true);
    expect(run.non200).toBe(0);
    expect(run.seconds).toBeGreaterThan(0);
  });

  it("counts answers that are not 200 and bodies carrying the mark", async () => {
    const { url } = await listen((body) => (body === "b3" || body === "b7" ? 500 : 200));
    const run = await closedLoop(url, prepared(10), 2, { mark: "ok b1" });
    expect(run.non200).toBe(2);
    // "ok b1" is in the answers to b1 (and to none other of b0..b9).
    expect(run.marked).toBe(1);
    expect(run.latencies).toHaveLength(10);
  });

  it("times the opening requests apart from the rest", async () => {
    // The first three requests (b0, b1, b2) are answered slowly: they, and only they, are the
    // opening ones.
    const slow = new Set(["b0", "b1", "b2"]);
    const { url } = await listen(
      () => 200,
      (body) => (slow.has(body) ? 200 : 2),
    );
    const run = await closedLoop(url, prepared(30), 3, { opening: 3 });
    expect(run.openingLatencies).toHaveLength(3);
    expect(run.openingLatencies.every((ms) => ms >= 200)).toBe(true);
    expect(run.latencies).toHaveLength(27);
    expect(run.latencies.every((ms) => ms > 0 && ms < 200)).toBe(true);
    expect(run.seconds).toBeGreaterThan(0);

    const all = await closedLoop(url, prepared(3), 3, { opening: 3 });
    expect(all.openingLatencies).toHaveLength(3);
    expect(all.latencies).toHaveLength(0);
    expect(all.seconds).toBe(0);
  });

  it("counts a refused connection instead of failing the run", async () => {
    const { url } = await listen(() => 200);
    await new Promise<void>((resolve) => server!.close(() => resolve()));
    server = undefined;
    const run = await closedLoop(url, prepared(3), 2);
    expect(run.non200).toBe(3);
    expect(run.latencies).toHaveLength(3);
  });
});
