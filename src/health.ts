import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { Redis } from "ioredis";
import { within } from "./domain/deadline.js";
import type { Metrics } from "./metrics.js";
import type { ProviderApi } from "./provider/api.js";
import { sharedAnswer } from "./provider/identity.js";
import { type RedisHealth, readRedisHealth } from "./redis/health.js";
import type { RedisMode } from "./redis/topology.js";

/**
 * The operational side of every process: /healthz (Redis and the provider, asked now) and
 * /metrics. The bot serves them next to /slack/events (src/slack/app.ts); a worker, which has no
 * Slack endpoint, serves them alone (`serveOperationalRoutes`). src/bot.ts builds the check.
 */

export interface HealthReport {
  ok: boolean;
  checks: Record<string, { ok: boolean; detail?: string }>;
  /** Redis's topology: mode, current master, replicas and their lag (src/redis/health.ts). */
  redis?: RedisHealth;
}

export type HealthCheck = () => Promise<HealthReport>;

/** A GET route of plain Node HTTP; Bolt serves it as a custom route. */
export interface OperationalRoute {
  path: string;
  method: string[];
  handler: (req: IncomingMessage, res: ServerResponse) => void;
}

/**
 * /healthz asks the provider at most this often, however often it is hit (a load balancer, a
 * liveness probe per replica): each ask spends the provider rate limit people's commands need.
 */
export const PROVIDER_HEALTH_TTL_MS = 15_000;

/** A check's wait: past `ms` it fails with words /healthz shows. */
function answerWithin<T>(work: Promise<T>, ms: number): Promise<T> {
  return within(work, ms, (): never => {
    throw new Error(`no answer within ${ms} ms`);
  });
}

/** /healthz's report: Redis asked every time, the provider's answer shared for a while. */
export function healthCheck(
  redis: Redis,
  mode: RedisMode,
  provider: Pick<ProviderApi, "whoami">,
): HealthCheck {
  const providerAnswer = sharedAnswer(
    () => answerWithin(provider.whoami(), 5_000),
    PROVIDER_HEALTH_TTL_MS,
  );
  return async () => {
    const [redisCheck, providerCheck, topology] = await Promise.allSettled([
      answerWithin(redis.ping(), 2_000),
      providerAnswer(),
      answerWithin(readRedisHealth(redis, mode), 2_000),
    ]);
    const checks: HealthReport["checks"] = {
      redis:
        redisCheck.status === "fulfilled"
          ? { ok: true }
          : { ok: false, detail: (redisCheck.reason as Error).message },
      provider:
        providerCheck.status === "fulfilled"
          ? { ok: true }
          : { ok: false, detail: (providerCheck.reason as Error).message },
    };
    return {
      ok: Object.values(checks).every((c) => c.ok),
      checks,
      redis: topology.status === "fulfilled" ? topology.value : { mode },
    };
  };
}

/** /healthz and /metrics. */
export function operationalRoutes(options: {
  health: HealthCheck;
  metrics: Metrics;
}): OperationalRoute[] {
  return [
    {
      path: "/healthz",
      method: ["GET"],
      handler: (_req, res) => {
        options
          .health()
          .then((report) => {
            res.writeHead(report.ok ? 200 : 503, { "content-type": "application/json" });
            res.end(JSON.stringify(report));
          })
          .catch((error: unknown) => {
            res.writeHead(503, { "content-type": "application/json" });
            res.end(JSON.stringify({ ok: false, error: (error as Error).message }));
          });
      },
    },
    {
      path: "/metrics",
      method: ["GET"],
      handler: (_req, res) => {
        options.metrics.registry
          .metrics()
          .then((text) => {
            res.writeHead(200, { "content-type": options.metrics.registry.contentType });
            res.end(text);
          })
          .catch(() => {
            res.writeHead(500);
            res.end();
          });
      },
    },
  ];
}

/** A worker has no Slack endpoint but answers /healthz and /metrics like the bot. */
export async function serveOperationalRoutes(
  port: number,
  health: HealthCheck,
  metrics: Metrics,
): Promise<Server> {
  const routes = operationalRoutes({ health, metrics });
  const server = createServer((req, res) => {
    const route = routes.find(
      (r) => r.path === new URL(req.url ?? "/", "http://x").pathname && req.method === "GET",
    );
    if (route) route.handler(req, res);
    else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, () => resolve());
  });
  return server;
}
