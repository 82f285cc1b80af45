import type { OrderSubmission } from "../../src/orders/index.js";
import type { Dcf, ProviderApi } from "../../src/provider/api.js";
import { STANDIN_IDS } from "../../src/standin/index.js";

/**
 * A port order approval request shaped as the port order flow submits it (the exact provider
 * call, found again by its port name), with a one-line summary: for tests that need an order to
 * approve, place, kill or refuse without going through the modal.
 */
export function portOrderRequest(input: {
  portName: string;
  companyUsername: string;
  /** The DCF's username. */
  dataCenterFacility: string;
  /** Mbps as the provider takes it, e.g. "10000". */
  speed: string;
  price?: OrderSubmission["price"];
  requester?: OrderSubmission["requester"];
}): OrderSubmission {
  const { portName } = input;
  return {
    kind: "port",
    title: portName,
    summary: [{ label: "Port name", value: portName }],
    call: {
      operation: "createPortOrder",
      pathParams: { companyUsername: input.companyUsername },
      body: {
        dataCenterFacility: input.dataCenterFacility,
        speed: input.speed,
        durationUnit: "y",
        portName,
        paymentType: "invoice",
      },
    },
    reconcileKey: portName,
    ...(input.price ? { price: input.price } : {}),
    requester: input.requester ?? { userId: STANDIN_IDS.requester },
  };
}

/** An on-net DCF the sandbox places port orders at: ready, with speeds, not off-net. */
export interface PlaceableDcf {
  username: string;
  name: string;
  /** Its first speed, Mbps as the provider takes it. */
  speed: string;
  /** The DCF as the provider listed it (for what a test reads beyond these). */
  dcf: Dcf;
}

/**
 * The first on-net DCF with speeds the provider lists as ready: where a port order the sandbox
 * places can go. Throws when there is none (the sandbox's seed data changed).
 */
export async function placeableDcf(provider: Pick<ProviderApi, "listDcfs">): Promise<PlaceableDcf> {
  const dcfs = await provider.listDcfs({ where: { "dataCenterFacility.ready": true } });
  const found = dcfs.find(
    (d) =>
      d.username &&
      (d.dataCenterFacility?.speeds?.length ?? 0) > 0 &&
      !(d.tags ?? []).some((t) => /off|ext/i.test(t)),
  );
  if (!found?.username) throw new Error("the sandbox has no on-net DCF with speeds");
  return {
    username: found.username,
    name: found.name ?? found.username,
    speed: String(Number(found.dataCenterFacility?.speeds?.[0])),
    dcf: found,
  };
}
