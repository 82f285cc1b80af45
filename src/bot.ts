import { randomBytes, randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { WebClient } from "@slack/web-api";
import type { Redis } from "ioredis";
import { ApprovalStore, type DirectoryStatus, policyApprovers } from "./approvals/index.js";
import {
  approvalMessagesReconciler,
  edgeJobParts,
  lifecycleJobBuilders,
  notifierDrainParts,
} from "./backgroundWiring.js";
import { systemClock } from "./clock.js";
import { type Config, configuredSecrets } from "./config.js";
import { watchDirectory } from "./directoryWatch.js";
import { healthCheck, serveOperationalRoutes } from "./health.js";
import { type StartJobsOptions, startJobs } from "./jobs/index.js";
import { createLogger, type Logger } from "./log.js";
import { createMetrics, type Metrics } from "./metrics.js";
import { appHomePublisher, redisHomePages } from "./orders/appHome.js";
import type { ApprovalMessagesOptions } from "./orders/approvalMessages.js";
import {
  type BackgroundJobs,
  OrderLifecycle,
  OrderRequests,
  requestMessageRenderer,
  requestReadsOf,
} from "./orders/index.js";
import type { PlacementSettings } from "./orders/placement/index.js";
import { StepCompletions } from "./orders/stepCompletions.js";
import { type TrackerSettings, trackedReader } from "./orders/tracking/index.js";
// Playground mode: the web page standing in for Slack's client (src/playground/).
import {
  createPlayground,
  PLAYGROUND_REDIS_PREFIX,
  type Playground,
  startPlaygroundAfresh,
} from "./playground/index.js";
import { createProvider } from "./provider/api.js";
import { sharedAnswer } from "./provider/identity.js";
import {
  createProviderRateLimiter,
  DEFAULT_PROVIDER_REQUESTS_PER_SECOND,
  type ProviderRateLimiterOptions,
} from "./provider/rateLimit.js";
import { redisWarnings } from "./redis/check.js";
import { watchMaster } from "./redis/health.js";
import { keyLayout } from "./redis/layout/keyLayout.js";
import { migrateLayout } from "./redis/layout/migrate.js";
import { type RedisTopology, redisTopology } from "./redis/topology.js";
import { type Sandbox, type SandboxOptions, startSandbox } from "./sandbox/index.js";
import { type SlackConnection, startSlackApp } from "./slack/app.js";
import { FollowUpLane } from "./slack/followUps.js";
import { type ListenerDeps, registerListeners } from "./slack/listeners.js";
import { groupMembersVia } from "./slackDirectory.js";
import { type SlackStandin, STANDIN_IDS } from "./standin/index.js";
import {
  reconcileEvery,
  STEP_RECONCILE_MS,
  slackDisplayName,
  slackGroupHandle,
  stepNamesOf,
} from "./stepWiring.js";
import { trackingReader } from "./usecases/trackingReads.js";
import {
  type MaintenanceReport,
  maintenanceOf,
  splitWorkerOptions,
  startWorkers,
  type WorkerOptions,
  type WorkerParts,
} from "./workers/index.js";

export interface BotOptions {
  config: Config;
  logger?: Logger;
  metrics?: Metrics;
  /** Options of the embedded sandbox (used when no PROVIDER_BASE_URL is configured). */
  sandbox?: SandboxOptions;
  /** Redis key prefix for the bot's state and queues; tests use a unique one. Default "connect". */
  redisPrefix?: string;
  /**
   * "bot" (default): the Slack app, with the workers in-process unless config.workers is false.
   * "worker": only the background workers (`npm run worker`), with /healthz and /metrics.
   */
  role?: "bot" | "worker";
  /**
   * Tuning of the jobs, their workers and the lifecycle's placement job and tracker (tests
   * shorten them).
   */
  jobs?: Partial<StartJobsOptions> & WorkerOptions & PartSettings;
  /** The provider's request rate shared by all replicas; false for none. Default 10/s. */
  providerRateLimit?:
    | Pick<ProviderRateLimiterOptions, "requestsPerSecond" | "marginMs" | "maxWaitMs">
    | false;
}

type PartSettings = {
  placementSettings?: PlacementSettings;
  trackerSettings?: TrackerSettings;
  /** How old a pending request without an approval message must be to be posted (3 min). */
  approvalMessageSettings?: Pick<ApprovalMessagesOptions, "graceMs">;
};

export interface RunningBot {
  /** The HTTP port: /slack/events, /healthz, /metrics. */
  port: number;
  url: string;
  /** The parts built here, as the listeners take them (tests read the store, the identity, …). */
  services: ListenerDeps;
  sandbox?: Sandbox;
  jobs: BackgroundJobs & { runMaintenance(): Promise<MaintenanceReport> };
  /** In playground mode: the local stand-in for Slack the bot talks to. */
  standin?: SlackStandin;
  /** In playground mode: the web page standing in for Slack's client (`<url>/playground`). */
  playgroundUrl?: string;
  stop(): Promise<void>;
}

const SANDBOX_API_KEY = "sandbox-key";

/**
 * The composition root: builds every part from the configuration and wires them together.
 * Nothing else constructs clients or connections.
 */
export async function startBot(options: BotOptions): Promise<RunningBot> {
  const { config } = options;
  const role = options.role ?? "bot";
  if (
    role === "worker" &&
    (config.slack.mode === "playground" || config.provider.kind === "sandbox")
  ) {
    // The local mode's Slack stand-in and sandbox live inside the bot process: a separate
    // worker could not see them.
    throw new Error(
      "npm run worker needs SLACK_BOT_TOKEN and PROVIDER_BASE_URL; in local mode the workers run inside npm start.",
    );
  }
  const secrets = configuredSecrets(config);
  const logger = options.logger ?? createLogger({ level: config.logLevel, secrets });
  const metrics = options.metrics ?? createMetrics();
  const stops: Array<() => Promise<unknown>> = [];
  const stop = async () => {
    for (const step of stops.reverse()) {
      await step().catch((error: unknown) => logger.warn({ err: error }, "shutdown step failed"));
    }
  };

  try {
    let sandbox: Sandbox | undefined;
    let provider: { baseUrl: string; apiKey: string };
    if (config.provider.kind === "sandbox") {
      sandbox = await startSandbox({
        port: 0,
        // Every start is a fresh sandbox: its new orders must not take ids an earlier run gave
        // out (Redis may still hold them: approvals, trackers, a deployment's `connect:` keys).
        run: randomUUID(),
        logger: logger.child({ component: "sandbox" }),
        ...options.sandbox,
      });
      stops.push(() => sandbox!.close());
      provider = { baseUrl: sandbox.url, apiKey: SANDBOX_API_KEY };
      logger.info({ url: sandbox.url }, "embedded provider sandbox started");
    } else {
      provider = { baseUrl: config.provider.baseUrl, apiKey: config.provider.apiKey };
    }
    // Every connection comes from the one topology (single, Sentinel, cluster): each follows a
    // failover by itself. This one serves the request path (store, replay guard, health): no
    // offline queue, so while Redis is down a command fails at once ("temporarily unavailable")
    // instead of running minutes later (src/redis/topology.ts, test/faults/redis.test.ts).
    const topology = redisTopology(config.redis);
    const redis = topology.connect("requests", "connect:requests");
    redis.on("error", (error) => logger.warn({ err: error }, "redis connection error"));
    stops.push(async () => redis.quit().catch(() => redis.disconnect()));
    await redis.connect().catch((error: Error) => {
      redis.disconnect();
      throw new Error(`Redis is not reachable at ${topology.describe()} (${error.message})`);
    });
    logger.info({ redisMode: topology.mode, redis: topology.describe() }, "redis connected");
    for (const warning of await redisWarnings(redis)) logger.warn(warning);

    // The local playground's keys belong to one run of its fresh sandbox: own prefix, cleared.
    const playgroundRun = config.slack.mode === "playground" && config.provider.kind === "sandbox";
    const prefix = options.redisPrefix ?? (playgroundRun ? PLAYGROUND_REDIS_PREFIX : "connect");
    if (playgroundRun) await startPlaygroundAfresh(redis, prefix, logger);
    // Before any part reads or writes: an older layout is moved to the current one (once, by
    // one replica; the others wait for it). See src/redis/layout/README.md.
    const migration = await migrateLayout(redis, prefix, { logger });
    if (migration.ran.length > 0) logger.info(migration, "key layout migrated");
    const layout = keyLayout(prefix);
    // The provider's rate limit, shared by every replica in Redis, is built before the client
    // that calls it before each request; its own connection queues a command through a failover
    // (the limiter waits out up to 10 s of it), which the request path's connection would refuse.
    const rateLimit = options.providerRateLimit ?? {
      requestsPerSecond: DEFAULT_PROVIDER_REQUESTS_PER_SECOND,
    };
    const limiter = rateLimit
      ? createProviderRateLimiter({
          redis: limiterConnection(topology, logger, stops),
          prefix: layout.jobs,
          ...rateLimit,
        })
      : undefined;
    const api = createProvider({
      ...provider,
      secrets,
      logger,
      metrics,
      beforeRequest: limiter?.beforeRequest,
    });
    const identity = sharedAnswer(() => api.whoami(), IDENTITY_TTL_MS);
    const approvalStore = new ApprovalStore({ redis, prefix: layout.approvals });

    let standin: SlackStandin | undefined;
    let playground: Playground | undefined;
    let slack: SlackConnection;
    if (config.slack.mode === "playground") {
      const signingSecret = randomBytes(16).toString("hex");
      // The playground page and its JSON API are served by the stand-in, on PORT+1.
      // The sandbox's clock lets the page move time forward ("Advance sandbox time"); there is
      // none with a real provider, so the page has no such control then.
      playground = createPlayground({
        sandbox: config.provider.kind === "sandbox",
        sandboxClock: sandbox?.clock,
        sandboxUrl: sandbox?.url,
        logger,
      });
      standin = await playground.startStandin({
        botPort: config.port,
        logger: logger.child({ component: "standin" }),
      });
      stops.push(() => standin!.close());
      slack = { mode: "http", botToken: standin.botToken, signingSecret, apiUrl: standin.apiUrl };
    } else {
      slack = config.slack;
    }

    // Background posts go through the notifier's queue: 429s go back to the queue, not into
    // the client's own retry loop.
    const backgroundSlack = new WebClient(slack.botToken, {
      slackApiUrl: slack.apiUrl,
      rejectRateLimitedCalls: true,
      retryConfig: { retries: 0 },
      timeout: 10_000,
    });
    const approvalSettings = approvalPolicy(config, standin !== undefined);
    // Every user and group the configuration names must exist in Slack: a missing one stops
    // start-up; later checks log it and /connect policy says it (src/directoryWatch.ts).
    let directory: DirectoryStatus | undefined;
    if (role === "bot") {
      const watch = await watchDirectory(approvalSettings, backgroundSlack, logger);
      directory = watch.directory;
      stops.push(watch.stop);
    }
    const approvals = {
      store: approvalStore,
      ...approvalSettings,
      orderUpdates: config.orderUpdates,
      ...(directory ? { directory } : {}),
    };
    // A user group's members, read from Slack (APPROVERS, policy rules name groups).
    const groupMembers = groupMembersVia(backgroundSlack);
    const sandboxed = config.provider.kind === "sandbox";
    const homePages = redisHomePages(redis, layout.home);
    // What every surface shows of a request, read from the store and the lifecycle's keys.
    const { reads } = requestReadsOf({ store: approvalStore, redis, prefix: layout.orders });
    // A person's App Home, read from the state when the notifier sends a refresh (and when the
    // tab is opened): built from the store, the read model and the tracker's records.
    const appHome = appHomePublisher({
      store: approvalStore,
      read: (records) => reads.many(records),
      tracked: trackedReader(redis, layout.jobs),
      settings: approvals,
      groupMembers,
      pages: homePages,
      sandbox: sandboxed,
      currency: config.currency,
      publish: (userId, view) => backgroundSlack.views.publish({ user_id: userId, view }),
    });
    const { placementSettings, trackerSettings, approvalMessageSettings, ...rest } =
      options.jobs ?? {};
    const [workerOptions, jobOptions] = splitWorkerOptions(rest);
    // Built in dependency order: the jobs (queues, the notifier's outbox: producers only), the
    // order lifecycle on them (which builds its placement job and tracker on their queues), the
    // lifecycle API and the approval messages; then, where workers run, the workers that run
    // them (src/workers: a BullMQ worker is a front door, like a Slack listener); the Slack app.
    const providerClock = sandbox?.clock ?? systemClock;
    const edge = edgeJobParts({ provider: api, logger, sandbox: sandboxed, providerClock, config });
    const machinery = await startJobs({
      topology,
      prefix: layout.jobs,
      logger: logger.child({ component: "jobs" }),
      metrics,
      ...edge.jobOptions,
      ...jobOptions,
    });
    stops.push(() => machinery.close(JOBS_CLOSE_MS));
    // The order lifecycle owns placing, looking up, tracking and telling the thread.
    const orders = new OrderLifecycle({
      store: approvalStore,
      provider: api,
      companyUsername: async () => (await identity()).companyUsername,
      redis,
      prefix: layout.orders,
      approveConfirmFrom: config.approvals.approveConfirmFrom,
      // Each change refreshes the App Home of the people who see it, through the notifier.
      homes: { approvers: approvalSettings.approvers, groupMembers, logger },
      notifier: machinery.notifier,
      ...lifecycleJobBuilders(machinery, {
        store: approvalStore,
        readTarget: trackingReader(api),
        partnerReminderAfterDays: config.partnerReminderAfterDays,
        now: jobOptions.now,
        placementSettings,
        trackerSettings,
      }),
    });
    // The lifecycle API: every step on a request the Slack layer asks for.
    const requests = new OrderRequests({
      store: approvalStore,
      lifecycle: orders,
      settings: approvals,
      currency: config.currency,
      sandbox: sandboxed,
      tracker: orders.tracker,
      logger,
    });
    // Requests a crash left without their approval message or card get it on the maintenance
    // schedule, once; one placed meanwhile is tracked in that message's thread.
    const approvalMessages = approvalMessagesReconciler({
      store: approvalStore,
      reads,
      notifier: machinery.notifier,
      orders,
      channel: approvalSettings.channel,
      orderUpdates: config.orderUpdates,
      approveConfirmFrom: config.approvals.approveConfirmFrom,
      logger,
      ...approvalMessageSettings,
    });
    // What the workers run: the drain, the lifecycle's jobs, approval messages, Edge's polls.
    const parts: WorkerParts = {
      notify: notifierDrainParts(backgroundSlack, {
        sandbox: sandboxed,
        home: appHome,
        render: requestMessageRenderer(reads, config.approvals.approveConfirmFrom),
      }),
      tracker: orders.tracker,
      placement: orders.placement,
      approvalMessages,
      ...edge.callbacks,
    };
    const workersHere = role === "worker" || config.workers;
    const workers = workersHere ? await startWorkers(machinery, parts, workerOptions) : undefined;
    // Closed before the jobs' queues and connections they run on (stops run in reverse).
    if (workers) stops.push(() => workers.close(WORKERS_CLOSE_MS));
    // What the other layers use of the background side: the queues, the lifecycle's tracker; the
    // reconcilers, which a process without workers may still run by hand.
    const jobs = {
      ...machinery,
      tracker: orders.tracker,
      runMaintenance: workers?.runMaintenance ?? maintenanceOf(machinery, parts),
    };
    // A failover: counted, logged, and where workers run the reconcilers catch up at once on
    // what the old master took with it (a placement job, a tracker) rather than in 5 minutes.
    const stopWatching = watchMaster(redis, (from, to) => {
      metrics.redisFailovers.inc();
      logger.warn({ from, to }, "redis: the master moved (failover)");
      if (workersHere) {
        jobs
          .runMaintenance()
          .catch((error: unknown) =>
            logger.warn({ err: error }, "redis: catch-up after the failover failed"),
          );
      }
    });
    stops.push(async () => stopWatching());
    const services: ListenerDeps = {
      provider: api,
      identity,
      sandbox: sandboxed,
      clock: sandbox?.clock ?? systemClock,
      logger,
      metrics,
      approvals,
      jobs,
      orders,
      requests,
      homePages,
      currency: config.currency,
    };
    const health = healthCheck(redis, topology.mode, api);
    // Workflow Builder steps: a request's end ends the step that asked for it (exactly once).
    const stepCompletions = new StepCompletions({
      redis,
      prefix: `${layout.orders}:steps`,
      notifier: jobs.notifier,
      get: (id) => approvalStore.get(id),
      names: stepNamesOf(slackDisplayName(backgroundSlack), slackGroupHandle(backgroundSlack)),
      logger,
    });
    orders.onChange((record) => stepCompletions.onChange(record));
    // Also on each reconnection to Redis: an end missed in an outage is made once it is back.
    stops.push(reconcileEvery(STEP_RECONCILE_MS, () => stepCompletions.reconcile(), logger, redis));

    if (role === "worker") {
      const server = await serveOperationalRoutes(config.port, health, metrics);
      stops.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
      const port = (server.address() as AddressInfo).port;
      logger.info({ port }, "workers ready");
      return { port, url: `http://127.0.0.1:${port}`, services, sandbox, jobs, standin, stop };
    }

    // Drained after the app has stopped taking requests (stops run in reverse): every request
    // that was acked gets its answer.
    const followUps = new FollowUpLane();
    stops.push(() => followUps.drain(10_000));
    const running = await startSlackApp({
      slack,
      port: config.port,
      logger,
      metrics,
      health,
      register: (app, client) =>
        registerListeners(app, services, client, followUps, stepCompletions),
      extraRoutes: playground?.botRoutes(),
      // Replays are refused across replicas: accepted signatures are kept in Redis.
      requestGuard: {
        redis: {
          client: redis,
          keyPrefix: layout.replay,
          // What the other replicas accept arrives on a subscriber that waits through outages.
          feed: topology.connect("workers", "connect:replay-feed"),
        },
        maxBodyBytes: config.slackMaxBodyBytes,
      },
    });
    stops.push(() => running.stop());
    const url = `http://127.0.0.1:${running.port}`;
    if (standin && slack.mode === "http") {
      const driver = standin.connectApp({
        url: `${url}/slack/events`,
        signingSecret: slack.signingSecret,
      });
      // The tracker: after the page moves sandbox time, open orders are read at once.
      playground?.connect(driver, { tracker: orders.tracker, draftReminders: jobs.draftReminders });
    }
    logger.info(
      { port: running.port, slackMode: config.slack.mode, sandbox: services.sandbox },
      "bot ready",
    );
    const playgroundUrl = playground ? `${url}/playground` : undefined;
    return { port: running.port, url, services, sandbox, jobs, standin, playgroundUrl, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The rate limiter's own Redis connection, closed on stop. */
function limiterConnection(
  topology: RedisTopology,
  logger: Logger,
  stops: Array<() => Promise<unknown>>,
): Redis {
  const redis = topology.connect("commands", "connect:ratelimit");
  redis.on("error", (error) => logger.warn({ err: error }, "redis connection error"));
  stops.push(async () => redis.quit().catch(() => redis.disconnect()));
  return redis;
}

/** Shutdown, about 10 s: the workers let active jobs finish (7 s of 8), then the queues close. */
const WORKERS_CLOSE_MS = 8_000;
const JOBS_CLOSE_MS = 2_000;

/** Who the bot acts as at the provider changes only when its key does: asked every 10 minutes. */
const IDENTITY_TTL_MS = 10 * 60_000;
/**
 * In local mode the Slack stand-in's workspace has an approvals channel and approvers, so
 * ordering works out of the box; configured values always win.
 */
function approvalPolicy(config: Config, local: boolean): Config["approvals"] {
  const { policy } = config.approvals;
  // The policy file names who approves: everyone its rules name may approve something.
  if (policy)
    return {
      ...config.approvals,
      approvers: policyApprovers(policy),
      ...(local ? { channel: config.approvals.channel ?? STANDIN_IDS.approvals } : {}),
    };
  if (!local) return config.approvals;
  return {
    ...config.approvals,
    channel: config.approvals.channel ?? STANDIN_IDS.approvals,
    approvers:
      config.approvals.approvers.length > 0
        ? config.approvals.approvers
        : [STANDIN_IDS.approver, "S0APPROVERS"],
  };
}
