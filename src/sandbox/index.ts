// The provider sandbox: a real HTTP server that behaves like the provider (docs/provider/provider-api.md),
// on the same OpenAPI document as the bot's client. See README.md beside this file.
import { setMaxListeners } from "node:events";
import type { Logger } from "../log.js";
import { type Clock, SandboxClock } from "./clock.js";
import { FaultInjector, type FaultRule } from "./faults.js";
import { loadProviderApi } from "./openapi.js";
import { buildServer } from "./server.js";
import { SandboxState } from "./state.js";

export { type Clock, SandboxClock, type SandboxClockOptions } from "./clock.js";
export { FaultInjector, type FaultRule, parseFaultRules, upstreamErrorBody } from "./faults.js";
export { BRAND } from "./seed.js";
export { ADMIN_PREFIX } from "./server.js";
export { SandboxState } from "./state.js";
export { LOA_STATUSES } from "./timeline.js";

export const DEFAULT_SEED = 42;

export interface SandboxOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Same seed, same data and the same sequence of ids and fault draws. Default 42. */
  seed?: number;
  /**
   * Salts the ids of created orders and services (the seeded world stays the same): give each
   * run its own (the bot gives a random one) so that no id of an earlier run comes back. Without
   * it the same seed gives the same ids for the same calls.
   */
  run?: string;
  /** Default: a SandboxClock following real time plus what advance() added. */
  clock?: Clock;
  /** Initial fault rules. */
  faults?: FaultRule[];
  /**
   * An async Edge quotation is ready after this many "not ready" polls, or once this much
   * sandbox time has passed, whichever comes first. Defaults 2 polls, 15 s.
   */
  edgeQuote?: { readyAfterPolls?: number; readyAfterMs?: number };
  /** The deprecated synchronous Edge price call answers after this long (real ms). Default 20 s. */
  edgeSyncPriceDelayMs?: number;
  logger?: Logger;
  /** Default: openapi/provider.yaml of this repository. */
  openapiPath?: string;
}

export interface Sandbox {
  url: string;
  port: number;
  clock: Clock;
  state: SandboxState;
  faults: FaultInjector;
  apiUser: { userId: string; companyId: string; companyUsername: string; username: string };
  /** Stops the server; hung and slow requests are ended (their connections are dropped). */
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const seed = options.seed ?? DEFAULT_SEED;
  const clock = options.clock ?? new SandboxClock();
  const api = await loadProviderApi(options.openapiPath);
  const state = new SandboxState(seed, clock, options.run);
  const faults = new FaultInjector(seed, options.faults ?? []);
  const closing = new AbortController();
  // Every hung or slow request listens for the close: many at once are expected, not a leak.
  setMaxListeners(0, closing.signal);
  const app = await buildServer({
    api,
    state,
    clock,
    faults,
    ...(options.logger ? { logger: options.logger } : {}),
    edgeQuote: {
      readyAfterPolls: options.edgeQuote?.readyAfterPolls ?? 2,
      readyAfterMs: options.edgeQuote?.readyAfterMs ?? 15_000,
    },
    edgeSyncPriceDelayMs: options.edgeSyncPriceDelayMs ?? 20_000,
    closing: closing.signal,
  });
  const host = options.host ?? "127.0.0.1";
  await app.listen({ port: options.port ?? 0, host });
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : (options.port ?? 0);
  const urlHost = host.includes(":") ? `[${host}]` : host;
  let closed: Promise<void> | undefined;
  const user = state.world.apiUser;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    clock,
    state,
    faults,
    apiUser: {
      userId: user.userId,
      companyId: user.companyId,
      companyUsername: user.companyUsername,
      username: user.username,
    },
    close() {
      closed ??= (async () => {
        closing.abort();
        await app.close();
      })();
      return closed;
    },
  };
}
