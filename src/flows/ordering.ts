import type { ApprovalRequest, CreateApprovalInput, PlacementResult } from "../approvals/index.js";
import { NotLookableError } from "../jobs/placement.js";
import type {
  EdgePortOrderRequest,
  GiaServiceRequest,
  Layer2ConnectionRequest,
  PortOrderRequest,
  ProviderApi,
} from "../provider/api.js";

/**
 * Placing an approved order and finding it again when the outcome of the call is unknown.
 * The approval record carries the exact provider call (operation, path parameters, body) that
 * the approver saw, so placement sends exactly that — nothing is re-derived after approval.
 */

/** What a flow hands over for approval: everything but the bookkeeping the approval layer adds. */
export type OrderSubmission = Omit<CreateApprovalInput, "sandbox" | "slack">;

export const ORDER_OPERATIONS = {
  port: "createPortOrder",
  layer2: "createLayer2Connection",
  iod: "createGiaService",
  edge: "createEdgePortOrder",
} as const;

function pathParam(request: ApprovalRequest, name: string): string {
  const value = request.call.pathParams[name];
  if (!value) throw new Error(`approval ${request.id} has no ${name} path parameter`);
  return value;
}

function placementResult(record: unknown): PlacementResult {
  const fields = (typeof record === "object" && record !== null ? record : {}) as Record<
    string,
    unknown
  >;
  return {
    providerId: typeof fields.id === "string" ? fields.id : undefined,
    status: typeof fields.status === "string" ? fields.status : undefined,
    record,
  };
}

/** Sends the approved call. Throws ProviderError; `outcomeUnknown` says whether it may have landed. */
export async function placeOrder(
  provider: ProviderApi,
  request: ApprovalRequest,
): Promise<PlacementResult> {
  const body = request.call.body;
  switch (request.call.operation) {
    case ORDER_OPERATIONS.port:
      return placementResult(
        await provider.createPortOrder(
          pathParam(request, "companyUsername"),
          body as PortOrderRequest,
        ),
      );
    case ORDER_OPERATIONS.layer2:
      return placementResult(
        await provider.createLayer2Connection(
          pathParam(request, "companyUsername"),
          body as Layer2ConnectionRequest,
        ),
      );
    case ORDER_OPERATIONS.iod:
      return placementResult(
        await provider.createGiaService(pathParam(request, "companyId"), body as GiaServiceRequest),
      );
    case ORDER_OPERATIONS.edge:
      return placementResult(
        await provider.createEdgePortOrder(
          pathParam(request, "companyName"),
          body as EdgePortOrderRequest,
        ),
      );
    default:
      throw new Error(
        `approval ${request.id} names an operation the bot does not place: ${request.call.operation}`,
      );
  }
}

export type ReconcileOutcome = { found: true; result: PlacementResult } | { found: false };

/**
 * Looks for an order whose creation call had an unknown outcome, by its unique name
 * (`reconcileKey`). Throws when the provider offers no way to tell, so a person decides.
 * The provider has no list of port orders: a port order shows up only as a port once it is
 * provisioned, so a missing port proves nothing and that case goes to a person.
 */
export async function reconcileOrder(
  provider: ProviderApi,
  request: ApprovalRequest,
  companyUsername: string,
): Promise<ReconcileOutcome> {
  const key = request.reconcileKey;
  if (!key) throw new Error("no name to look the order up by");
  switch (request.kind) {
    case "edge": {
      const page = await provider.listEdgeOrders({});
      const match = page.items.find(
        (item) =>
          item.portName === key && (item as { objectType?: string }).objectType !== "DRAFT ORDER",
      );
      return match ? { found: true, result: placementResult(match) } : { found: false };
    }
    case "layer2":
    case "iod": {
      const ports = await provider.listPorts(companyUsername, { deleted: false });
      for (const port of ports) {
        const connection = (port.connections ?? []).find((c) => c.name === key);
        if (connection) return { found: true, result: placementResult(connection) };
      }
      return { found: false };
    }
    case "port": {
      const ports = await provider.listPorts(companyUsername, { deleted: false });
      const match = ports.find((port) => port.name === key);
      if (match) return { found: true, result: placementResult(match) };
      throw new NotLookableError("a port order can only be found once its port exists");
    }
  }
}

/** A port order as the tracker needs it: status, LOA status and the new port once there is one. */
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
