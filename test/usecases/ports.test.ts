import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/log.js";
import type { Port, PortCapabilities, ProviderApi } from "../../src/provider/api.js";
import { httpError, ProviderError, timeoutError } from "../../src/provider/errors.js";
import {
  isNotFound,
  listCompanyPorts,
  lookUpPort,
  type PortDeps,
  parseRecordId,
} from "../../src/usecases/ports.js";

const IDENTITY = {
  userId: "u1",
  companyId: "c0ffee0000000000000000c1",
  companyUsername: "acme-networks",
  companyName: "Acme Networks",
};

const getPortCall = {
  operation: "getPort",
  method: "GET",
  path: "/api/company/{companyName}/ports/{portId}",
  subject: "the port",
};

function ports(n: number): Port[] {
  return Array.from({ length: n }, (_, i) => ({ id: `port-${i}`, name: `port ${i}` }) as Port);
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

function depsWith(provider: Partial<ProviderApi>) {
  const logLines: string[] = [];
  const deps: PortDeps = {
    provider: provider as ProviderApi,
    identity: async () => IDENTITY,
    logger: createLogger({
      level: "debug",
      destination: new Writable({
        write(chunk, _enc, cb) {
          logLines.push(chunk.toString());
          cb();
        },
      }),
    }),
  };
  return { deps, logLines };
}

describe("listCompanyPorts", () => {
  it("lists the company's ports without the deleted ones, a page at a time", async () => {
    const calls: unknown[][] = [];
    const { deps } = depsWith({
      listPorts: async (...args) => {
        calls.push(args);
        return ports(25);
      },
    });
    const first = await listCompanyPorts(deps, { page: 0, pageSize: 10 });
    expect(calls[0]).toEqual([IDENTITY.companyUsername, { deleted: false }]);
    expect(first.ports.map((p) => p.id)).toEqual(ports(10).map((p) => p.id));
    expect(first.page).toEqual({ page: 0, pageSize: 10, hasNext: true, total: 25 });
    const last = await listCompanyPorts(deps, { page: 2, pageSize: 10 });
    expect(last.ports.map((p) => p.id)).toEqual([
      "port-20",
      "port-21",
      "port-22",
      "port-23",
      "port-24",
    ]);
    expect(last.page.hasNext).toBe(false);
  });
});

describe("lookUpPort", () => {
  it("reads the port and its capabilities in parallel", async () => {
    const port = deferred<Port>();
    const info = deferred<PortCapabilities>();
    const started: string[] = [];
    const { deps } = depsWith({
      getPort: (company, id) => {
        started.push(`port ${company} ${id}`);
        return port.promise;
      },
      getPortInfo: (companyId, id) => {
        started.push(`info ${companyId} ${id}`);
        return info.promise;
      },
    });
    const lookup = lookUpPort(deps, "port-1");
    // Both calls are under way before either has answered.
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([
      `port ${IDENTITY.companyUsername} port-1`,
      `info ${IDENTITY.companyId} port-1`,
    ]);
    info.resolve({ capabilities: { giaStandardV1: true } });
    port.resolve({ id: "port-1", name: "ams-1" } as Port);
    expect(await lookup).toEqual({
      found: true,
      port: { id: "port-1", name: "ams-1" },
      capabilities: { capabilities: { giaStandardV1: true } },
    });
  });

  it("still shows the port when the info call fails: the capability is unknown", async () => {
    const { deps, logLines } = depsWith({
      getPort: async () => ({ id: "port-1" }) as Port,
      getPortInfo: async () => {
        throw timeoutError(
          {
            operation: "getPortInfo",
            method: "GET",
            path: "/app-user/{companyId}/ports/{portId}/info",
            subject: "the port's capabilities",
          },
          15_000,
        );
      },
    });
    const lookup = await lookUpPort(deps, "port-1");
    expect(lookup).toEqual({ found: true, port: { id: "port-1" }, capabilities: undefined });
    expect(logLines.join("")).toContain("IO-D capability unknown");
  });

  it("answers 'not found' for the provider's 404", async () => {
    const { deps } = depsWith({
      getPort: async () => {
        throw httpError(getPortCall, 404, '{"error":{"message":"Port not found","status":404}}');
      },
      getPortInfo: async () => {
        throw httpError(getPortCall, 404, undefined);
      },
    });
    expect(await lookUpPort(deps, "nope")).toEqual({ found: false, portId: "nope" });
  });

  it("lets other provider failures through for the router to explain", async () => {
    const { deps } = depsWith({
      getPort: async () => {
        throw httpError(getPortCall, 500, undefined);
      },
      getPortInfo: async () => ({ capabilities: {} }),
    });
    const error = await lookUpPort(deps, "port-1").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).httpStatus).toBe(500);
  });
});

describe("parseRecordId and isNotFound", () => {
  it("takes one word of id characters", () => {
    expect(parseRecordId(["5f2a9c0e1b3d4a5f6e7d8c9b"])).toEqual({
      ok: true,
      id: "5f2a9c0e1b3d4a5f6e7d8c9b",
    });
    expect(parseRecordId(["0b8f3a52-6d1e-4c2b-9a7f-1e2d3c4b5a69"]).ok).toBe(true);
  });

  it("says what is wrong otherwise", () => {
    expect(parseRecordId([])).toEqual({ ok: false, problem: "missing" });
    expect(parseRecordId([" "])).toEqual({ ok: false, problem: "missing" });
    expect(parseRecordId(["a", "b"])).toEqual({ ok: false, problem: "malformed" });
    expect(parseRecordId(["../ports"])).toEqual({ ok: false, problem: "malformed" });
    expect(parseRecordId(["<@U123>"])).toEqual({ ok: false, problem: "malformed" });
    expect(parseRecordId(["a".repeat(65)])).toEqual({ ok: false, problem: "malformed" });
  });

  it("counts only an HTTP 404 from the provider as not found", () => {
    expect(isNotFound(httpError(getPortCall, 404, undefined))).toBe(true);
    expect(isNotFound(httpError(getPortCall, 403, undefined))).toBe(false);
    expect(isNotFound(new Error("404"))).toBe(false);
  });
});
