import type { ApprovalPolicy, ApprovalStore, DirectoryReport } from "./approvals/index.js";
import type { OrderUpdates } from "./config.js";
import type { Jobs } from "./jobs/index.js";
import type { Logger } from "./log.js";
import type { Metrics } from "./metrics.js";
import type { OrderLifecycle } from "./orders/lifecycle.js";
import type { OrderRequests } from "./orders/requests.js";
import type { Tracker } from "./orders/tracking/tracker.js";
import type { ProviderApi } from "./provider/api.js";
import type { HomePages } from "./usecases/home.js";

/** Who the bot acts as at the provider (from GET /api/auth/token). */
export interface Identity {
  userId: string;
  companyId: string;
  companyUsername: string;
  companyName?: string;
}

/**
 * Everything the Slack layer and the use cases need, built once by the composition root.
 * Slack-free: use cases and jobs can use it too.
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
  /** Queues and workers: notifications, Edge quotes, drafts; and the lifecycle's tracker. */
  jobs: BackgroundJobs;
  /**
   * "Now" for the provider's timestamps ("created 3 days ago"): the sandbox's clock in sandbox
   * mode, which the playground moves forward, so an order placed a minute ago never reads
   * "created in 2 months". Times the bot records itself (tracking started, next check) are
   * measured on real time.
   */
  clock: Clock;
  /** The order lifecycle (src/orders): a person's steps on a request and what follows them. */
  orders: OrderLifecycle;
  /**
   * The lifecycle API (src/orders/requests.ts): submit, approve, reject, withdraw, retry, place
   * again, mark failed, look up again, stop tracking — every front door's one call per step.
   */
  requests: OrderRequests;
  /** App Home: the page of *My requests* each person is on (src/usecases/home.ts). */
  homePages?: HomePages;
  /** The ISO 4217 code amounts are labelled with (`PRICE_CURRENCY`; src/domain/money.ts). */
  currency: string;
}

/**
 * The background side as the other layers use it: src/jobs' queues and notifier, and the order
 * lifecycle's tracker (src/orders/tracking: what `/connect track` and App Home follow).
 */
export type BackgroundJobs = Jobs & { tracker: Tracker };

export interface Clock {
  now(): Date;
}

/** Real time: the provider's clock when it is a real provider. */
export const systemClock: Clock = { now: () => new Date() };

/**
 * The approval policy (APPROVALS_CHANNEL, APPROVERS or APPROVAL_POLICY, REQUESTERS) and the
 * durable record.
 */
export interface ApprovalSettings {
  store: ApprovalStore;
  channel?: string;
  /** Everyone who may approve something (with a policy file: every id its rules name). */
  approvers: string[];
  /** The spend-aware policy file's rules; absent: one approval from `approvers`. */
  policy?: ApprovalPolicy;
  requesters: string[];
  allowSelfApproval: boolean;
  /** Where a request's card goes: the requesting channel (default), the requester's DM, or nowhere. */
  orderUpdates?: OrderUpdates;
  /** SPEND_VIEWERS: who sees the money besides approvers and finance (src/approvals/moneyAccess.ts). */
  spendViewers?: string[];
  /** APPROVE_CONFIRM_FROM: Approve asks first from this monthly amount (src/domain/approveConfirm.ts). */
  approveConfirmFrom?: number;
  /**
   * The latest check of the users and groups the configuration names against Slack
   * (src/approvals/directoryCheck.ts): `/connect policy` shows its problems, warning and handles.
   */
  directory?: { latest(): DirectoryReport | undefined };
}

/**
 * One answer of `load` shared for `ttlMs` by every caller, including callers that ask while it
 * is still on its way; a failure is not kept, so the next caller asks again. The provider's
 * whoami is asked this way, by commands (10 minutes) and by /healthz (seconds), because each
 * ask spends the same provider rate limit as a person's command.
 */
export function sharedAnswer<T>(load: () => Promise<T>, ttlMs: number): () => Promise<T> {
  let cached: { value: Promise<T>; at: number } | undefined;
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
