// The HTTP face of the sandbox: fastify answers the provider's paths (routed and validated by
// the OpenAPI document) and the admin paths under /__sandbox/, which the provider's paths can
// never reach.
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import type { OpenAPIBackend, ValidationResult } from "openapi-backend";
import type { Logger } from "../log.js";
import type { Clock } from "./clock.js";
import { type FaultInjector, parseFaultRules } from "./faults.js";
import { catalogHandlers } from "./operations/catalog.js";
import { edgeHandlers } from "./operations/edge.js";
import { portHandlers } from "./operations/ports.js";
import {
  ApiError,
  envelope,
  type OperationContext,
  type OperationHandler,
} from "./operations/types.js";
import { presentPortOrder } from "./present.js";
import { edgeOrderViolation, ioDRuleViolation, isObject, layer2ModeViolation } from "./rules.js";
import type { SandboxState } from "./state.js";

export const ADMIN_PREFIX = "/__sandbox";

type ErrorObject = NonNullable<ValidationResult["errors"]>[number];

const handlers: Record<string, OperationHandler> = {
  ...catalogHandlers,
  ...portHandlers,
  ...edgeHandlers,
};

/** Rules checked on a raw body before schema errors are reported: their messages name the rule. */
const ruleChecks: Record<string, (body: Readonly<Record<string, unknown>>) => string | undefined> =
  {
    createGiaService: ioDRuleViolation,
    createLayer2Connection: layer2ModeViolation,
    createEdgePortOrder: edgeOrderViolation,
  };

export interface ServerDeps {
  api: OpenAPIBackend;
  state: SandboxState;
  clock: Clock;
  faults: FaultInjector;
  logger?: Logger;
  edgeQuote: OperationContext["edgeQuote"];
  edgeSyncPriceDelayMs: number;
  /** Aborted when the sandbox closes: ends hangs and slow answers. */
  closing: AbortSignal;
}

/** Waits `ms` of real time, or rejects as soon as `signal` aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error("sandbox closed"));
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error("sandbox closed"));
    };
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

function describeLocation(instancePath: string): string {
  const parts = instancePath.split("/").filter(Boolean);
  const head = parts.shift();
  const where =
    head === "requestBody"
      ? "body"
      : head === "query"
        ? "query"
        : head === "params"
          ? "path"
          : (head ?? "request");
  return [where, ...parts].join(".");
}

/** One readable line per ajv error: where, what, and the detail ajv keeps in params. */
export function formatValidationErrors(errors: readonly ErrorObject[]): string {
  const lines = errors.slice(0, 5).map((e) => {
    const where = describeLocation(e.instancePath);
    const params = e.params as Record<string, unknown>;
    if (e.keyword === "required" && params.missingProperty === "requestBody") {
      return "a JSON body is required";
    }
    let detail = "";
    if (e.keyword === "additionalProperties") detail = ` (${String(params.additionalProperty)})`;
    if (e.keyword === "enum")
      detail = ` (${(params.allowedValues as unknown[]).map(String).join(", ")})`;
    if (e.keyword === "const") detail = ` (${String(params.allowedValue)})`;
    return `${where} ${e.message ?? "is not valid"}${detail}`;
  });
  return `Invalid request: ${lines.join("; ")}`;
}

interface RequestInfo {
  operationId: string | null;
  fault: string | null;
  atMs: number;
}

const requestInfo = new WeakMap<FastifyRequest, RequestInfo>();

function pathOf(request: FastifyRequest): string {
  const url = request.raw.url ?? "/";
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
}

function send(reply: FastifyReply, status: number, body?: unknown): FastifyReply {
  if (status === 204 || body === undefined) return reply.code(status).send();
  return reply.code(status).type("application/json; charset=utf-8").send(JSON.stringify(body));
}

function bearerKey(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const match = /^Bearer\s+(.+)$/i.exec(value?.trim() ?? "");
  const key = match?.[1]?.trim();
  return key ? key : undefined;
}

export async function buildServer(deps: ServerDeps): Promise<FastifyInstance> {
  const { api, state, clock, faults, closing } = deps;
  const app = Fastify({ logger: false, forceCloseConnections: true, bodyLimit: 1024 * 1024 });

  // Bodies are parsed leniently (empty → undefined) and a broken JSON body becomes the
  // provider's 400 shape rather than fastify's own.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("*", { parseAs: "string" }, (_req, text, done) => {
    const raw = String(text);
    if (raw.trim() === "") return done(null, undefined);
    try {
      done(null, JSON.parse(raw));
    } catch {
      done(
        Object.assign(new Error("Request body is not valid JSON"), { statusCode: 400 }),
        undefined,
      );
    }
  });

  app.setErrorHandler((error: { statusCode?: number; message?: string }, request, reply) => {
    const status =
      error.statusCode && error.statusCode >= 400 && error.statusCode < 500
        ? error.statusCode
        : 500;
    if (status === 500) deps.logger?.error({ err: error, path: pathOf(request) }, "sandbox error");
    if (pathOf(request).startsWith(ADMIN_PREFIX))
      return send(reply, status, { error: error.message });
    return send(
      reply,
      status,
      status === 400
        ? { code: 400, message: error.message ?? "Bad request" }
        : envelope(status, "Internal error"),
    );
  });

  app.addHook("onRequest", async (request) => {
    requestInfo.set(request, { operationId: null, fault: null, atMs: clock.nowMs() });
  });

  app.addHook("onResponse", async (request, reply) => {
    const path = pathOf(request);
    if (path.startsWith(ADMIN_PREFIX)) return;
    const info = requestInfo.get(request);
    deps.logger?.debug(
      {
        method: request.method,
        path,
        status: reply.statusCode,
        operationId: info?.operationId,
        fault: info?.fault,
      },
      "provider request",
    );
    state.logRequest({
      method: request.method,
      path,
      operationId: info?.operationId ?? null,
      status: reply.statusCode,
      at: new Date(info?.atMs ?? clock.nowMs()).toISOString(),
      durationMs: Math.round(reply.elapsedTime),
      fault: info?.fault ?? null,
    });
  });

  registerAdminRoutes(app, deps);

  const context: OperationContext = {
    state,
    edgeQuote: deps.edgeQuote,
    edgeSyncPriceDelayMs: deps.edgeSyncPriceDelayMs,
    sleep: (ms) => sleep(ms, closing),
  };

  const notFoundBody = (method: string, path: string) =>
    envelope(404, `There is no method to handle ${method} ${path}`);

  app.all("/*", async (request, reply) => {
    const path = pathOf(request);
    const method = request.method.toUpperCase();
    if (path === ADMIN_PREFIX || path.startsWith(`${ADMIN_PREFIX}/`)) {
      return send(reply, 404, notFoundBody(method, path));
    }
    const info = requestInfo.get(request);
    try {
      const fault = faults.decide(method, path);
      if (fault) {
        if (info && fault.label) info.fault = fault.label;
        if (fault.latencyMs > 0) await sleep(fault.latencyMs, closing);
        if (fault.action.kind === "hang") {
          await new Promise<void>((resolve) => {
            if (closing.aborted) resolve();
            closing.addEventListener("abort", () => resolve(), { once: true });
          });
          throw new Error("sandbox closed");
        }
        if (fault.action.kind === "respond")
          return send(reply, fault.action.status, fault.action.body);
      }

      const query = (request.query ?? {}) as Record<string, string | string[]>;
      const headers = request.headers as Record<string, string | string[]>;
      const apiRequest = { method, path, headers, query, body: request.body as never };
      const operation = api.matchOperation(apiRequest);
      if (!operation?.operationId) return send(reply, 404, notFoundBody(method, path));
      if (info) info.operationId = operation.operationId;

      if (!bearerKey(request.headers.authorization)) {
        return send(reply, 401, envelope(401, "The user is not logged in"));
      }

      const validation = api.validateRequest(apiRequest, operation);
      if (!validation.valid) {
        const check = ruleChecks[operation.operationId];
        const rule = check && isObject(request.body) ? check(request.body) : undefined;
        return send(reply, 400, {
          code: 400,
          message: rule ?? formatValidationErrors(validation.errors ?? []),
        });
      }

      const handler = handlers[operation.operationId];
      if (!handler)
        return send(reply, 501, envelope(501, `${operation.operationId} is not implemented`));
      const parsed = api.router.parseRequest(apiRequest, operation);
      const coerced = (validation.coerced as { query?: Record<string, unknown> } | undefined)
        ?.query;
      const result = await handler(
        {
          operationId: operation.operationId,
          params: (parsed.params ?? {}) as Record<string, string>,
          query: { ...(parsed.query as Record<string, unknown>), ...(coerced ?? {}) },
          body: request.body,
        },
        context,
      );
      return send(reply, result.status, result.body);
    } catch (error) {
      if (error instanceof ApiError) return send(reply, error.status, error.body);
      if (closing.aborted) {
        // A hung or slow request when the sandbox closes: drop the connection, as a dead
        // upstream would.
        request.raw.socket.destroy();
        return reply;
      }
      throw error;
    }
  });

  return app;
}

function registerAdminRoutes(app: FastifyInstance, deps: ServerDeps): void {
  const { state, clock, faults } = deps;
  const adminError = (reply: FastifyReply, status: number, message: string) =>
    send(reply, status, { error: message });

  app.get(ADMIN_PREFIX, async (_req, reply) =>
    send(reply, 200, {
      now: clock.now().toISOString(),
      endpoints: [
        "GET /__sandbox/clock",
        "POST /__sandbox/clock/advance {ms | seconds | minutes | hours | days}",
        "GET /__sandbox/orders",
        "POST /__sandbox/orders/{orderId} {status?, loaStatus?}",
        "GET /__sandbox/connections",
        "POST /__sandbox/connections/{id} {status}",
        "GET|PUT|POST|DELETE /__sandbox/faults",
        "GET|DELETE /__sandbox/requests",
        "GET /__sandbox/enquiries",
      ],
    }),
  );

  app.get(`${ADMIN_PREFIX}/clock`, async (_req, reply) =>
    send(reply, 200, { now: clock.now().toISOString() }),
  );

  app.post(`${ADMIN_PREFIX}/clock/advance`, async (request, reply) => {
    const body = isObject(request.body) ? request.body : {};
    const units: Record<string, number> = {
      ms: 1,
      seconds: 1000,
      minutes: 60_000,
      hours: 3_600_000,
      days: 86_400_000,
    };
    let total = 0;
    for (const [key, factor] of Object.entries(units)) {
      const v = body[key];
      if (v === undefined) continue;
      if (typeof v !== "number" || !Number.isFinite(v) || v < 0) {
        return adminError(reply, 400, `${key} must be a non-negative number`);
      }
      total += v * factor;
    }
    if (total === 0 && Object.keys(units).every((k) => body[k] === undefined)) {
      return adminError(reply, 400, "give ms (or seconds, minutes, hours, days) to advance by");
    }
    clock.advance(total);
    return send(reply, 200, { now: clock.now().toISOString(), advancedMs: total });
  });

  app.get(`${ADMIN_PREFIX}/orders`, async (_req, reply) =>
    send(
      reply,
      200,
      [...state.orders.values()].map((o) => {
        const s = state.orderState(o);
        return {
          id: o.id,
          portName: o.portName,
          kind: o.kind,
          status: s.status,
          loaStatus: s.loaStatus,
          portId: s.done ? o.portId : null,
          frozen: o.override !== undefined,
        };
      }),
    ),
  );

  app.post<{ Params: { orderId: string } }>(
    `${ADMIN_PREFIX}/orders/:orderId`,
    async (request, reply) => {
      const body = isObject(request.body) ? request.body : {};
      const { status, loaStatus } = body;
      if (
        (status !== undefined && typeof status !== "string") ||
        (loaStatus !== undefined && typeof loaStatus !== "string")
      ) {
        return adminError(reply, 400, "status and loaStatus must be text");
      }
      if (status === undefined && loaStatus === undefined)
        return adminError(reply, 400, "give status and/or loaStatus");
      const change: { status?: string; loaStatus?: string } = {};
      if (status !== undefined) change.status = status;
      if (loaStatus !== undefined) change.loaStatus = loaStatus;
      const order = state.overrideOrder(request.params.orderId, change);
      if (!order) return adminError(reply, 404, `no port order ${request.params.orderId}`);
      return send(reply, 200, presentPortOrder(state, order, "read"));
    },
  );

  app.get(`${ADMIN_PREFIX}/connections`, async (_request, reply) =>
    send(
      reply,
      200,
      [...state.services.values()].map((s) => ({
        id: s.id,
        kind: s.kind,
        name: s.name,
        status: state.serviceStatus(s),
        awaitsOtherCompany: s.awaitsOtherCompany,
        createdAt: new Date(s.createdAtMs).toISOString(),
        frozen: s.override !== undefined,
      })),
    ),
  );

  app.post<{ Params: { id: string } }>(
    `${ADMIN_PREFIX}/connections/:id`,
    async (request, reply) => {
      const body = isObject(request.body) ? request.body : {};
      if (typeof body.status !== "string" || body.status === "")
        return adminError(reply, 400, "status (text) is required");
      const service = state.overrideService(request.params.id, body.status);
      if (!service)
        return adminError(reply, 404, `no connection or IO-D service ${request.params.id}`);
      return send(reply, 200, {
        id: service.id,
        kind: service.kind,
        status: state.serviceStatus(service),
      });
    },
  );

  const listFaults = () => faults.list().map((r) => ({ ...r, match: String(r.match) }));
  app.get(`${ADMIN_PREFIX}/faults`, async (_req, reply) => send(reply, 200, listFaults()));
  const setFaults = (replace: boolean) => async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      const rules = parseFaultRules(request.body);
      if (replace) faults.set(rules);
      else for (const r of rules) faults.add(r);
    } catch (error) {
      return adminError(reply, 400, (error as Error).message);
    }
    return send(reply, 200, listFaults());
  };
  app.put(`${ADMIN_PREFIX}/faults`, setFaults(true));
  app.post(`${ADMIN_PREFIX}/faults`, setFaults(false));
  app.delete(`${ADMIN_PREFIX}/faults`, async (_req, reply) => {
    faults.clear();
    return send(reply, 204);
  });

  app.get<{ Querystring: { summary?: string } }>(
    `${ADMIN_PREFIX}/requests`,
    async (request, reply) => {
      if (request.query.summary === undefined) {
        return send(reply, 200, { total: state.requestCount, entries: state.requestLog });
      }
      // Counts only, for benchmarks that make many calls.
      const byOperation: Record<string, number> = {};
      const byStatus: Record<string, number> = {};
      for (const e of state.requestLog) {
        const op = e.operationId ?? "(unrouted)";
        byOperation[op] = (byOperation[op] ?? 0) + 1;
        byStatus[e.status] = (byStatus[e.status] ?? 0) + 1;
      }
      return send(reply, 200, { total: state.requestCount, byOperation, byStatus });
    },
  );
  app.delete(`${ADMIN_PREFIX}/requests`, async (_req, reply) => {
    state.requestLog.length = 0;
    state.requestCount = 0;
    return send(reply, 204);
  });

  app.get(`${ADMIN_PREFIX}/enquiries`, async (_req, reply) => send(reply, 200, state.enquiries));
}
