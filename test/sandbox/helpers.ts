// Shared test plumbing: a started sandbox, a fetch wrapper, and response validation against
// the OpenAPI document.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type Document, OpenAPIBackend } from "openapi-backend";
import { parse } from "yaml";
import { SandboxClock, type SandboxOptions, startSandbox } from "../../src/sandbox/index.js";

export const API_KEY = "test-key-not-a-secret";
export const START = Date.UTC(2025, 0, 6, 9, 0, 0);

export function frozenClock(): SandboxClock {
  return new SandboxClock({ start: START, frozen: true });
}

export function openSandbox(options: SandboxOptions = {}) {
  return startSandbox({ clock: frozenClock(), edgeSyncPriceDelayMs: 50, ...options });
}

export interface Answer<T = unknown> {
  status: number;
  body: T;
  text: string;
}

export interface CallOptions {
  body?: unknown;
  /** Send no Authorization header (or this exact header value). */
  auth?: false | string;
  query?: Record<string, string>;
  signal?: AbortSignal;
}

// biome-ignore lint/suspicious/noExplicitAny: tests read response bodies loosely and assert on them.
export type Loose = any;

export async function call<T = Loose>(
  baseUrl: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer<T>> {
  const url = new URL(path, baseUrl);
  for (const [k, v] of Object.entries(options.query ?? {})) url.searchParams.set(k, v);
  const headers: Record<string, string> = {};
  if (options.auth === undefined) headers.authorization = `Bearer ${API_KEY}`;
  else if (options.auth !== false) headers.authorization = options.auth;
  if (options.body !== undefined) headers["content-type"] = "application/json";
  const init: RequestInit = { method, headers };
  if (options.body !== undefined) init.body = JSON.stringify(options.body);
  if (options.signal) init.signal = options.signal;
  const res = await fetch(url, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    // keep the raw text
  }
  return { status: res.status, body: body as T, text };
}

let contract: Promise<OpenAPIBackend> | undefined;

/** The OpenAPI document, loaded independently of the sandbox's own loader. */
export function providerContract(): Promise<OpenAPIBackend> {
  contract ??= (async () => {
    const path = fileURLToPath(new URL("../../openapi/provider.yaml", import.meta.url));
    const api = new OpenAPIBackend({
      definition: parse(readFileSync(path, "utf8")) as Document,
      quick: true,
      strict: false,
    });
    await api.init();
    return api;
  })();
  return contract;
}

/** Validation errors of a response against the document's schema for that status ([] = valid). */
export async function responseErrors(operationId: string, answer: Answer): Promise<string[]> {
  const api = await providerContract();
  const result = api.validateResponse(
    answer.status === 204 ? null : answer.body,
    operationId,
    answer.status,
  );
  return (result.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message ?? ""}`);
}

/** A valid Edge quotation request (Singapore needs a postCode). */
export const SINGAPORE_QUOTE = {
  country: { code: "SG", name: "Singapore" },
  bandwidth: "500",
  bandwidthUnit: "Mbps",
  "contract-term": "12",
  contractTermUnit: "month",
  "formatted-address": "2 Jurong East Street 21, Singapore 609601",
  postCode: "609601",
};

/** Polls `condition` every 10 ms until it holds; fails after `timeoutMs`. */
export async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 10));
  }
}
