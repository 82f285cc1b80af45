import { describe, expect, it } from "vitest";
import type { Port, PortOrderRead, ProviderApi } from "../../src/provider/api.js";
import { trackingReader } from "../../src/usecases/trackingReads.js";

// The tracker's readers over a provider client: each kind read by its own call and normalised;
// records of undocumented shape (layer 2, IO-D) read defensively, never crashing on odd input.

function provider(parts: Partial<ProviderApi>): ProviderApi {
  return parts as ProviderApi;
}

describe("trackingReader", () => {
  it("reads port and Edge orders by their order id, with the new port and its status", async () => {
    const asked: string[][] = [];
    const read = trackingReader(
      provider({
        getPortOrder: async (company, id) => {
          asked.push([company, id]);
          return {
            id,
            status: "done",
            loaStatus: "APPROVED",
            portName: "syd-core-09",
            port: { id: "p-9", speed: 10000, status: "READY" },
            dataCenterFacility: { name: "SY1" },
          } as PortOrderRead;
        },
      }),
    );
    for (const kind of ["port-order", "edge-order"] as const) {
      const answer = await read({ kind, id: "o-1" }, "acme");
      expect(answer).toMatchObject({
        status: "done",
        loaStatus: "APPROVED",
        port: { id: "p-9", name: "syd-core-09", speed: 10000, location: "SY1", status: "READY" },
      });
    }
    expect(asked).toEqual([
      ["acme", "o-1"],
      ["acme", "o-1"],
    ]);
  });

  it("reads a port by its id (GET port), its speed as the provider sends it", async () => {
    const read = trackingReader(
      provider({
        getPort: async (_company, id) =>
          ({
            id,
            name: "syd-core-09",
            status: "READY",
            speed: { value: 10000, name: "10G" },
            dataCenterFacility: { name: "SY1" },
          }) as unknown as Port,
      }),
    );
    expect(await read({ kind: "port", id: "p-9" }, "acme")).toMatchObject({
      status: "READY",
      port: { id: "p-9", name: "syd-core-09", speed: 10000, location: "SY1" },
    });
  });

  it("finds a layer 2 connection or IO-D service among every port's connections, deleted ports included", async () => {
    const asked: unknown[][] = [];
    const ports = [
      { id: "a", connections: null },
      { id: "b" },
      {
        id: "c",
        connections: [
          "junk",
          null,
          { id: "l2-1", status: "PENDING", destCompany: "globex-cloud" },
          { id: "iod-1" },
          { id: "iod-2", status: "ERROR", reason: "BGP session refused" },
        ],
      },
    ] as unknown as Port[];
    const read = trackingReader(
      provider({
        listPorts: async (...args) => {
          asked.push(args);
          return ports;
        },
      }),
    );
    expect(await read({ kind: "layer2", id: "l2-1" }, "acme")).toMatchObject({
      status: "PENDING",
      waitingOn: "globex-cloud",
    });
    // No status: shown as unknown rather than failing.
    expect((await read({ kind: "iod", id: "iod-1" }, "acme")).status).toBe("unknown");
    expect(await read({ kind: "iod", id: "iod-2" }, "acme")).toMatchObject({
      status: "ERROR",
      details: "BGP session refused",
    });
    await expect(read({ kind: "layer2", id: "nowhere" }, "acme")).rejects.toThrow(
      "layer 2 connection nowhere is not among the connections of the company's ports (yet)",
    );
    expect(asked.every((args) => args.length === 1 && args[0] === "acme")).toBe(true);
  });
});
