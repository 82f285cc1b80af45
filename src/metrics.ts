import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

/**
 * Prometheus metrics of one bot instance. A registry per instance (not prom-client's global
 * one) so several apps can live in one process, as they do in tests and benchmarks.
 */
export function createMetrics(options: { defaultMetrics?: boolean } = {}) {
  const registry = new Registry();
  if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: registry });

  return {
    registry,
    providerCalls: new Counter({
      name: "provider_requests_total",
      help: "Provider API requests by operation, HTTP method and outcome status (or 'network'/'timeout')",
      labelNames: ["operation", "method", "status"] as const,
      registers: [registry],
    }),
    providerLatency: new Histogram({
      name: "provider_request_duration_seconds",
      help: "Provider API request latency by operation",
      labelNames: ["operation"] as const,
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
      registers: [registry],
    }),
    commands: new Counter({
      name: "slack_commands_total",
      help: "/connect subcommands run, by subcommand and outcome (succeeded, failed, errored, blocked)",
      labelNames: ["command", "outcome"] as const,
      registers: [registry],
    }),
    commandLatency: new Histogram({
      name: "slack_command_duration_seconds",
      help: "Time to complete a /connect subcommand (after the ack), by subcommand",
      labelNames: ["command"] as const,
      buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10],
      registers: [registry],
    }),
    slackRequestsRefused: new Counter({
      name: "slack_requests_refused_total",
      help: "Requests to /slack/events refused before Bolt saw them, by reason (src/slack/requestGuard.ts)",
      labelNames: ["reason"] as const,
      registers: [registry],
    }),
    jobOutcomes: new Counter({
      name: "job_outcomes_total",
      help: "Background job outcomes by queue and outcome",
      labelNames: ["queue", "outcome"] as const,
      registers: [registry],
    }),
    redisFailovers: new Counter({
      name: "redis_failovers_total",
      help: "Times this process found the Redis master on another server after a reconnect (a Sentinel failover)",
      registers: [registry],
    }),
    queueDepth: new Gauge({
      name: "queue_jobs",
      help: "Jobs per queue and state (waiting, delayed, active, failed)",
      labelNames: ["queue", "state"] as const,
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
