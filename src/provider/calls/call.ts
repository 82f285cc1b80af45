// One call of one operation, read into what ProviderApi promises or into a ProviderError. Every
// ProviderApi method is one of these calls: the operation's method and path come from the
// operation table (src/provider/operations.ts), so a path is written once, and a result's shape
// is checked here in one way (a JSON object, an array, a `{results}` wrapper, an Edge list, or
// no body at all).
import type { FetchOptions, FetchResponse } from "openapi-fetch";
import { isRecord } from "../../domain/records.js";
import type { CallOptions, EdgePage } from "../api.js";
import type { ProviderClient } from "../client.js";
import { httpError, invalidResponseError } from "../errors.js";
import type { operations } from "../generated/provider.js";
import { OPERATIONS, type OperationId, providerCallFor } from "../operations.js";

type Init<K extends OperationId> = FetchOptions<operations[K]>;

/** What a call of operation K sends: its path and query parameters and its body, as typed. */
export type Input<K extends OperationId> = Pick<Init<K>, "params" | "body">;

/** What openapi-fetch answers: data on success, error otherwise, always the response. */
type Outcome<K extends OperationId> = FetchResponse<operations[K], Init<K>, `${string}/${string}`>;

/** The body of a successful call of operation K. */
export type DataOf<K extends OperationId> = NonNullable<Outcome<K>["data"]>;

type ResultsOf<K extends OperationId> = DataOf<K> extends { results: (infer T)[] } ? T[] : never;
type EdgeItemOf<K extends OperationId> =
  DataOf<K> extends (infer T)[] | { data?: (infer T)[] } ? T : never;

/**
 * Why a body that parsed is still not what the operation promises: a detail for the logs, or
 * with the words a person should read when the default ones would mislead.
 */
export type Complaint = string | { detail: string; userMessage: string };

export interface Caller {
  /** A JSON object, optionally checked further by `check` (undefined when it is fine). */
  object<K extends OperationId>(
    operation: K,
    input: Input<K>,
    opts?: CallOptions,
    check?: (body: DataOf<K>) => Complaint | undefined,
  ): Promise<DataOf<K>>;
  /** A JSON array. */
  array<K extends OperationId>(
    operation: K,
    input: Input<K>,
    opts?: CallOptions,
  ): Promise<DataOf<K>>;
  /** The array inside a `{results: [...]}` wrapper. */
  results<K extends OperationId>(
    operation: K,
    input: Input<K>,
    opts?: CallOptions,
  ): Promise<ResultsOf<K>>;
  /** An Edge list, whichever wrapper the provider used: a plain array or a page object. */
  edgePage<K extends OperationId>(
    operation: K,
    input: Input<K>,
    opts?: CallOptions,
  ): Promise<EdgePage<EdgeItemOf<K>>>;
  /** No body wanted (204): success is all. */
  nothing<K extends OperationId>(operation: K, input: Input<K>, opts?: CallOptions): Promise<void>;
}

interface Received {
  operation: OperationId;
  data: unknown;
  error: unknown;
  response: Response;
}

// The operation table's method and path are proved to lead to operation K (operations.ts), so
// the untyped call below is the typed one; openapi-fetch cannot see that through a generic K.
type UntypedRequest = (method: string, path: string, init: unknown) => Promise<Received>;

/**
 * Success is `response.ok`, not the absence of `error` (an empty error body gives
 * `error: undefined`). The client already throws for non-ok answers; this is the backstop.
 */
function ensureOk({ operation, error, response }: Received): void {
  if (response.ok) return;
  const body = typeof error === "string" || error === undefined ? error : JSON.stringify(error);
  throw httpError(providerCallFor(operation), response.status, body);
}

function unreadable({ operation, response }: Received, complaint: Complaint): never {
  const { detail, userMessage } =
    typeof complaint === "string" ? { detail: complaint, userMessage: undefined } : complaint;
  throw invalidResponseError(providerCallFor(operation), response.status, detail, userMessage);
}

function readObject(received: Received): Record<string, unknown> {
  ensureOk(received);
  if (!isRecord(received.data)) unreadable(received, "no JSON object in the body");
  return received.data;
}

function readEdgePage(received: Received): EdgePage<unknown> {
  ensureOk(received);
  const body = received.data;
  if (Array.isArray(body)) return { items: body };
  if (!isRecord(body)) return unreadable(received, "no Edge list in the body");
  const { data, page, size, total } = body;
  if (data !== undefined && !Array.isArray(data)) {
    return unreadable(received, "a `data` that is not an array");
  }
  return {
    items: data ?? [],
    ...(typeof page === "number" ? { page } : {}),
    ...(typeof size === "number" ? { size } : {}),
    ...(typeof total === "number" ? { total } : {}),
  };
}

export function createCaller(client: ProviderClient): Caller {
  const untyped = client as unknown as { request: UntypedRequest };

  async function send(
    operation: OperationId,
    input: object,
    opts: CallOptions | undefined,
  ): Promise<Received> {
    const { method, path } = OPERATIONS[operation];
    const init = { ...input, ...(opts?.signal ? { signal: opts.signal } : {}) };
    const { data, error, response } = await untyped.request(method, path, init);
    return { operation, data, error, response };
  }

  // The readers check the shape the document promises; the casts say that a checked body is the
  // operation's typed body.
  return {
    async object(operation, input, opts, check) {
      const received = await send(operation, input, opts);
      const body = readObject(received) as DataOf<typeof operation>;
      const complaint = check?.(body);
      if (complaint !== undefined) unreadable(received, complaint);
      return body;
    },
    async array(operation, input, opts) {
      const received = await send(operation, input, opts);
      ensureOk(received);
      if (!Array.isArray(received.data)) unreadable(received, "no JSON array in the body");
      return received.data as DataOf<typeof operation>;
    },
    async results(operation, input, opts) {
      const received = await send(operation, input, opts);
      const { results } = readObject(received);
      if (!Array.isArray(results)) unreadable(received, "no `results` array");
      return results as ResultsOf<typeof operation>;
    },
    async edgePage(operation, input, opts) {
      const page = readEdgePage(await send(operation, input, opts));
      return page as EdgePage<EdgeItemOf<typeof operation>>;
    },
    async nothing(operation, input, opts) {
      ensureOk(await send(operation, input, opts));
    },
  };
}
