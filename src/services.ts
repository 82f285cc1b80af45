import type { ApprovalStore } from "./approvals/index.js";
import type { Jobs } from "./jobs/index.js";
import type { Logger } from "./log.js";
import type { Metrics } from "./metrics.js";
import type { OrderLifecycle } from "./orders/lifecycle.js";
import type { ProviderApi } from "./provider/api.js";

/** Who the bot acts as at the provider (from GET /api/auth/token). */
export interface Identity {
  userId: string;
  companyId: string;
  companyUsername: string;
  companyName?: string;
}

/**
 * Everything the Slack layer and the flows need, built once by the composition root.
 * Slack-free: flows and jobs can use it too.
 */
export interface Services {
  provider: ProviderApi;
  /** The provider identity, fetched once and cached (every company-scoped call needs it). */
  identity(): Promise<Identity>;
  /** True when the provider is the sandbox: every message says so. */
  sandbox: boolean;
  logger: Logger;
  metrics: Metrics;
  approvals: ApprovalSettings;
  /** Queues and workers: notifications, order tracking, Edge quotes, placement. */
  jobs: Jobs;
  /**
   * "Now" for the provider's timestamps ("created 3 days ago"): the sandbox's clock in sandbox
   * mode, which the playground moves forward, so an order placed a minute ago never reads
   * "created in 2 months". Times the bot records itself (tracking started, next check) are
   * measured on real time.
   */
  clock: Clock;
  /** The order lifecycle (src/orders): a person's steps on a request and what follows them. */
  orders: OrderLifecycle;
  /** The ISO 4217 code amounts are labelled with (`PRICE_CURRENCY`; src/domain/money.ts). */
  currency: string;
}

export interface Clock {
  now(): Date;
}

/** Real time: the provider's clock when it is a real provider. */
export const systemClock: Clock = { now: () => new Date() };

/** The approval policy (APPROVALS_CHANNEL, APPROVERS, REQUESTERS) and the durable record. */
export interface ApprovalSettings {
  store: ApprovalStore;
  channel?: string;
  approvers: string[];
  requesters: string[];
  allowSelfApproval: boolean;
}

/** Caches whoami for `ttlMs`; a failed look-up is not cached, so the next command retries. */
export function cachedIdentity(
  load: () => Promise<Identity>,
  ttlMs = 10 * 60_000,
): () => Promise<Identity> {
  let cached: { value: Promise<Identity>; at: number } | undefined;
  return () => {
    const now = Date.now();
    if (!cached || now - cached.at > ttlMs) {
      const value = load();
      cached = { value, at: now };
      value.catch(() => {
        if (cached?.value === value) cached = undefined;
      });
    }
    return cached.value;
  };
}
