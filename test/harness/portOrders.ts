import type { OrderSubmission } from "../../src/orders/index.js";
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
