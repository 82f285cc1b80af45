import type { ApprovalKind, ApprovalRequest, PlacementResult } from "../approvals/index.js";
import { ORDER_KIND_LABEL } from "../domain/orderKinds.js";
import type { TrackTarget } from "../domain/tracking/statuses.js";
import type {
  EdgePortOrderRequest,
  GiaServiceRequest,
  Layer2ConnectionRequest,
  PortOrder,
  PortOrderRequest,
  ProviderApi,
} from "../provider/api.js";
import { type LookupResult, NotLookableError } from "./placement/contract.js";

/**
 * Everything that differs between order kinds, in one table: a new kind is one entry, and the
 * `satisfies Record<ApprovalKind, OrderKindSpec>` below makes a missing kind (or a missing
 * field of one) a compile error. Nothing else in the lifecycle switches on the kind.
 *
 * The approval record carries the exact provider call the approver saw (operation, path
 * parameters, body), so `place` sends exactly that — nothing is re-derived after approval.
 */

export interface OrderKindSpec {
  /** What people call it ("Port order"), in the approval message and lists. */
  label: string;
  /** The provider's operationId the approved call names. */
  operation: string;
  /** Sends the approved call. Throws ProviderError (`outcomeUnknown` says if it may have landed). */
  place(provider: ProviderApi, request: ApprovalRequest): Promise<PlacementResult>;
  /**
   * Finds the order after a call with an unknown outcome, by its unique name (`reconcileKey`).
   * `{ found: false }` only when the look-up can tell it is not there; throws NotLookableError
   * when it cannot tell yet, and any other error when the look-up itself failed.
   */
  lookUp(provider: ProviderApi, request: ApprovalRequest, company: string): Promise<LookupResult>;
  /** What to follow once placed; undefined when the provider gave nothing to follow. */
  trackTarget(request: ApprovalRequest, result: PlacementResult): TrackTarget | undefined;
  /** The company the order waits on while it waits (a layer 2's other company), if any. */
  counterparty(request: ApprovalRequest): string | undefined;
  /**
   * What happens next once placed, as data: views/approvals/approvalThread.ts (`placedNextStepsText`)
   * words it in the thread, so this table loads no view.
   */
  nextSteps(request: ApprovalRequest, result: PlacementResult): PlacedNextSteps;
}

/**
 * What follows a placement, by what was placed: a port or Edge order (its LOA comes next), a port
 * found by name (followed as the port), a connection or service (its counterparty may have to
 * accept it first).
 */
export type PlacedNextSteps =
  | { shape: "port-order"; order: PortOrder }
  | { shape: "port-found" }
  | { shape: "connection"; what: "Connection" | "IO-D service" };

export const ORDER_KINDS = {
  port: {
    label: ORDER_KIND_LABEL.port,
    operation: "createPortOrder",
    place: sending("companyUsername", "order", (provider, param, body: PortOrderRequest) =>
      provider.createPortOrder(param, body),
    ),
    // The provider lists no port orders: a port order shows up only as its port, once the
    // provider has created it. A port found by name is recorded as the port (never its id as an
    // order id). None found is "not found" with that caveat: approvers then decide, with the
    // provider's portal in front of them, between waiting, Place again (its confirmation says a
    // second order could follow) and Mark as failed. Refusing Place again for ports would leave a
    // request whose order never left (a crash while sending) with no way but starting over.
    lookUp: async (provider, request, company) => {
      const name = reconcileKey(request);
      const ports = await provider.listPorts(company, { deleted: false });
      const port = ports.find((candidate) => sameName(candidate.name, name));
      if (port) return { found: true, result: asResult(port, "port") };
      return {
        found: false,
        detail: `no port named ${name} yet; a port order shows up only once its port exists, so it may still be on its way`,
      };
    },
    trackTarget: (_request, result) => {
      if (!result.providerId) return undefined;
      return result.resource === "port"
        ? { kind: "port", id: result.providerId }
        : { kind: "port-order", id: result.providerId };
    },
    nextSteps: (_request, result) =>
      result.resource === "port" ? { shape: "port-found" } : portOrderNextSteps(result),
    counterparty: () => undefined,
  },
  layer2: {
    label: ORDER_KIND_LABEL.layer2,
    operation: "createLayer2Connection",
    place: sending(
      "companyUsername",
      "connection",
      (provider, param, body: Layer2ConnectionRequest) =>
        provider.createLayer2Connection(param, body),
    ),
    lookUp: (provider, request, company) =>
      findConnection(provider, request, company, "connection"),
    trackTarget: trackById("layer2"),
    nextSteps: (_request, _result) => ({ shape: "connection", what: "Connection" }),
    // Port to port of another company, or business to business: that company must accept.
    counterparty: (request) => {
      const company = (request.call.body as { destCompany?: unknown } | undefined)?.destCompany;
      return typeof company === "string" && company !== "" ? company : undefined;
    },
  },
  iod: {
    label: ORDER_KIND_LABEL.iod,
    operation: "createGiaService",
    place: sending("companyId", "service", (provider, param, body: GiaServiceRequest) =>
      provider.createGiaService(param, body),
    ),
    lookUp: (provider, request, company) => findConnection(provider, request, company, "service"),
    trackTarget: trackById("iod"),
    nextSteps: (_request, _result) => ({ shape: "connection", what: "IO-D service" }),
    counterparty: () => undefined,
  },
  edge: {
    label: ORDER_KIND_LABEL.edge,
    operation: "createEdgePortOrder",
    place: sending("companyName", "order", (provider, param, body: EdgePortOrderRequest) =>
      provider.createEdgePortOrder(param, body),
    ),
    lookUp: async (provider, request) => {
      const name = reconcileKey(request);
      const page = await provider.listEdgeOrders({});
      const match = page.items.find(
        (item) =>
          sameName(item.portName, name) &&
          (item as { objectType?: string }).objectType !== "DRAFT ORDER",
      );
      return match ? { found: true, result: asResult(match, "order") } : { found: false };
    },
    trackTarget: trackById("edge-order"),
    nextSteps: (_request, result) => portOrderNextSteps(result),
    counterparty: () => undefined,
  },
} satisfies Record<ApprovalKind, OrderKindSpec>;

/** The table's entry for a request (the kind is validated when the record is read). */
export function orderKind(kind: ApprovalKind): OrderKindSpec {
  return ORDER_KINDS[kind];
}

/**
 * Sends an approved request's call. The operation must be the one its kind places: a record
 * naming another operation (tampered, or written by another version) is never sent.
 */
export async function placeOrder(
  provider: ProviderApi,
  request: ApprovalRequest,
): Promise<PlacementResult> {
  const spec = orderKind(request.kind);
  if (request.call.operation !== spec.operation) {
    throw new Error(
      `approval ${request.id} (${request.kind}) names ${request.call.operation}, not ${spec.operation}; not placed`,
    );
  }
  return spec.place(provider, request);
}

/** Looks an order up after an unknown outcome (see OrderKindSpec.lookUp). */
export function lookUpOrder(
  provider: ProviderApi,
  request: ApprovalRequest,
  company: string,
): Promise<LookupResult> {
  return orderKind(request.kind).lookUp(provider, request, company);
}

/**
 * A kind's `place`: sends the approved body with the path parameter `param` through `send`, and
 * records the answer as `resource`.
 */
function sending<Body>(
  param: string,
  resource: PlacementResult["resource"],
  send: (provider: ProviderApi, param: string, body: Body) => Promise<unknown>,
): OrderKindSpec["place"] {
  return async (provider, request) =>
    asResult(await send(provider, pathParam(request, param), request.call.body as Body), resource);
}

/** A kind's `trackTarget` when the provider's id is what the tracker follows. */
function trackById(kind: TrackTarget["kind"]): OrderKindSpec["trackTarget"] {
  return (_request, result) => (result.providerId ? { kind, id: result.providerId } : undefined);
}

function pathParam(request: ApprovalRequest, name: string): string {
  const value = request.call.pathParams[name];
  if (!value) throw new Error(`approval ${request.id} has no ${name} path parameter`);
  return value;
}

function reconcileKey(request: ApprovalRequest): string {
  const key = request.reconcileKey?.trim();
  if (!key) throw new NotLookableError("the request has no unique name to look the order up by");
  return key;
}

/**
 * Exactly the name that was sent (trimmed): a looser match could take a port or connection made
 * outside the bot for ours and record it as placed.
 */
function sameName(candidate: string | null | undefined, name: string): boolean {
  return typeof candidate === "string" && candidate.trim() === name;
}

function asResult(record: unknown, resource: PlacementResult["resource"]): PlacementResult {
  const fields = (typeof record === "object" && record !== null ? record : {}) as Record<
    string,
    unknown
  >;
  return {
    providerId: typeof fields.id === "string" ? fields.id : undefined,
    status: typeof fields.status === "string" ? fields.status : undefined,
    resource,
    record,
  };
}

/** Layer 2 and IO-D: the connection shows up on its port under its unique name. */
async function findConnection(
  provider: ProviderApi,
  request: ApprovalRequest,
  company: string,
  resource: "connection" | "service",
): Promise<LookupResult> {
  const name = reconcileKey(request);
  const ports = await provider.listPorts(company, { deleted: false });
  for (const port of ports) {
    const connection = (port.connections ?? []).find((c) => sameName(c.name, name));
    if (connection) return { found: true, result: asResult(connection, resource) };
  }
  return { found: false };
}

function portOrderNextSteps(result: PlacementResult): PlacedNextSteps {
  return { shape: "port-order", order: (result.record ?? {}) as PortOrder };
}
