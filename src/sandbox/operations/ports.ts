// Port orders, ports, layer 2 connections and IO-D services.
import type { Port } from "../model.js";
import { presentPort, presentPortOrder } from "../present.js";
import { checkOrderable, PricingError } from "../pricing.js";
import { ioDRuleViolation, layer2ModeViolation, speedMbps } from "../rules.js";
import type { SandboxState } from "../state.js";
import { companyFromPath, ownCompanyById, ownCompanyByUsername } from "./catalog.js";
import { badRequest, notFound, type OperationHandler, ok } from "./types.js";

type Row = Record<string, unknown>;

const createPortOrder: OperationHandler = (req, { state }) => {
  const company = ownCompanyByUsername(state, req.params.companyUsername);
  const body = req.body as Row;
  const username = String(body.dataCenterFacility);
  const dcf = state.dcfByUsername(username);
  if (!dcf)
    throw badRequest(
      `Port order: no DCF with username "${username}" (dataCenterFacility is the DCF username)`,
    );
  const speed = speedMbps(body.speed);
  if (speed === undefined || !dcf.speeds.includes(speed)) {
    throw badRequest(
      `Port order: speed ${JSON.stringify(body.speed)} is not one of the valid speeds of DCF ${dcf.name} (${dcf.speeds.join(", ")} Mbps)`,
    );
  }
  try {
    checkOrderable(dcf, speed);
  } catch (error) {
    if (error instanceof PricingError) throw badRequest(`Port order: ${error.message}`);
    throw error;
  }
  const durationUnit = String(body.durationUnit);
  if (durationUnit !== "y" && durationUnit !== "m") {
    throw badRequest(
      `Port order: durationUnit must be y (a year) or m (a month), not "${durationUnit}"`,
    );
  }
  const portName = String(body.portName).trim();
  if (portName === "") throw badRequest("Port order: portName must not be empty");
  const order = state.createPortOrder({
    companyId: company.id,
    dcfId: dcf.id,
    speed,
    portName,
    durationUnit,
    paymentType: String(body.paymentType),
    isEdgePort: false,
    edgePayload: null,
  });
  return ok(presentPortOrder(state, order, "create"));
};

const getPortOrder: OperationHandler = (req, { state }) => {
  const company = companyFromPath(state, req.params.companyName);
  const order = state.orders.get(req.params.orderId ?? "");
  if (!order || order.companyId !== company.id) {
    throw notFound(`Port order ${req.params.orderId ?? ""} not found`);
  }
  return ok(presentPortOrder(state, order, "read"));
};

const listPorts: OperationHandler = (req, { state }) => {
  // Reading a company's port details is publicly visible: any known company's list is served.
  const company = companyFromPath(state, req.params.companyUsername);
  const excludeDeleted = req.query.deleted === false || req.query.deleted === "false";
  const ports = state
    .allPorts()
    .filter((p) => p.companyId === company.id && !(excludeDeleted && p.deleted));
  return ok({ results: ports.map((p) => presentPort(state, p, false)) });
};

function portOf(state: SandboxState, companyId: string, portId: string | undefined): Port {
  const port = portId === undefined ? undefined : state.portById(portId);
  if (!port || port.companyId !== companyId) throw notFound(`Port ${portId ?? ""} not found`);
  return port;
}

const getPort: OperationHandler = (req, { state }) => {
  companyFromPath(state, req.params.companyName);
  // Publicly visible: a port is served whichever known company the path names, so a
  // destination port of another company can be read before a port-to-port request.
  const port = state.portById(req.params.portId ?? "");
  if (!port) throw notFound(`Port ${req.params.portId ?? ""} not found`);
  return ok(presentPort(state, port, true));
};

const getPortInfo: OperationHandler = (req, { state }) => {
  const company = state.companyById(req.params.companyId ?? "");
  if (!company) throw notFound(`Company ${req.params.companyId ?? ""} not found`);
  const port = portOf(state, company.id, req.params.portId);
  return ok({ capabilities: { ...port.capabilities } });
};

/**
 * A connection's or service's bandwidth: whole Mbps, at least 1, within what the port has left
 * (layer 2 and IO-D share the port's capacity); else the provider's 400, naming the field.
 */
function bandwidthOnPort(
  state: SandboxState,
  port: Port,
  value: unknown,
  where: { product: string; field: string; port: string },
): number {
  const mbps = Number(value);
  if (!Number.isInteger(mbps) || mbps < 1)
    throw badRequest(`${where.product}: ${where.field} must be a whole number of Mbps, at least 1`);
  const remaining = state.portCapacity(port).remaining;
  if (mbps > remaining) {
    throw badRequest(
      `${where.product}: ${where.field} ${mbps} Mbps exceeds ${where.port} remaining capacity (${remaining} Mbps)`,
    );
  }
  return mbps;
}

const createLayer2Connection: OperationHandler = (req, { state }) => {
  const company = ownCompanyByUsername(state, req.params.companyUsername);
  const body = req.body as Row;
  const mode = layer2ModeViolation(body);
  if (mode) throw badRequest(mode);
  const source = state.portById(String(body.portId));
  if (!source || source.deleted)
    throw badRequest(`Layer 2: source port ${String(body.portId)} not found`);
  if (source.companyId !== company.id) {
    throw badRequest(
      `Layer 2: source port ${source.id} does not belong to company ${company.username}`,
    );
  }
  const sourceMetroId = state.dcfById(source.dcfId)?.metroId ?? "";
  const speed = bandwidthOnPort(state, source, body.speed, {
    product: "Layer 2",
    field: "speed",
    port: "the source port's",
  });
  const destMetroId = String(body.destMetroId);
  let destPortId: string | undefined;
  let awaitsOtherCompany: boolean;
  if (body.destPortId !== undefined) {
    const dest = state.portById(String(body.destPortId));
    if (!dest || dest.deleted)
      throw badRequest(
        `Layer 2 port-to-port: destination port ${String(body.destPortId)} not found`,
      );
    if (dest.id === source.id)
      throw badRequest("Layer 2 port-to-port: destPortId must differ from portId");
    const destCompany = state.companyById(dest.companyId)!;
    if (destCompany.username !== body.destCompany) {
      throw badRequest(
        `Layer 2 port-to-port: destCompany must be ${destCompany.username}, the company of destination port ${dest.id}`,
      );
    }
    const destDcf = state.dcfById(dest.dcfId);
    if (destDcf?.metroId !== destMetroId) {
      throw badRequest(
        `Layer 2 port-to-port: destMetroId must be ${destDcf?.metroId ?? "?"}, the metro of destination port ${dest.id}`,
      );
    }
    destPortId = dest.id;
    awaitsOtherCompany = dest.companyId !== company.id;
  } else {
    const destDcf = state.dcfById(String(body.destDcf));
    if (!destDcf)
      throw badRequest(`Layer 2 business-to-business: no DCF with id ${String(body.destDcf)}`);
    if (destDcf.metroId !== destMetroId) {
      throw badRequest(
        `Layer 2 business-to-business: destMetroId must be ${destDcf.metroId}, the metro of DCF ${destDcf.name}`,
      );
    }
    const metro = state.metroById(destMetroId)!;
    if (metro.regionId !== body.destRegionId) {
      throw badRequest(
        `Layer 2 business-to-business: destRegionId must be one of the regionIds of metro ${metro.name} (${metro.regionId})`,
      );
    }
    awaitsOtherCompany = body.destCompany !== company.username;
  }
  for (const metroId of [sourceMetroId, destMetroId]) {
    const metro = state.metroById(metroId);
    if (metro && !metro.layer2) throw badRequest(`Layer 2 is not available in metro ${metro.name}`);
  }
  const record = state.createService({
    kind: "LAYER2",
    name: String(body.name),
    portId: source.id,
    ...(destPortId === undefined ? {} : { destPortId }),
    companyId: company.id,
    speed,
    awaitsOtherCompany,
    request: body,
  });
  return ok({
    id: record.id,
    name: record.name,
    type: "LAYER2",
    status: state.serviceStatus(record),
    speed,
    portId: source.id,
    companyId: company.id,
    ...pick(body, [
      "destPortId",
      "destCompany",
      "destMetroId",
      "destDcf",
      "destRegionId",
      "classOfService",
      "duration",
      "durationUnit",
      "paymentType",
      "evergreen",
    ]),
    createdBy: state.world.apiUser.username,
    createdAt: new Date(record.createdAtMs).toISOString(),
  });
};

function pick(body: Row, keys: string[]): Row {
  const out: Row = {};
  for (const k of keys) if (body[k] !== undefined) out[k] = body[k];
  return out;
}

const createGiaService: OperationHandler = (req, { state }) => {
  const company = ownCompanyById(state, req.params.companyId);
  const body = req.body as Row;
  const rule = ioDRuleViolation(body);
  if (rule) throw badRequest(rule);
  const port = state.portById(String(body.accessPortId));
  if (!port || port.deleted || port.companyId !== company.id) {
    throw badRequest(
      `IO-D: access port ${String(body.accessPortId)} not found for company ${company.username}`,
    );
  }
  if (!port.capabilities.giaStandardV1) {
    throw badRequest(
      `IO-D: port ${port.id} is not IO-D enabled (capabilities.giaStandardV1 is false)`,
    );
  }
  const rateLimit = bandwidthOnPort(state, port, body.rateLimit, {
    product: "IO-D",
    field: "rateLimit",
    port: "the port's",
  });
  let asn: number;
  if (body.type === "DYNAMIC" && body.privateAsn === false) {
    const record = state.world.asns.find((a) => a.id === body.asnId);
    if (
      !record ||
      record.companyId !== company.id ||
      record.private ||
      record.status !== "VERIFIED"
    ) {
      throw badRequest(
        "IO-D rule 2: asnId must be the id of a verified public ASN record of the company",
      );
    }
    asn = Number(record.asn);
  } else if (typeof body.privateAsnRequested === "number") {
    asn = body.privateAsnRequested;
  } else {
    asn = state.nextPrivateAsn();
  }
  const record = state.createService({
    kind: "GIA",
    name: String(body.name),
    portId: port.id,
    companyId: company.id,
    speed: rateLimit,
    awaitsOtherCompany: false,
    request: body,
  });
  // The BGP key is a secret: its value is never echoed back.
  return ok({
    id: record.id,
    name: record.name,
    serviceType: "GIA",
    type: body.type,
    status: state.serviceStatus(record),
    accessPortId: port.id,
    companyId: company.id,
    rateLimit,
    privateAsn: body.privateAsn ?? true,
    asn,
    ipBlock: body.ipBlock ?? null,
    enableIpv6: body.enableIpv6 === true,
    ipv6Block: body.ipv6Block ?? null,
    bgpKeyAssigned: body.type === "DYNAMIC",
    ...pick(body, [
      "duration",
      "paymentType",
      "ipGeoCountry",
      "ipGeoCity",
      "defaultOriginate",
      "defaultOriginateIpv6",
    ]),
    createdBy: state.world.apiUser.username,
    createdAt: new Date(record.createdAtMs).toISOString(),
  });
};

export const portHandlers: Record<string, OperationHandler> = {
  createPortOrder,
  getPortOrder,
  listPorts,
  getPort,
  getPortInfo,
  createLayer2Connection,
  createGiaService,
};
