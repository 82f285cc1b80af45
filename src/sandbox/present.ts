// Records → response bodies in the shapes of the OpenAPI document.
import type { DraftOrder, Metro, Port, PortOrder, Schemas } from "./model.js";
import { COS_MAPPING, EPOCH } from "./seed.js";
import type { SandboxState } from "./state.js";

const iso = (ms: number) => new Date(ms).toISOString();

export function presentMetro(metro: Metro): Schemas["Metro"] {
  return {
    id: metro.id,
    name: metro.name,
    code: metro.code,
    logo: null,
    canCreateController: true,
    tags: [],
    description: `${metro.name} metro`,
    country: metro.country,
    rir: metro.rir,
    regionIds: [metro.regionId],
    ready: true,
    deleted: false,
    deletedAt: null,
    createdAt: metro.createdAt,
    updatedAt: metro.createdAt,
  };
}

export function presentMetroCapability(metro: Metro): Schemas["MetroCapability"] {
  return {
    ...presentMetro(metro),
    capabilities: { layer2: metro.layer2 },
    firstDataCenterFacilityIdInMetro: metro.firstDcfId,
  };
}

export function presentPort(state: SandboxState, port: Port, single: boolean): Schemas["Port"] {
  const dcf = state.dcfById(port.dcfId);
  const metro = dcf ? state.metroById(dcf.metroId) : undefined;
  const company = state.companyById(port.companyId);
  const active = port.status === "ACTIVE";
  const body: Schemas["Port"] = {
    id: port.id,
    name: port.name,
    companyId: port.companyId,
    dcpCompanyId: null,
    speed: { value: port.speed, name: `${port.speed} Mbps` },
    speedOverprovisioningFactor: 1,
    singleService: false,
    locationId: dcf?.record.popIds?.[0] ?? null,
    dataCenterFacilityId: port.dcfId,
    popId: dcf?.record.popIds?.[0] ?? null,
    metroId: dcf?.metroId ?? null,
    status: port.status,
    serviceStatus: active ? "OPEN" : "CLOSED",
    linkState: port.linkState,
    linkStateUpSince: active ? port.createdAt : null,
    linkStateSyncedAt: port.createdAt,
    type: port.type,
    isEdgePort: port.isEdgePort,
    edgePayload: port.edgePayload,
    mediaType: port.speed >= 10000 ? "FIBER" : "COPPER",
    partner: { type: port.type === "PHYSICAL_NSP" ? "NSP" : "NONE", connectionSpeeds: [] },
    ip: { ipv4: null, ipv6: null },
    capabilities: { model6Limit: false, model6LimitNumber: null, singleService: false },
    activeChangedAt: port.createdAt,
    firstActiveAt: active ? port.createdAt : null,
    importedAt: null,
    createdAt: port.createdAt,
    updatedAt: port.createdAt,
    deletedAt: port.deletedAt,
    deleted: port.deleted,
    importer: null,
    salesRecordId: null,
    paymentType: "invoice",
    payg: false,
    billingId: null,
    externalId: null,
    ticketLink: null,
    onboarded: active,
    onboardedBy: null,
    onboardedAt: active ? port.createdAt : null,
    onboardedStatus: active ? "COMPLETE" : null,
    onboardedStatusDetail: null,
    onboardedDeviceName: null,
    onboardedInterfaceName: null,
    onboardedAllocatedBandwidth: null,
    iciLink: null,
    reportingLabels: [],
    supportedServices: port.capabilities.l2TypeA ? ["L2"] : [],
    cosTransparency: null,
    cosMapping: structuredClone(COS_MAPPING),
    crossConnectXcOwner: null,
    crossConnectFullDemarc: null,
    interconnectEnabled: null,
    interconnectProvider: null,
    interconnectOrderNumber: null,
    interconnectCircuitId: null,
    interconnectCompletedAt: null,
    interconnectVlanRange: null,
    interconnectNniPortName: null,
    localLoopEnabled: null,
    localLoopId: null,
    localLoopCustomerId: null,
    localLoopProviderName: null,
    localLoopSalesRecordId: null,
    localLoopBandwidth: null,
    localLoopCompletedAt: null,
    localLoopASideAddress: null,
    localLoopASideXConnectId: null,
    localLoopZSideAddress: null,
    localLoopGsmpId: null,
    accessCircuit: { crossConnectMediaType: port.speed >= 10000 ? "SMF" : "CAT6" },
    capacity: state.portCapacity(port),
    connections: state.portConnections(port),
  };
  if (company) body.company = company.record;
  if (dcf) body.dataCenterFacility = dcf.record;
  if (metro) body.metro = presentMetro(metro);
  if (single) {
    // The single-port read names the VLAN ranges `vlanRange` (docs/provider/provider-api.md, Port record).
    body.vlanRange = port.vlanRanges;
    body.asn = {};
    body.controllers = [];
    body.networkServiceProviderId = null;
    body.portId = port.id;
  } else {
    body.vlanRanges = port.vlanRanges;
  }
  return body;
}

export function presentPortOrder(
  state: SandboxState,
  order: PortOrder,
  form: "create" | "read",
): Schemas["PortOrderRead"] {
  const dcf = state.dcfById(order.dcfId);
  const metro = dcf ? state.metroById(dcf.metroId) : undefined;
  const company = state.companyById(order.companyId);
  const current = state.orderState(order);
  const cancelled = current.status === "cancelled";
  const updatedAt = iso(Math.max(order.createdAtMs, current.sinceMs));
  const body: Schemas["PortOrderRead"] = {
    id: order.id,
    portName: order.portName,
    speed: { value: order.speed, name: `${order.speed} Mbps` },
    paymentType: order.paymentType,
    discountId: null,
    billingId: state.world.company.id,
    externalId: null,
    salesRecordId: null,
    paymentTransactionId: null,
    payg: false,
    status: current.status,
    loaStatus: current.loaStatus,
    isEdgePort: order.isEdgePort,
    edgePayload: order.edgePayload,
    cancelled,
    requestSource: order.requestSource,
    createdBy: order.createdBy,
    tags: [],
    type: "PHYSICAL",
    isManualCreate: false,
    isManagedEdgePort: false,
    dataCenterFacilityId: order.dcfId,
    metroId: dcf?.metroId ?? "",
    companyId: order.companyId,
    crossConnectId: null,
    deleted: false,
    deletedAt: null,
    createdAt: iso(order.createdAtMs),
    updatedAt,
    durationUnit: order.durationUnit,
    capabilities: {},
  };
  if (company) body.company = company.record;
  if (dcf) body.dataCenterFacility = dcf.record;
  if (metro) body.metro = presentMetro(metro);
  if (form === "read") {
    // Orders made in the web application long ago show the epoch instead of null.
    body.cancelledAt = cancelled ? updatedAt : order.requestSource.endsWith("_APP") ? EPOCH : null;
    body.cancelledBy = cancelled ? "provider-admin" : null;
    body.deletedBy = null;
    body.updatedBy = current.sinceMs > order.createdAtMs ? "provider-admin" : null;
    body.locationId = dcf?.record.popIds?.[0] ?? null;
    body.message =
      current.status === "error"
        ? "Provisioning failed; the provider's support team has been told."
        : null;
    const port = state.portOfOrder(order);
    if (port) {
      body.port = {
        activeChangedAt: port.createdAt,
        createdAt: port.createdAt,
        dataCenterFacilityId: port.dcfId,
        deleted: false,
        deletedAt: null,
        id: port.id,
        ip: {},
        locationId: body.locationId,
        metroId: dcf?.metroId ?? null,
        name: port.name,
        portId: port.id,
        speed: port.speed,
        status: port.status,
        type: port.type,
        updatedAt: port.createdAt,
        vlan: null,
      };
      body.controller = {
        asn: null,
        cerAsn: null,
        cerIp: {},
        id: `${order.id.slice(0, 16)}c0ffee00`,
        ip: {},
        serviceLayerId: null,
        vlan: null,
      };
    }
  }
  return body;
}

export function presentDraft(state: SandboxState, draft: DraftOrder): Schemas["DraftOrder"] {
  return {
    id: draft.id,
    name: draft.name,
    speed: draft.speed,
    edgePayload: draft.edgePayload,
    deleteIn: state.draftDeleteIn(draft),
    companyId: draft.companyId,
    status: "DRAFT",
    deleted: false,
    deletedAt: null,
    createdAt: iso(draft.createdAtMs),
    updatedAt: iso(draft.updatedAtMs),
  };
}

/** Items of the v2 Edge list: drafts, Edge orders and the ports of done Edge orders. */
export function edgeListItems(state: SandboxState): Schemas["EdgeOrderListItem"][] {
  const items: Schemas["EdgeOrderListItem"][] = [];
  for (const draft of state.liveDrafts()) {
    items.push({
      id: draft.id,
      // Drafts take any number of Mbps; list items carry whole Mbps.
      speed: Math.round(draft.speed),
      edgePayload: draft.edgePayload,
      companyId: draft.companyId,
      createdAt: iso(draft.createdAtMs),
      updatedAt: iso(draft.updatedAtMs),
      portName: draft.name ?? "",
      objectType: "DRAFT ORDER",
      status: "DRAFT",
      daysUntilDelete: state.draftDeleteIn(draft),
    });
  }
  for (const order of state.orders.values()) {
    if (!order.isEdgePort) continue;
    const current = state.orderState(order);
    items.push({
      id: order.id,
      speed: order.speed,
      edgePayload: order.edgePayload,
      companyId: order.companyId,
      createdAt: iso(order.createdAtMs),
      updatedAt: iso(Math.max(order.createdAtMs, current.sinceMs)),
      portName: order.portName,
      objectType: "ORDER",
      status: current.status,
    });
    const port = state.portOfOrder(order);
    if (port) {
      items.push({
        id: port.id,
        speed: port.speed,
        edgePayload: port.edgePayload,
        companyId: port.companyId,
        createdAt: port.createdAt,
        updatedAt: port.createdAt,
        portName: port.name,
        objectType: "PORT",
        status: port.status,
      });
    }
  }
  return items;
}
