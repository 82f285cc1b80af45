import type { ApprovalSettings } from "./approvals/index.js";
import type { Clock } from "./clock.js";
import type { Jobs } from "./jobs/index.js";
import type { Logger } from "./log.js";
import type { Metrics } from "./metrics.js";
import type { OrderLifecycle } from "./orders/lifecycle.js";
import type { OrderRequests } from "./orders/requests.js";
import type { ProviderApi } from "./provider/api.js";
import type { IdentityLookup } from "./provider/identity.js";
import type { HomePages } from "./usecases/home.js";

/**
 * The retired dependency bag (issue 29), kept only while its last importer exists:
 * src/slack/features/edge/callbacks.ts (being reworked elsewhere). Everything else takes the
 * parts it uses; delete this file with it. Do not import it anew.
 */
export interface Services {
  provider: ProviderApi;
  /** The provider identity, fetched once and cached (every company-scoped call needs it). */
  identity: IdentityLookup;
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
