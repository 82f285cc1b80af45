import { text } from "../domain/catalog/edge.js";
import type { TrackTarget, TrackTargetKind } from "../domain/tracking/statuses.js";
import type { TargetRead } from "../orders/tracking/input.js";
import type { ProviderApi } from "../provider/api.js";
import { findConnectionById } from "../provider/normalize.js";
import { connectionProgress, portPlace, portSpeedAsSent } from "../provider/serviceRecords.js";

/**
 * How the tracker reads each kind of target from the provider, normalised to
 * `{ status, loaStatus?, waitingOn?, port?, details?, raw }`. One reader per kind, in a table the
 * compiler checks: a new kind without a reader does not build.
 *
 * The provider has no read of one layer 2 connection or IO-D service; both appear as entries in
 * `connections` of their ports, so they are found there by id. Their records' shapes are not
 * documented beyond id, name and status: everything is read defensively, and an entry without a
 * status reads as "unknown" (shown as such) rather than failing.
 */

type Reader = (provider: ProviderApi, id: string, companyName: string) => Promise<TargetRead>;

const READERS = {
  "port-order": readPortOrder,
  "edge-order": readPortOrder,
  port: readPort,
  layer2: readConnection("layer 2 connection"),
  iod: readConnection("IO-D service"),
} satisfies Record<TrackTargetKind, Reader>;

/** The tracker's `readTarget` (`buildTracker`'s option) over a provider client. */
export function trackingReader(
  provider: ProviderApi,
): (target: TrackTarget, companyName: string) => Promise<TargetRead> {
  return (target, companyName) => READERS[target.kind](provider, target.id, companyName);
}

/**
 * A port order (Edge ones too): status, LOA status and the new port once there is one, with its
 * status (a done order whose port is not ACTIVE yet has the port followed next).
 */
async function readPortOrder(
  provider: ProviderApi,
  orderId: string,
  companyName: string,
): Promise<TargetRead> {
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
            status: text((port as { status?: unknown }).status),
          }
        : undefined,
    raw: order,
  };
}

/** A port (e.g. one found by name after an order's outcome was unknown). */
async function readPort(
  provider: ProviderApi,
  portId: string,
  companyName: string,
): Promise<TargetRead> {
  const port = await provider.getPort(companyName, portId);
  const speed = (port as { speed?: unknown }).speed;
  return {
    status: text(port.status) ?? "unknown",
    port: {
      id: text(port.id) ?? portId,
      name: text(port.name),
      speed: portSpeedAsSent(speed),
      location: portPlace(port).dcfName,
    },
    raw: port,
  };
}

/** A layer 2 connection or IO-D service, found by id among the company's ports' connections. */
function readConnection(label: string): Reader {
  return async (provider, id, companyName) => {
    // Deleted ports included: a connection of a port being removed still has a last word.
    const ports = await provider.listPorts(companyName);
    const entry = findConnectionById(ports, id)?.entry;
    if (!entry) {
      throw new Error(`${label} ${id} is not among the connections of the company's ports (yet)`);
    }
    const { status, waitingOn, details } = connectionProgress(entry);
    return { status: status ?? "unknown", waitingOn, details, raw: entry };
  };
}
