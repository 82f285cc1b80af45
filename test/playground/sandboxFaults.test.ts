import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  KnobProblem,
  SandboxFaults,
  SLOW_PROVIDER_MS,
} from "../../src/playground/sandboxFaults.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";

/**
 * "Try a failure" without a browser (issue 32, item 8): each knob against a real sandbox over its
 * admin endpoints. The next order fails once, and only orders; slowing the provider keeps an
 * armed order fault first; the partner answers the newest layer 2 waiting on it, and the open
 * trackers are asked to read their orders.
 */
describe("the playground's fault knobs on the embedded sandbox", () => {
  let sandbox: Sandbox;
  let faults: SandboxFaults;
  let checks = 0;
  const key = { authorization: "Bearer k", "content-type": "application/json" };

  beforeAll(async () => {
    sandbox = await startSandbox({ run: "faults-test" });
    faults = new SandboxFaults({
      sandboxUrl: sandbox.url,
      checkOpenOrders: async () => {
        checks += 1;
      },
    });
  });
  afterAll(async () => {
    await sandbox?.close();
  });

  const placePort = (name: string) =>
    fetch(`${sandbox.url}/api/company/${sandbox.apiUser.companyUsername}/ports/orders`, {
      method: "PUT",
      headers: key,
      body: JSON.stringify({
        dataCenterFacility: "ironbridge-iad1",
        speed: "10000",
        durationUnit: "y",
        portName: name,
        paymentType: "invoice",
      }),
    });

  it("fails the next order once with the chosen status, and nothing else", async () => {
    const armed = await faults.turn({ knob: "fail-next-order", outcome: "500" });
    expect(armed.faults).toEqual({ nextOrder: "500" });
    const ports = await fetch(
      `${sandbox.url}/api/company/${sandbox.apiUser.companyUsername}/ports`,
      { headers: key },
    );
    expect(ports.status).toBe(200);
    expect((await placePort("knob-first")).status).toBe(500);
    expect((await placePort("knob-second")).status).toBe(200);
    expect(await faults.refresh()).toEqual({});
  });

  it("keeps an armed order fault ahead of a slow provider; clear removes both", async () => {
    await faults.turn({ knob: "slow", on: true });
    const both = await faults.turn({ knob: "fail-next-order", outcome: "400" });
    expect(both.faults).toEqual({ nextOrder: "400", slowMs: SLOW_PROVIDER_MS });
    const rules = (await (await fetch(`${sandbox.url}/__sandbox/faults`)).json()) as Array<{
      status?: number;
    }>;
    expect(rules[0]?.status).toBe(400);
    const timeout = await faults.turn({ knob: "fail-next-order", outcome: "timeout" });
    expect(timeout.faults).toEqual({ nextOrder: "timeout", slowMs: SLOW_PROVIDER_MS });
    expect((await faults.turn({ knob: "clear" })).faults).toEqual({});
    expect(await (await fetch(`${sandbox.url}/__sandbox/faults`)).json()).toEqual([]);
  });

  it("has the partner deny or accept the newest layer 2 waiting on it", async () => {
    await expect(faults.turn({ knob: "partner", decision: "accept" })).rejects.toBeInstanceOf(
      KnobProblem,
    );
    const port = sandbox.state.world.ports.find((p) => p.companyId === sandbox.apiUser.companyId);
    if (!port) throw new Error("no own port in the seed");
    const waiting = (name: string) =>
      sandbox.state.createService({
        kind: "LAYER2",
        name,
        portId: port.id,
        companyId: sandbox.apiUser.companyId,
        speed: 100,
        awaitsOtherCompany: true,
        request: { destCompany: "globex-cloud" },
      });
    const older = waiting("knob-older");
    sandbox.clock.advance(10 * 60_000);
    const newer = waiting("knob-newer");
    sandbox.clock.advance(10 * 60_000);
    const status = (id: string) => {
      const record = sandbox.state.services.get(id);
      return record ? sandbox.state.serviceStatus(record) : undefined;
    };
    expect([status(older.id), status(newer.id)]).toEqual(["PENDING", "PENDING"]);
    const denied = await faults.turn({ knob: "partner", decision: "deny" });
    expect(denied.said).toContain("knob-newer");
    expect([status(older.id), status(newer.id)]).toEqual(["PENDING", "DENIED"]);
    const accepted = await faults.turn({ knob: "partner", decision: "accept" });
    expect(accepted.said).toContain("knob-older");
    expect(status(older.id)).toBe("ACTIVE");
    expect(checks).toBe(2);
  });
});
