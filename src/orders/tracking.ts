import type { ProviderApi } from "../provider/api.js";

/**
 * A port (or Edge port) order as the tracker needs it: status, LOA status and the new port once
 * there is one. The tracker's reader for `port-order` / `edge-order` targets.
 */
export async function readOrderForTracking(
  provider: ProviderApi,
  companyName: string,
  orderId: string,
) {
  const order = await provider.getPortOrder(companyName, orderId);
  const port = order.port;
  const dcf = order.dataCenterFacility as { name?: string } | undefined;
  return {
    status: order.status ?? "unknown",
    loaStatus: order.loaStatus ?? undefined,
    port:
      port?.id || port?.name
        ? {
            id: port.id ?? undefined,
            name: port.name ?? order.portName ?? undefined,
            speed: port.speed ?? order.speed?.value ?? undefined,
            location: dcf?.name,
          }
        : undefined,
    raw: order,
  };
}
