// The mutable state of one sandbox: the seeded world plus orders, connections, IO-D services,
// drafts, quotations, enquiries and the request log. Status fields are never stored: they are
// computed from the clock when read (see timeline.ts).
import { type Clock, DAY } from "./clock.js";
import type {
  DraftOrder,
  EdgeEnquiry,
  EdgeQuotation,
  EdgeQuoteItem,
  Port,
  PortConnection,
  PortOrder,
  RequestLogEntry,
  ServiceRecord,
} from "./model.js";
import { Prng } from "./random.js";
import { BRAND, buildWorld, type World } from "./seed.js";
import { loaDaysFor, type OrderState, orderStateAt, serviceStatusAt } from "./timeline.js";

/** Drafts are kept this many days (docs/provider/provider-api.md, Limits). */
export const DRAFT_RETENTION_DAYS = 30;
/** Statuses of a connection or service that no longer use port capacity. */
const RELEASED_STATUSES = new Set(["CANCELLED", "DELETED", "DENIED", "DISABLED", "ERROR"]);
/** Request log entries kept (oldest dropped first). */
export const REQUEST_LOG_LIMIT = 100_000;
/**
 * The log may run this far past the limit before its oldest entries are dropped, all at once:
 * one `shift()` per request moved the whole 100,000-entry array each time (about 0.1 ms per
 * request once the log was full, in a long benchmark run).
 */
export const REQUEST_LOG_SLACK = 1_000;

/** What an order request gives; the state adds its id, times, kind and the port to be. */
export interface NewPortOrder
  extends Pick<
    PortOrder,
    | "companyId"
    | "dcfId"
    | "speed"
    | "portName"
    | "durationUnit"
    | "paymentType"
    | "isEdgePort"
    | "edgePayload"
  > {
  /**
   * Edge: the ordered offer's lead time in days, as its quote promised; the order is done that
   * many days after approval, so the sandbox keeps the promise the message made.
   */
  leadTimeDays?: number;
}

export interface NewService {
  kind: ServiceRecord["kind"];
  name: string;
  portId: string;
  destPortId?: string;
  companyId: string;
  speed: number;
  awaitsOtherCompany: boolean;
  request: Record<string, unknown>;
}

export class SandboxState {
  readonly world: World;
  readonly orders = new Map<string, PortOrder>();
  readonly services = new Map<string, ServiceRecord & { destPortId?: string }>();
  readonly drafts = new Map<string, DraftOrder>();
  readonly quotations = new Map<string, EdgeQuotation>();
  /** Quote keys of quotation items, to their quotation. */
  readonly quoteItems = new Map<string, { responseId: string; item: EdgeQuoteItem }>();
  readonly enquiries: EdgeEnquiry[] = [];
  readonly requestLog: RequestLogEntry[] = [];
  /** Total provider requests served, including entries dropped from the log. */
  requestCount = 0;
  private readonly ids: Prng;
  private privateAsnCursor: number;

  /**
   * `run` (optional) salts the ids of what is created from now on, not the seeded world: the
   * same seed then gives the same data but new order and service ids in every run, so a restart
   * of the embedded sandbox never hands out an id a previous run's records (in Redis) still use.
   */
  constructor(
    readonly seed: number,
    private readonly clock: Clock,
    run?: string,
  ) {
    this.world = buildWorld(seed);
    this.ids = Prng.derive(seed, run === undefined ? "ids" : `ids:${run}`);
    for (const order of this.world.seededOrders) this.orders.set(order.id, order);
    this.privateAsnCursor = 64512 + Prng.derive(seed, "private-asn").int(100, 900);
  }

  nowMs(): number {
    return this.clock.nowMs();
  }

  newId(): string {
    return this.ids.hex(24);
  }

  newUuid(): string {
    return this.ids.uuid();
  }

  // ------------------------------------------------------------------ reference data

  dcfById(id: string) {
    return this.world.dcfs.find((d) => d.id === id);
  }

  dcfByUsername(username: string) {
    return this.world.dcfs.find((d) => d.username === username);
  }

  metroById(id: string) {
    return this.world.metros.find((m) => m.id === id);
  }

  regionById(id: string) {
    return this.world.regions.find((r) => r.id === id);
  }

  companyByUsername(username: string) {
    return [this.world.company, this.world.partner].find((c) => c.username === username);
  }

  companyById(id: string) {
    return [this.world.company, this.world.partner].find((c) => c.id === id);
  }

  // ------------------------------------------------------------------ port orders

  createPortOrder(input: NewPortOrder): PortOrder {
    const id = this.newId();
    const dcf = this.dcfById(input.dcfId);
    const kind = input.isEdgePort ? "EDGE" : (dcf?.kind ?? "ON_NET");
    const draw = Prng.derive(this.seed, `loa:${id}`);
    const order: PortOrder = {
      id,
      companyId: input.companyId,
      dcfId: input.dcfId,
      speed: input.speed,
      portName: input.portName,
      durationUnit: input.durationUnit,
      paymentType: input.paymentType,
      createdAtMs: this.nowMs(),
      kind,
      loaDays: input.leadTimeDays ?? loaDaysFor(kind, () => draw.next()),
      isEdgePort: input.isEdgePort,
      edgePayload: input.edgePayload,
      requestSource: `${BRAND}_API`,
      createdBy: this.world.apiUser.username,
      portId: Prng.derive(this.seed, `port:${id}`).hex(24),
    };
    this.orders.set(id, order);
    return order;
  }

  orderState(order: PortOrder): OrderState {
    return orderStateAt(order, this.nowMs());
  }

  /**
   * Sets an order's status and/or LOA status (any value, known or not) and freezes its
   * automatic progression from then on.
   */
  overrideOrder(
    orderId: string,
    change: { status?: string; loaStatus?: string },
  ): PortOrder | undefined {
    const order = this.orders.get(orderId);
    if (!order) return undefined;
    const current = this.orderState(order);
    order.override = {
      status: change.status ?? current.status,
      loaStatus: change.loaStatus ?? current.loaStatus,
      atMs: this.nowMs(),
    };
    return order;
  }

  /** The port an order created, once the order is done. */
  portOfOrder(order: PortOrder): Port | undefined {
    const state = this.orderState(order);
    if (!state.done) return undefined;
    const dcf = this.dcfById(order.dcfId);
    const createdAt = new Date(state.doneAtMs ?? this.nowMs()).toISOString();
    const vlanStart = 100 + (Number.parseInt(order.portId.slice(0, 4), 16) % 30) * 100;
    return {
      id: order.portId,
      name: order.portName,
      companyId: order.companyId,
      dcfId: order.dcfId,
      type: "PHYSICAL",
      speed: order.speed,
      status: "ACTIVE",
      linkState: "UP",
      createdAt,
      deleted: false,
      deletedAt: null,
      isEdgePort: order.isEdgePort,
      edgePayload: order.edgePayload,
      capabilities: {
        giaStandardV1: !order.isEdgePort && dcf?.kind === "ON_NET",
        l2TypeA: true,
        l3vpnTypeA: !order.isEdgePort,
        qinq: false,
      },
      vlanRanges: [{ start: vlanStart, end: vlanStart + 99 }],
      seededConnections: [],
      orderId: order.id,
    };
  }

  /** Seeded ports plus the ports of done orders. */
  allPorts(): Port[] {
    const ports = [...this.world.ports];
    const seededIds = new Set(ports.map((p) => p.id));
    for (const order of this.orders.values()) {
      if (seededIds.has(order.portId)) continue;
      const port = this.portOfOrder(order);
      if (port) ports.push(port);
    }
    return ports;
  }

  portById(id: string): Port | undefined {
    const seeded = this.world.ports.find((p) => p.id === id);
    if (seeded) return seeded;
    for (const order of this.orders.values()) {
      if (order.portId === id) return this.portOfOrder(order);
    }
    return undefined;
  }

  // ------------------------------------------------------------------ layer 2 and IO-D

  createService(input: NewService): ServiceRecord & { destPortId?: string } {
    const record: ServiceRecord & { destPortId?: string } = {
      id: this.newId(),
      kind: input.kind,
      name: input.name,
      portId: input.portId,
      companyId: input.companyId,
      speed: input.speed,
      createdAtMs: this.nowMs(),
      awaitsOtherCompany: input.awaitsOtherCompany,
      request: input.request,
    };
    if (input.destPortId !== undefined) record.destPortId = input.destPortId;
    this.services.set(record.id, record);
    return record;
  }

  serviceStatus(service: ServiceRecord): string {
    return serviceStatusAt(service, this.nowMs());
  }

  overrideService(id: string, status: string): ServiceRecord | undefined {
    const service = this.services.get(id);
    if (!service) return undefined;
    service.override = { status, atMs: this.nowMs() };
    return service;
  }

  /** Connection entries on a port: seeded ones plus created layer 2 and IO-D services. */
  portConnections(port: Port): PortConnection[] {
    const created: PortConnection[] = [];
    for (const s of this.services.values()) {
      if (s.portId !== port.id && s.destPortId !== port.id) continue;
      created.push({
        id: s.id,
        name: s.name,
        status: this.serviceStatus(s),
        speed: s.speed,
        type: s.kind,
        srcConfigTag: null,
        typeFriendly: s.kind === "LAYER2" ? "Layer 2" : "Internet On-Demand",
      });
    }
    return [...port.seededConnections, ...created];
  }

  portCapacity(port: Port): { total: number; utilised: number; remaining: number } {
    const utilised = this.portConnections(port)
      .filter((c) => !RELEASED_STATUSES.has(String(c.status)))
      .reduce((sum, c) => sum + (c.speed ?? 0), 0);
    return { total: port.speed, utilised, remaining: Math.max(0, port.speed - utilised) };
  }

  nextPrivateAsn(): number {
    const used = new Set(this.world.asns.filter((a) => a.private).map((a) => Number(a.asn)));
    while (used.has(this.privateAsnCursor)) this.privateAsnCursor++;
    return this.privateAsnCursor;
  }

  // ------------------------------------------------------------------ Edge drafts

  createDraft(input: {
    name?: string | null;
    speed: number;
    edgePayload: Record<string, unknown>;
  }): DraftOrder {
    const now = this.nowMs();
    const draft: DraftOrder = {
      id: this.newId(),
      name: input.name ?? defaultDraftName(now),
      speed: input.speed,
      edgePayload: input.edgePayload,
      companyId: this.world.company.id,
      createdAtMs: now,
      updatedAtMs: now,
    };
    this.drafts.set(draft.id, draft);
    return draft;
  }

  /** The default name of a draft made or renamed now. */
  createDraftName(): string {
    return defaultDraftName(this.nowMs());
  }

  /** A draft that exists, is not deleted and has not passed its 30 days. */
  liveDraft(id: string): DraftOrder | undefined {
    const draft = this.drafts.get(id);
    if (!draft || draft.deletedAtMs !== undefined) return undefined;
    return this.draftAgeMs(draft) < DRAFT_RETENTION_DAYS * DAY ? draft : undefined;
  }

  liveDrafts(): DraftOrder[] {
    return [...this.drafts.values()].filter((d) => this.liveDraft(d.id) !== undefined);
  }

  /** Whole days until the draft is deleted (30 on the day it is made). */
  draftDeleteIn(draft: DraftOrder): number {
    return Math.max(0, DRAFT_RETENTION_DAYS - Math.floor(this.draftAgeMs(draft) / DAY));
  }

  private draftAgeMs(draft: DraftOrder): number {
    return this.nowMs() - draft.createdAtMs;
  }

  deleteDraft(id: string): boolean {
    const draft = this.liveDraft(id);
    if (!draft) return false;
    draft.deletedAtMs = this.nowMs();
    return true;
  }

  // ------------------------------------------------------------------ request log

  logRequest(entry: RequestLogEntry): void {
    this.requestCount++;
    this.requestLog.push(entry);
    if (this.requestLog.length >= REQUEST_LOG_LIMIT + REQUEST_LOG_SLACK) {
      this.requestLog.splice(0, this.requestLog.length - REQUEST_LOG_LIMIT);
    }
  }
}

/** "Draft order DD-MM-YYYY" in UTC, the provider's default name. */
export function defaultDraftName(ms: number): string {
  const d = new Date(ms);
  const dd = String(d.getUTCDate()).padStart(2, "0");
  const mm = String(d.getUTCMonth() + 1).padStart(2, "0");
  return `Draft order ${dd}-${mm}-${d.getUTCFullYear()}`;
}
