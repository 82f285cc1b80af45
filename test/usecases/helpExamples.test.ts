import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../src/log.js";
import type { Port, ProviderApi } from "../../src/provider/api.js";
import {
  EXAMPLE_IDS_CACHE_MS,
  type ExampleIdDeps,
  exampleIds,
} from "../../src/usecases/helpExamples.js";

// Help's real ids: the company's first port, asked once in a while, and never a reason for
// help to wait or fail.

const IDENTITY = { userId: "u1", companyId: "c1", companyUsername: "acme-networks" };

function depsWith(listPorts: ProviderApi["listPorts"], clock = { ms: 0 }) {
  let calls = 0;
  const deps: ExampleIdDeps = {
    provider: {
      listPorts: (...args: Parameters<ProviderApi["listPorts"]>) => {
        calls++;
        return listPorts(...args);
      },
    } as ProviderApi,
    identity: async () => IDENTITY,
    logger: createLogger({
      level: "silent",
      destination: new Writable({ write: (_c, _e, cb) => cb() }),
    }),
    now: () => clock.ms,
  };
  return { deps, calls: () => calls };
}

describe("exampleIds", () => {
  it("gives the first port's id and asks again only once the cache is stale", async () => {
    const clock = { ms: 1_000 };
    const { deps, calls } = depsWith(
      async () => [{ id: "port-a" }, { id: "port-b" }] as Port[],
      clock,
    );
    expect(await exampleIds(deps)).toEqual({ portId: "port-a" });
    clock.ms += EXAMPLE_IDS_CACHE_MS - 1;
    expect(await exampleIds(deps)).toEqual({ portId: "port-a" });
    expect(calls()).toBe(1);
    clock.ms += 2;
    await exampleIds(deps);
    expect(calls()).toBe(2);
  });

  it("gives none when the company has no ports", async () => {
    const { deps } = depsWith(async () => []);
    expect(await exampleIds(deps)).toEqual({});
  });

  it("gives none, without waiting longer than its deadline, when the provider hangs or fails", async () => {
    const hanging = depsWith(() => new Promise<Port[]>(() => {}));
    const started = Date.now();
    expect(await exampleIds(hanging.deps, 50)).toEqual({});
    expect(Date.now() - started).toBeLessThan(1_000);
    const failing = depsWith(async () => {
      throw new Error("provider down");
    });
    expect(await exampleIds(failing.deps)).toEqual({});
    // A failure is not kept: the next help asks again.
    await exampleIds(failing.deps);
    expect(failing.calls()).toBe(2);
  });
});
