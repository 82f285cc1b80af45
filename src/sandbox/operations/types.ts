import type { SandboxState } from "../state.js";

export interface OperationRequest {
  operationId: string;
  params: Readonly<Record<string, string>>;
  query: Readonly<Record<string, unknown>>;
  body: unknown;
}

export interface OperationResponse {
  status: number;
  body?: unknown;
}

export interface OperationContext {
  state: SandboxState;
  edgeQuote: { readyAfterPolls: number; readyAfterMs: number };
  edgeSyncPriceDelayMs: number;
  /** Waits real time; rejects when the sandbox closes, so a slow answer never outlives it. */
  sleep(ms: number): Promise<void>;
}

export type OperationHandler = (
  request: OperationRequest,
  context: OperationContext,
) => OperationResponse | Promise<OperationResponse>;

/** An error answer: thrown by handlers, turned into a response by the server. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(typeof body === "object" && body !== null ? JSON.stringify(body) : String(body));
  }
}

/** The provider's validation shape: {"code": 400, "message"} (docs/provider/provider-notes.md). */
export function badRequest(message: string): ApiError {
  return new ApiError(400, { code: 400, message });
}

/** The provider's envelope shape: {"error": {"message", "status", "statusCode"}}. */
export function envelope(
  status: number,
  message: string,
): { error: { message: string; status: number; statusCode: number } } {
  return { error: { message, status, statusCode: status } };
}

export function notFound(message: string): ApiError {
  return new ApiError(404, envelope(404, message));
}

export function forbidden(message: string): ApiError {
  return new ApiError(403, envelope(403, message));
}

export const ok = (body: unknown): OperationResponse => ({ status: 200, body });
export const noContent = (): OperationResponse => ({ status: 204 });

/** Parses a JSON text query parameter (`filter`, `criteria`); 400 naming the parameter when bad. */
export function jsonQuery(
  query: Readonly<Record<string, unknown>>,
  name: string,
): Record<string, unknown> | undefined {
  const raw = query[name];
  if (raw === undefined || raw === "") return undefined;
  if (typeof raw !== "string") throw badRequest(`${name} must be JSON object text`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw badRequest(`${name} is not valid JSON`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw badRequest(`${name} must be a JSON object`);
  }
  return parsed as Record<string, unknown>;
}

/** A non-negative integer query value, or undefined when absent; 400 naming it when bad. */
export function intQuery(
  query: Readonly<Record<string, unknown>>,
  name: string,
  min = 0,
): number | undefined {
  const raw = query[name];
  if (raw === undefined || raw === "") return undefined;
  const n = typeof raw === "number" ? raw : Number(raw);
  if (!Number.isInteger(n) || n < min)
    throw badRequest(`${name} must be a whole number of at least ${min}`);
  return n;
}

/** Reads a dotted field ("dataCenterFacility.metroId") of a record. */
export function dotted(record: unknown, path: string): unknown {
  let value: unknown = record;
  for (const key of path.split(".")) {
    if (typeof value !== "object" || value === null) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/**
 * LoopBack-style `where` with equality only (operators are not shown by the spec): a primitive
 * matches an equal value, or an array field containing it.
 */
export function matchesWhere(record: unknown, where: Record<string, unknown>): boolean {
  return Object.entries(where).every(([path, expected]) => {
    if (typeof expected === "object" && expected !== null) {
      throw badRequest(`filter.where.${path}: only equality on plain values is supported`);
    }
    const actual = dotted(record, path);
    if (Array.isArray(actual)) return actual.includes(expected);
    return actual === expected;
  });
}

/** Applies {where, skip, limit} of a LoopBack-style filter. */
export function applyFilter<T>(
  records: readonly T[],
  filter: Record<string, unknown> | undefined,
): T[] {
  if (!filter) return [...records];
  const { where, skip, limit, ...rest } = filter;
  const unknown = Object.keys(rest);
  if (unknown.length > 0)
    throw badRequest(`filter: ${unknown.join(", ")} not supported (use where, skip, limit)`);
  if (
    where !== undefined &&
    (typeof where !== "object" || where === null || Array.isArray(where))
  ) {
    throw badRequest("filter.where must be an object");
  }
  const checkCount = (v: unknown, name: string) => {
    if (v === undefined) return undefined;
    if (typeof v !== "number" || !Number.isInteger(v) || v < 0) {
      throw badRequest(`filter.${name} must be a whole number of at least 0`);
    }
    return v;
  };
  const from = checkCount(skip, "skip") ?? 0;
  const count = checkCount(limit, "limit");
  const matched = where
    ? records.filter((r) => matchesWhere(r, where as Record<string, unknown>))
    : [...records];
  return matched.slice(from, count === undefined ? undefined : from + count);
}
